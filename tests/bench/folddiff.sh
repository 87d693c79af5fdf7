# folddiff.sh - sourced by run.sh ($work is the cwd, $bin the tools, $top
# the project, $runs the runs per row).
#
# Two profiles of 100k stacks each, each stack once (gen's shape T, sorted):
# BEFORE as gen writes it, AFTER the same profile after a change: the counts
# of six lines in seven changed, one stack in twenty gone, one in twenty new
# (a callee added).  folddiff and FlameGraph's difffolded.pl (where Perl and
# the script are found: $DIFFFOLDED, $FLAMEGRAPH_PL/difffolded.pl, or
# ../shared/peers beside the project) run on the same pair in this run,
# best of $runs each; the ratio is of the best times.
dbefore=diff-before-100k.txt
dafter=diff-after-100k.txt
[ -s "$dbefore" ] || ./gen folded 0 100000 5000 > "$dbefore"
[ -s "$dafter" ] || LC_ALL=C awk '{
	c = $NF; s = $0; sub(/ [0-9]+$/, "", s)
	if (NR % 20 == 0) next
	if (NR % 7) c = c + NR % 13 - 4
	if (c < 1) c = 1
	print s, c
	if (NR % 20 == 1) print s ";new_callee", NR % 50 + 1
}' "$dbefore" | LC_ALL=C sort > "$dafter"

# bestof CMD...: the best wall time of $runs runs, output to /dev/null;
# bestcpu: the least user+system CPU time (runstat's fourth field).
bestof() {
	_f=1 bestrun "$@"
}
bestcpu() {
	_f=4 bestrun "$@"
}
bestrun() {
	b=
	for r in $(seq "$runs"); do
		t=$(./runstat /dev/null "$@" | cut -d' ' -f"$_f")
		if [ -z "$b" ] || [ "$(awk "BEGIN{print ($t < $b)}")" = 1 ]; then b=$t; fi
	done
	echo "$b"
}

dpl=
for c in "${DIFFFOLDED:-}" "${FLAMEGRAPH_PL:+$FLAMEGRAPH_PL/difffolded.pl}" \
    "${FLAMEGRAPH_PL:+$(dirname "$FLAMEGRAPH_PL")/difffolded.pl}" \
    "$top/../shared/peers/flamegraph-pl/difffolded.pl" \
    "$top/../../shared/peers/flamegraph-pl/difffolded.pl"; do
	[ -n "$c" ] && [ -f "$c" ] && { dpl=$c; break; }
done
# (MB/s of both files together: row reads the size of its input argument)
rowshape=T
cat "$dbefore" "$dafter" > diff-both.txt
row folddiff "2 x 100k stacks (each once, sorted)" folddiff diff-both.txt "$dbefore" "$dafter"
row "folddiff -n" "2 x 100k stacks (each once, sorted)" folddiff diff-both.txt -n "$dbefore" "$dafter"
sort -r "$dafter" > diff-after-unsorted.txt
row folddiff "2 x 100k, AFTER unsorted (held)" folddiff diff-both.txt "$dbefore" diff-after-unsorted.txt
if command -v perl >/dev/null 2>&1 && [ -n "$dpl" ]; then
	tf=$(bestof "$bin/folddiff" "$dbefore" "$dafter")
	tp=$(bestof perl "$dpl" "$dbefore" "$dafter")
	awk -v f="$tf" -v p="$tp" 'BEGIN { printf "%-5s %-22s %-34s %8.3f s vs difffolded.pl %.3f s: %.1fx\n", "T",
		"folddiff vs peer", "2 x 100k stacks (each once, sorted)", f, p, p / f }'
	tf=$(bestcpu "$bin/folddiff" "$dbefore" "$dafter")
	tp=$(bestcpu perl "$dpl" "$dbefore" "$dafter")
	awk -v f="$tf" -v p="$tp" 'BEGIN { printf "%-5s %-22s %-34s %8.3f s vs difffolded.pl %.3f s: %.1fx\n", "T",
		"folddiff vs peer, CPU", "2 x 100k stacks (each once, sorted)", f, p, p / f }'
	# The floor (tests/bench/floor.c): the two files read with read(2)
	# and each line's end found, nothing else; no merge can do less.
	tf=$(bestcpu ./floor lines diff-both.txt)
	awk -v f="$tf" -v p="$tp" 'BEGIN { printf "%-5s %-22s %-34s %8.3f s vs difffolded.pl %.3f s: %.1fx\n", "T",
		"floor: read, line ends", "the same two files", f, p, p / f }'
	# through a pipe the output cannot be taken back: the order is
	# checked first, a second pass
	tf=$(bestcpu sh -c '"$0" "$1" "$2" | cat > /dev/null' "$bin/folddiff" "$dbefore" "$dafter")
	tp=$(bestcpu sh -c 'perl "$0" "$1" "$2" | cat > /dev/null' "$dpl" "$dbefore" "$dafter")
	awk -v f="$tf" -v p="$tp" 'BEGIN { printf "%-5s %-22s %-34s %8.3f s vs difffolded.pl %.3f s: %.1fx\n", "T",
		"folddiff | cat, CPU", "2 x 100k stacks (each once, sorted)", f, p, p / f }'
else
	printf '%-5s %-22s %-34s peer not installed (perl and difffolded.pl)\n' T "folddiff vs peer" "2 x 100k stacks"
fi
rm -f diff-after-unsorted.txt diff-both.txt
