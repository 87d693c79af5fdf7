#!/usr/bin/env bats
# foldstats: what a profile is.

load helper

fs() { "$BIN/foldstats" "$@"; }
P=$BATS_TEST_DIRNAME/data/analysis/profile.folded

# val KEY: the value of KEY in tsv output of the remaining arguments
val() {
	local k=$1
	shift
	fs --format tsv --no-header "$@" | awk -F '\t' -v k="$k" '$2 == k { print $1 }'
}

@test "text: every key, the depth histogram and the roots" {
	run fs "$P"
	[ "$status" -eq 0 ]
	golden "$DATA/analysis/stats.txt"
}

@test "json: the documented keys, nested at the dots, valid" {
	run fs --format json "$P"
	golden "$DATA/analysis/stats.json"
	valid_json
	for k in '"samples": 100' '"lines": 11' '"stacks": 11' '"frames": 24' '"leaves": 7' \
	    '"depth": {"min": 3, "mean": 5.53, "median": 6, "p90": 6, "p99": 8, "max": 8}' \
	    '"unknown": {"frames": 0.54, "samples": 3.00}' '"kernel": {"frames": 1.45, "samples": 4.00}' \
	    '"concentration": {"top1": 55.00, "top10": 100.00, "leaves50": 1, "leaves80": 3, "leaves90": 5}' \
	    '"roots": [{"name": "minieth-replay", "samples": 98, "percent": 98.00}, {"name": "tokio-worker", "samples": 2, "percent": 2.00}]'; do
		[[ "$output" == *"$k"* ]] || fail "missing $k"
	done
}

@test "tsv and csv: value then key, header unless --no-header" {
	run fs --format tsv "$P"
	[ "${lines[0]}" = $'value\tkey' ]
	[ "${lines[1]}" = $'100\tsamples' ]
	[ "${lines[${#lines[@]}-2]}" = $'98.00\troots.minieth-replay' ]
	run fs --format csv --no-header "$P"
	[ "${lines[0]}" = "100,samples" ]
	[ "$(val depth.p99 "$P")" = 8 ]
}

@test "distinct stacks and frames, with repeated lines and recursion" {
	printf 'a;b;a 1\na;b;a 2\na;c 3\n' > "$BATS_TEST_TMPDIR/r"
	[ "$(val samples "$BATS_TEST_TMPDIR/r")" = 6 ]
	[ "$(val lines "$BATS_TEST_TMPDIR/r")" = 3 ]
	[ "$(val stacks "$BATS_TEST_TMPDIR/r")" = 2 ]
	[ "$(val frames "$BATS_TEST_TMPDIR/r")" = 3 ]
	[ "$(val leaves "$BATS_TEST_TMPDIR/r")" = 2 ]
	[ "$(val depth.max "$BATS_TEST_TMPDIR/r")" = 3 ]
}

@test "unresolved, kernel, jit and inline frames are counted" {
	printf 'p;[libc.so.6];f_[j];g_[i] 1\np;sys_[k];[unknown] 3\n' > "$BATS_TEST_TMPDIR/k"
	[ "$(val unresolved.samples "$BATS_TEST_TMPDIR/k")" = 100.00 ]
	[ "$(val unknown.samples "$BATS_TEST_TMPDIR/k")" = 75.00 ]
	[ "$(val unknown.frames "$BATS_TEST_TMPDIR/k")" = 23.08 ]
	[ "$(val jit.frames "$BATS_TEST_TMPDIR/k")" = 7.69 ]
	[ "$(val inline.samples "$BATS_TEST_TMPDIR/k")" = 25.00 ]
	[ "$(val kernel.frames "$BATS_TEST_TMPDIR/k")" = 23.08 ]
	# a kernel frame kept from the line before, then gone
	printf 'p;k_[k];a 1\np;k_[k];b 1\np;c 2\np;k_[k] 4\n' > "$BATS_TEST_TMPDIR/k2"
	[ "$(val kernel.frames "$BATS_TEST_TMPDIR/k2")" = 33.33 ]
	[ "$(val kernel.samples "$BATS_TEST_TMPDIR/k2")" = 75.00 ]
}

@test "stacks cut at the same depth give the truncation hint" {
	for i in 1 2 3 4; do printf 'p'; for d in $(seq 1 40); do printf ';f%s_%s' "$d" "$i"; done; printf ' %s\n' "$i"; done > "$BATS_TEST_TMPDIR/t"
	echo 'p;short 10' >> "$BATS_TEST_TMPDIR/t"
	run fs "$BATS_TEST_TMPDIR/t"
	[ "${lines[${#lines[@]}-1]}" = "hint: 4 stacks (50.00% of the samples) end at the maximum depth, 41: the profiler may have cut them (perf keeps 127 frames unless told otherwise)" ]
	[ "$(val max_depth.truncated "$BATS_TEST_TMPDIR/t")" = 1 ]
	[ "$(val max_depth.truncated "$P")" = 0 ]
}

@test "-n and --min-percent choose the roots listed" {
	for i in $(seq 1 15); do echo "proc$i;f $i"; done > "$BATS_TEST_TMPDIR/roots"
	run fs "$BATS_TEST_TMPDIR/roots"
	[[ "$output" == *"(5 more roots)"* ]]
	run fs -n 0 --format tsv --no-header "$BATS_TEST_TMPDIR/roots"
	[ "$(printf '%s\n' "${lines[@]}" | grep -c 'roots\.')" -eq 15 ]
	run fs --min-percent 10 --format tsv --no-header "$BATS_TEST_TMPDIR/roots"
	[ "$(printf '%s\n' "${lines[@]}" | grep -c 'roots\.')" -eq 4 ]
}

@test "--focus, --ignore, -F" {
	[ "$(val samples --focus tokio "$P")" = 2 ]
	[ "$(val samples --ignore tokio "$P")" = 98 ]
	[ "$(val samples -F --focus 'hex::val' "$P")" = 7 ]
}

@test "empty input: zeros, exit 0" {
	run fs --format json < /dev/null
	[ "$status" -eq 0 ]
	valid_json
	[[ "$output" == '{"samples": 0, "lines": 0, "stacks": 0, "frames": 0, "leaves": 0, "invalid": 0,'* ]]
}

@test "invalid lines are counted and reported; --strict" {
	run --separate-stderr fs --format tsv --no-header < <(printf 'a 1\nbad\na;b -2\n')
	[ "$status" -eq 0 ]
	[ "$stderr" = "foldstats: <stdin>:2: no count at the end of the line (2 invalid lines skipped)" ]
	[[ "$output" == *$'2\tinvalid'* ]]
	run fs --strict < <(printf 'a 1\nbad\n')
	[ "$status" -eq 1 ]
}

@test "names with any bytes: json stays valid, csv quotes" {
	run fs --format json < <(printf '\xff"<x>\x01;a 2\n')
	valid_json
	run fs --format csv --no-header < <(printf 'a,b;c 2\n')
	[ "${lines[${#lines[@]}-1]}" = '100.00,"roots.a,b"' ] || [ "${lines[${#lines[@]}-1]}" = '100.00,roots."a,b"' ]
}

@test "bad options and patterns are usage errors" {
	run fs --bogus "$P"
	[ "$status" -eq 2 ]
	run --separate-stderr fs --focus '(' "$P"
	[ "$status" -eq 2 ]
	[[ "$stderr" == "foldstats: bad pattern '(': "* ]]
	run fs --format xml "$P"
	[ "$status" -eq 2 ]
}

@test "--help, --version, usage matches the man page, lint" {
	run fs --help
	[ "$status" -eq 0 ]
	[[ "${lines[0]}" == "usage: foldstats "* ]]
	run fs --version
	[[ "$output" =~ ^foldstats\ \(foldkit\)\ [0-9.]+$ ]]
	usage_matches_man foldstats
	man_lint foldstats.1
}

@test "/dev/full is a write error, exit 1; | head ends quietly" {
	full_disk foldstats "$P"
	closed_pipe "samples                  100" foldstats "$P"
}

@test "examples/seed-analysis.sh runs the guide's analysis on our capture" {
	[ -x "$BIN/stackcollapse-perf" ] || skip "stackcollapse-perf not built"
	run env FOLDKIT_BIN="$BIN" sh "$BATS_TEST_DIRNAME/../examples/seed-analysis.sh"
	[ "$status" -eq 0 ]
	[[ "$output" == *"keccak_f1600: "*" samples ("* ]]
	[[ "$output" == *"minieth_crypto::keccak_f1600"* ]]
	[[ "$output" == *"depth.max"* ]]
}

@test "differential input: both totals and the change, in every format" {
	f=$DATA/foldtop/diff.folded	# before 15, after 27
	run "$BIN/foldstats" "$f"
	[ "$status" -eq 0 ]
	[[ "$output" == *$'\ndiff.before              15\ndiff.after               27\ndiff.delta               +12\ndiff.delta_percent       +80.00\n'* ]]
	run "$BIN/foldstats" --format json "$f"
	[[ "$output" == *'"diff": {"before": 15, "after": 27, "delta": 12, "delta_percent": 80.00}'* ]]
	valid_json
	run "$BIN/foldstats" --format csv "$f"
	[[ "$output" == *$'\n15,diff.before\n27,diff.after\n12,diff.delta\n80.00,diff.delta_percent\n'* ]]
	run "$BIN/foldstats" --format tsv --focus '^c$' <<< $'m;c 5 2\nm;d 1 1'
	[[ "$output" == *$'\n5\tdiff.before\n2\tdiff.after\n-3\tdiff.delta\n-60.00\tdiff.delta_percent\n'* ]]
	run "$BIN/foldstats" "$DATA/foldtop/basic.folded"
	[[ "$output" != *diff.* ]]
}
