# Per-leaf sums of folded stacks, keyed so that FlameGraph's
# stackcollapse-sample.awk output (awk=1) and ours meet: the thread's
# Thread_N, then the leaf's MODULE` and its name up to the first ' ', '('
# or '.'.  The awk script keeps sample's names: a Rust legacy name is
# finished here first (hash and " (.llvm.N)" dropped, escapes decoded).
function rust(s,  n, seg, i, o) {
	sub(/\.\(\.llvm\.[0-9]+\)$/, "", s)
	if (!match(s, /::h[0-9a-f]+$/) || RLENGTH != 19) return s
	s = substr(s, 1, length(s) - 19)
	n = split(s, seg, "::"); o = ""
	for (i = 1; i <= n; i++) {
		if (substr(seg[i], 1, 2) == "_$") seg[i] = substr(seg[i], 2)
		o = o (i > 1 ? "::" : "") seg[i]
	}
	gsub(/\.\./, "::", o)
	gsub(/\$SP\$/, "@", o); gsub(/\$BP\$/, "*", o); gsub(/\$RF\$/, "\\&", o)
	gsub(/\$LT\$/, "<", o); gsub(/\$GT\$/, ">", o); gsub(/\$LP\$/, "(", o)
	gsub(/\$RP\$/, ")", o); gsub(/\$C\$/, ",", o); gsub(/\$u7e\$/, "~", o)
	gsub(/\$u20\$/, " ", o); gsub(/\$u27\$/, "'", o); gsub(/\$u3d\$/, "=", o)
	gsub(/\$u5b\$/, "[", o); gsub(/\$u5d\$/, "]", o); gsub(/\$u7b\$/, "{", o)
	gsub(/\$u7d\$/, "}", o); gsub(/\$u2b\$/, "+", o); gsub(/\$u21\$/, "!", o)
	return o
}
function word(s,  i) { i = match(s, /[ (.]/); return i ? substr(s, 1, i - 1) : s }
{
	c = $NF; if (c == 0) next
	st = substr($0, 1, length($0) - length(c) - 1)
	k = split(st, f, ";")
	leaf = f[k]; j = index(leaf, "`")
	m = j ? substr(leaf, 1, j) : ""; nm = j ? substr(leaf, j + 1) : leaf
	if (awk) nm = rust(nm)
	sum[word(f[1]) "|" m word(nm)] += c
}
END { for (s in sum) print s " " sum[s] }
