#!/bin/sh
# seed-analysis.sh [stacks.folded] - the whole text-based analysis of the
# profiling guide (Profiling ethrex Block Execution, step 3), with foldkit in
# place of its Perl one-liners: hotspots, callers, modules, and a look at the
# profile itself.  Without an argument it collapses our recorded capture
# (examples/minieth.perf.txt, whose crates are named minieth_* where the
# guide's are ethrex_*).
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
f=$1

echo "== Is the profile sound? (foldstats)"
"$bin/foldstats" "$f"
echo
echo "== Top hotspots by leaf function (self time)"
"$bin/foldtop" -n 10 "$f"
echo
echo "== Who calls the hot function: first ancestor matching /minieth/"
echo "   (the guide: grep KeccakF1600 | perl ... if (\$f[\$j] =~ /ethrex/) ...)"
"$bin/foldcallers" -c minieth keccak_f1600 "$f"
echo
echo "== Module-level breakdown: which crate takes the time"
echo "   (the guide: perl ... if (\$frame =~ /(ethrex_\\w+)::/) ...)"
"$bin/foldmodules" -p '(minieth_\w+)::' "$f"
echo
echo "== The same by where the CPU was, with each crate's hottest functions"
"$bin/foldmodules" -p '(minieth_\w+)::' --by leaf --top-functions 2 "$f"
