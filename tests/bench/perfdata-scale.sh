# perfdata-scale.sh - sourced by run.sh ($work is the cwd, $bin, $top,
# $runs, pd_best from perfdata.sh), only when BENCH_SCALE is set (it
# records several GB and runs perf script over them): a --call-graph dwarf
# capture of the size users make, as in issue #35 (a Rust service under
# load: "Captured and wrote 5899.806 MB perf.data"): two Rust -O3 processes
# (examples/workload/minieth at opt-level 3) started by sh, recorded with
# `perf record -F 2999 --call-graph dwarf,16384 -g`.  BENCH_SCALE_REPEAT
# (default 1300: about 150 s and 8.5 GB on a 2-core VM) sets how long.
# Times perf script | stackcollapse-perf with and without inlined frames,
# ours both ways (and with the data mapped and read(2), FOLDKIT_PERF_READ),
# the floors (cat; each sample's head and dyn_size word and its first 3
# KiB of stack copy, mapped as ours reads it, read(2) whole, and mapped by
# two threads: our unwinder reads less than 2 KiB of 61.6% of this
# capture's stack copies and less than 3 KiB of all but 11 of 499,133),
# the ratio a reader doing only that in one thread would reach, and the
# peak memory of each (perf script's alone).  The file is read into the
# page cache before each timed run.  Needs perf, cargo, the disk (the
# capture is deleted at the end unless BENCH_SCALE_KEEP is set) and
# memory: perf script holds the capture's size in memory.
if [ -n "${BENCH_SCALE:-}" ]; then
	pds=perfdata-scale.data
	if [ ! -s "$pds" ]; then
		a=$work/minieth3-target/release/minieth-replay
		rep=${BENCH_SCALE_REPEAT:-1300}
		if ! command -v cargo > /dev/null 2>&1 ||
		    ! command -v perf > /dev/null 2>&1; then
			echo "perf.data (scale): needs cargo and perf, skipped"
		elif ! (cd "$top/examples/workload/minieth" &&
		    CARGO_PROFILE_RELEASE_OPT_LEVEL=3 \
		    CARGO_TARGET_DIR="$work/minieth3-target" cargo build -q \
		    --release --offline > /dev/null 2>&1); then
			echo "perf.data (scale): cannot build minieth, skipped"
		elif ! perf record -q -F 2999 --call-graph dwarf,16384 -g \
		    -o "$pds" -- sh -c "$a --repeat $rep & $a --repeat $rep; wait" \
		    > /dev/null 2>&1; then
			echo "perf.data (scale): perf record not permitted, skipped"
			rm -f "$pds"
		fi
	fi
	if [ -s "$pds" ]; then
		sc=$bin/stackcollapse-perf
		ss=$(wc -c < "$pds")
		ns=$(perf script -F comm -i "$pds" 2> /dev/null | wc -l)
		# the same samples: per command and leaf frame (perf 6.1 cuts
		# some stacks of the children sh made by fork and exec, which
		# ours unwinds whole: a documented difference), and how many
		# stacks differ at all
		pds_check() {
			for f in pds-text.out pds-data.out; do
				awk '{ n = $NF; sub(/ [0-9]+$/, ""); k = split($0, a, ";")
				    s[a[1] ";" a[k]] += n } END { for (x in s) print x, s[x] }' \
				    "$f" | sort > "$f.leaf"
			done
			if cmp -s pds-text.out.leaf pds-data.out.leaf; then
				echo "perf.data (scale, $1): the same samples per command and leaf as perf script;" \
				    "$(sort pds-text.out pds-data.out | uniq -u | wc -l) of" \
				    "$(cat pds-text.out pds-data.out | wc -l) stack lines differ (perf's cut stacks)"
			else
				echo "perf.data (scale, $1): the samples differ from perf script's!"
			fi
			rm -f pds-text.out.leaf pds-data.out.leaf
		}
		perf script -i "$pds" 2> /dev/null | "$sc" > pds-text.out
		"$sc" "$pds" > pds-data.out 2> /dev/null
		pds_check "inlined frames"
		perf script --no-inline -i "$pds" 2> /dev/null | "$sc" > pds-text.out
		"$sc" --no-inline "$pds" > pds-data.out 2> /dev/null
		pds_check "--no-inline"
		rm -f pds-text.out pds-data.out
		# each run after the file is read into the page cache
		# (untimed): the machine's own reclaim (DAMON, on these VMs)
		# pages out a file no process has mapped within seconds, and a
		# run that reads from the disk measures the disk
		pd_warm=$pds
		l0=$(uptime | sed 's/.*load average: //')
		ti=$(pd_best "perf script -i $pds | $sc")
		tn=$(pd_best "perf script --no-inline -i $pds | $sc")
		td=$(pd_best "$sc $pds")
		to=$(pd_best "$sc --no-inline $pds")
		tc=$(pd_best "cat $pds")
		tdm=$(pd_best "FOLDKIT_PERF_READ=map $sc $pds")
		tdr=$(pd_best "FOLDKIT_PERF_READ=read $sc $pds")
		tm=$(pd_best "./floor walk map 3072 $pds")
		tr=$(pd_best "./floor walk read 3072 $pds")
		t2=$(pd_best "./floor walk map2 3072 $pds")
		pd_warm=
		l1=$(uptime | sed 's/.*load average: //')
		mp=$(./runstat /dev/null perf script -i "$pds" 2> /dev/null | awk '{ print $2 }')
		mn=$(./runstat /dev/null perf script --no-inline -i "$pds" 2> /dev/null | awk '{ print $2 }')
		md=$(./runstat /dev/null "$sc" "$pds" 2> /dev/null | awk '{ print $2 }')
		mo=$(./runstat /dev/null "$sc" --no-inline "$pds" 2> /dev/null | awk '{ print $2 }')
		awk -v n="$ns" -v s="$ss" -v ti="$ti" -v tn="$tn" -v td="$td" \
		    -v to="$to" -v tc="$tc" -v tm="$tm" -v tr="$tr" -v mp="$mp" \
		    -v mn="$mn" -v md="$md" -v mo="$mo" -v l0="$l0" -v l1="$l1" \
		    -v tdm="$tdm" -v tdr="$tdr" -v t2="$t2" 'BEGIN {
			printf "perf script | s-perf   dwarf,16384, 2 x minieth -O3 (Rust) %6.3f s  (%d samples, %.0f MB; inlined frames; perf script %.0f MB RSS)\n", ti, n, s / 1e6, mp / 1024
			printf "stackcollapse-perf                 same perf.data          %6.3f s  %5.1fx   %.1f MB RSS  (%.2fx cat)\n", td, ti / td, md / 1024, td / tc
			printf "perf script --no-inline | s-perf  same perf.data          %6.3f s  (perf script %.0f MB RSS)\n", tn, mn / 1024
			printf "stackcollapse-perf --no-inline     same perf.data          %6.3f s  %5.1fx   %.1f MB RSS\n", to, tn / to, mo / 1024
			printf "  the data mapped (FOLDKIT_PERF_READ=map)                 %6.3f s  %5.1fx\n", tdm, ti / tdm
			printf "  the data read(2) (FOLDKIT_PERF_READ=read)               %6.3f s  %5.1fx\n", tdr, ti / tdr
			printf "floor: cat of the file             same perf.data          %6.3f s\n", tc
			printf "floor: 3 KiB of each stack, mapped same perf.data          %6.3f s  (each sample'"'"'s head, dyn_size and first 3 KiB of its stack copy)\n", tm
			printf "floor: the same read(2) whole      same perf.data          %6.3f s\n", tr
			printf "floor: the same mapped, 2 threads  same perf.data          %6.3f s  (each touches every other sample)\n", t2
			f = tm < tr ? tm : tr
			if (t2 < f)
				f = t2
			printf "the cheapest of these walks (%.3f s) would be %.1fx perf script with inlined frames, %.1fx with --no-inline; ours takes %.2fx and %.2fx of its time (its pager takes the faults a byte every 64 KiB on the other processor)\n", f, ti / f, tn / f, td / f, to / f
			printf "(load average before: %s; after: %s)\n", l0, l1
		}'
		[ -n "${BENCH_SCALE_KEEP:-}" ] || rm -f "$pds"
	fi
fi
