# exact.awk - the self and inclusive cost of each function, from folded
# stacks (FILENAME ends .folded) and from callgrind_annotate's function
# lists (FILENAME ends .self: without --inclusive; .incl: with
# --inclusive=yes), run on a profile recorded with --separate-callers.
# Prints a line per difference and "checked N M": N functions whose self
# cost agree, M whose inclusive cost do.  A context "f['L]'caller'..." of
# annotate counts for f's inclusive cost when f is not among its callers
# and it has no recursion level (the outermost f of a stack), and only for
# functions annotate lists under one source file (with fi=/fe= parts it
# lists inclusive costs of parts).
function ann(line,    m, i, n, name, rest, p) {
	# "   1,234 (12.34%)  file:context [object]"
	if (line !~ /^ *[0-9,]+ +\( *[0-9.]+%\) +[^ ]/)
		return 0
	sub(/^ *[0-9,]+ +\( *[0-9.]+%\) +/, "", line)
	if (line ~ /^PROGRAM TOTALS/ || line ~ /^=>/)
		return 0
	sub(/ \[[^]]*\]$/, "", line)
	p = index(line, ":")
	if (p == 0)
		return 0
	afile = substr(line, 1, p - 1)
	actx = substr(line, p + 1)
	return 1
}
function cost(line,    c) {
	c = line
	sub(/^ */, "", c)
	sub(/ .*/, "", c)
	gsub(/,/, "", c)
	return c + 0
}
FILENAME ~ /\.folded$/ {
	n = $NF + 0
	st = $0
	sub(/ [0-9]+$/, "", st)
	k = split(st, fr, ";")
	fself[fr[k]] += n
	delete seen
	for (i = 1; i <= k; i++)
		if (!(fr[i] in seen)) {
			seen[fr[i]] = 1
			fincl[fr[i]] += n
		}
	next
}
FILENAME ~ /\.self$/ && !done_self {
	if ($0 ~ /file:function/) { listing_self = 1; next }
	if (listing_self && $0 == "") { done_self = 1; next }
	if (!listing_self || !ann($0)) next
	k = split(actx, pc, "'")
	f = pc[1]
	aself[f] += cost($0)
	if (!((f, afile) in files)) { files[f, afile] = 1; nfiles[f]++ }
	next
}
FILENAME ~ /\.incl$/ && !done_incl {
	if ($0 ~ /file:function/) { listing_incl = 1; next }
	if (listing_incl && $0 == "") { done_incl = 1; next }
	if (!listing_incl || !ann($0)) next
	k = split(actx, pc, "'")
	f = pc[1]
	if (k > 1 && pc[2] ~ /^[0-9]+$/)
		next		# a recursion level: inside an outer f
	for (i = 2; i <= k; i++)
		if (pc[i] == f)
			break
	if (i <= k)
		next		# f among its callers
	aincl[f] += cost($0)
	next
}
END {
	for (f in aself) {
		if (fself[f] != aself[f]) {
			print "self " f ": folded " fself[f] ", callgrind_annotate " aself[f]
			bad++
		} else
			ns++
	}
	for (f in fself)
		if (!(f in aself) && fself[f] != 0) {
			print "self " f ": folded " fself[f] ", not in callgrind_annotate"
			bad++
		}
	for (f in aincl) {
		if (nfiles[f] > 1)
			continue
		if (fincl[f] != aincl[f]) {
			print "inclusive " f ": folded " fincl[f] ", callgrind_annotate " aincl[f]
			bad++
		} else
			ni++
	}
	print "checked " ns " " ni
	exit bad > 0
}
