# samply.sh - sourced by run.sh ($work is the cwd, $bin, $top, $runs and
# cmd_best defined there): stackcollapse-samply on a samply-shaped profile
# of a million samples made here, raw and gzip-compressed, beside the
# floors (inflating the file: gzip -dc; parsing it: jq empty), and beside
# the jq program one writes today (tests/bench/samply-fold.jq) on a real
# profile of the conformance corpus, whose output it must equal.
#
# The profile: `samplygen -v 55 -d -n 1000000` (tests/tools/samplygen.c,
# the same bytes every time): format version 55 as samply 0.13 writes it,
# one thread, 1M samples over 20k stacks (a random tree, up to ~40 deep)
# of 4k frames, a third named, weights of 1, timeDeltas of 6 decimals, CPU
# deltas; 20.5 MB of JSON, 0.8 MB gzip-compressed.  Output to /dev/null;
# best of $runs runs, wall and CPU (user + system) from runstat.
sagen=$bin/../test/samplygen
sain=samply-1m.json
if [ ! -s "$sain.gz" ] && [ -x "$sagen" ]; then
	"$sagen" -v 55 -d -n 1000000 > "$sain.tmp" && mv "$sain.tmp" "$sain" &&
	    gzip -n -6 -c "$sain" > "$sain.gz"
fi

# sa_row LABEL INPUT-NAME CMD...: one row
sa_row() {
	l=$1 n=$2
	shift 2
	set -- $(cmd_best "$@")
	awk -v l="$l" -v n="$n" -v w="$1" -v k="$2" -v c="$3" 'BEGIN {
		printf "%-5s %-22s %-34s %8.3f s  %.3f s CPU  %7.1f MB RSS\n",
		    "S", l, n, w, c, k / 1024 }'
}

if [ ! -s "$sain.gz" ]; then
	echo "samply: no samplygen in $bin/../test (make build/test/samplygen): skipped"
else
	sa_row stackcollapse-samply "1M samples, JSON 20 MB" "$bin/stackcollapse-samply" "$sain"
	sa_row stackcollapse-samply "1M samples, gzip 0.8 MB" "$bin/stackcollapse-samply" "$sain.gz"
	sa_row "floor: gzip -dc" "1M samples, gzip 0.8 MB" gzip -dc "$sain.gz"
	command -v jq > /dev/null 2>&1 &&
		sa_row "floor: jq empty" "1M samples, JSON 20 MB" jq empty "$sain"
	conf=$top/../shared/conformance/samply
	[ -d "$conf" ] || conf=$top/../../shared/conformance/samply
	rp=$conf/raphael-macro-solver-v49.json.gz
	if command -v jq > /dev/null 2>&1 && [ -s "$rp" ]; then
		gzip -dc "$rp" > samply-raphael.json
		# the same stacks and sums, or the figures mean nothing
		jq -r -f "$top/tests/bench/samply-fold.jq" samply-raphael.json |
		    LC_ALL=C sort > sa-peer.out
		"$bin/stackcollapse-samply" samply-raphael.json > sa-ours.out
		cmp -s sa-peer.out sa-ours.out || echo "samply: the stacks differ from the jq program's!"
		rm -f sa-peer.out sa-ours.out
		set -- $(cmd_best "$bin/stackcollapse-samply" samply-raphael.json)
		ow=$1 oc=$3
		sa_row stackcollapse-samply "raphael (24k samples, 5 MB)" "$bin/stackcollapse-samply" samply-raphael.json
		set -- $(cmd_best jq -r -f "$top/tests/bench/samply-fold.jq" samply-raphael.json)
		awk -v w="$1" -v k="$2" -v c="$3" -v ow="$ow" -v oc="$oc" 'BEGIN {
			printf "%-5s %-22s %-34s %8.3f s  %.3f s CPU  %7.1f MB RSS\n",
			    "S", "jq samply-fold.jq", "same file", w, c, k / 1024
			printf "%-5s %-22s %-34s %7.0fx faster (CPU %.0fx) on raphael-macro-solver-v49\n",
			    "S", "stackcollapse-samply", "against the jq program",
			    w / ow, (oc > 0 ? c / oc : 0) }'
	else
		echo "samply: no jq or no conformance corpus: no jq program to compare with"
	fi
fi
