# xctrace.sh - sourced by run.sh ($work is the cwd, $bin, $top, $runs
# defined there): stackcollapse-xctrace on a Time Profiler export made
# here, beside inferno-collapse-xctrace (what cargo flamegraph runs on a
# Mac) on the same file in the same run, when inferno is installed
# (INFERNO=DIR, PATH, or ~/.cache/foldkit-peers/inferno/bin).
#
# The export: `xctracegen 200000` (tests/tools/xctracegen.c, the same bytes
# every time): 200k rows of a whole system's minute (24 processes, 240
# threads, 4,000 functions in 40 binaries), every element written once
# with id= and as ref= after, 7 backtraces in 10 refs to earlier ones;
# 72 MB, 362 bytes a row.  Both sides read the file and write to
# /dev/null, in turn (best_pair: the host's speed drifts), best of
# $BENCH_PAIR_RUNS (11) runs each, wall and CPU (user + system) from
# runstat; the floor is the file read with read(2) and its line ends found
# (tests/bench/floor.c), which any reader does.
xcgen=$bin/../test/xctracegen
xcin=xctrace-200k.xml
if [ ! -s "$xcin" ] && [ -x "$xcgen" ]; then
	"$xcgen" 200000 > "$xcin.tmp" && mv "$xcin.tmp" "$xcin"
fi
xcinferno=
for d in ${INFERNO:-} $(command -v inferno-collapse-xctrace 2>/dev/null | sed 's,/[^/]*$,,') \
    "$HOME/.cache/foldkit-peers/inferno/bin"; do
	[ -x "$d/inferno-collapse-xctrace" ] && { xcinferno=$d/inferno-collapse-xctrace; break; }
done

# xc_best CMD...: "WALL RSS_KB CPU" of the best (wall) of $runs runs, and
# the best CPU.
xc_best() {
	xb= xk= xc=
	for r in $(seq "$runs"); do
		set -- $(./runstat /dev/null "$@") "$@"
		w=$1 k=$2 c=$4
		shift 4
		if [ -z "$xb" ] || [ "$(awk -v a="$w" -v b="$xb" 'BEGIN { print (a < b) }')" = 1 ]; then
			xb=$w xk=$k
		fi
		if [ -z "$xc" ] || [ "$(awk -v a="$c" -v b="$xc" 'BEGIN { print (a < b) }')" = 1 ]; then
			xc=$c
		fi
	done
	echo "$xb $xk $xc"
}

if [ ! -s "$xcin" ]; then
	echo "xctrace: no xctracegen in $bin/../test (make build/test/xctracegen): skipped"
else
	set -- $(xc_best "$bin/stackcollapse-xctrace" -q "$xcin")
	ow=$1 ok=$2 oc=$3
	mb=$(wc -c < "$xcin")
	awk -v w="$ow" -v k="$ok" -v c="$oc" -v s="$mb" 'BEGIN {
		printf "%-5s %-22s %-34s %8.3f s  %.3f s CPU  %7.1f MB RSS  (%.1f MB)\n",
		    "X", "stackcollapse-xctrace", "time-profile export, 200k rows", w, c, k / 1024, s / 1e6 }'
	set -- $(xc_best ./floor lines "$xcin")
	awk -v w="$1" -v c="$3" 'BEGIN {
		printf "%-5s %-22s %-34s %8.3f s  %.3f s CPU\n", "X", "floor: read, line ends", "the same file", w, c }'
	if [ -n "$xcinferno" ]; then
		# the same stacks and counts, or the figures mean nothing
		"$xcinferno" "$xcin" > xc-peer.out 2> /dev/null
		"$bin/stackcollapse-xctrace" -q "$xcin" > xc-ours.out
		cmp -s xc-peer.out xc-ours.out || echo "xctrace: the stacks differ from inferno's!"
		rm -f xc-peer.out xc-ours.out
		# ours again, in turn with inferno's
		set -- $(best_pair /dev/null "${BENCH_PAIR_RUNS:-11}" \
		    "$bin/stackcollapse-xctrace" -q "$xcin" -- "$xcinferno" "$xcin")
		ow=$1 oc=$3 pw=$4 pk=$5 pc=$6
		awk -v w="$ow" -v c="$oc" 'BEGIN {
			printf "%-5s %-22s %-34s %8.3f s  %.3f s CPU\n",
			    "X", "stackcollapse-xctrace", "in turn with inferno:", w, c }'
		awk -v w="$pw" -v k="$pk" -v c="$pc" -v ow="$ow" -v oc="$oc" 'BEGIN {
			printf "%-5s %-22s %-34s %8.3f s  %.3f s CPU  %7.1f MB RSS\n",
			    "X", "inferno-collapse-xctrace", "same file (0.12.8)", w, c, k / 1024
			printf "%-5s %-22s %-34s %7.1fx faster (CPU %.1fx) on xctrace-200k.xml\n",
			    "X", "stackcollapse-xctrace", "against inferno-collapse-xctrace",
			    w / ow, (oc > 0 ? c / oc : 0) }'
	else
		echo "xctrace: inferno-collapse-xctrace not found (INFERNO=DIR): no peer to compare with"
	fi
fi
