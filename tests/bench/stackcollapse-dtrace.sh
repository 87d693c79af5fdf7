# stackcollapse-dtrace.sh - sourced by run.sh ($work is the cwd, $mb the
# size, row defined there): a DTrace ustack() aggregation made here, the
# same every time (a fixed LCG, no rand()), 4000 distinct records of 6 to
# 40 frames in a tree of shared callers, repeated to $mb MB.
dtin=dtrace-$mb.txt
if [ ! -s "$dtin" ]; then
	awk 'function rnd(n) { seed = (seed * 69069 + 1) % 4294967296
		return int(seed / 65536) % n }
	BEGIN {
		seed = 42
		split("genunix unix zfs libc.so.1 libzpool.so.1 mysqld libjvm.so sshd", mods, " ")
		split("kmem_ cache_ vn_ lookup zio_ spa_ dbuf_ arc_ row_ ha_ btr_ page_ mutex_ cv_ thread_ sched_ read write open alloc free hash_ insert_ search_", pre, " ")
		split("get put enter exit wait signal init fini create destroy commit flush sync next find walk", suf, " ")
		for (f = 0; f < 3000; f++)
			fn[f] = mods[1 + rnd(8)] "`" pre[1 + rnd(24)] suf[1 + rnd(16)] (f % 7 ? "" : "_impl")
		printf "CPU     ID                    FUNCTION:NAME\n  0  64091                        :tick-60s \n\n\n"
		for (r = 0; r < 4000; r++) {
			d = 6 + rnd(35)
			# callers near the root are shared: few choices there
			for (k = 0; k < d; k++)
				st[k] = fn[rnd(k < 4 ? 4 * (k + 1) : 3000)]
			for (k = d - 1; k >= 0; k--)
				printf "              %s+0x%x\n", st[k], 1 + rnd(4096)
			printf "%17d\n\n", 1 + rnd(5000)
		}
	}' > dtrace-block.txt
	size=$(wc -c < dtrace-block.txt)
	n=$((mb * 1000000 / size + 1))
	i=0
	while [ $i -lt "$n" ]; do cat dtrace-block.txt; i=$((i + 1)); done > "$dtin"
	rm -f dtrace-block.txt
fi
row stackcollapse-dtrace "dtrace ustack(), 4k records" stackcollapse-dtrace "$dtin"
row "  --includeoffset" "same input" stackcollapse-dtrace "$dtin" --includeoffset
