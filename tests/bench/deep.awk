# deep.awk - deep stacks for the flame graph size figure (make bench) and
# its test: n stacks (default 20000) of 10 to 40 frames drawn from 4000
# names, with shared callers near the root; a fixed LCG, the same every
# time.  Pipe through LC_ALL=C sort for folded order.
function rnd(k) { seed = (seed * 69069 + 1) % 4294967296
	return int(seed / 65536) % k }
BEGIN {
	seed = 7
	if (n == "")
		n = 20000
	split("vm trie rlp crypto db net sync rpc evm state", mods, " ")
	for (f = 0; f < 4000; f++)
		fn[f] = "minieth_" mods[1 + rnd(10)] "::f" f
	for (s = 0; s < n; s++) {
		d = 10 + rnd(30)
		line = "minieth-replay"
		for (k = 0; k < d; k++)
			line = line ";" fn[k < 8 ? rnd(2 + k) : rnd(4000)]
		print line, 1 + rnd(50)
	}
}
