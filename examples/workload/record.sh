#!/bin/sh
# record.sh - build the demo workloads and re-record every perf capture that
# foldkit ships: the example captures in examples/ and the stackcollapse-perf
# test fixtures in tests/data/perf/.
#
# usage:  sh examples/workload/record.sh [all|examples|fixtures|demangle]   (default: all)
#
# Needs: a C compiler, cargo/rustc (for minieth, offline is fine), perf, and
# enough privilege to profile (root, or kernel.perf_event_paranoid <= 1 and
# kernel.kptr_restrict = 0 for kernel symbols).  Tracepoint fixtures need
# tracefs (/sys/kernel/tracing) and root.
#
# Everything recorded is real: pids, timestamps, addresses and paths are those
# of the machine it ran on.  Build output and perf.data files go to $REC_DIR
# (default /tmp/foldkit-rec), never into the repository; the Rust build goes to
# $CARGO_TARGET_DIR (default /tmp/minieth-target).
#
# Frequencies and workload sizes are chosen so each fixture holds a few dozen
# to a few hundred samples (well under 300 KB) and each example capture stays
# under 1.5 MB.  Re-recording changes pids/timestamps, so tests must not
# depend on exact values that a re-record would change without also updating
# their expected output.
set -eu

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
SRC=$ROOT/examples/workload
EX=$ROOT/examples
FX=$ROOT/tests/data/perf
REC_DIR=${REC_DIR:-/tmp/foldkit-rec}
PERF=${PERF:-perf}
CC=${CC:-cc}
CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-/tmp/minieth-target}"
export CARGO_TARGET_DIR
what=${1:-all}

mkdir -p "$REC_DIR" "$FX"
MINIDB=$REC_DIR/minidb
HEXNAMES=$REC_DIR/hexnames
REPLAY=$CARGO_TARGET_DIR/release/minieth-replay

# ---- build -----------------------------------------------------------------

build_minidb() {
	# -O1 keeps the named functions as real calls; frame pointers make
	# perf record -g (frame-pointer unwinding) give whole stacks.
	$CC -O1 -g -fno-omit-frame-pointer -pthread -o "$MINIDB" "$SRC/minidb.c"
}

build_hexnames() {
	$CC -O1 -g -fno-omit-frame-pointer -no-pie -pthread -o "$HEXNAMES" "$SRC/hexnames.c"
}

build_minieth() {
	# release profile has debug = true (see minieth/Cargo.toml); force frame
	# pointers so perf -g can walk Rust frames.
	(cd "$SRC/minieth" &&
		RUSTFLAGS="-C force-frame-pointers=yes" cargo build --release --offline)
}

# ---- helpers ---------------------------------------------------------------

# rec NAME PERF-RECORD-ARGS... -- run perf record into $REC_DIR/NAME.data
rec() {
	name=$1
	shift
	$PERF record -q -o "$REC_DIR/$name.data" "$@"
}

# scr NAME [PERF-SCRIPT-ARGS...] -- perf script of $REC_DIR/NAME.data to stdout
scr() {
	name=$1
	shift
	$PERF script -i "$REC_DIR/$name.data" "$@" 2>/dev/null
}

# first_samples N -- copy stdin up to and including the Nth blank line, i.e.
# the first N samples of callchain output (lines starting with # are kept and
# not counted).  Cuts only at a sample boundary.
first_samples() {
	awk -v n="$1" '{ print } /^$/ { if (++seen >= n) exit }'
}

# ---- example captures (examples/*.perf.txt) --------------------------------

record_examples() {
	# Main demo: the Rust "block replay", frame-pointer call graphs at 997 Hz
	# (as in the ethrex profiling guide, but -g instead of dwarf to keep the
	# capture small).  --repeat 4: about 0.5 s, ~500 samples, < 1 MB of text.
	rec minieth -F 997 -g -- "$REPLAY" --repeat 4
	scr minieth >"$EX/minieth.perf.txt"

	# The C workload, same settings (~1 s, ~1000 samples).
	rec minidb -F 997 -g -- "$MINIDB"
	scr minidb >"$EX/minidb.perf.txt"

	# The before/after pair of "did my change help?" (README, folddiff(1)):
	# wordfreq with find_word() scanning its table, then with a hash index
	# (-DHASHED), the same 8 rounds of work, 2999 Hz; committed as folded
	# stacks (stackcollapse-perf of the perf script text).
	$CC -O1 -g -fno-omit-frame-pointer -o "$REC_DIR/wordfreq" "$SRC/wordfreq.c"
	rec wordfreq-before -F 2999 -g -- "$REC_DIR/wordfreq" 8
	scr wordfreq-before | "$ROOT/build/bin/stackcollapse-perf" --samples >"$EX/wordfreq-before.folded"
	$CC -O1 -g -fno-omit-frame-pointer -DHASHED -o "$REC_DIR/wordfreq" "$SRC/wordfreq.c"
	rec wordfreq-after -F 2999 -g -- "$REC_DIR/wordfreq" 8
	scr wordfreq-after | "$ROOT/build/bin/stackcollapse-perf" --samples >"$EX/wordfreq-after.folded"
}

# ---- test fixtures (tests/data/perf/) --------------------------------------

record_fixtures() {
	# callchain-fp.txt: frame-pointer call graphs, default perf script fields.
	# The same recording feeds the fields-*.txt fixtures below.
	rec fp -F 997 -g -- "$MINIDB" -n 30
	scr fp >"$FX/callchain-fp.txt"

	# callchain-dwarf.txt: DWARF unwinding (8 KiB stack copies), low rate.
	rec dwarf -F 199 --call-graph dwarf,8192 -- "$MINIDB" -n 20
	scr dwarf | first_samples 60 >"$FX/callchain-dwarf.txt"

	# no-callchain.txt: no -g, so the symbol is on the header line and there
	# are no blank separator lines.
	rec nocg -F 997 -- "$MINIDB" -n 30
	scr nocg >"$FX/no-callchain.txt"

	# fields-*.txt: perf script -F field subsets of the callchain-fp recording.
	scr fp -F comm,pid,tid,ip,sym,dso | first_samples 80 >"$FX/fields-comm-pid-tid-ip-sym-dso.txt"
	scr fp -F comm,tid,ip,sym | first_samples 80 >"$FX/fields-comm-tid-ip-sym.txt"
	# (no cpu: it is not sampled without -a; see swapper-idle.txt for [CPU])
	scr fp -F comm,pid,tid,time,event,ip,sym,dso,period | first_samples 80 >"$FX/fields-full.txt"
	scr fp -F comm,tid,period,event,ip,sym,dso | first_samples 80 >"$FX/fields-comm-tid-period-event.txt"
	scr fp -F comm,pid,tid,time,ip,sym,symoff,dso | first_samples 80 >"$FX/fields-symoff.txt"
	# -F on a recording without call graphs: everything on the header line.
	scr nocg -F comm,tid,ip,sym,dso | head -n 150 >"$FX/fields-no-callchain.txt"
	# +srcline: after each frame line, a line with FILE:LINE (or ??:0).
	scr fp -F +srcline | first_samples 25 >"$FX/fields-srcline.txt"

	# with-header.txt: perf script --header (a block of # lines first).
	rec hdr -F 997 -g -- "$MINIDB" -n 3
	scr hdr --header | first_samples 10 >"$FX/with-header.txt"

	# mmap-task-events.txt: non-sample records (COMM, FORK, MMAP2, EXIT)
	# interleaved with samples; -t makes a second thread (FORK/COMM events).
	rec mmap -F 997 -g -- "$MINIDB" -t -n 10 -c worker
	scr mmap --show-mmap-events --show-task-events >"$FX/mmap-task-events.txt"

	# multi-event.txt: two events in one recording (no hardware PMU in the
	# VM this was first recorded on, so two software events).
	rec multi -F 997 -g -e cpu-clock -e page-faults -- "$MINIDB" -n 10
	scr multi >"$FX/multi-event.txt"

	# tracepoint.txt: syscalls:sys_enter_write with -g; the header carries
	# the tracepoint's arguments after the event name.  -s -n 1 does 200
	# 64 KiB writes to /dev/null.
	rec tp -g -e syscalls:sys_enter_write -- "$MINIDB" -s -n 1
	scr tp >"$FX/tracepoint.txt"

	# tracepoint-sched-switch.txt: sched:sched_switch with -g; the arguments
	# contain "==>" and a comm with spaces (prev_comm=my worker 1).
	# -u 2000: the worker sleeps 2 ms after each round, so it switches out.
	rec sched -g -e sched:sched_switch -- "$MINIDB" -t -n 40 -u 2000 -c "my worker 1"
	scr sched >"$FX/tracepoint-sched-switch.txt"

	# kernel.txt: syscall-heavy run, so stacks go into [kernel.kallsyms].
	rec kern -F 997 -g -- "$MINIDB" -s -n 20
	scr kern >"$FX/kernel.txt"

	# swapper-idle.txt: system-wide (-a) while minidb runs and then sleeps,
	# so the idle task "swapper" (pid 0, tid 0) is sampled too.  Only the
	# swapper and minidb samples are kept (--comms), printed with pid/tid
	# and cpu.
	rec swapper -a -F 199 -g -- sh -c "\"\$0\" -n 20; sleep 0.2" "$MINIDB"
	scr swapper --comms swapper,minidb -F comm,pid,tid,cpu,time,period,event,ip,sym,dso |
		first_samples 120 >"$FX/swapper-idle.txt"

	# header-comm-spaces.txt: the work runs in a thread named "my worker 1"
	# (prctl PR_SET_NAME); the main thread "minidb" only waits in
	# pthread_join, so it is rarely if ever sampled.
	rec spaces -F 997 -g -- "$MINIDB" -t -n 20 -c "my worker 1"
	scr spaces >"$FX/header-comm-spaces.txt"

	# non-utf8-comm.txt: comm set to the bytes ff fe "weird" (not UTF-8).
	rec nonutf8 -F 997 -g -- "$MINIDB" -n 20 -c '\xff\xfeweird'
	scr nonutf8 >"$FX/non-utf8-comm.txt"

	# jit-map.txt: minidb -j copies machine code into an executable mapping
	# and writes /tmp/perf-PID.map naming it (one name is a perf-map-agent
	# style inlined chain "A->B", one has a Java signature); the comm is set
	# to "java" so the java-specific rules apply.  perf script resolves the
	# frames from the map file, which is removed afterwards.  The sh -c
	# wrapper only records the pid (it execs minidb, so the pid is kept).
	rm -f "$REC_DIR/jit.pid"
	# shellcheck disable=SC2016 # $$ and $0 are for the inner sh
	rec jit -F 997 -g -- sh -c 'echo $$ >"$0"; exec "$1" -j -n 10 -c java' \
		"$REC_DIR/jit.pid" "$MINIDB"
	scr jit >"$FX/jit-map.txt"
	rm -f "/tmp/perf-$(cat "$REC_DIR/jit.pid").map"

	# hexnames-*.txt: command names whose first word is all hex digits
	# ("C2 CompilerThre", "DB Pool", "ab cd") and symbols that are
	# (add, fade), at all-decimal addresses (no PIE); without a call chain
	# (right-aligned one-line samples) and with one, under several -F sets;
	# --sample-cpu so that -F cpu is allowed.
	build_hexnames
	rec hexnocg -F 499 --sample-cpu -- "$HEXNAMES"
	rec hexcg -F 499 -g --sample-cpu -- "$HEXNAMES"
	scr hexnocg | head -n 60 >"$FX/hexnames-nocg.txt"
	for f in comm,tid,ip,sym,dso comm,tid,time,ip,sym,dso comm,tid,cpu,ip,sym,dso \
	    comm,tid,period,event,ip,sym,dso comm,pid,tid,event,ip,sym,dso; do
		scr hexnocg -F "$f" | head -n 60 >"$FX/hexnames-nocg-$(echo "$f" | tr , -).txt"
	done
	scr hexcg | first_samples 15 >"$FX/hexnames-cg.txt"
	for f in comm,tid,ip,sym,dso comm,tid,cpu,period,event,ip,sym,dso; do
		scr hexcg -F "$f" | first_samples 15 >"$FX/hexnames-cg-$(echo "$f" | tr , -).txt"
	done

	# Derived fixtures (not recorded; made from callchain-fp.txt).
	# truncated.txt: cut in the middle of a frame line of a later sample.
	size=$(wc -c <"$FX/callchain-fp.txt")
	cut=$(awk -v half=$((size / 2)) '
		{ off += length($0) + 1 }
		off > half && /^\t/ && $0 ~ /\(/ { print off - int(length($0) / 2); exit }
	' "$FX/callchain-fp.txt")
	head -c "$cut" "$FX/callchain-fp.txt" >"$FX/truncated.txt"
	# crlf.txt: every line ending is CR LF.
	sed 's/$/\r/' "$FX/callchain-fp.txt" >"$FX/crlf.txt"
	# blank-spaces.txt: the empty separator lines hold blanks instead:
	# alternately three spaces, a tab, and a space+tab.
	awk '/^$/ { n++; print (n % 3 == 1 ? "   " : n % 3 == 2 ? "\t" : " \t"); next } { print }' \
		"$FX/callchain-fp.txt" >"$FX/blank-spaces.txt"
}

# ---- demangling fixtures (tests/data/perf/demangle-*) ---------------------

# One recording each of a C++ and a Rust (v0 mangling) program, printed by
# perf script twice: demangled (perf's default) and --no-demangle, for
# stackcollapse-perf --demangle.  The .collapsed files are what
# stackcollapse-perf makes of the demangled text (the tests check that
# --demangle on the other gives the same).  Needs g++ and rustc.
record_demangle() {
	CXX=${CXX:-g++}
	$CXX -std=c++17 -O1 -g -fno-omit-frame-pointer -fno-inline \
		-o "$REC_DIR/cxxwork" "$SRC/cxxwork.cc"
	rustc -O -C force-frame-pointers=yes -C symbol-mangling-version=v0 \
		-o "$REC_DIR/rsw-v0" "$SRC/rswork.rs"
	rec dm-cxx -F 199 -g -- "$REC_DIR/cxxwork" 60000
	scr dm-cxx >"$FX/demangle-cxx.txt"
	scr dm-cxx --no-demangle >"$FX/demangle-cxx-nodm.txt"
	rec dm-rust -F 99 -g -- "$REC_DIR/rsw-v0" 30000
	scr dm-rust >"$FX/demangle-rust-v0.txt"
	scr dm-rust --no-demangle >"$FX/demangle-rust-v0-nodm.txt"
	sc=$ROOT/build/bin/stackcollapse-perf
	if [ -x "$sc" ]; then
		"$sc" "$FX/demangle-cxx.txt" >"$FX/demangle-cxx.collapsed"
		"$sc" "$FX/demangle-rust-v0.txt" >"$FX/demangle-rust-v0.collapsed"
	fi
}

case $what in
all)
	build_minidb
	build_minieth
	record_examples
	record_fixtures
	record_demangle
	;;
examples)
	build_minidb
	build_minieth
	record_examples
	;;
fixtures)
	build_minidb
	record_fixtures
	record_demangle
	;;
demangle)
	record_demangle
	;;
*)
	echo "usage: $0 [all|examples|fixtures|demangle]" >&2
	exit 2
	;;
esac
