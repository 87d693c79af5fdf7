#!/bin/sh
# record.sh DIR OUT [filter [NAME...]] - build the programs of this folder
# into DIR, record each (or each NAME) with `perf record -g`, and write for
# each NAME:
#   OUT/NAME.script   perf script --no-demangle --show-mmap-events
#                     -F comm,pid,tid,ip,sym,dso
#   OUT/NAME.bid      perf buildid-list
# With "filter", only DIR's own objects and the vDSO are kept in both (what
# the replayable fixtures hold: the rest, libc and the kernel, differ
# between machines; the vDSO's copy is in cache/, from ~/.debug).  Needs
# cc, c++, perf; rustc, and clang with ld.lld, if present.
set -eu
dir=$1 out=$2 filter=${3:-}
shift 2
[ $# -gt 0 ] && shift
only="$*"
src=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$dir" "$out"
cflags='-O1 -fno-omit-frame-pointer -fno-builtin'
cc $cflags -g -o "$dir/pie" "$src/prog.c"
cc $cflags -no-pie -o "$dir/nopie" "$src/prog.c"
cc $cflags -rdynamic -o "$dir/stripped" "$src/prog.c"
strip --strip-all "$dir/stripped"
cc -O1 -fno-omit-frame-pointer -shared -fPIC -o "$dir/libsymt.so" "$src/lib.c"
cc $cflags -DWITH_LIB -o "$dir/withlib" "$src/prog.c" -L"$dir" -lsymt \
	-Wl,-rpath,"$dir"
c++ -O1 -fno-omit-frame-pointer -o "$dir/cxx" "$src/prog.cc"
cc -O1 -fno-omit-frame-pointer -o "$dir/vdso" "$src/vdso.c"
progs='pie nopie stripped withlib cxx vdso'
if command -v clang >/dev/null 2>&1 && command -v ld.lld >/dev/null 2>&1; then
	# lld: segments whose addresses differ from their file offsets, and a
	# .plt with an entry size of 0
	clang $cflags -fuse-ld=lld -Wl,--build-id -o "$dir/lldpie" "$src/prog.c"
	progs="$progs lldpie"
fi
if command -v rustc >/dev/null 2>&1; then
	rustc -O -C force-frame-pointers=yes -C strip=debuginfo \
		-o "$dir/rust" "$src/prog.rs"
	progs="$progs rust"
fi
for p in ${only:-$progs}; do
	case $p in cxx|rust) n=3000 ;; *) n=200 ;; esac
	perf record -q -o "$dir/$p.data" -F 4999 -g "$dir/$p" $n \
		>/dev/null 2>&1
	perf script --no-demangle --show-mmap-events \
		-F comm,pid,tid,ip,sym,dso -i "$dir/$p.data" \
		>"$out/$p.script" 2>/dev/null
	perf buildid-list -i "$dir/$p.data" >"$out/$p.bid" 2>/dev/null
	rm -f "$dir/$p.data"
	if [ -n "$filter" ]; then
		awk -v d="$dir/" '
			/PERF_RECORD_MMAP/ { if (index($NF, d) == 1 || $NF == "[vdso]") print; next }
			/^$/ { if (h == "") print; h = ""; next }
			/^[^ \t]/ { h = $0; next }
			index($0, "(" d) || index($0, "([vdso])") { if (h != "") print h; h = ""; print }
			' "$out/$p.script" >"$out/$p.tmp"
		mv "$out/$p.tmp" "$out/$p.script"
		awk -v d="$dir/" 'index($2, d) == 1 || $2 == "[vdso]"' "$out/$p.bid" >"$out/$p.tmp"
		mv "$out/$p.tmp" "$out/$p.bid"
	fi
done
