# demangle.sh - sourced by run.sh ($work is the cwd, $bin and $runs set
# there): the C++ demangler (tests/tools/demangle, which reads a list of
# symbols, one a line, and writes each demangled, as c++filt -i does)
# beside GNU c++filt -i, and -p beside c++filt -i -p, on the same lists,
# each symbol once:
#   cxx.syms      the C++ symbols (_Z...) of libstdc++ and of the largest
#                 C++ libraries of the machine (LLVM and Clang's when
#                 installed), as readelf prints them;
#   cxx-all.syms  those of every shared library of the machine.
# For each, the best of $runs wall-clock runs of each tool, and the
# throughput with the process start left out (each tool's best time on an
# empty input subtracted), which is what a longer list tends to.  The
# outputs are compared first.  Skipped without c++filt or readelf.
dm=$bin/../test/demangle

# dmbest INPUT CMD...: the best wall-clock seconds of $runs runs.
dmbest() {
	in=$1
	shift
	for r in $(seq "$runs"); do ./runstat "$in" "$@" | cut -d' ' -f1; done |
		sort -n | head -1
}

# dmrow LABEL LIST TIME_CFILT TIME_OURS START_CFILT START_OURS CFILT_NAME
dmrow() {
	awk -v by="$(wc -c < "$2")" -v n="$(wc -l < "$2")" -v l="$2" \
	    -v lab="$1" -v tc="$3" -v to="$4" -v sc="$5" -v so="$6" -v cf="$7" 'BEGIN {
		printf "%-22s %-34s %8.0f MB/s  %5.2f M sym/s  (%s: %.0f MB/s, %.2f M sym/s: x%.1f)\n",
		    lab, l " (" n " symbols)", by / 1e6 / to, n / 1e6 / to, cf,
		    by / 1e6 / tc, n / 1e6 / tc, tc / to
		if (to > so && tc > sc)
			printf "%-22s %-34s %.1f ms, %.1f ms without the start (%s: %.1f ms, %.1f ms: x%.1f)\n",
			    "", "", to * 1000, (to - so) * 1000, cf, tc * 1000,
			    (tc - sc) * 1000, (tc - sc) / (to - so) }'
}

if command -v c++filt >/dev/null 2>&1 && command -v readelf >/dev/null 2>&1 &&
    [ -x "$dm" ]; then
	cxxsyms() {
		xargs readelf -Ws --wide 2>/dev/null |
			awk 'NF >= 8 && $1 ~ /^[0-9]+:$/ { s = $8; sub(/@.*/, "", s); print s }' |
			grep '^_Z' | sort -u
	}
	libdirs="/usr/lib/x86_64-linux-gnu /usr/lib/aarch64-linux-gnu /usr/lib64 /usr/lib /usr/local/lib"
	if [ ! -s cxx.syms ]; then
		for d in $libdirs; do
			[ -d "$d" ] && ls -S "$d"/libstdc++.so* "$d"/libLLVM*.so* \
			    "$d"/libclang-cpp*.so* "$d"/libclang*.so* 2>/dev/null
		done | head -8 | cxxsyms > cxx.syms
	fi
	if [ ! -s cxx-all.syms ]; then
		for d in /usr/lib64 /usr/lib /usr/local/lib; do
			[ -d "$d" ] && find "$d" -name '*.so*' -type f 2>/dev/null
		done | cxxsyms > cxx-all.syms
	fi
	sc=$(dmbest /dev/null c++filt -i)
	so=$(dmbest /dev/null "$dm")
	for l in cxx.syms cxx-all.syms; do
		[ -s "$l" ] || continue
		for p in "" -p; do
			# the same output, or the figures mean nothing
			if [ "$(c++filt -i $p < "$l" | cksum)" != "$("$dm" $p < "$l" | cksum)" ]; then
				echo "demangle: $l: output differs from c++filt -i $p" >&2
			fi
			dmrow "demangle (C++)${p:+ $p}" "$l" "$(dmbest "$l" c++filt -i $p)" \
			    "$(dmbest "$l" "$dm" $p)" "$sc" "$so" "c++filt -i${p:+ $p}"
		done
	done
else
	echo "demangle (C++): skipped (needs c++filt, readelf and $dm)"
fi
