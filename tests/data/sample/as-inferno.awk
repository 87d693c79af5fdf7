# Our folded stacks as inferno 0.12.8 writes them: each name cut at its
# first '(' (the thread frame garbled the same way: MODULE`NAME from the
# text up to its first ')'), stacks whose leaf ends in a wait function's
# name dropped, the stacks that then fold together summed.  A Rust closure
# after the first path segment keeps the '_' inferno leaves on it
# (_{{closure}}).  With -v nomod=1, for --no-modules: the thread frame is
# only cut.
function rtrim(s) { sub(/ +$/, "", s); return s }
function cut(s,  i) {
	gsub(/::\{\{closure\}\}/, "::_{{closure}}", s)
	i = index(s, "("); return i ? rtrim(substr(s, 1, i - 1)) : s
}
BEGIN { n = split("__psynch_cvwait __select __semwait_signal __ulock_wait __wait4 __workq_kernreturn kevent mach_msg_trap read semaphore_wait_trap", idle, " ") }
{
	c = $NF; st = substr($0, 1, length($0) - length(c) - 1)
	k = split(st, f, ";")
	r = f[1]
	if (index(r, ")") && !nomod) { m = substr(r, 1, index(r, ")") - 1); sub(/\.dylib$/, "", m); r = m "`" cut(r) }
	else r = cut(r)
	out = r
	for (i = 2; i <= k; i++) {
		j = index(f[i], "`")
		out = out ";" (j ? substr(f[i], 1, j) cut(substr(f[i], j + 1)) : cut(f[i]))
	}
	leaf = k > 1 ? out : r
	for (i = 1; i <= n; i++)
		if (length(leaf) >= length(idle[i]) && substr(leaf, length(leaf) - length(idle[i]) + 1) == idle[i]) next
	sum[out] += c
}
END { for (s in sum) print s " " sum[s] }
