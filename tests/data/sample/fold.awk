# A plain fold of a simple sample report, the oracle of the ordering and
# cache tests: frames "NAME  (in MODULE) + OFF  [0xADDR]" with NAME free of
# "  (in " and of the wait functions' names, MODULE without ".dylib"; the
# thread line whole.  Prints "STACK COUNT" unsorted (pipe it to LC_ALL=C
# sort): each stack's own samples (its count minus its children's),
# summed over identical stacks, stacks without own samples left out.
function pop(  self) {
	self = cnt[d] - kids[d]
	if (self > 0)
		sum[path[d]] += self
	d--
}
/^Call graph:/ { g = 1; d = 0; next }
/^Total number in stack/ { while (d > 0) pop(); g = 0; next }
g {
	match($0, /^    [ +!:|]*/)
	lvl = (RLENGTH - 4) / 2 + 1
	rest = substr($0, RLENGTH + 1)
	c = rest; sub(/ .*/, "", c)
	text = substr(rest, length(c) + 1); sub(/^ +/, "", text)
	if (lvl > 1) {
		i = index(text, "  (in ")
		name = substr(text, 1, i - 1)
		mod = substr(text, i + 6)
		sub(/\).*/, "", mod); sub(/\.dylib$/, "", mod)
		text = mod "`" name
	}
	while (d >= lvl) pop()
	d = lvl; cnt[d] = c + 0; kids[d] = 0
	if (d > 1) kids[d - 1] += c
	path[d] = d > 1 ? path[d - 1] ";" text : text
}
END { for (s in sum) print s, sum[s] }
