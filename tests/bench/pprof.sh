# pprof.sh - sourced by run.sh ($work is the cwd, $bin, $top, $runs
# defined there): stackcollapse-pprof on a Go-shaped CPU profile made here,
# beside `go tool pprof -traces` on the same file in the same run (when go
# is installed).
#
# The profile: `pprofgen bench 200000 20000 1 | gzip -n -6`
# (tests/tools/pprofgen.c, the same bytes every time): 200k samples over
# 20k functions and 40k locations (one in eight with two functions
# inlined), stacks of 4 to 31 frames under a few shared callers, values
# [samples, nanoseconds]; 13 MB raw, 8 MB gzip-compressed.  Both sides read
# the file and write to /dev/null; best of $runs runs, wall and CPU (user +
# system) from runstat.  The peer prints each sample (its value scaled,
# "10ms") where we write each distinct stack once: their stacks and sums
# are the same (checked on this profile when the bench is made: see
# tests/stackcollapse-pprof.bats for the check on real Go profiles).
ppgen=$bin/../test/pprofgen
ppin=pprof-200k.pb.gz
if [ ! -s "$ppin" ] && [ -x "$ppgen" ]; then
	"$ppgen" bench 200000 20000 1 | gzip -n -6 > "$ppin.tmp" &&
	    mv "$ppin.tmp" "$ppin"
fi

if [ ! -s "$ppin" ]; then
	echo "pprof: no pprofgen in $bin/../test (make build/test/pprofgen): skipped"
else
	set -- $(best_of /dev/null "$bin/stackcollapse-pprof" "$ppin")
	ow=$1 ok=$2 oc=$3
	mb=$(wc -c < "$ppin")
	awk -v w="$ow" -v k="$ok" -v c="$oc" -v s="$mb" 'BEGIN {
		printf "%-5s %-22s %-34s %8.3f s  %.3f s CPU  %7.1f MB RSS  (%.1f MB)\n",
		    "P", "stackcollapse-pprof", "pprof gzip, 200k samples, 20k fns", w, c, k / 1024, s / 1e6 }'
	if command -v go > /dev/null 2>&1 && go tool pprof -h > /dev/null 2>&1; then
		# the same stacks and sums, or the figures mean nothing
		go tool pprof -symbolize=none -traces -sample_index=0 "$ppin" 2> /dev/null |
		    awk -f "$top/tests/data/pprof/src/traces2folded.awk" |
		    LC_ALL=C sort > pp-peer.out
		"$bin/stackcollapse-pprof" --sample-index 0 "$ppin" > pp-ours.out
		cmp -s pp-peer.out pp-ours.out || echo "pprof: the stacks differ from go tool pprof's!"
		rm -f pp-peer.out pp-ours.out
		set -- $(best_of /dev/null go tool pprof -symbolize=none -traces "$ppin")
		pw=$1 pk=$2 pc=$3
		awk -v w="$pw" -v k="$pk" -v c="$pc" -v ow="$ow" -v oc="$oc" -v v="$(go version | cut -d' ' -f3)" 'BEGIN {
			printf "%-5s %-22s %-34s %8.3f s  %.3f s CPU  %7.1f MB RSS\n",
			    "P", "go tool pprof -traces", "same file (" v ")", w, c, k / 1024
			printf "%-5s %-22s %-34s %7.1fx faster (CPU %.1fx) on pprof-200k.pb.gz\n",
			    "P", "stackcollapse-pprof", "against go tool pprof -traces",
			    w / ow, (oc > 0 ? c / oc : 0) }'
	else
		echo "pprof: go not installed: no go tool pprof -traces to compare with"
	fi
fi
