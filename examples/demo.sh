#!/bin/sh
# demo.sh - what `make demo` runs: the main pipeline on a capture we recorded
# (examples/minieth.perf.txt: `perf record -g` of examples/workload/minieth,
# then `perf script`).  Collapse it, print the top hotspots, and draw the
# flame graph when flamegraph-svg is built.
set -e
here=$(cd "$(dirname "$0")" && pwd)
bin=${FOLDKIT_BIN:-$(cd "$here/.." && pwd)/build/bin}
top=$(cd "$here/.." && pwd)
out=${DEMO_OUT:-$top/build/demo}
mkdir -p "$out"
export LC_ALL=C

echo "== perf script | stackcollapse-perf > stacks.folded"
"$bin/stackcollapse-perf" "$here/minieth.perf.txt" > "$out/stacks.folded"
echo "$(wc -l < "$out/stacks.folded") distinct stacks in $out/stacks.folded"
echo
echo "== foldtop stacks.folded | head -15   (leaf hotspots)"
"$bin/foldtop" -n 15 "$out/stacks.folded"
if [ -x "$bin/flamegraph-svg" ]; then
	echo
	echo "== flamegraph-svg stacks.folded > cpu.svg"
	"$bin/flamegraph-svg" --title "minieth-replay" "$out/stacks.folded" > "$out/cpu.svg"
	echo "wrote $out/cpu.svg: open it in a browser"
fi
