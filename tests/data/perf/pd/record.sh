#!/bin/sh
# record.sh - re-record the perf.data fixtures of stackcollapse-perf-data.bats
# (as root, with perf 6.1).  See README in the folder above for what each is.
#
#   sh tests/data/perf/pd/record.sh
#
# The programs are built and run in /tmp/foldkit-pd (the paths recorded in
# the captures).  Every capture's objects with samples go to the build-id
# cache buildid/ (perf --buildid-dir); the cache is then cut down to what
# perf archive would gather of our own: our binaries, the vDSO and a
# kallsyms trimmed to the symbols the samples hit and their neighbours (the
# system libraries are the same on every machine of this image).  NAME.txt
# is `perf --buildid-dir buildid script --no-demangle --kallsyms KALLSYMS -i
# NAME.data` with the originals moved away, so only the cache is used;
# NAME.dm.folded and NAME.dm-all.folded are the stacks (default options,
# and --tid --all --addrs) of the same without --no-demangle, collapsed by
# build/bin/stackcollapse-perf (make it first).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../../../.." && pwd)
w=/tmp/foldkit-pd
cache=$here/buildid
rm -rf "$w" "$cache" "$here/symfs" "$here"/*.data*
mkdir -p "$w"
CF="-O1 -g -fno-omit-frame-pointer"

cc $CF -pthread -o $w/minidb "$top/examples/workload/minidb.c"
g++ $CF -o $w/cpp "$here/src/cpp.cc"
rustc -C opt-level=1 -C force-frame-pointers=yes -C strip=debuginfo -o $w/rust "$here/src/main.rs"
cc $CF -fPIC -shared -o $w/libfk.so "$here/src/libfk.c"
cc $CF -o $w/shlib "$here/src/shlib.c" -L$w -lfk -Wl,-rpath,$w
cc -O1 -fno-omit-frame-pointer -rdynamic -o $w/stripped "$here/src/stripped.c"
strip $w/stripped
cc $CF -pthread -o $w/fkparent "$here/src/forker.c"
cc $CF -pthread -DCHILD -o $w/fkchild "$here/src/forker.c"
cc -O1 -o $w/memfd "$here/src/memfd.c"
cc -O1 -fno-omit-frame-pointer -pthread -o $w/pipeprog "$top/examples/workload/minidb.c"
# for --call-graph dwarf: no frame pointers
cc -O2 -g -o $w/dwarf "$here/src/dwarf.c" -L$w -lfk -Wl,-rpath,$w
g++ -O2 -g -o $w/dwcxx "$here/src/cpp.cc"
clang++ -O2 -gdwarf-5 -o $w/dwclang "$here/src/cpp.cc"
rustc -C opt-level=3 -C debuginfo=2 -o $w/dwrust "$here/src/main.rs"
seq 1 200000 | awk '{ print ($1 * 7919) % 200000 }' > $w/nums.txt
cc -O2 -g -pthread -o $w/dwfkparent "$here/src/forker.c"
cc -O2 -g -fno-asynchronous-unwind-tables -o $w/dwdf "$here/src/debugframe.c"
cc -O2 -g -fno-asynchronous-unwind-tables -Wl,--compress-debug-sections=zlib \
	-o $w/dwdfz "$here/src/debugframe.c"
cc -O2 -g -pthread -DCHILD -o $w/dwfkchild "$here/src/forker.c"
cc -O2 -g -fPIC -shared -DPLUGIN -o $w/libplugin.so "$here/src/plugin.c"
cc -O2 -g -o $w/dwplug "$here/src/plugin.c" -ldl
# one function under several names (#39): C and C++ aliases; Rust crates
# with merged functions, v0 and legacy mangling (std's are v0 in both)
g++ $CF -o $w/aliases "$here/src/aliases.cc"
for m in v0 legacy; do
	RUSTC_BOOTSTRAP=1 rustc -Z unstable-options -C symbol-mangling-version=$m \
		-C opt-level=3 -C debuginfo=2 -C force-frame-pointers=yes \
		--crate-type rlib -o $w/libmixlib.rlib "$here/src/aliasrs/mixlib.rs"
	RUSTC_BOOTSTRAP=1 rustc -Z unstable-options -C symbol-mangling-version=$m \
		-C opt-level=3 -C debuginfo=2 -C force-frame-pointers=yes \
		--extern mixlib=$w/libmixlib.rlib -o $w/alrs-$m "$here/src/aliasrs/main.rs"
done

rec() {
	name=$1
	shift
	perf --buildid-dir "$cache" record -q -o "$here/$name.data" "$@" > /dev/null
}
rec cpp -F 499 -g -- $w/cpp 3000
rec rust -F 499 -g -- $w/rust 500
rec shlib -F 499 -g -- $w/shlib 1500
rec stripped -F 499 -g -- $w/stripped 8000
rec fork -F 999 -g -- $w/fkparent $w/fkchild 8
rec events2 -F 499 -g -e cpu-clock -e task-clock -- $w/minidb -n 30
rec jit -F 499 -g -- $w/minidb -j -n 60
rec memfd -F 499 -g -- $w/memfd $w/stripped 3000
rec nocallchain -F 499 -- $w/shlib 800
rec allfields -F 499 -g -d -T --sample-cpu --phys-data --data-page-size \
	--code-page-size -W -R --sample-identifier -s --user-regs=ip,sp -- $w/shlib 800
rec tracepoint -F 499 -g -e cpu-clock -e sched:sched_switch -- $w/minidb -u 100 -n 30
rec kernel -F 999 -a -g --synth=task --kernel-callchains -e cpu-clock:k -- $w/minidb -s -n 10
# fixed periods (-c, period=): no PERIOD in the samples, each weighs its
# event's sample_period; in a file, two events, and through a pipe
rec fixed -e cpu-clock -c 250000 -g -- $w/shlib 300
rec fixed2 -g -e cpu-clock/period=200000/ -e task-clock/period=500000/ -- $w/minidb -n 20
perf record -q -g -e cpu-clock/period=200000/ -e task-clock/period=500000/ \
	-o - -- $w/shlib 300 > "$here/fixedpipe.data" 2> /dev/null
# a library deleted while its process runs ("libfk.so (deleted)"), as after
# a package upgrade: perf attaches to the process (a file of that name
# lets perf read the library's build-id)
cp $w/libfk.so $w/libfk.keep
$w/shlib 100000 > /dev/null &
pid=$!
sleep 0.3
rm $w/libfk.so
cp $w/libfk.keep "$w/libfk.so (deleted)"
rec deleted -F 499 -g -p $pid -- sleep 0.5
kill $pid
mv $w/libfk.keep $w/libfk.so
rm -f "$w/libfk.so (deleted)"
# --call-graph dwarf, read with --no-inline: C (its library, qsort,
# recursion past 127 frames, the vDSO, a signal handler), a stack copy too
# small, C++ by g++ and by clang (DWARF 5), Rust under cargo flamegraph's
# command, a system binary with CFI only, pipe mode.  libfk.so must have
# samples of its own in dwarfsmall (perf records build ids only for
# those): record it again if `perf buildid-list` lacks it.
rec dwarf -F 499 --call-graph dwarf,16384 -- $w/dwarf 300
rec dwarfsmall -F 499 --call-graph dwarf,512 -- $w/dwarf 300
rec dwcxx -F 999 --call-graph dwarf -- $w/dwcxx 3000
rec dwclang -F 999 --call-graph dwarf -- $w/dwclang 3000
rec dwrust -F 997 --call-graph dwarf,64000 -g -- $w/dwrust 60
rec dwsort -F 999 --call-graph dwarf -- sort -n -o /dev/null $w/nums.txt
# fork+exec and threads: perf 6.1 cuts some stacks of the first child (see
# COMPATIBILITY); record again until it shows, as the test expects
rec dwfork -F 999 --call-graph dwarf,4096 -- $w/dwfkparent $w/dwfkchild 8
# CFI only in .debug_frame (perf 6.1 does not read it), as it is and
# zlib-compressed
rec dwdf -F 499 --call-graph dwarf,4096 -- $w/dwdf 150
rec dwdfz -F 499 --call-graph dwarf,4096 -- $w/dwdfz 150
# a plugin loaded with dlopen(): --buildid-all, for the host's build id
# (only the plugin has samples of its own)
rec dwplugin --buildid-all -F 999 --call-graph dwarf,4096 -- $w/dwplug $w/libplugin.so 150
rec aliases -F 999 -g -- $w/aliases 6000
rec alrs -F 999 -g -- $w/alrs-v0 600000
rec alrsleg -F 999 -g -- $w/alrs-legacy 600000
rec dwalrs -F 999 --call-graph dwarf,8192 -- $w/alrs-v0 300000
perf record -q -F 999 -g -o - -- $w/alrs-v0 300000 > "$here/alrspipe.data" 2> /dev/null
perf record -q -F 499 --call-graph dwarf,4096 -o - -- $w/shlib 300 \
	> "$here/dwpipe.data" 2> /dev/null
perf record -q -F 99 --call-graph dwarf,512 -o "$here/refuse-dwarf.data" \
	-- $w/shlib 300 > /dev/null
perf record -q -z -g -o "$here/refuse-zstd.data" -- $w/shlib 50 > /dev/null
perf record -q -F 499 -g -o - -- $w/pipeprog -t -c 'pipe worker' -n 40 \
	> "$here/pipe.data" 2> /dev/null
mkdir -p "$here/symfs$w"
for f in pipeprog shlib libfk.so alrs-v0; do
	cp $w/$f "$here/symfs$w/$f"
	strip -g "$here/symfs$w/$f"
done
for m in /tmp/perf-*.map; do
	pid=${m#/tmp/perf-}
	pid=${pid%.map}
	if perf script -F pid -i "$here/jit.data" 2> /dev/null | grep -qw "$pid"; then
		cp "$m" "$here/jit.perf-map"
		echo "$pid" > "$here/jit.pid"
	fi
done

# The cache: our objects, the vDSO, a trimmed kallsyms.
for l in "$cache"/.build-id/*/*; do
	t=$(readlink "$l")
	case $t in
	*/tmp/foldkit-pd/*|*'[vdso]'*|*'[kernel.kallsyms]'*) ;;
	*) rm -rf "$cache/.build-id/${t#../../}" "$l" ;;
	esac
done
rm -rf "$cache/usr" "$cache/lib"
find "$cache" -name probes -exec rm -f {} +
ks=$(ls "$cache"/\[kernel.kallsyms\]/*/kallsyms)
mv $w $w.away
for f in "$here"/*.data; do
	case $f in */refuse-*) continue ;; esac
	perf --buildid-dir "$cache" script --no-demangle -i "$f" 2> /dev/null
done | awk '/\(\[kernel\.kallsyms\]\)$/ { s = $(NF - 1); sub(/\+0x[0-9a-f]+$/, "", s); print s }' |
	sort -u > "$w.syms"
awk -v want="$w.syms" 'BEGIN { while ((getline l < want) > 0) need[l] = 1 }
	{ line[NR] = $0; name[NR] = $3 }
	END {
		for (i = 1; i <= NR; i++)
			if (name[i] in need || name[i] == "_text" || name[i] == "_stext" || i == 1)
				keep[i - 1] = keep[i] = keep[i + 1] = 1
		for (i = 1; i <= NR; i++) if (i in keep) print line[i]
	}' "$ks" > "$ks.new"
mv "$ks.new" "$ks"
rm -f "$w.syms"

# The text perf script prints for each, from the cache only.
cp "$here/jit.perf-map" "/tmp/perf-$(cat "$here/jit.pid").map"
for f in "$here"/*.data; do
	case $f in */refuse-*) continue ;; esac
	n=${f%.data}
	case $n in */dw*) ni=--no-inline ;; *) ni= ;; esac
	if [ "$n" = "$here/pipe" ] || [ "$n" = "$here/fixedpipe" ] || [ "$n" = "$here/dwpipe" ] ||
	    [ "$n" = "$here/alrspipe" ]; then
		perf script $ni --no-demangle --symfs "$here/symfs" -i - < "$f" > "$n.txt" 2> /dev/null
	else
		perf --buildid-dir "$cache" script $ni --no-demangle --kallsyms "$ks" -i "$f" > "$n.txt" 2> /dev/null
	fi
done
# dwarf captures: perf script with its inlined frames (the default), kept
# gzipped, and the stacks of the same demangled.
for f in "$here"/dw*.data; do
	n=${f%.data}
	if [ "$n" = "$here/dwpipe" ]; then
		perf script --no-demangle --symfs "$here/symfs" -i - < "$f" 2> /dev/null |
			gzip -9n > "$n.inl.txt.gz"
		perf script --symfs "$here/symfs" -i - < "$f" > "$n.dm.txt" 2> /dev/null
	else
		perf --buildid-dir "$cache" script --no-demangle --kallsyms "$ks" -i "$f" 2> /dev/null |
			gzip -9n > "$n.inl.txt.gz"
		perf --buildid-dir "$cache" script --kallsyms "$ks" -i "$f" > "$n.dm.txt" 2> /dev/null
	fi
	"$top/build/bin/stackcollapse-perf" -q "$n.dm.txt" > "$n.inl.dm.folded"
	"$top/build/bin/stackcollapse-perf" -q --tid --all --addrs "$n.dm.txt" > "$n.inl.dm-all.folded"
	rm -f "$n.dm.txt"
done
# The stacks of perf script's demangled text, for the default of
# stackcollapse-perf on perf.data (the text itself is not kept).
for f in "$here"/*.data; do
	case $f in */refuse-*) continue ;; esac
	n=${f%.data}
	case $n in */dw*) ni=--no-inline ;; *) ni= ;; esac
	if [ "$n" = "$here/pipe" ] || [ "$n" = "$here/fixedpipe" ] || [ "$n" = "$here/dwpipe" ] ||
	    [ "$n" = "$here/alrspipe" ]; then
		perf script $ni --symfs "$here/symfs" -i - < "$f" > "$n.dm.txt" 2> /dev/null
	else
		perf --buildid-dir "$cache" script $ni --kallsyms "$ks" -i "$f" > "$n.dm.txt" 2> /dev/null
	fi
	"$top/build/bin/stackcollapse-perf" -q "$n.dm.txt" > "$n.dm.folded"
	"$top/build/bin/stackcollapse-perf" -q --tid --all --addrs "$n.dm.txt" > "$n.dm-all.folded"
	rm -f "$n.dm.txt"
done
mv $w.away $w
ls -la "$here"
du -sh "$here"
