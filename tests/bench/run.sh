#!/bin/sh
# run.sh - the benchmark behind `make bench`: builds large deterministic
# inputs, runs each built tool over them (best of 3), and prints MB/s and
# peak RSS.  Not a test: nothing here passes or fails on timing.
#
# Environment: FOLDKIT_BIN (the built tools), BENCH (work folder with gen
# and runstat), BENCH_MB (input size, default 1000), BENCH_RUNS (default 3).
set -u
bin=${FOLDKIT_BIN:?}
work=${BENCH:?}
mb=${BENCH_MB:-1000}
runs=${BENCH_RUNS:-3}
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$work" || exit 1

# Inputs, made once per size.
folded=folded-$mb.txt		# sorted, as collapsers write: 100k stacks, 5k names
wide=wide-$mb.txt		# same shape, 20k names
shuf=shuffled-$mb.txt		# random order, 20k names
small=folded-$((mb / 10)).txt	# a tenth, to show memory stays flat
perfin=perf-$mb.txt		# our recorded capture, repeated
[ -s "$folded" ] || ./gen folded "$mb" 100000 5000 > "$folded"
[ -s "$wide" ] || ./gen folded "$mb" 100000 20000 > "$wide"
[ -s "$shuf" ] || ./gen shuffled "$mb" 100000 20000 > "$shuf"
[ -s "$small" ] || ./gen folded $((mb / 10)) 100000 5000 > "$small"
if [ ! -s "$perfin" ]; then
	cap=$top/examples/minieth.perf.txt
	size=$(wc -c < "$cap")
	n=$((mb * 1000000 / size + 1))
	i=0
	while [ $i -lt "$n" ]; do cat "$cap"; i=$((i + 1)); done > "$perfin"
fi

# best TOOL INPUT [ARGS...]: "MB/s RSS_MB" of the fastest of $runs runs.
best() {
	tool=$1 input=$2
	shift 2
	bytes=$(wc -c < "$input")
	b=
	for r in $(seq "$runs"); do
		set -- $(./runstat "$input" "$bin/$tool" "$@") "$@"
		t=$1 kb=$2 st=$3
		shift 4
		[ "$st" -ne 0 ] && [ "$st" -ne 1 ] && { echo "$tool failed: $st" >&2; }
		if [ -z "$b" ] || [ "$(echo "$t < $b" | bc -l 2>/dev/null || awk "BEGIN{print ($t < $b)}")" = 1 ]; then
			b=$t
			rss=$kb
		fi
	done
	awk -v by="$bytes" -v t="$b" -v kb="$rss" 'BEGIN {
		printf "%8.0f MB/s  %7.1f MB RSS  (%.0f MB in %.3f s)", by / 1e6 / t, kb / 1024, by / 1e6, t }'
}

# best_of INPUT CMD...: "WALL RSS_KB CPU": the best wall time of $runs runs
# (runstat, stdin from INPUT, stdout to /dev/null), its peak RSS, and the
# best CPU time (user + system).
best_of() {
	bw= bk= bc= bi=$1
	shift
	for r in $(seq "$runs"); do
		set -- $(./runstat "$bi" "$@") "$@"
		w=$1 k=$2 c=$4
		shift 4
		if [ -z "$bw" ] || [ "$(awk -v a="$w" -v b="$bw" 'BEGIN { print (a < b) }')" = 1 ]; then
			bw=$w bk=$k
		fi
		if [ -z "$bc" ] || [ "$(awk -v a="$c" -v b="$bc" 'BEGIN { print (a < b) }')" = 1 ]; then
			bc=$c
		fi
	done
	echo "$bw $bk $bc"
}

# best_pair INPUT N CMD1... -- CMD2...: the two commands run in turn, N
# times each (stdin from INPUT, stdout to /dev/null), so that both see the
# same moments of a host whose speed drifts (ours do, by 2x over minutes):
# "WALL1 RSS1 CPU1 WALL2 RSS2 CPU2", each the best of its N.  (The words
# of the commands are split again: no blanks in their paths.)
best_pair() {
	bp_in=$1 bp_n=$2
	shift 2
	bp_a= bp_b=
	for bp_x in "$@"; do
		shift
		[ "$bp_x" = -- ] && break
		bp_a="$bp_a $bp_x"
	done
	bp_b="$*"
	for bp_r in $(seq "$bp_n"); do
		echo "a $(./runstat "$bp_in" $bp_a)"
		echo "b $(./runstat "$bp_in" $bp_b)"
	done | awk '{
		if (!($1 in w) || $2 < w[$1]) { w[$1] = $2; k[$1] = $3 }
		if (!($1 in c) || $5 < c[$1]) c[$1] = $5
	} END { print w["a"], k["a"], c["a"], w["b"], k["b"], c["b"] }'
}

# cmd_best CMD...: best_of with no input.
cmd_best() {
	best_of /dev/null "$@"
}

# Rows are labelled with the input's shape: R is 100k distinct stacks
# repeated up to $mb MB (or a capture repeated), D the deep stacks of
# flamegraph-svg.sh; T and L, each stack once, are in shapes.sh.
rowshape=R
row() {
	printf '%-5s %-22s %-34s ' "$rowshape" "$1" "$2"
	shift 2
	best "$@"
	echo
}

echo "foldkit bench: $(uname -sm), $(getconf _NPROCESSORS_ONLN) CPUs, best of $runs"
[ -x "$bin/foldtop" ] && {
	row foldtop "folded, 5k names" foldtop "$folded"
	row foldtop "folded, 5k names, 1/10 size" foldtop "$small"
	row foldtop "folded, 20k names" foldtop "$wide"
	row foldtop "shuffled, 20k names" foldtop "$shuf"
	row "foldtop --focus" "folded, 5k names" foldtop "$folded" --focus 'minieth_vm::'
}
[ -x "$bin/foldcallers" ] && {
	row foldcallers "folded, 5k names" foldcallers "$folded" 'keccak'
	row "foldcallers -c" "folded, 5k names" foldcallers "$folded" -c minieth_vm 'keccak'
}
[ -x "$bin/foldmodules" ] && {
	row "foldmodules --preset rust" "folded, 5k names" foldmodules "$folded" --preset rust
	row "foldmodules --by incl." "folded, 5k names" foldmodules "$folded" --preset rust --by inclusive
}
[ -x "$bin/foldstats" ] && row foldstats "folded, 5k names" foldstats "$folded"
[ -x "$bin/stackcollapse-perf" ] &&
	row stackcollapse-perf "perf script (examples/minieth)" stackcollapse-perf "$perfin"
[ -x "$bin/stackcollapse-perf" ] && . "$top/tests/bench/perfdata.sh"
[ -x "$bin/stackcollapse-perf" ] && . "$top/tests/bench/perfdata-dwarf.sh"
[ -x "$bin/stackcollapse-perf" ] && . "$top/tests/bench/perfdata-scale.sh"
for t in stackcollapse-dtrace flamegraph-svg; do
	[ -x "$bin/$t" ] && [ -f "$top/tests/bench/$t.sh" ] && . "$top/tests/bench/$t.sh"
done
[ -x "$bin/folddiff" ] && . "$top/tests/bench/folddiff.sh"
[ -x "$bin/stackcollapse-pprof" ] && . "$top/tests/bench/pprof.sh"
[ -x "$bin/stackcollapse-xctrace" ] && . "$top/tests/bench/xctrace.sh"
[ -x "$bin/stackcollapse-callgrind" ] && . "$top/tests/bench/callgrind.sh"
[ -x "$bin/stackcollapse-samply" ] && . "$top/tests/bench/samply.sh"
[ -x "$bin/stackcollapse-sample" ] && . "$top/tests/bench/sample.sh"

. "$top/tests/bench/shapes.sh"

. "$top/tests/bench/demangle.sh"
. "$top/tests/bench/demangle-rust.sh"

# The seed's Perl one-liner for leaf hotspots, for scale (100 MB).
if command -v perl >/dev/null 2>&1; then
	head -c 100000000 "$folded" > perl-in.txt
	t0=$(date +%s.%N)
	perl -ne 'chomp; if (/^(.*)\s+(\d+)$/) { @frames = split(/;/, $1);
		$leaf = $frames[-1]; $total{$leaf} += $2; } END {
		for (sort { $total{$b} <=> $total{$a} } keys %total) {
		printf "%12d  %s\n", $total{$_}, $_; } }' perl-in.txt > /dev/null
	t1=$(date +%s.%N)
	awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%-5s %-22s %-34s %8.0f MB/s  (100 MB in %.3f s)\n",
		"R", "perl one-liner (seed)", "folded, 5k names, leaf only", 100 / (b - a), b - a }'
	rm -f perl-in.txt
fi
