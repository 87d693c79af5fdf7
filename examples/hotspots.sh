#!/bin/sh
# hotspots.sh [stacks.folded] - the seed's "top hotspots by leaf function"
# workflow (docs: Profiling ethrex Block Execution, step 3), done with
# foldtop instead of a Perl one-liner.  Without an argument, it collapses
# our recorded capture first.
set -e
here=$(cd "$(dirname "$0")" && pwd)
bin=${FOLDKIT_BIN:-$here/../build/bin}
export LC_ALL=C
if [ $# -eq 0 ]; then
	tmp=$(mktemp)
	trap 'rm -f "$tmp"' EXIT
	"$bin/stackcollapse-perf" "$here/minieth.perf.txt" > "$tmp"
	set -- "$tmp"
fi

# Before (the seed):
#   perl -ne 'chomp; if (/^(.*)\s+(\d+)$/) { @frames = split(/;/, $1);
#     $leaf = $frames[-1]; $total{$leaf} += $2; } END { for (sort {
#     $total{$b} <=> $total{$a} } keys %total) { printf "%12d  %s\n",
#     $total{$_}, $_; } }' stacks.folded | head -30
# After:
echo "== Top hotspots by leaf function (self time)"
"$bin/foldtop" -n 30 "$1"
echo
echo "== The same, inclusive: what the hot paths go through"
"$bin/foldtop" -n 10 --sort total "$1"
echo
echo "== Only block execution, as a share of it"
"$bin/foldtop" -n 10 --focus 'minieth_vm::' --percent-of shown "$1"
