#!/bin/sh
# did-it-help.sh [BEFORE AFTER] - "did my change help?" on two folded
# profiles: merge them (folddiff), then the totals, what shrank, what grew,
# and the differential flame graph.  Without arguments it uses the pair we
# recorded: examples/wordfreq-before.folded and wordfreq-after.folded
# (examples/workload/wordfreq.c before and after its find_word() got a hash
# index; see examples/workload/record.sh).
set -e
here=$(cd "$(dirname "$0")" && pwd)
bin=${FOLDKIT_BIN:-$here/../build/bin}
out=${DEMO_OUT:-$here/../build/demo}
export LC_ALL=C
if [ $# -eq 0 ]; then
	set -- "$here/wordfreq-before.folded" "$here/wordfreq-after.folded"
fi
mkdir -p "$out"

echo "== folddiff before after > diff.folded"
"$bin/folddiff" "$1" "$2" > "$out/diff.folded"
echo "$(wc -l < "$out/diff.folded") stacks in $out/diff.folded"
echo
echo "== The totals (foldstats)"
"$bin/foldstats" "$out/diff.folded" | grep '^diff\.'
echo
echo "== What shrank the most (foldtop -r)"
"$bin/foldtop" -r -n 5 "$out/diff.folded"
echo
echo "== What grew the most (foldtop --sort delta-total)"
"$bin/foldtop" -n 5 --sort delta-total "$out/diff.folded"
echo
echo "== The same as shares of each run (folddiff -n: BEFORE scaled to AFTER)"
"$bin/folddiff" -n "$1" "$2" | "$bin/foldtop" -n 5
if [ -x "$bin/flamegraph-svg" ]; then
	echo
	echo "== folddiff before after | flamegraph-svg > diff.svg"
	"$bin/flamegraph-svg" --title "before vs after" "$out/diff.folded" > "$out/diff.svg"
	echo "wrote $out/diff.svg: red grew, blue shrank"
fi
