# boxbytes.awk - the size of a flame graph per box: reads an SVG written by
# flamegraph-svg and prints "BYTES TEXTS BOXES TOTAL": the bytes of the
# whole file per box besides the names (the name in each title, the label
# text), the same besides the whole title and label texts, the number of
# boxes and the file size.  Used by make bench and the size test.
{
	total += length($0) + 1
	n = split($0, part, /<\/g>|<\/a>/)
	for (i = 1; i <= n; i++) {
		if (!match(part[i], /<title>[^<]*<\/title>/))
			continue
		boxes++
		t = substr(part[i], RSTART + 7, RLENGTH - 15)
		nm = t
		sub(/ \([^(]*\)$/, "", nm)
		l = ""
		if (match(part[i], /<text[^>]*>[^<]*<\/text>/)) {
			l = substr(part[i], RSTART, RLENGTH)
			sub(/^<text[^>]*>/, "", l)
			sub(/<\/text>$/, "", l)
		}
		names += length(nm) + length(l)
		texts += length(t) + length(l)
	}
}
END {
	if (boxes == 0)
		boxes = 1
	printf "%.2f %.2f %d %d\n", (total - names) / boxes,
	    (total - texts) / boxes, boxes, total
}
