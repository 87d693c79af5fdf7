#!/usr/bin/env bats
# foldtop, and the library behaviour every tool shares, seen through it.

load helper

ft() { "$BIN/foldtop" "$@"; }

@test "basic: self, total (recursion once), sum%, sorted by self then name" {
	run ft "$DATA/foldtop/basic.folded"
	[ "$status" -eq 0 ]
	golden "$DATA/foldtop/basic.txt"
}

@test "recursion is counted once per sample, at any depth, root included" {
	run ft --format tsv --no-header < <(printf 'a;a;b 3\na;c;a 2\nb;b;b 1\nx;a;a;a 4\n')
	[ "${lines[0]}" = $'6\t60.0000\t60.0000\t9\t90.0000\ta' ]
	[ "${lines[1]}" = $'4\t40.0000\t100.0000\t4\t40.0000\tb' ]
}

@test "totals are right whatever the line order (shared prefixes or not)" {
	run ft --format tsv --no-header --sort name < <(printf 'm;a;b 1\nm;a;c 2\nm;x;b 4\nm;a;b 8\nm;a 16\nm;a;b;a 32\n')
	[ "$(printf '%s\n' "${lines[@]}" | cut -f1,4,6 | tr '\t\n' ': ')" = "48:59:a 13:45:b 2:2:c 0:63:m 0:4:x " ]
}

@test "stdin when no file, and '-'" {
	run ft < "$DATA/foldtop/basic.folded"
	golden "$DATA/foldtop/basic.txt"
	run ft - < "$DATA/foldtop/basic.folded"
	golden "$DATA/foldtop/basic.txt"
}

@test "several files are read in order and summed" {
	run ft --format tsv --no-header "$DATA/foldtop/basic.folded" - "$DATA/foldtop/basic.folded" <<< 'main;hash 1'
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = $'131\t65.1741\t65.1741\t131\t65.1741\thash' ]
}

@test "a missing file is reported by name, the others still read, exit 1" {
	run --separate-stderr ft --format tsv --no-header /nonexistent/x.folded "$DATA/foldtop/basic.folded"
	[ "$status" -eq 1 ]
	[ "$stderr" = "foldtop: /nonexistent/x.folded: No such file or directory" ]
	[ "${lines[0]}" = $'65\t65.0000\t65.0000\t65\t65.0000\thash' ]
}

@test "a directory gives a read error naming it, exit 1" {
	run --separate-stderr ft "$DATA"
	[ "$status" -eq 1 ]
	[[ "$stderr" == "foldtop: $DATA: read error: "* ]]
}

@test "empty input: header only, exit 0" {
	run --separate-stderr ft < /dev/null
	[ "$status" -eq 0 ]
	[ "$output" = "self  self%  sum%  total  total%  name" ]
	[ -z "$stderr" ]
	run ft --format json < /dev/null
	[ "$output" = '{"samples": 0, "kept": 0, "functions": 0, "shown": 0, "rows": []}' ]
	valid_json
}

@test "only newlines and blank lines are not invalid" {
	run --separate-stderr ft --no-header < <(printf '\n\n  \n\t\n')
	[ "$status" -eq 0 ]
	[ -z "$output" ]
	[ -z "$stderr" ]
}

@test "last line without a newline is counted" {
	run ft --format tsv --no-header < <(printf 'a;b 3\na;c 4')
	[ "${lines[0]}" = $'4\t57.1429\t57.1429\t4\t57.1429\tc' ]
	[ "${#lines[@]}" -eq 3 ]
}

@test "CRLF line endings and trailing blanks are tolerated" {
	run --separate-stderr ft --format tsv --no-header < <(printf 'a;b 3\r\na;c 4 \t\r\n')
	[ "$status" -eq 0 ]
	[ -z "$stderr" ]
	[ "${lines[0]}" = $'4\t57.1429\t57.1429\t4\t57.1429\tc' ]
	[ "${lines[1]}" = $'3\t42.8571\t100.0000\t3\t42.8571\tb' ]
}

@test "a stack ending in ';' before two blanks has a last frame of one blank (folded(5))" {
	run --separate-stderr ft --format tsv --no-header < <(printf 'a;b;  3\na;b;\t\t4\na;b 1\n')
	[ "$status" -eq 0 ]
	[ -z "$stderr" ]
	[ "${lines[0]}" = $'4\t50.0000\t50.0000\t4\t50.0000\t\\t' ]
	[ "${lines[1]}" = $'3\t37.5000\t87.5000\t3\t37.5000\t ' ]
	# with one blank, the empty last frame is an empty name
	run ft --format tsv --no-header < <(printf 'a;b; 3\n')
	[ "${lines[0]}" = $'3\t100.0000\t100.0000\t3\t100.0000\t' ]
}

@test "a line over 64 MiB is read whole" {
	big=$BATS_TEST_TMPDIR/big.folded
	{ printf 'root;'; head -c 67200000 /dev/zero | tr '\0' 'x'; printf ';leaf 7\nroot;other 3\n'; } > "$big"
	run ft --format tsv --no-header "$big"
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = $'7\t70.0000\t70.0000\t7\t70.0000\tleaf' ]
	[ "${#lines[@]}" -eq 4 ]
	[ "${lines[3]}" = $'0\t0.0000\t100.0000\t7\t70.0000\t'"$(head -c 67200000 /dev/zero | tr '\0' 'x')" ]
}

@test "invalid lines: skipped, counted, first one reported with file:line" {
	run --separate-stderr ft --format tsv --no-header "$DATA/foldtop/invalid.folded"
	[ "$status" -eq 0 ]
	[ "$stderr" = "foldtop: $DATA/foldtop/invalid.folded:2: no count at the end of the line (5 invalid lines skipped)" ]
	[ "${lines[0]}" = $'5\t71.4286\t71.4286\t5\t71.4286\ta' ]
	[ "${lines[1]}" = $'2\t28.5714\t100.0000\t2\t28.5714\tb' ]
}

@test "invalid line kinds each have their message" {
	for c in 'x;y -3:negative count' 'x;y 18446744073709551616:count larger than 18446744073709551615' \
	    ' 7:no stack before the count' 'x;y 1e5:no count at the end of the line' 'x;y 0x10:no count at the end of the line' \
	    'x;y:no count at the end of the line' 'x;y 1.2.3:no count at the end of the line'; do
		run --separate-stderr ft <<< "${c%%:*}"
		[ "$stderr" = "foldtop: <stdin>:1: ${c#*:} (1 invalid line skipped)" ] || fail "$c: $stderr"
	done
}

@test "--strict: the first invalid line is fatal" {
	run --separate-stderr ft --strict "$DATA/foldtop/invalid.folded"
	[ "$status" -eq 1 ]
	[ "$stderr" = "foldtop: $DATA/foldtop/invalid.folded:2: invalid line: no count at the end of the line" ]
	[ -z "$output" ]
	run ft --strict "$DATA/foldtop/basic.folded"
	[ "$status" -eq 0 ]
}

@test "counts up to 2^64-1 are exact; a sum past it is an error, never a wrap" {
	run ft --format tsv --no-header <<< 'a;b 18446744073709551615'
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = $'18446744073709551615\t100.0000\t100.0000\t18446744073709551615\t100.0000\tb' ]
	run --separate-stderr ft --format tsv --no-header < <(printf 'a;b 18446744073709551615\na;c 1\na;b 0\n')
	[ "$status" -eq 1 ]
	[[ "$stderr" == *"<stdin>:2: sum of counts larger than 18446744073709551615; line skipped"* ]]
	[ "${lines[0]}" = $'18446744073709551615\t100.0000\t100.0000\t18446744073709551615\t100.0000\tb' ]
}

@test "exact 64-bit sums where a double would round" {
	run ft --format tsv --no-header < <(printf 'a 9007199254740993\na 1\n')
	[ "${lines[0]}" = $'9007199254740994\t100.0000\t100.0000\t9007199254740994\t100.0000\ta' ]
}

@test "fractional counts" {
	run ft --format tsv --no-header "$DATA/foldtop/frac.folded"
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = $'4.5\t66.6667\t66.6667\t4.5\t66.6667\ta' ]
	[ "${lines[1]}" = $'2.25\t33.3333\t100.0000\t2.25\t33.3333\tb' ]
	[ "${lines[2]}" = $'0\t0.0000\t100.0000\t6.75\t100.0000\tmain' ]
	run ft --format json "$DATA/foldtop/frac.folded"
	[[ "$output" == '{"samples": 6.75,'* ]]
	valid_json
}

@test "differential input STACK OLD NEW: before, after, delta, delta% for self and total" {
	run ft --format tsv --no-header "$DATA/foldtop/diff.folded"
	[ "$status" -eq 0 ]
	# before total 15: delta% = delta / 15; ranked by self delta
	[ "${lines[0]}" = $'10\t20\t10\t66.6667\t10\t20\t10\t66.6667\tb' ]
	[ "${lines[1]}" = $'0\t7\t7\t46.6667\t0\t7\t7\t46.6667\td' ]
	[ "${lines[2]}" = $'0\t0\t0\t0.0000\t15\t20\t5\t33.3333\ta' ]
	[ "${lines[3]}" = $'0\t0\t0\t0.0000\t15\t27\t12\t80.0000\tmain' ]
	[ "${lines[4]}" = $'5\t0\t-5\t-33.3333\t5\t0\t-5\t-33.3333\tc' ]
	run ft "$DATA/foldtop/diff.folded"
	[ "${lines[0]}" = "self-before  self-after  delta   delta%  total-before  total-after  delta-total  delta-total%  name" ]
	[ "${lines[1]}" = "         10          20    +10  +66.67%            10           20          +10       +66.67%  b" ]
	[ "${lines[5]}" = "          5           0     -5  -33.33%             5            0           -5       -33.33%  c" ]
}

@test "--format tsv: raw numbers, self first, name last" {
	run ft --format tsv "$DATA/foldtop/basic.folded"
	golden "$DATA/foldtop/basic.tsv"
}

@test "--format csv quotes names per RFC 4180" {
	run ft --format csv < <(printf '%s\n' 'a;f(x, y) 2' 'a;say "hi" 1' 'a;plain 1')
	[ "${lines[0]}" = "self,self%,sum%,total,total%,name" ]
	[ "${lines[1]}" = '2,50.0000,50.0000,2,50.0000,"f(x, y)"' ]
	[ "${lines[2]}" = '1,25.0000,75.0000,1,25.0000,plain' ]
	[ "${lines[3]}" = '1,25.0000,100.0000,1,25.0000,"say ""hi"""' ]
}

@test "--format tsv escapes tabs and backslashes in names" {
	run ft --format tsv --no-header < <(printf 'a;x\ty\\z 1\n')
	[ "${lines[0]}" = $'1\t100.0000\t100.0000\t1\t100.0000\tx\\ty\\\\z' ]
}

@test "--format json is valid whatever bytes the names hold" {
	run ft --format json "$DATA/foldtop/basic.folded"
	golden "$DATA/foldtop/basic.json"
	valid_json
	run ft --format json < <(printf 'a;\xff\xfe"q"\\\x01\x7f;caf\xc3\xa9 3\na;</script> 1\n')
	[ "$status" -eq 0 ]
	valid_json
	[[ "$output" == *'"name": "caf'$'\xc3\xa9''"'* ]]
	[[ "$output" == *'"name": "\ufffd\ufffd\"q\"\\\u0001\u007f"'* ]]
}

@test "NUL bytes in names pass through text and are escaped in JSON" {
	run ft --format json < <(printf 'a;x\0y 2\n')
	valid_json
	[[ "$output" == *'"name": "x\u0000y"'* ]]
	ft --no-header < <(printf 'a;x\0y 2\n') | head -1 | od -c | grep -q 'x  \\0   y'
}

@test "--format text is the default; --format bad is a usage error" {
	run ft --format text "$DATA/foldtop/basic.folded"
	golden "$DATA/foldtop/basic.txt"
	run --separate-stderr ft --format yaml "$DATA/foldtop/basic.folded"
	[ "$status" -eq 2 ]
	[ "$stderr" = "foldtop: invalid format 'yaml' (want text, tsv, csv or json)" ]
}

@test "--no-header drops the header row in text, tsv and csv" {
	run ft --no-header "$DATA/foldtop/basic.folded"
	[ "${lines[0]}" = "65  65.00%   65.00%   65   65.00%  hash" ]
	run ft --no-header --format csv "$DATA/foldtop/basic.folded"
	[ "${lines[0]}" = "65,65.0000,65.0000,65,65.0000,hash" ]
}

@test "--sort total and --sort name, ties by name" {
	run ft --sort total --format tsv --no-header "$DATA/foldtop/basic.folded"
	[ "$(printf '%s\n' "${lines[@]}" | cut -f6 | tr '\n' ' ')" = "main hash parse run cmp sort alloc malloc " ]
	run ft --sort name --format tsv --no-header "$DATA/foldtop/basic.folded"
	[ "$(printf '%s\n' "${lines[@]}" | cut -f6 | tr '\n' ' ')" = "alloc cmp hash main malloc parse run sort " ]
	run ft --sort bogus "$DATA/foldtop/basic.folded"
	[ "$status" -eq 2 ]
}

@test "-n / --limit and the footer saying what was dropped" {
	run ft -n 2 "$DATA/foldtop/basic.folded"
	[ "${#lines[@]}" -eq 4 ]
	[ "${lines[3]}" = "(6 more functions not shown, 15.00% of self samples)" ]
	run ft --limit 2 --format tsv --no-header "$DATA/foldtop/basic.folded"
	[ "${#lines[@]}" -eq 2 ]
	run ft -n 0 --format tsv --no-header "$DATA/foldtop/basic.folded"
	[ "${#lines[@]}" -eq 8 ]
	run --separate-stderr ft -n x "$DATA/foldtop/basic.folded"
	[ "$status" -eq 2 ]
	[ "$stderr" = "foldtop: invalid number for --limit: 'x'" ]
}

@test "--min-percent drops functions under P% of the sort column" {
	run ft --min-percent 10 --format tsv --no-header "$DATA/foldtop/basic.folded"
	[ "$(printf '%s\n' "${lines[@]}" | cut -f6 | tr '\n' ' ')" = "hash cmp malloc " ]
	run ft --min-percent 50 --sort total "$DATA/foldtop/basic.folded"
	[ "${#lines[@]}" -eq 6 ]
	[ "${lines[5]}" = "(4 more functions not shown, 30.00% of self samples)" ]
	run ft --min-percent 101 "$DATA/foldtop/basic.folded"
	[ "$status" -eq 2 ]
}

@test "--focus keeps samples with a matching frame; Perl shorthands work" {
	run ft --focus 'ethrex_\w+::' --format tsv --no-header "$DATA/foldtop/rust.folded"
	[ "$(printf '%s\n' "${lines[@]}" | cut -f1,6 | tr '\t\n' ': ')" = "16:KeccakF1600 4:SliceOrd::compare 2:malloc 0:ethrex_trie::get 0:ethrex_vm::run 0:main " ]
	run ft --focus '^\S+::run$' --format tsv --no-header "$DATA/foldtop/rust.folded"
	[ "${lines[0]}" = $'10\t40.0000\t40.0000\t10\t40.0000\tKeccakF1600' ]
}

@test "--ignore drops samples with a matching frame; both repeatable" {
	run ft --ignore 'serde' --ignore 'malloc' --format tsv --no-header "$DATA/foldtop/rust.folded"
	[ "$(printf '%s\n' "${lines[@]}" | cut -f6 | tr '\n' ' ')" = "KeccakF1600 SliceOrd::compare ethrex_trie::get ethrex_vm::run main " ]
	run ft --focus vm --focus trie --ignore Keccak --format tsv --no-header "$DATA/foldtop/rust.folded"
	[ "$(printf '%s\n' "${lines[@]}" | cut -f6 | tr '\n' ' ')" = "SliceOrd::compare malloc ethrex_vm::run main " ]
}

@test "-F / --fixed-strings: patterns are plain text" {
	run ft --focus 'hex::val' -F --format tsv --no-header "$DATA/foldtop/rust.folded"
	[ "${lines[0]}" = $'3\t12.0000\t12.0000\t3\t12.0000\thex::val' ]
	run ft --focus '.' --fixed-strings --format tsv --no-header "$DATA/foldtop/rust.folded"
	[ -z "$output" ]
}

@test "a bad pattern is a usage error with the regex message" {
	run --separate-stderr ft --focus 'a(' "$DATA/foldtop/rust.folded"
	[ "$status" -eq 2 ]
	[[ "$stderr" == "foldtop: bad pattern 'a(': "* ]]
	run --separate-stderr ft --focus '[\W]' "$DATA/foldtop/rust.folded"
	[ "$status" -eq 2 ]
	[ "$stderr" = "foldtop: bad pattern '[\\W]': \\W inside [...] is not supported" ]
}

@test "--percent-of shown takes percentages of the kept samples" {
	run ft --focus Keccak --format tsv --no-header "$DATA/foldtop/rust.folded"
	[ "${lines[0]}" = $'16\t64.0000\t64.0000\t16\t64.0000\tKeccakF1600' ]
	run ft --focus Keccak --percent-of shown --format tsv --no-header "$DATA/foldtop/rust.folded"
	[ "${lines[0]}" = $'16\t100.0000\t100.0000\t16\t100.0000\tKeccakF1600' ]
	run ft --percent-of total --format tsv --no-header "$DATA/foldtop/rust.folded"
	[ "${lines[0]}" = $'16\t64.0000\t64.0000\t16\t64.0000\tKeccakF1600' ]
	run ft --percent-of all "$DATA/foldtop/rust.folded"
	[ "$status" -eq 2 ]
}

@test "annotations kept by default, merged with --strip-annotations" {
	run ft --format tsv --no-header "$DATA/foldtop/annotated.folded"
	[ "$(printf '%s\n' "${lines[@]}" | cut -f1,6 | head -6 | tr '\t\n' ': ')" = "7:schedule_[k] 5:foo_[j] 3:foo 2:inl_[i] 1:schedule 1:wfoo_[w] " ]
	run ft --strip-annotations --format tsv --no-header "$DATA/foldtop/annotated.folded"
	[ "$(printf '%s\n' "${lines[@]}" | cut -f1,6 | head -4 | tr '\t\n' ': ')" = "8:foo 8:schedule 2:inl 1:wfoo " ]
}

@test "--strip-annotations counts a merged frame once per sample" {
	run ft --strip-annotations --sort total --format tsv --no-header <<< 'a;f_[k];f 4'
	[ "${lines[1]}" = $'4\t100.0000\t100.0000\t4\t100.0000\tf' ]
}

@test "--help prints the usage and exits 0; --version" {
	run ft --help
	[ "$status" -eq 0 ]
	[[ "${lines[0]}" == "usage: foldtop [-F] [-n N] [-r] [--focus RE]"* ]]
	run ft -h
	[ "$status" -eq 0 ]
	run ft --version
	[ "$status" -eq 0 ]
	[[ "$output" =~ ^foldtop\ \(foldkit\)\ [0-9]+\.[0-9]+\.[0-9]+$ ]]
}

@test "an unknown option is a usage error (exit 2, usage on stderr)" {
	run --separate-stderr ft --bogus
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"usage: foldtop"* ]]
	[ -z "$output" ]
}

@test "usage text matches the man page synopsis" {
	usage_matches_man foldtop
}

@test "a full disk is a write error, exit 1" {
	full_disk foldtop "$DATA/foldtop/basic.folded"
}

@test "a closed pipe ends quietly" {
	for i in $(seq 1 20000); do echo "main;f$i $i"; done > "$BATS_TEST_TMPDIR/many.folded"
	closed_pipe " self  self%     sum%      total   total%  name" foldtop "$BATS_TEST_TMPDIR/many.folded"
}

@test "man pages foldtop.1 and folded.5 are lint-clean" {
	man_lint foldtop.1 folded.5
}

@test "examples: the demo and the seed hotspot workflow run on our capture" {
	[ -x "$BIN/stackcollapse-perf" ] || skip "stackcollapse-perf not built"
	run env FOLDKIT_BIN="$BIN" DEMO_OUT="$BATS_TEST_TMPDIR" sh "$BATS_TEST_DIRNAME/../examples/demo.sh"
	[ "$status" -eq 0 ]
	[[ "$output" == *"minieth_crypto::keccak_f1600"* ]]
	run env FOLDKIT_BIN="$BIN" sh "$BATS_TEST_DIRNAME/../examples/hotspots.sh"
	[ "$status" -eq 0 ]
	[[ "${lines[2]}" == *"minieth_crypto::keccak_f1600" ]]
}

@test "valgrind memcheck: the whole pipeline, no errors, no leaks" {
	command -v valgrind >/dev/null 2>&1 || skip "valgrind not installed"
	[ -z "${FOLDKIT_SAN:-}" ] || skip "sanitizer build: memcheck runs on the plain build"
	[ -x "$BIN/stackcollapse-perf" ] || skip "stackcollapse-perf not built"
	vg() {
		valgrind -q --error-exitcode=99 --leak-check=full \
		    --errors-for-leak-kinds=definite,indirect,possible \
		    --show-leak-kinds=definite,indirect,possible "$@"
	}
	cap=$BATS_TEST_DIRNAME/../examples/minieth.perf.txt
	f=$BATS_TEST_TMPDIR/vg.folded
	vg "$BIN/stackcollapse-perf" --all "$cap" > "$f"
	vg "$BIN/foldtop" --strip-annotations --format json "$f" > /dev/null
	vg "$BIN/foldcallers" -c minieth keccak "$f" > /dev/null
	vg "$BIN/foldmodules" --preset rust --top-functions 2 "$f" > /dev/null
	vg "$BIN/foldstats" "$f" > /dev/null
	if [ -x "$BIN/folddiff" ]; then
		vg "$BIN/folddiff" -n "$f" "$f" > "$BATS_TEST_TMPDIR/vg.diff"
		vg "$BIN/folddiff" -s - "$f" < "$f" > /dev/null
		vg "$BIN/foldtop" "$BATS_TEST_TMPDIR/vg.diff" > /dev/null
		vg "$BIN/foldcallers" --depth 2 keccak "$BATS_TEST_TMPDIR/vg.diff" > /dev/null
		vg "$BIN/foldmodules" --preset rust --top-functions 2 "$BATS_TEST_TMPDIR/vg.diff" > /dev/null
	fi
	[ ! -x "$BIN/flamegraph-svg" ] || vg "$BIN/flamegraph-svg" "$f" > /dev/null
	[ ! -x "$BIN/stackcollapse-dtrace" ] ||
		vg "$BIN/stackcollapse-dtrace" "$DATA/dtrace/kernel-user.txt" > /dev/null
}

@test "--help to a full disk is a write error, exit 1" {
	full_disk foldtop --help
}

@test "a stack that is a prefix of the line before, or extends it (stackids)" {
	run ft --format tsv --no-header --sort name < <(printf 'a;b;c 1\na;b 2\na;b;c;d 4\na 8\na;b;c 16\n')
	[ "$status" -eq 0 ]
	[ "$(printf '%s\n' "${lines[@]}" | cut -f1,4,6 | tr '\t\n' ': ')" = "8:31:a 2:23:b 17:21:c 4:4:d " ]
}

# ---- differential input (STACK BEFORE AFTER) --------------------------------

# The columns of foldtop on a differential profile, computed another way:
# awk sums self (the leaf) and total (each function once per line) of both
# columns, and the deltas and percentages of the before total.
diff_by_awk() {
	awk '{ n = split($1, f, ";"); b = $2; a = $3; tb += b
		sb[f[n]] += b; sa[f[n]] += a; seen[f[n]] = 1
		delete once
		for (i = 1; i <= n; i++) if (!(f[i] in once)) { once[f[i]] = 1; ob[f[i]] += b; oa[f[i]] += a; seen[f[i]] = 1 }
	} END { for (k in seen) printf "%d\t%d\t%d\t%.4f\t%d\t%d\t%d\t%.4f\t%s\n", sb[k], sa[k], sa[k] - sb[k],
		100 * (sa[k] - sb[k]) / tb, ob[k], oa[k], oa[k] - ob[k], 100 * (oa[k] - ob[k]) / tb, k }' "$1" | sort -t $'\t' -k9
}

@test "differential: every column matches sums computed by awk (the recorded pair)" {
	[ -x "$BIN/folddiff" ] || skip "folddiff not built"
	ex=$BATS_TEST_DIRNAME/../examples
	"$BIN/folddiff" "$ex/wordfreq-before.folded" "$ex/wordfreq-after.folded" > "$BATS_TEST_TMPDIR/d"
	run ft --format tsv --no-header --sort name "$BATS_TEST_TMPDIR/d"
	[ "$status" -eq 0 ]
	diff <(printf '%s\n' "${lines[@]}" | sed 's/\t-0\.0000\t/\t0.0000\t/g') <(diff_by_awk "$BATS_TEST_TMPDIR/d" | sed 's/\t-0\.0000\t/\t0.0000\t/g')
	[ "${#lines[@]}" -gt 40 ]
}

@test "differential: --sort delta|delta-total (largest increase first), -r, self, total, name" {
	f=$DATA/foldtop/diff.folded
	names() { printf '%s\n' "${lines[@]}" | awk -F '\t' '{ printf "%s ", $NF }'; }
	run ft --format tsv --no-header --sort delta "$f"
	[ "$(names)" = "b d a main c " ]
	run ft --format tsv --no-header -r "$f"
	[ "$(names)" = "c main a d b " ]
	run ft --format tsv --no-header --sort delta-total "$f"
	[ "$(names)" = "main b d a c " ]
	run ft --format tsv --no-header --sort delta-total --reverse "$f"
	[ "$(names)" = "c a d b main " ]
	run ft --format tsv --no-header --sort self "$f"
	[ "$(names)" = "b d a c main " ]
	run ft --format tsv --no-header --sort total "$f"
	[ "$(names)" = "main a b d c " ]
	run ft --format tsv --no-header --sort name -r "$f"
	[ "$(names)" = "main d c b a " ]
}

@test "differential: -n, --min-percent (of the magnitude), --focus, --percent-of shown" {
	f=$DATA/foldtop/diff.folded
	run ft --format tsv --no-header -n 2 "$f"
	[ "${#lines[@]}" -eq 2 ]
	run ft -n 2 "$f"
	[ "${lines[3]}" = "(3 more functions not shown)" ]
	run ft --format tsv --no-header --min-percent 40 "$f"
	[ "$(printf '%s\n' "${lines[@]}" | cut -f9 | tr '\n' ' ')" = "b d " ]
	run ft --format tsv --no-header --min-percent 30 -r "$f"
	[ "$(printf '%s\n' "${lines[@]}" | cut -f9 | tr '\n' ' ')" = "c d b " ]
	run ft --format tsv --no-header --focus '^c$' --percent-of shown "$f"
	# kept: main;a;c 5 0 only, before total of the kept samples 5
	[ "${lines[0]}" = $'0\t0\t0\t0.0000\t5\t0\t-5\t-100.0000\ta' ]
	[ "${#lines[@]}" -eq 3 ]
}

@test "differential: csv and json (valid, with both totals)" {
	run ft --format csv "$DATA/foldtop/diff.folded"
	[ "${lines[0]}" = "self-before,self-after,delta,delta%,total-before,total-after,delta-total,delta-total%,name" ]
	[ "${lines[1]}" = "10,20,10,66.6667,10,20,10,66.6667,b" ]
	run ft --format json "$DATA/foldtop/diff.folded"
	[[ "$output" == '{"before": 15, "after": 27, "kept_before": 15, "kept_after": 27, "functions": 5, "rows": ['* ]]
	[[ "$output" == *'"delta": -5, "delta%": -33.3333'* ]]
	valid_json
}

@test "differential: decimal counts, and the first valid line decides" {
	run --separate-stderr ft --format tsv --no-header < <(printf '\nnot a line\nm;a 1.5 2.25\nm;b 1 1\n')
	[ "${lines[0]}" = $'1.5\t2.25\t0.75\t30.0000\t1.5\t2.25\t0.75\t30.0000\ta' ]
	# ordinary input: --sort delta is a usage error; -r reverses
	run --separate-stderr ft --sort delta "$DATA/foldtop/basic.folded"
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"needs differential input"* ]]
	run ft --format tsv --no-header -r < <(printf 'm;a 1\nm;b 2\n')
	[ "$(printf '%s\n' "${lines[@]}" | cut -f6 | tr '\n' ' ')" = "m a b " ]
}

@test "a file and the same bytes through a pipe give the same table, last line without a newline too" {
	printf 'a;b 3\nc;d 2\r\na;b;e 1\n\na;x 7' > "$BATS_TEST_TMPDIR/m.folded"
	run "$BIN/foldtop" "$BATS_TEST_TMPDIR/m.folded" "$BATS_TEST_TMPDIR/m.folded"
	[ "$status" -eq 0 ]
	ref=$output
	[[ "$ref" == *' 14  '*'x'* ]]
	run sh -c '{ cat "$1"; echo; cat "$1"; } | "$2/foldtop"' sh "$BATS_TEST_TMPDIR/m.folded" "$BIN"
	[ "$output" = "$ref" ]
	run sh -c 'cat "$1" | "$2/foldtop"' sh "$BATS_TEST_TMPDIR/m.folded" "$BIN"
	[ "$output" = "$("$BIN/foldtop" "$BATS_TEST_TMPDIR/m.folded")" ]
	: > "$BATS_TEST_TMPDIR/empty.folded"
	run "$BIN/foldtop" "$BATS_TEST_TMPDIR/empty.folded" "$BATS_TEST_TMPDIR/m.folded"
	[ "$status" -eq 0 ]
}

# the library checks: the sanitizer build's copy when there is one
if [ -n "${FOLDKIT_SAN:-}" ] && [ -x "$BIN/../test/libcheck" ]; then
	LIBCHECK=$BIN/../test/libcheck
else
	LIBCHECK=$TESTBIN/libcheck
fi

@test "rankings: the radix sorts agree with byte order and count order (random names)" {
	# shared prefixes longer than 8 bytes, names that prefix others,
	# NUL and 0xff bytes: the cases an 8-bytes-at-a-time sort can get wrong
	for seed in 1 2 3; do
		run "$LIBCHECK" sort 20000 "$seed"
		[ "$status" -eq 0 ]
		run "$LIBCHECK" sort 12 "$seed"
		[ "$status" -eq 0 ]
	done
}

@test "ties in a column are in byte order of the names, prefixes first" {
	run "$BIN/foldtop" --no-header --format tsv < <(printf 'r;abcdefghij 2\nr;abcdefgh 2\nr;abcdefghi 2\nr;abcdefgha 1\nr;B 2\n')
	[ "$status" -eq 0 ]
	[ "$(printf '%s\n' "${lines[@]}" | cut -f1,6 | tr '\t\n' ': ')" = "2:B 2:abcdefgh 2:abcdefghi 2:abcdefghij 1:abcdefgha 0:r " ]
}

@test "line ends: one blank and digits, or the general reading (blank frames, CR, two counts)" {
	# plain "STACK COUNT" lines are read in one pass from the end; every
	# other kind must still be read as before
	chk() {	# INPUT-LINE EXPECTED(self:name pairs, by name)
		run "$BIN/foldtop" --format tsv --no-header --sort name < <(printf '%b\n' "$1")
		[ "$status" -eq 0 ]
		got=$(printf '%s\n' "$output" | cut -f1,6 | tr '\t\n' ': ')
		[ "$got" = "$2" ] || { echo "'$1': got '$got', want '$2'"; return 1; }
	}
	chk 'a;b_12 34' '0:a 34:b_12 '
	chk '12 34' '34:12 '
	chk 'a;1.5 3' '3:1.5 0:a '
	chk 'a\t7' '7:a '
	chk 'a 00012' '12:a '
	chk 'a 9999999999999999999' '9999999999999999999:a '
	chk 'a 18446744073709551615' '18446744073709551615:a '
	chk 'a;  3' '3:  0:a '
	chk 'a;b 5 ' '0:a 5:b '
	chk 'a;b 5\r' '0:a 5:b '
	run "$BIN/foldtop" < <(printf 'a 18446744073709551616\n')
	[ "$status" -eq 0 ]
	[[ "$output" == *"<stdin>:1: count larger than 18446744073709551615 (1 invalid line skipped)"* ]]
	# a count before the count: differential, before and after
	run "$BIN/foldtop" --format tsv --no-header < <(printf 'a;b 12 34\n')
	[ "$(printf '%s\n' "$output" | head -1 | cut -f1,2,9)" = "$(printf '12\t34\tb')" ]
	run "$BIN/foldtop" --format tsv --no-header < <(printf 'x 1.5 3\n')
	[ "$(printf '%s\n' "$output" | cut -f1,2,9)" = "$(printf '1.5\t3\tx')" ]
}
