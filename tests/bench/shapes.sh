# shapes.sh - sourced by run.sh ($work is the cwd, $bin the tools, $runs):
# the tools on profiles where each distinct stack appears once, as the
# collapsers write them, side by side with the peers they replace, in the
# same run on the same input, with the ratio (peer time / our time).
#
# Shapes (tests/bench/gen.c):
#   T   tree-like: `gen folded 0 N`, each stack once; at 100k stacks 39 MB,
#       11.8 frames, 10.5 of them shared with the line before, 20k names
#   L   deep and name-rich: `gen deep N`; at 100k stacks 95 MB, 36 frames,
#       4.8 shared with the line before, 142k distinct names
# each sorted (as collapsers write) and shuffled (Ts, Ls), at 100k and 1M
# stacks.  BENCH_SHAPES picks some (default: all eight).
#
# Floor rows: the least work any tool does on the input (read and split;
# frames hashed; the frames not shared with the line before interned), on
# the same input, against the same peer: a goal above the floor's ratio
# cannot be met by a tool that must do that work.
#
# Peers, where installed: inferno-flamegraph (INFERNO=dir, PATH, or
# ~/.cache/foldkit-peers/inferno/bin) against flamegraph-svg; flamegraph.pl
# (FLAMEGRAPH_PL=path or folder, PATH, or ../shared/peers beside the
# project) on the 10k-stack versions (it is slow);
# the seed's Perl leaf one-liner (perl on PATH) against foldtop, foldcallers,
# foldmodules and foldstats.  Without a peer a row says "peer not installed".
# Times are the best of $runs runs (stdout to /dev/null): wall clock, and
# CPU (user + system).  On a machine shared with other work the CPU times
# are the steadier comparison; both ratios are printed (peer / ours).

shapes=${BENCH_SHAPES:-T Ts L Ls T1M Ts1M L1M Ls1M}

inferno=
for d in ${INFERNO:-} $(command -v inferno-flamegraph 2>/dev/null | sed 's,/[^/]*$,,') \
    "$HOME/.cache/foldkit-peers/inferno/bin"; do
	[ -x "$d/inferno-flamegraph" ] && { inferno=$d/inferno-flamegraph; break; }
done
# FLAMEGRAPH_PL: flamegraph.pl itself, or the folder of FlameGraph's scripts
fgpl=
for c in "${FLAMEGRAPH_PL:-}" "${FLAMEGRAPH_PL:+$FLAMEGRAPH_PL/flamegraph.pl}" \
    "$(command -v flamegraph.pl 2>/dev/null)" \
    "$top/../shared/peers/flamegraph-pl/flamegraph.pl"; do
	[ -n "$c" ] && [ -f "$c" ] && { fgpl=$c; break; }
done
perl=$(command -v perl 2>/dev/null)
oneliner='chomp; if (/^(.*)\s+(\d+)$/) { @frames = split(/;/, $1);
	$leaf = $frames[-1]; $total{$leaf} += $2; } END {
	for (sort { $total{$b} <=> $total{$a} } keys %total) {
	printf "%12d  %s\n", $total{$_}, $_; } }'

# shape_file SHAPE: make the input once, print its name.
shape_file() {
	case $1 in
	T) f=T-100k.txt g="folded 0 100000" ;;
	Ts) f=Ts-100k.txt g="shuffled 0 100000" ;;
	L) f=L-100k.txt g="deep 100000" ;;
	Ls) f=Ls-100k.txt g="deepshuf 100000" ;;
	T1M) f=T-1M.txt g="folded 0 1000000" ;;
	Ts1M) f=Ts-1M.txt g="shuffled 0 1000000" ;;
	L1M) f=L-1M.txt g="deep 1000000" ;;
	Ls1M) f=Ls-1M.txt g="deepshuf 1000000" ;;
	T10k) f=T-10k.txt g="folded 0 10000" ;;
	L10k) f=L-10k.txt g="deep 10000" ;;
	esac
	[ -s "$f" ] || ./gen $g > "$f"
	echo "$f"
}

# besttime INPUT CMD [ARG...]: "WALL RSS_KB CPU", the best wall and CPU
# times of $runs runs (RSS of the fastest).
besttime() {
	_in=$1
	shift
	_b= _kb= _c=
	for _r in $(seq "$runs"); do
		set -- $(./runstat "$_in" "$@") "$@"
		_t=$1 _k=$2 _st=$3 _u=$4
		shift 4
		[ "$_st" -ne 0 ] && { echo "$* failed: status $_st" >&2; }
		if [ -z "$_b" ] || awk "BEGIN { exit !($_t < $_b) }"; then
			_b=$_t _kb=$_k
		fi
		if [ -z "$_c" ] || awk "BEGIN { exit !($_u < $_c) }"; then
			_c=$_u
		fi
	done
	echo "$_b $_kb $_c"
}

# srow SHAPE FILE LABEL "OURS: WALL RSS_KB CPU" PEER_NAME "PEER: WALL RSS CPU"
srow() {
	awk -v sh="$1" -v f="$2" -v lab="$3" -v o="$4" -v pn="$5" -v p="$6" \
	    -v by="$(wc -c < "$2")" 'BEGIN {
		split(o, a, " ")
		printf "%-5s %-27s %5.0f MB/s %6.3f s %6.3f cpu %5.0f MB", sh, lab,
		    by / 1e6 / a[1], a[1], a[3], a[2] / 1024
		if (p == "")
			printf "  %-21s %s\n", pn, "peer not installed"
		else {
			split(p, b, " ")
			printf "  %-21s %6.3f s %6.3f cpu %5.1fx %5.1fx\n", pn,
			    b[1], b[3], b[1] / a[1], b[3] / a[3]
		} }'
}

echo
echo "shape tool (each stack once)   ours: MB/s, wall, CPU seconds, RSS        peer: wall, CPU seconds       ratio: wall  CPU"
for sh in $shapes; do
	f=$(shape_file "$sh")
	echo "-- $f: $(wc -l < "$f") stacks, $(($(wc -c < "$f") / 1000000)) MB"
	p=
	[ -n "$inferno" ] && p=$(besttime "$f" "$inferno")
	srow "$sh" "$f" flamegraph-svg "$(besttime "$f" "$bin/flamegraph-svg")" \
	    inferno-flamegraph "$p"
	case $sh in L*)
		p=
		[ -n "$inferno" ] && p=$(besttime "$f" "$inferno" --minwidth 0)
		srow "$sh" "$f" "flamegraph-svg --minwidth 0" \
		    "$(besttime "$f" "$bin/flamegraph-svg" --minwidth 0)" \
		    "inferno --minwidth 0" "$p" ;;
	esac
	p=
	[ -n "$perl" ] && p=$(besttime "$f" "$perl" -ne "$oneliner")
	srow "$sh" "$f" foldtop "$(besttime "$f" "$bin/foldtop")" \
	    "perl leaf one-liner" "$p"
	srow "$sh" "$f" "foldcallers keccak" \
	    "$(besttime "$f" "$bin/foldcallers" keccak)" "perl leaf one-liner" "$p"
	srow "$sh" "$f" "foldmodules --preset rust" \
	    "$(besttime "$f" "$bin/foldmodules" --preset rust)" \
	    "perl leaf one-liner" "$p"
	srow "$sh" "$f" foldstats "$(besttime "$f" "$bin/foldstats")" \
	    "perl leaf one-liner" "$p"
	# What no tool can avoid on this input (tests/bench/floor.c): the
	# read and the line ends; each frame found and hashed; and the
	# frames not shared with the line before interned, the least a tool
	# that counts per function does (foldtop, foldstats).
	for m in lines frames new; do
		srow "$sh" "$f" "floor: $m" "$(besttime "$f" ./floor "$m" /dev/stdin)" \
		    "perl leaf one-liner" "$p"
	done
done
# flamegraph.pl is slow: the 10k-stack versions of T and L.
for sh in T10k L10k; do
	f=$(shape_file "$sh")
	p=
	[ -n "$fgpl" ] && p=$(besttime "$f" "$perl" "$fgpl")
	srow "$sh" "$f" flamegraph-svg "$(besttime "$f" "$bin/flamegraph-svg")" \
	    flamegraph.pl "$p"
done
