# traces2folded.awk - `go tool pprof -traces` output read back into folded
# stacks, to check stackcollapse-pprof against pprof itself (record.sh and
# tests/stackcollapse-pprof.bats).  Run pprof with -symbolize=none and a
# -unit that prints exact values (ns, B; none for counts).
#
# A sample is the block after a "-----------+---" line: label lines
# ("%10s:  %s", skipped), then the frames, leaf first, the value before the
# first ("%10s   %s"), 13 spaces before the others; " (inline)" marks a
# frame inlined into the next.  Frames are joined root first with ';' (';'
# in a name made ':'), pprof's "<unknown>" is "[unknown]", the values of a
# stack summed; samples of value 0 are dropped.  With -v lines=1 (pprof
# -lines), "name file:line" becomes "name:file:line".
function flush(   s, i) {
	if (n > 0 && v != 0) {
		s = f[n]
		for (i = n - 1; i >= 1; i--)
			s = s ";" f[i]
		sum[s] += v
	}
	n = 0
	v = 0
}
function frame(name) {
	sub(/ \(inline\)$/, "", name)
	if (name == "<unknown>")
		name = "[unknown]"
	if (lines && match(name, / [^ ]*$/))
		name = substr(name, 1, RSTART - 1) ":" substr(name, RSTART + 1)
	gsub(/;/, ":", name)
	f[++n] = name
}
/^-----------\+-+$/ { flush(); insample = 1; next }
!insample { next }
/^             / { frame(substr($0, 14)); next }
{
	tok = $1
	if (n == 0 && tok ~ /:$/)	# a label
		next
	val = tok
	sub(/[^0-9-]+$/, "", val)
	v = val + 0
	rest = substr($0, index($0, tok) + length(tok) + 3)
	frame(rest)
}
END {
	flush()
	for (s in sum)
		printf "%s %.0f\n", s, sum[s]
}
