# flamegraph-svg.sh - sourced by run.sh ($work is the cwd, $mb the size,
# $folded and $shuf the shared inputs, row defined there).
#
# Speed: the 100k-unique-stack folded profile (sorted, and shuffled).
# Size: 20k deep stacks (10 to 40 frames) (a fixed LCG, the same every time) drawn with
# --minwidth 0, hundreds of thousands of boxes; we print the bytes per box
# besides the names (title text minus " (N samples, P%)", and labels) and
# besides the whole title and label texts.
row flamegraph-svg "folded, 100k stacks, 5k names" flamegraph-svg "$folded"
row flamegraph-svg "shuffled, 100k stacks, 20k names" flamegraph-svg "$shuf"
row "flamegraph-svg --hash" "folded, 100k stacks, 5k names" flamegraph-svg "$folded" --hash

deep=deep-20k.txt
if [ ! -s "$deep" ]; then
	awk 'function rnd(n) { seed = (seed * 69069 + 1) % 4294967296
		return int(seed / 65536) % n }
	BEGIN {
		seed = 7
		split("vm trie rlp crypto db net sync rpc evm state", mods, " ")
		for (f = 0; f < 4000; f++)
			fn[f] = "minieth_" mods[1 + rnd(10)] "::f" f
		for (s = 0; s < 20000; s++) {
			d = 10 + rnd(30)
			line = "minieth-replay"
			# shared callers near the root, then spread out
			for (k = 0; k < d; k++)
				line = line ";" fn[k < 8 ? rnd(2 + k) : rnd(4000)]
			print line, 1 + rnd(50)
		}
	}' | LC_ALL=C sort > "$deep"
fi
row "flamegraph-svg --minwidth 0" "20k deep stacks (10-40 frames)" flamegraph-svg "$deep" --minwidth 0
"$bin/flamegraph-svg" --minwidth 0 "$deep" > deep.svg
grep '^<g><title>' deep.svg | awk -v total="$(wc -c < deep.svg)" '{
	t = $0; sub(/^<g><title>/, "", t); sub(/<\/title>.*/, "", t)
	nm = t; sub(/ \([^(]*\)$/, "", nm)
	l = ""; if (match($0, /<text[^>]*>[^<]*<\/text>/)) { l = substr($0, RSTART, RLENGTH)
		sub(/^<text[^>]*>/, "", l); sub(/<\/text>$/, "", l) }
	b += length($0) + 1; names += length(nm) + length(l); texts += length(t) + length(l) }
	END { printf "%-22s %-34s %8.1f bytes/box besides names, %.1f besides title+label texts (%d boxes, %.1f MB, %.1f bytes/box in all)\n",
		"flamegraph-svg size", "--minwidth 0, 20k deep stacks", (b - names) / NR, (b - texts) / NR, NR, total / 1e6, total / NR }'
rm -f deep.svg
