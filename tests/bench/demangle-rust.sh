# demangle-rust.sh - sourced by run.sh ($work is the cwd, $bin and $runs
# set there, demangle.sh's dmbest and dmrow too: it runs after it): the
# Rust demangler (tests/tools/demangle) beside GNU c++filt -i on the same
# lists, each symbol once: the v0 symbols (_R...) of the Rust toolchain's
# libraries and programs, and the legacy ones (_ZN...17h<hash>E) of
# rustup, cargo's programs and the toolchain's.  Best of $runs wall-clock
# runs each, and the throughput without the process start, as for C++.
# Skipped without rustc, readelf or c++filt.
dm=$bin/../test/demangle
if command -v rustc >/dev/null 2>&1 && command -v readelf >/dev/null 2>&1 &&
    command -v c++filt >/dev/null 2>&1 && [ -x "$dm" ]; then
	rsyms() {
		readelf -Ws --wide "$@" 2>/dev/null | awk 'NF >= 8 && $1 ~ /^[0-9]+:$/ {
			s = $8; sub(/@.*/, "", s); print s }' | sort -u
	}
	sr=$(rustc --print sysroot)
	[ -s rust-v0.syms ] || rsyms "$sr"/lib/*.so "$sr"/lib/rustlib/*/lib/*.so \
	    "$sr"/lib/rustlib/*/lib/*.rlib "$sr"/bin/* | grep '^_R' > rust-v0.syms
	[ -s rust-legacy.syms ] || rsyms $(command -v rustup) "${CARGO_HOME:-$HOME/.cargo}"/bin/* \
	    "$sr"/bin/* "$sr"/lib/*.so | grep -E '^_ZN.*17h[0-9a-f]{16}E' > rust-legacy.syms
	sc=$(dmbest /dev/null c++filt -i)
	so=$(dmbest /dev/null "$dm")
	for l in rust-v0.syms rust-legacy.syms; do
		[ -s "$l" ] || continue
		# the same output, or the figures mean nothing
		if [ "$(c++filt -i < "$l" | cksum)" != "$("$dm" < "$l" | cksum)" ]; then
			echo "demangle: $l: output differs from c++filt -i" >&2
		fi
		dmrow "demangle (Rust)" "$l" "$(dmbest "$l" c++filt -i)" \
		    "$(dmbest "$l" "$dm")" "$sc" "$so" "c++filt -i"
	done
else
	echo "demangle (Rust): skipped (needs rustc, readelf, c++filt and $dm)"
fi
