# demangle-rust.sh - sourced by run.sh ($work is the cwd, $bin and $runs
# set there): the Rust demangler (tests/tools/demangle, which reads a list
# of symbols, one a line, and writes each demangled) beside GNU c++filt -i
# on the same lists, best of $runs each, wall clock: the v0 symbols of the
# Rust toolchain's libraries and programs, and the legacy symbols of
# rustup, repeated to about 20 MB.  Skipped without rustc, readelf or
# c++filt.
dm=$bin/../test/demangle
if command -v rustc >/dev/null 2>&1 && command -v readelf >/dev/null 2>&1 &&
    command -v c++filt >/dev/null 2>&1 && [ -x "$dm" ]; then
	rsyms() {
		readelf -Ws "$@" 2>/dev/null | awk 'NF >= 8 && $1 ~ /^[0-9]+:$/ {
			s = $8; sub(/@.*/, "", s); print s }' | sort -u
	}
	sr=$(rustc --print sysroot)
	[ -s rust-v0.syms ] || rsyms "$sr"/lib/*.so "$sr"/lib/rustlib/*/lib/*.so \
	    "$sr"/lib/rustlib/*/lib/*.rlib "$sr"/bin/* | grep '^_R' > rust-v0.syms
	if [ ! -s rust-legacy.syms ] && command -v rustup >/dev/null 2>&1; then
		rsyms "$(command -v rustup)" | grep -E '^_ZN.*17h[0-9a-f]{16}E' > rust-legacy-1.syms
		i=0
		while [ -s rust-legacy-1.syms ] && [ $i -lt 20 ]; do
			cat rust-legacy-1.syms; i=$((i + 1))
		done > rust-legacy.syms
		rm -f rust-legacy-1.syms
	fi
	# dmbest INPUT CMD...: the best wall-clock seconds of $runs runs.
	dmbest() {
		in=$1
		shift
		for r in $(seq "$runs"); do ./runstat "$in" "$@" | cut -d' ' -f1; done |
			sort -n | head -1
	}
	for l in rust-v0.syms rust-legacy.syms; do
		[ -s "$l" ] || continue
		# the same output, or the figures mean nothing
		if [ "$(c++filt -i < "$l" | cksum)" != "$("$dm" < "$l" | cksum)" ]; then
			echo "demangle: $l: output differs from c++filt -i" >&2
		fi
		tc=$(dmbest "$l" c++filt -i)
		to=$(dmbest "$l" "$dm")
		awk -v by="$(wc -c < "$l")" -v n="$(wc -l < "$l")" -v tc="$tc" \
		    -v to="$to" -v l="$l" 'BEGIN {
			printf "%-22s %-34s %8.0f MB/s  %5.2f M sym/s  (c++filt: %.0f MB/s, %.2f M sym/s: x%.1f)\n",
			    "demangle (Rust)", l " (" n " symbols)", by / 1e6 / to,
			    n / 1e6 / to, by / 1e6 / tc, n / 1e6 / tc, tc / to }'
	done
else
	echo "demangle (Rust): skipped (needs rustc, readelf, c++filt and $dm)"
fi
