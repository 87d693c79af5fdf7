#!/bin/sh
# record.sh - how the Go profiles of tests/data/pprof were made, and their
# expected folded stacks, from `go tool pprof -traces` read back by
# traces2folded.awk (Debian's golang-go, go 1.19).
#
#   sh record.sh               record cpu.pb.gz, heap.pb.gz, allocs.pb.gz
#                              with main.go, then write the expectations
#   sh record.sh --expect DIR  only the expectations of the committed
#                              profiles, into DIR (the tests' live check)
set -eu
src=$(cd "$(dirname "$0")" && pwd)
data=$(dirname "$src")
out=$data
if [ "${1:-}" = --expect ]; then
	out=${2:?usage: record.sh --expect DIR}
else
	work=$(mktemp -d)
	trap 'rm -rf "$work"' EXIT
	# -trimpath: file names in the profiles do not name this machine
	(cd "$src" && go build -trimpath -o "$work/pprofwork" .)
	(cd "$work" && ./pprofwork -cpu cpu.pb.gz -heap heap.pb.gz \
	    -allocs allocs.pb.gz -t 1.5)
	cp "$work/cpu.pb.gz" "$work/heap.pb.gz" "$work/allocs.pb.gz" "$data/"
fi

# traces NAME PROFILE [PPROF OPTIONS...]: NAME.folded from pprof -traces.
traces() {
	name=$1 prof=$2
	shift 2
	lines=0
	case " $* " in *" -lines "*) lines=1 ;; esac
	go tool pprof -symbolize=none -traces "$@" "$data/$prof" 2>/dev/null |
	    awk -v lines="$lines" -f "$src/traces2folded.awk" |
	    LC_ALL=C sort > "$out/$name.folded"
}
traces cpu cpu.pb.gz -unit=ns
traces cpu-samples cpu.pb.gz -sample_index=0
traces cpu-lines cpu.pb.gz -unit=ns -lines
traces cpu-label cpu.pb.gz -unit=ns -tagroot=worker,phase
traces heap heap.pb.gz -unit=B
traces heap-alloc_objects heap.pb.gz -sample_index=alloc_objects
traces heap-alloc_space heap.pb.gz -sample_index=alloc_space -unit=B
traces heap-inuse_objects heap.pb.gz -sample_index=inuse_objects
traces heap-label heap.pb.gz -unit=B -tagroot=bytes
traces allocs allocs.pb.gz -unit=B
