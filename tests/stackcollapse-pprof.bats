#!/usr/bin/env bats
# stackcollapse-pprof: pprof profiles (profile.proto) to folded stacks.  The
# Go profiles' expected stacks are pprof's own (go tool pprof -traces, read
# back by tests/data/pprof/src/traces2folded.awk when they were recorded);
# where go is installed they are made again from pprof here.

load helper

D=$BATS_TEST_DIRNAME/data/pprof
sc() { "$BIN/stackcollapse-pprof" "$@"; }
gen() { "$TESTBIN/pprofgen" "$@"; }

setup() {
	T=$BATS_TEST_TMPDIR
}

# case_ok GOLD [ARGS...]: the output is $D/GOLD.folded, no message, exit 0.
case_ok() {
	local gold=$1
	shift
	run --separate-stderr sc "$@"
	[ "$status" -eq 0 ] || fail "status $status: $stderr"
	[ -z "$stderr" ] || fail "stderr: $stderr"
	golden "$D/$gold.folded"
}

# The edge-case profile of pprofgen (pprof's packing, -u, -p) in $T.
edge() {
	gen "$@" edge > "$T/edge${1:-}.pb"
}

@test "Go CPU profile (gzip): pprof -traces' stacks, values in nanoseconds" {
	case_ok cpu "$D/cpu.pb.gz"
	[ "${#lines[@]}" -eq 36 ]
}

@test "inlined functions follow their caller, innermost last" {
	run sc "$D/cpu.pb.gz"
	[[ "$output" == *";main.hashAll;main.hashBlock;main.round;main.mix "* ]]
	# mix and round are lines of hashBlock's location: never on their own
	! [[ "$output" == *";main.hashAll;main.round"* ]]
}

@test "--sample-index by number and by name (pprof's -sample_index)" {
	case_ok cpu-samples --sample-index 0 "$D/cpu.pb.gz"
	case_ok cpu-samples --sample-index samples "$D/cpu.pb.gz"
	case_ok cpu --sample-index 1 "$D/cpu.pb.gz"
	case_ok cpu --sample-index=cpu "$D/cpu.pb.gz"
}

@test "heap profile: the last type by default; each of the four by name and index" {
	case_ok heap "$D/heap.pb.gz"
	case_ok heap --sample-index inuse_space "$D/heap.pb.gz"
	case_ok heap --sample-index 3 "$D/heap.pb.gz"
	case_ok heap-alloc_objects --sample-index alloc_objects "$D/heap.pb.gz"
	case_ok heap-alloc_objects --sample-index 0 "$D/heap.pb.gz"
	case_ok heap-alloc_space --sample-index alloc_space "$D/heap.pb.gz"
	case_ok heap-alloc_space --sample-index 1 "$D/heap.pb.gz"
	case_ok heap-inuse_objects --sample-index inuse_objects "$D/heap.pb.gz"
	case_ok heap-inuse_objects --sample-index 2 "$D/heap.pb.gz"
}

@test "allocs profile: default_sample_type (alloc_space) is the default" {
	case_ok allocs "$D/allocs.pb.gz"
	case_ok allocs --sample-index alloc_space "$D/allocs.pb.gz"
	run sc --sample-index inuse_space "$D/allocs.pb.gz"
	[ "$status" -eq 0 ]
	! diff -q <(printf '%s\n' "$output") "$D/allocs.folded" > /dev/null
}

@test "--label: goroutine labels as root frames, first key at the root, as -tagroot" {
	case_ok cpu-label --label worker --label phase "$D/cpu.pb.gz"
	case_ok cpu-label --label worker,phase "$D/cpu.pb.gz"
	[[ "${lines[0]}" == "hash;one;main.main.func1;runtime/pprof.Do;"* ]]
	# the sort goroutine has no phase label
	[[ "${lines[35]}" == "sort;[unknown];main.main.func2;"* ]]
}

@test "--label on a numeric label (heap's bytes, no unit)" {
	case_ok heap-label --label bytes "$D/heap.pb.gz"
}

@test "--lines: :FILE:LINE after each name, as pprof -lines" {
	case_ok cpu-lines --lines "$D/cpu.pb.gz"
	[[ "$output" == *";main.round:foldkit/pprofwork/main.go:26;main.mix:foldkit/pprofwork/main.go:24 "* ]]
}

@test "go tool pprof -traces, run here, agrees (skipped without go)" {
	command -v go > /dev/null 2>&1 || skip "go not installed"
	HOME=$T GOCACHE=$T/gocache sh "$D/src/record.sh" --expect "$T" ||
		fail "record.sh --expect failed"
	for f in "$D"/*.folded; do
		case $(basename "$f") in edge* | risc0*) continue ;; esac
		cmp "$f" "$T/$(basename "$f")" || fail "$(basename "$f") differs from pprof's now"
	done
	gen risc0 > "$T/r.pb"
	go tool pprof -symbolize=none -traces "$T/r.pb" 2> /dev/null |
		awk -f "$D/src/traces2folded.awk" | LC_ALL=C sort > "$T/r.folded"
	cmp "$T/r.folded" "$D/risc0.folded"
}

@test "a raw (not gzipped) Go profile reads the same" {
	gzip -dc "$D/cpu.pb.gz" > "$T/cpu.pb"
	case_ok cpu "$T/cpu.pb"
	gzip -n -9 < "$D/risc0.pb" > "$T/risc0.pb.gz"
	case_ok risc0 "$T/risc0.pb.gz"
}

@test "RISC Zero-shaped profile (raw, cycles): the stacks; pprofgen still writes it" {
	case_ok risc0 "$D/risc0.pb"
	[ "${lines[3]}" = "__start;fibonacci::main;fibonacci::fibonacci_1 2000000" ]
	[ "${lines[4]}" = "__start;fibonacci::main;fibonacci::fibonacci_1;<u64 as core::ops::arith::Add>::add 1200000" ]
	[ "${lines[2]}" = "__start;fibonacci::main;[PageIn] 131072" ]
	case_ok risc0 --sample-index cycles "$D/risc0.pb"
	gen risc0 | cmp - "$D/risc0.pb"
}

@test "RISC Zero workflow: stackcollapse-pprof profile.pb | foldtop" {
	run bash -c '"$1" "$2" | "$3" -n 3' _ "$BIN/stackcollapse-pprof" "$D/risc0.pb" "$BIN/foldtop"
	[ "$status" -eq 0 ]
	[[ "${lines[1]}" == *"fibonacci::fibonacci_1" ]]
}

@test "stdin when no file, and '-'; gzip and raw" {
	run sc < "$D/cpu.pb.gz"
	golden "$D/cpu.folded"
	run sc - < "$D/cpu.pb.gz"
	golden "$D/cpu.folded"
	run bash -c 'cat "$1" | "$2"' _ "$D/risc0.pb" "$BIN/stackcollapse-pprof"
	golden "$D/risc0.folded"
}

@test "several profiles are summed, gzip and raw mixed" {
	awk '{ n = $NF; $NF = ""; printf "%s%d\n", $0, 2 * n }' "$D/cpu.folded" > "$T/double"
	gzip -dc "$D/cpu.pb.gz" > "$T/cpu.pb"
	run sc "$D/cpu.pb.gz" "$T/cpu.pb"
	[ "$status" -eq 0 ]
	golden "$T/double"
	run sc "$D/cpu.pb.gz" - < "$T/cpu.pb"
	golden "$T/double"
	# different programs: the union
	run sc "$D/risc0.pb" "$D/cpu.pb.gz"
	golden <(LC_ALL=C sort "$D/risc0.folded" "$D/cpu.folded")
}

@test "--list: the sample types, their units, the default; exits without stacks" {
	run --separate-stderr sc --list "$D/heap.pb.gz"
	[ "$status" -eq 0 ]
	[ "$output" = $'0 alloc_objects count\n1 alloc_space bytes\n2 inuse_objects count\n3 inuse_space bytes (default)' ]
	run sc --list "$D/allocs.pb.gz"
	[ "${lines[1]}" = "1 alloc_space bytes (default)" ]
	[ "${lines[3]}" = "3 inuse_space bytes" ]
	run sc --list < "$D/risc0.pb"
	[ "$output" = "0 cycles count (default)" ]
	run sc --list "$D/cpu.pb.gz" "$D/risc0.pb"
	[ "$output" = "$D/cpu.pb.gz:
0 samples count
1 cpu nanoseconds (default)
$D/risc0.pb:
0 cycles count (default)" ]
	# --sample-index does not move the default shown
	run sc --list --sample-index 0 "$D/cpu.pb.gz"
	[ "${lines[1]}" = "1 cpu nanoseconds (default)" ]
}

@test "edge cases: packed, unpacked or pprof's mix: the same stacks" {
	edge
	edge -u
	edge -p
	! cmp -s "$T/edge.pb" "$T/edge-u.pb"
	! cmp -s "$T/edge.pb" "$T/edge-p.pb"
	for f in edge edge-u edge-p; do
		case_ok edge -q "$T/$f.pb"
	done
}

@test "edge cases: fields in any order, unknown fields skipped, sparse ids, default_sample_type in the middle" {
	edge
	case_ok edge -q "$T/edge.pb"
	case_ok edge -q --sample-index cpu "$T/edge.pb"
	case_ok edge -q --sample-index 1 "$T/edge.pb"
	# inlined lines reversed: caller first
	[[ "$output" == *"_start;main;outer;inner 160"* ]]
}

@test "edge cases: names — system_name, [unknown], ';' and CR LF, [binary] without lines" {
	edge
	run sc -q "$T/edge.pb"
	[[ "$output" == *"_start;_ZN3foo3barEv 60"* ]]	# the system name
	[[ "$output" == *"_start;odd:name  here 80"* ]]
	[[ "$output" == *"_start;main;outer;inner;[libc.so.6] 30"* ]]
	[[ "$output" == *"_start;[unknown] 3160"* ]]
}

@test "edge cases: zero values skipped, other sample types" {
	edge
	run sc -q "$T/edge.pb"
	[[ "$output" != *zero_cpu* ]]
	case_ok edge-samples -q --sample-index samples "$T/edge.pb"
	[[ "$output" == *"_start;zero_cpu 1"* ]]
	run sc -q --sample-index wall "$T/edge.pb"
	[[ "$output" == *"_start;zero_cpu 91"* ]]
	# pprof's: inuse_NAME is also NAME
	run sc -q --sample-index inuse_wall "$T/edge.pb"
	[[ "$output" == *"_start;zero_cpu 91"* ]]
}

@test "--addrs: [BASENAME <0xADDR>] for locations without lines" {
	edge
	case_ok edge-addrs -q --addrs "$T/edge.pb"
	[[ "$output" == *"_start;main;outer;inner;[libc.so.6 <0x7f0000123456>] 30"* ]]
	[[ "$output" == *"_start;[unknown <0xdead>] 40"* ]]
}

@test "--lines: ?? for no file, ? for line 0, nothing when both are missing" {
	edge
	case_ok edge-lines -q --lines "$T/edge.pb"
	[[ "$output" == *";nofile_line0:has/file.c:? 110"* ]]
	[[ "$output" == *";noname_file:??:77 120"* ]]
	[[ "$output" == *";main:src/main.c:31;outer:src/outer.c:21;inner:src/inner.c:11 130"* ]]
}

@test "--demangle: C++ and Rust names left mangled" {
	edge
	case_ok edge-demangle -q --demangle "$T/edge.pb"
	[[ "$output" == *"_start;foo::bar 60"* ]]
	[[ "$output" == *"_start;m::work::<u32> 100"* ]]
}

@test "--label: strings, numbers with their unit, several values, none: [unknown]" {
	edge
	case_ok edge-label -q --label thread --label bytes,req "$T/edge.pb"
	[ "${lines[8]}" = "worker-1,pool:a;4096bytes;7;_start;[unknown] 1000" ]
	[ "${lines[9]}" = "worker-2;[unknown];[unknown];_start;[unknown] 2000" ]
}

@test "a sample without a location: warned, -q silences, --strict fails" {
	edge
	run --separate-stderr sc "$T/edge.pb"
	[ "$status" -eq 0 ]
	[ "$stderr" = "stackcollapse-pprof: $T/edge.pb: 1 sample without a location skipped" ]
	golden "$D/edge.folded"
	run --separate-stderr sc --quiet "$T/edge.pb"
	[ "$status" -eq 0 ] && [ -z "$stderr" ]
	run --separate-stderr sc --strict "$T/edge.pb"
	[ "$status" -eq 1 ]
	[ "$stderr" = "stackcollapse-pprof: $T/edge.pb: 1 sample without a location" ]
	[ -z "$output" ]
}

@test "negative values (a -diff_base profile): warned and skipped; --strict fails" {
	gen hostile negative > "$T/neg.pb"
	run --separate-stderr sc "$T/neg.pb"
	[ "$status" -eq 0 ]
	[ "$stderr" = "stackcollapse-pprof: $T/neg.pb: 2 samples with a negative value skipped (a -diff_base profile?)" ]
	[ "$output" = "root;leaf 50" ]
	run --separate-stderr sc -q "$T/neg.pb"
	[ "$status" -eq 0 ] && [ -z "$stderr" ]
	run --separate-stderr sc --strict "$T/neg.pb"
	[ "$status" -eq 1 ]
	[ "$stderr" = "stackcollapse-pprof: $T/neg.pb: 2 samples with a negative value (a -diff_base profile?)" ]
	[ -z "$output" ]
}

@test "--sample-index that the profile does not have: message, exit 1" {
	run --separate-stderr sc --sample-index 4 "$D/heap.pb.gz"
	[ "$status" -eq 1 ]
	[ "$stderr" = "stackcollapse-pprof: $D/heap.pb.gz: sample index 4 is out of range: the profile has 4 sample types (0 to 3)" ]
	[ -z "$output" ]
	run --separate-stderr sc --sample-index cycles "$D/heap.pb.gz"
	[ "$status" -eq 1 ]
	[ "$stderr" = "stackcollapse-pprof: $D/heap.pb.gz: no sample type 'cycles' in the profile (it has: alloc_objects, alloc_space, inuse_objects, inuse_space)" ]
	# the profiles that have it are still read
	run --separate-stderr sc --sample-index cycles "$D/heap.pb.gz" "$D/risc0.pb"
	[ "$status" -eq 1 ]
	golden "$D/risc0.folded"
}

@test "a file that cannot be opened: named, exit 1, the others still read" {
	run --separate-stderr sc "$T/missing.pb" "$D/risc0.pb"
	[ "$status" -eq 1 ]
	[ "$stderr" = "stackcollapse-pprof: $T/missing.pb: No such file or directory" ]
	golden "$D/risc0.folded"
}

@test "usage errors exit 2; --help and --version exit 0" {
	run sc --no-such-option "$D/risc0.pb"
	[ "$status" -eq 2 ]
	[[ "$output" == *"usage: stackcollapse-pprof"* ]]
	run sc --sample-index
	[ "$status" -eq 2 ]
	run --separate-stderr sc --sample-index= "$D/risc0.pb"
	[ "$status" -eq 2 ]
	[ "$stderr" = "stackcollapse-pprof: --sample-index: an index or a sample type name is needed" ]
	run sc --label
	[ "$status" -eq 2 ]
	run sc --help
	[ "$status" -eq 0 ]
	[[ "${lines[0]}" == "usage: stackcollapse-pprof "* ]]
	[[ "$output" == *"--sample-index N|NAME"* ]]
	run sc -h
	[ "$status" -eq 0 ]
	run sc --version
	[ "$status" -eq 0 ]
	[[ "$output" == "stackcollapse-pprof (foldkit) "* ]]
}

@test "usage text and man page SYNOPSIS list the same options; man page lints" {
	usage_matches_man stackcollapse-pprof
	man_lint stackcollapse-pprof.1
}

@test "a full disk is an error; a closed pipe ends quietly" {
	full_disk stackcollapse-pprof "$D/cpu.pb.gz"
	closed_pipe "$(head -1 "$D/cpu.folded")" stackcollapse-pprof "$D/cpu.pb.gz"
}

@test "output is valid folded input for the other tools" {
	for f in "$D"/*.pb*; do
		sc "$f" > "$T/out" 2> /dev/null
		"$BIN/foldtop" --strict "$T/out" > /dev/null || fail "$f"
	done
}
