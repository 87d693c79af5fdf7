# demangle.sh - sourced by run.sh ($work is the cwd, $bin and $runs set
# there): the C++ demangler (tests/tools/demangle, which reads a list of
# symbols, one a line, and writes each demangled, as c++filt -i does)
# beside GNU c++filt -i, and -p beside c++filt -i -p, on the same list,
# best of $runs each, wall clock, and the CPU time of 20 whole runs each
# (alternating by tens, summed): the distinct C++ symbols (_Z...) of
# libstdc++ and of the largest C++ libraries of the machine (the LLVM and
# Clang ones when installed), as nm prints them.  Skipped without c++filt
# or readelf.
dm=$bin/../test/demangle
if command -v c++filt >/dev/null 2>&1 && command -v readelf >/dev/null 2>&1 &&
    [ -x "$dm" ]; then
	if [ ! -s cxx.syms ]; then
		for d in /usr/lib/x86_64-linux-gnu /usr/lib/aarch64-linux-gnu \
		    /usr/lib64 /usr/lib /usr/local/lib; do
			[ -d "$d" ] && ls -S "$d"/libstdc++.so* "$d"/libLLVM*.so* \
			    "$d"/libclang-cpp*.so* "$d"/libclang*.so* 2>/dev/null
		done | head -8 | xargs readelf -Ws --wide 2>/dev/null |
			awk 'NF >= 8 && $1 ~ /^[0-9]+:$/ { s = $8; sub(/@.*/, "", s); print s }' |
			grep '^_Z' | sort -u > cxx.syms
	fi
	# dmbest INPUT CMD...: the best wall-clock seconds of $runs runs.
	dmbest() {
		in=$1
		shift
		for r in $(seq "$runs"); do ./runstat "$in" "$@" | cut -d' ' -f1; done |
			sort -n | head -1
	}
	# dmcpu N CMD...: the CPU seconds (user + system, runstat's fourth
	# field) of N runs over cxx.syms, summed: one run takes a few ms.
	dmcpu() {
		n=$1
		shift
		for r in $(seq "$n"); do ./runstat cxx.syms "$@"; done |
			awk '{ t += $4 } END { printf "%.3f\n", t }'
	}
	if [ -s cxx.syms ]; then
		for p in "" -p; do
			# the same output, or the figures mean nothing
			if [ "$(c++filt -i $p < cxx.syms | cksum)" != "$("$dm" $p < cxx.syms | cksum)" ]; then
				echo "demangle: cxx.syms: output differs from c++filt -i $p" >&2
			fi
			tc=$(dmbest cxx.syms c++filt -i $p)
			to=$(dmbest cxx.syms "$dm" $p)
			# CPU: 2 x 10 runs each, alternating
			cc=0 co=0
			for h in 1 2; do
				cc=$(echo "$cc $(dmcpu 10 c++filt -i $p)" | awk '{ print $1 + $2 }')
				co=$(echo "$co $(dmcpu 10 "$dm" $p)" | awk '{ print $1 + $2 }')
			done
			awk -v by="$(wc -c < cxx.syms)" -v n="$(wc -l < cxx.syms)" -v tc="$tc" \
			    -v to="$to" -v p="$p" -v cc="$cc" -v co="$co" 'BEGIN {
				printf "%-22s %-34s %8.0f MB/s  %5.2f M sym/s  (c++filt -i%s: %.0f MB/s, %.2f M sym/s: x%.1f)\n",
				    "demangle (C++)" (p != "" ? " " p : ""), "cxx.syms (" n " symbols)",
				    by / 1e6 / to, n / 1e6 / to, (p != "" ? " " p : ""),
				    by / 1e6 / tc, n / 1e6 / tc, tc / to
				if (co > 0)
					printf "%-22s %-34s CPU a run: %.1f ms (c++filt -i%s: %.1f ms: x%.1f)\n",
					    "", "", co * 50, (p != "" ? " " p : ""), cc * 50, cc / co }'
		done
	fi
else
	echo "demangle (C++): skipped (needs c++filt, readelf and $dm)"
fi
