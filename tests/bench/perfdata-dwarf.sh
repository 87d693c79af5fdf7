# perfdata-dwarf.sh - sourced by run.sh ($work is the cwd, $bin, $top,
# $runs, pd_best from perfdata.sh): a --call-graph dwarf capture of a Rust
# program of ours built as cargo's release profile with debug = true and no
# frame pointers (examples/workload/minieth), recorded with cargo
# flamegraph's options at -F 2999 (about 12k samples of 64000-byte stack
# copies, 800 MB): stackcollapse-perf against perf script, both with
# their default inlined frames and with --no-inline, and the floor of
# reading the file.  Needs cargo, perf and permission to record.
pdw=perfdata-dwarf.data
if [ ! -s "$pdw" ]; then
	if ! command -v cargo > /dev/null 2>&1 || ! command -v perf > /dev/null 2>&1; then
		echo "perf.data (dwarf): needs cargo and perf, skipped"
	elif ! (cd "$top/examples/workload/minieth" &&
	    CARGO_TARGET_DIR="$work/minieth-target" cargo build -q --release \
	    --offline > /dev/null 2>&1); then
		echo "perf.data (dwarf): cannot build minieth, skipped"
	elif ! perf record -q -F 2999 --call-graph dwarf,64000 -g -o "$pdw" -- \
	    "$work/minieth-target/release/minieth-replay" --repeat 80 \
	    > /dev/null 2>&1; then
		echo "perf.data (dwarf): perf record not permitted, skipped"
		rm -f "$pdw"
	fi
fi
if [ -s "$pdw" ]; then
	sc=$bin/stackcollapse-perf
	nw=$(perf script -F comm -i "$pdw" 2> /dev/null | wc -l)
	sw=$(wc -c < "$pdw")
	perf script --no-inline -i "$pdw" 2> /dev/null | "$sc" > pd-text.out
	"$sc" --no-inline "$pdw" > pd-data.out 2> /dev/null
	cmp -s pd-text.out pd-data.out ||
		echo "perf.data (dwarf): the two paths differ on $pdw (--no-inline)!"
	perf script -i "$pdw" 2> /dev/null | "$sc" > pd-text.out
	"$sc" "$pdw" > pd-data.out 2> /dev/null
	cmp -s pd-text.out pd-data.out ||
		echo "perf.data (dwarf): the two paths differ on $pdw (inlined frames)!"
	rm -f pd-text.out pd-data.out
	ti=$(pd_best "perf script -i $pdw | $sc")
	tn=$(pd_best "perf script --no-inline -i $pdw | $sc")
	td=$(pd_best "$sc $pdw")
	to=$(pd_best "$sc --no-inline $pdw")
	tc=$(pd_best "cat $pdw")
	tf=$(pd_best "./floor ustack $pdw")
	set -- $(./runstat /dev/null "$sc" "$pdw")
	awk -v n="$nw" -v s="$sw" -v ti="$ti" -v tn="$tn" -v td="$td" -v to="$to" -v tc="$tc" -v tf="$tf" \
	    -v rss="$2" 'BEGIN {
		printf "perf script | s-perf   dwarf,64000, minieth (Rust)        %6.3f s  (%d samples, %.0f MB; inlined frames)\n", ti, n, s / 1e6
		printf "stackcollapse-perf                 same perf.data          %6.3f s  %5.1fx   %.1f MB RSS\n", td, ti / td, rss / 1024
		printf "perf script --no-inline | s-perf  same perf.data          %6.3f s\n", tn
		printf "stackcollapse-perf --no-inline     same perf.data          %6.3f s  %5.1fx\n", to, tn / to
		printf "floor: cat of the file             same perf.data          %6.3f s\n", tc
		printf "floor: each sample found (mapped)  same perf.data          %6.3f s  (its header and dyn_size word; 50x would be %.3f s, 10x --no-inline %.3f s)\n", tf, ti / 50, tn / 10
	}'
fi
