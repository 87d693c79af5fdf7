# perfdata.sh - sourced by run.sh ($work is the cwd, $bin, $top, $runs
# defined there): stackcollapse-perf on perf.data against the pipeline it
# replaces, `perf script --no-demangle | stackcollapse-perf`, side by side.
#
# Both sides keep names as they are (--no-demangle).
# The captures are recorded once per bench folder: examples/workload/minidb
# (two threads, C) under `perf record -F 20000 -g`, 1300 rounds (about 100k
# samples) and 2600 rounds (twice as long); examples/workload/cxxpool (two
# threads, C++: std::map, std::sort, strings), 3000 rounds (about 100k
# samples); where clang-tidy is installed, a big C++ program with large
# shared libraries (LLVM's, 45k symbols in libLLVM's .dynsym): clang-tidy
# -checks='*' on two of our sources under -F 5000 (about 100k samples).
# Needs perf and permission to record; says so and goes on otherwise.
pd1=perfdata-1.data
pd2=perfdata-2.data
pdu=perfdata-u.data		# user frames only: no kallsyms to read
pdx=perfdata-cxx.data		# C++
pdl=perfdata-llvm.data		# clang-tidy: big shared libraries
pd_ok=1
if [ ! -s "$pd1" ] || [ ! -s "$pd2" ] || [ ! -s "$pdx" ]; then
	if ! command -v perf > /dev/null 2>&1; then
		echo "perf.data: perf not installed, skipped"
		pd_ok=0
	elif ! cc -O1 -g -fno-omit-frame-pointer -pthread -o pd-minidb \
	    "$top/examples/workload/minidb.c"; then
		echo "perf.data: cannot build minidb, skipped"
		pd_ok=0
	elif ! c++ -O1 -g -fno-omit-frame-pointer -pthread -o pd-cxxpool \
	    "$top/examples/workload/cxxpool.cc"; then
		echo "perf.data: cannot build cxxpool, skipped"
		pd_ok=0
	elif ! perf record -q -F 20000 -g -o "$pd1" -- ./pd-minidb -t -n 1300 \
	    > /dev/null 2>&1 || ! perf record -q -F 20000 -g -o "$pd2" -- \
	    ./pd-minidb -t -n 2600 > /dev/null 2>&1 || ! perf record -q -F 20000 \
	    -g -e cpu-clock:u -o "$pdu" -- ./pd-minidb -t -n 1300 > /dev/null 2>&1 ||
	    ! perf record -q -F 20000 -g -o "$pdx" -- ./pd-cxxpool 3000 \
	    > /dev/null 2>&1; then
		echo "perf.data: perf record not permitted, skipped"
		rm -f "$pd1" "$pd2" "$pdu" "$pdx"
		pd_ok=0
	fi
fi

if [ "$pd_ok" = 1 ] && [ ! -s "$pdl" ] && command -v clang-tidy > /dev/null 2>&1; then
	perf record -q -F 5000 -g -o "$pdl" -- clang-tidy -checks='*' \
	    "$top/lib/perf/perfdata.c" "$top/lib/perf/perf.c" -- -I"$top/lib" \
	    > /dev/null 2>&1 || rm -f "$pdl"
fi

# pd_best CMD...: the best wall time of $runs runs of a shell command
# (each after the file $pd_warm, when set, is read into the page cache).
pd_best() {
	pb=
	for r in $(seq "$runs"); do
		[ -z "${pd_warm:-}" ] || cat "$pd_warm" > /dev/null
		t0=$(date +%s.%N)
		sh -c "$1" > /dev/null 2>&1
		t1=$(date +%s.%N)
		pb=$(awk -v a="$t0" -v b="$t1" -v p="$pb" 'BEGIN {
			t = b - a; if (p == "" || t < p) print t; else print p }')
	done
	echo "$pb"
}

# pd_cpu CMD...: the least CPU time (user + system, of all the processes
# of the command) of $runs runs: the machine may be shared, CPU time is what
# each side costs.
pd_cpu() {
	pc=
	for r in $(seq "$runs"); do
		c=$(sh -c "$1 > /dev/null 2>&1; times" | awk 'NR == 2 {
			t = 0
			for (i = 1; i <= 2; i++) {
				split($i, a, "m"); sub(/s$/, "", a[2]); t += a[1] * 60 + a[2]
			}
			print t }')
		pc=$(awk -v a="$c" -v p="$pc" 'BEGIN { if (p == "" || a < p) print a; else print p }')
	done
	echo "$pc"
}

# pd_cpu1 FILE: the least CPU time of $runs runs of stackcollapse-perf
# --no-demangle FILE (getrusage, microseconds: `times` counts in ticks).
pd_cpu1() {
	pc=
	for r in $(seq "$runs"); do
		set -- $(./runstat /dev/null "$bin/stackcollapse-perf" --no-demangle "$1") "$1"
		c=$4
		shift 4
		pc=$(awk -v a="$c" -v p="$pc" 'BEGIN { if (p == "" || a < p) print a; else print p }')
	done
	echo "$pc"
}

# pd_ours FILE: "WALL RSS_KB" of the best of 1 + $runs runs of
# stackcollapse-perf --no-demangle FILE (the RSS of that run).
pd_ours() {
	set -- $(./runstat /dev/null "$bin/stackcollapse-perf" --no-demangle "$1") "$1"
	po=$1 pk=$2
	for r in $(seq "$runs"); do
		set -- $(./runstat /dev/null "$bin/stackcollapse-perf" --no-demangle "$5") "$5"
		[ "$(awk -v a="$1" -v b="$po" 'BEGIN { print (a < b) }')" = 1 ] && po=$1 pk=$2
	done
	echo "$po $pk"
}

# pd_same FILE: the same stacks both ways, or the figures mean nothing
pd_same() {
	perf script --no-demangle -i "$1" 2> /dev/null | "$bin/stackcollapse-perf" > pd-text.out
	"$bin/stackcollapse-perf" --no-demangle "$1" > pd-data.out 2> /dev/null
	cmp -s pd-text.out pd-data.out || echo "perf.data: the two paths differ on $1!"
	rm -f pd-text.out pd-data.out
}

if [ "$pd_ok" = 1 ]; then
	sc=$bin/stackcollapse-perf
	n1=$(perf script -F comm -i "$pd1" 2> /dev/null | wc -l)
	s1=$(wc -c < "$pd1")
	s2=$(wc -c < "$pd2")
	pd_same "$pd1"
	pd_same "$pdx"
	tp=$(pd_best "perf script --no-demangle -i $pd1 | $sc")
	cp=$(pd_cpu "perf script --no-demangle -i $pd1 | $sc")
	c1=$(pd_cpu1 "$pd1")
	c2=$(pd_cpu1 "$pd2")
	nu=$(perf script -F comm -i "$pdu" 2> /dev/null | wc -l)
	su=$(wc -c < "$pdu")
	tpu=$(pd_best "perf script --no-demangle -i $pdu | $sc")
	set -- $(pd_ours "$pdu")
	tu=$1
	nx=$(perf script -F comm -i "$pdx" 2> /dev/null | wc -l)
	sx=$(wc -c < "$pdx")
	tpx=$(pd_best "perf script --no-demangle -i $pdx | $sc")
	cpx=$(pd_cpu "perf script --no-demangle -i $pdx | $sc")
	cx=$(pd_cpu1 "$pdx")
	set -- $(pd_ours "$pdx")
	tx=$1
	if [ -s "$pdl" ]; then
		pd_same "$pdl"
		nl=$(perf script -F comm -i "$pdl" 2> /dev/null | wc -l)
		sl=$(wc -c < "$pdl")
		tpl=$(pd_best "perf script --no-demangle -i $pdl | $sc")
		set -- $(pd_ours "$pdl")
		tl=$1
	else
		nl=0 sl=0 tpl=0 tl=0
	fi
	set -- $(pd_ours "$pd1")
	t1=$1 k1=$2
	set -- $(pd_ours "$pd2")
	t2=$1 k2=$2
	awk -v n="$n1" -v s1="$s1" -v s2="$s2" -v tp="$tp" -v t1="$t1" \
	    -v t2="$t2" -v k1="$k1" -v k2="$k2" -v cp="$cp" -v c1="$c1" -v c2="$c2" -v nu="$nu" -v su="$su" \
	    -v tpu="$tpu" -v tu="$tu" -v nx="$nx" -v sx="$sx" -v tpx="$tpx" \
	    -v cpx="$cpx" -v cx="$cx" -v tx="$tx" -v nl="$nl" -v sl="$sl" \
	    -v tpl="$tpl" -v tl="$tl" 'BEGIN {
		printf "%-22s %-34s %8.3f s  %.3f s CPU  (%d samples, %.1f MB)\n",
		    "perf script | s-perf", "perf.data, minidb 2 threads", tp, cp, n, s1 / 1e6
		printf "%-22s %-34s %8.3f s  %.3f s CPU  %4.0fx faster (CPU %.0fx)  %7.1f MB RSS\n",
		    "stackcollapse-perf", "same perf.data", t1, c1, tp / t1,
		    (c1 > 0 ? cp / c1 : 0), k1 / 1024
		printf "%-22s %-34s %8.3f s  %.3f s CPU  (%d samples, %.1f MB)\n",
		    "perf script | s-perf", "perf.data, cxxpool 2 threads C++", tpx, cpx, nx, sx / 1e6
		printf "%-22s %-34s %8.3f s  %.3f s CPU  %4.0fx faster (CPU %.0fx)\n",
		    "stackcollapse-perf", "same perf.data", tx, cx, tpx / tx,
		    (cx > 0 ? cpx / cx : 0)
		if (tl > 0) {
			printf "%-22s %-34s %8.3f s  (%d samples, %.1f MB)\n",
			    "perf script | s-perf", "perf.data, clang-tidy (LLVM libs)", tpl, nl, sl / 1e6
			printf "%-22s %-34s %8.3f s  %4.0fx faster\n",
			    "stackcollapse-perf", "same perf.data", tl, tpl / tl
		}
		printf "%-22s %-34s %8.3f s  %7.1f MB RSS (%+.1f%%)\n",
		    "stackcollapse-perf", "twice as long a capture", t2, k2 / 1024,
		    (k2 - k1) * 100 / k1
		printf "%-22s %-34s %8.3f s against %.3f s: %.0fx  (%d samples, %.1f MB)\n",
		    "stackcollapse-perf", "user frames only (cpu-clock:u)", tu, tpu,
		    (tu > 0 ? tpu / tu : 0), nu, su / 1e6
		if (c2 > c1)
			printf "%-22s %-34s %8.0f MB/s once indexed ((size2 - size1) / (cpu2 - cpu1))\n",
			    "stackcollapse-perf", "the second half of it",
			    (s2 - s1) / 1e6 / (c2 - c1)
	}'
fi
