# callgrind.sh - sourced by run.sh ($work is the cwd, $bin, $top, $runs
# defined there; cmd_best from run.sh): stackcollapse-
# callgrind on a context-separated callgrind profile recorded here, beside
# callgrind_annotate --inclusive=yes on the same file in the same run (the
# only other reader of callgrind files whose costs agree with ours: it
# ranks the same self and inclusive costs per context).
#
# The profile: gcc's cc1 compiling tests/data/callgrind/src/prog.c
# (preprocessed) at -O1 under
#   valgrind --tool=callgrind --separate-callers=50
# made once (about a minute): ~50 MB with the gcc 12 of Debian 12, some
# 300k lines of 40k contexts, stacks up to 50 callers deep.  Both read the
# file and write to /dev/null; best of $runs runs, wall and CPU (user +
# system) from runstat.
cgin=cg-cc1.out
if [ ! -s "$cgin" ] && command -v valgrind > /dev/null 2>&1 &&
    command -v gcc > /dev/null 2>&1; then
	gcc -E "$top/tests/data/callgrind/src/prog.c" > cg-prog.i &&
	    valgrind --tool=callgrind --separate-callers=50 \
		--callgrind-out-file="$cgin.tmp" "$(gcc -print-prog-name=cc1)" \
		-quiet -O1 -fpreprocessed cg-prog.i -o /dev/null 2> /dev/null &&
	    mv "$cgin.tmp" "$cgin"
	rm -f cg-prog.i "$cgin.tmp"
fi
if [ ! -s "$cgin" ]; then
	echo "callgrind: valgrind or gcc not installed: no profile recorded, skipped"
elif ! command -v cmd_best > /dev/null 2>&1; then
	echo "callgrind: cmd_best (tests/bench/run.sh) not defined: skipped"
else
	set -- $(cmd_best "$bin/stackcollapse-callgrind" "$cgin")
	ow=$1 ok=$2 oc=$3
	mb=$(wc -c < "$cgin")
	awk -v w="$ow" -v k="$ok" -v c="$oc" -v s="$mb" 'BEGIN {
		printf "%-5s %-22s %-34s %8.3f s  %.3f s CPU  %7.1f MB RSS  (%.1f MB)\n",
		    "G", "stackcollapse-callgrind", "callgrind, cc1 -O1, --sep.-callers=50", w, c, k / 1024, s / 1e6 }'
	# the stacks add up to the file's total, or the figures mean nothing
	sum=$("$bin/stackcollapse-callgrind" "$cgin" | awk '{ s += $NF } END { printf "%.0f", s }')
	[ "$sum" = "$(sed -n 's/^totals: //p' "$cgin")" ] ||
	    echo "callgrind: the stacks do not add up to the totals: line!"
	if command -v callgrind_annotate > /dev/null 2>&1; then
		set -- $(cmd_best callgrind_annotate --inclusive=yes "$cgin")
		pw=$1 pk=$2 pc=$3
		awk -v w="$pw" -v k="$pk" -v c="$pc" -v ow="$ow" -v oc="$oc" 'BEGIN {
			printf "%-5s %-22s %-34s %8.3f s  %.3f s CPU  %7.1f MB RSS\n",
			    "G", "callgrind_annotate", "--inclusive=yes, same file", w, c, k / 1024
			printf "%-5s %-22s %-34s %7.1fx faster (CPU %.1fx) on cg-cc1.out\n",
			    "G", "stackcollapse-callgrind", "against callgrind_annotate",
			    w / ow, (oc > 0 ? c / oc : 0) }'
	else
		echo "callgrind: callgrind_annotate not installed: nothing to compare with"
	fi
fi
