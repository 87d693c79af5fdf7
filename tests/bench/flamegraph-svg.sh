# flamegraph-svg.sh - sourced by run.sh ($work is the cwd, $mb the size,
# $folded and $shuf the shared inputs, row defined there).
#
# Speed: the 100k-unique-stack folded profile (sorted, and shuffled).
# Size: 20k deep stacks (10 to 40 frames, deep.awk) drawn with --minwidth 0,
# hundreds of thousands of boxes; boxbytes.awk gives the size of the whole
# file per box besides the names (title text minus " (N samples, P%)", and
# labels) and besides the whole title and label texts.
row flamegraph-svg "folded, 100k stacks, 5k names" flamegraph-svg "$folded"
row flamegraph-svg "shuffled, 100k stacks, 20k names" flamegraph-svg "$shuf"
row "flamegraph-svg --hash" "folded, 100k stacks, 5k names" flamegraph-svg "$folded" --hash

deep=deep-20k.txt
[ -s "$deep" ] || awk -f "$top/tests/bench/deep.awk" | LC_ALL=C sort > "$deep"
rowshape=D
row "flamegraph-svg --minwidth 0" "20k deep stacks (10-40 frames)" flamegraph-svg "$deep" --minwidth 0
rowshape=R
"$bin/flamegraph-svg" --minwidth 0 "$deep" > deep.svg
LC_ALL=C awk -f "$top/tests/bench/boxbytes.awk" deep.svg | {
	read bytes texts nbox total
	printf "%-5s %-22s %-34s %8s bytes/box besides names, %s besides title+label texts (%d boxes, %.1f MB)\n" \
		D "flamegraph-svg size" "--minwidth 0, 20k deep stacks" "$bytes" "$texts" "$nbox" \
		"$(awk -v t="$total" 'BEGIN { print t / 1e6 }')"
}
rm -f deep.svg
