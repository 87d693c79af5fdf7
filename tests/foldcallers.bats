#!/usr/bin/env bats
# foldcallers: who calls a function, or what it calls.

load helper

fc() { "$BIN/foldcallers" "$@"; }
P=$BATS_TEST_DIRNAME/data/analysis/profile.folded

@test "default: immediate callers of the outermost match, header with share" {
	run fc KeccakF1600 "$P"
	[ "$status" -eq 0 ]
	golden "$DATA/analysis/callers.txt"
}

@test "the seed's one-liner sums zeros; foldcallers sums the counts" {
	run fc -c ethrex KeccakF1600 "$DATA/analysis/seed-bug.folded"
	[ "${lines[0]}" = "KeccakF1600: 10 of 10 samples (100.00%)" ]
	[ "${lines[2]}" = "   10  100.00%  ethrex_vm::run" ]
}

@test "-c / --caller RE: nearest caller matching RE, else <other>" {
	run fc -c ethrex KeccakF1600 "$P"
	golden "$DATA/analysis/callers-c.txt"
	run fc --caller 'ethrex_blockchain' --format tsv --no-header KeccakF1600 "$P"
	[ "${lines[0]}" = $'43\t78.1818\t<other>' ]
	[ "${lines[1]}" = $'12\t21.8182\tethrex_blockchain::add_block' ]
}

@test "recursion: the outermost match takes the sample once" {
	run fc --format tsv --no-header 'ethrex_vm::Evm::run' "$P"
	[ "${lines[0]}" = $'64\t96.9697\tmain' ]
	[ "${lines[1]}" = $'2\t3.0303\ttokio::runtime::task::poll' ]
	[ "${#lines[@]}" -eq 2 ]
}

@test "--innermost uses the innermost match" {
	run fc --innermost --format tsv --no-header 'ethrex_vm::Evm::run' "$P"
	[ "$(printf '%s\n' "${lines[@]}" | cut -f1,3 | tr '\t\n' ': ')" = "56:main 8:ethrex_vm::Evm::call 2:tokio::runtime::task::poll " ]
}

@test "--depth N: the chain of N callers, root first" {
	run fc --depth 2 --format tsv --no-header 'Trie::get' "$P"
	[ "${lines[0]}" = $'38\t100.0000\tethrex_vm::Evm::run;ethrex_vm::Evm::sload' ]
	run fc --depth 3 --format csv 'root_hash' "$P"
	[ "${lines[0]}" = "count,percent,chain" ]
	[ "${lines[1]}" = "12,100.0000,minieth-replay;main;ethrex_blockchain::add_block" ]
	run fc --depth 0 x "$P"
	[ "$status" -eq 2 ]
}

@test "a match at the root has the caller <root>" {
	run fc --format tsv --no-header '^tokio-worker$' "$P"
	[ "${lines[0]}" = $'2\t100.0000\t<root>' ]
}

@test "--callees: the frame below, <self> for the leaf" {
	run fc --callees --format tsv --no-header 'Evm::sload' "$P"
	[ "$(printf '%s\n' "${lines[@]}" | cut -f1,3 | tr '\t\n' ': ')" = "38:ethrex_trie::Trie::get 20:alloc::collections::btree::map::BTreeMap::get " ]
	run fc --callees --format tsv --no-header 'KeccakF1600' "$P"
	[ "${lines[0]}" = $'55\t100.0000\t<self>' ]
	run fc --callees --depth 2 --format tsv --no-header 'Evm::sload' "$P"
	[ "${lines[0]}" = $'38\t65.5172\tethrex_trie::Trie::get;KeccakF1600' ]
}

@test "--folded writes the matching stacks re-rooted at the function" {
	run fc --folded 'Evm::sload' "$P"
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "ethrex_vm::Evm::sload;alloc::collections::btree::map::BTreeMap::get;SliceOrd::compare 20" ]
	[ "${lines[1]}" = "ethrex_vm::Evm::sload;ethrex_trie::Trie::get;KeccakF1600 38" ]
	[ "${#lines[@]}" -eq 2 ]
	# and it feeds the other tools
	fc --folded 'Evm::sload' "$P" | "$BIN/foldtop" --format tsv --no-header | head -1 | grep -q $'^38\t'
}

@test "-F: PATTERN and -c are fixed strings" {
	run fc -F --format tsv --no-header 'hex::val' "$P"
	[ "${lines[0]}" = $'7\t100.0000\tserde_json::de::from_reader' ]
	run fc -F 'hex..al' "$P"
	[ "$status" -eq 1 ]
}

@test "--focus and --ignore filter the samples first" {
	run fc --ignore 'root_hash' --format tsv --no-header KeccakF1600 "$P"
	[ "$(printf '%s\n' "${lines[@]}" | cut -f1 | tr '\n' ' ')" = "38 3 2 " ]
	run fc --focus 'tokio' --format tsv --no-header KeccakF1600 "$P"
	[ "${lines[0]}" = $'2\t100.0000\tethrex_vm::Evm::run' ]
}

@test "-n and --min-percent, with a footer in text" {
	run fc -n 1 KeccakF1600 "$P"
	[ "${lines[3]}" = "(3 more not shown, 30.91%)" ]
	run fc --min-percent 10 --format tsv --no-header KeccakF1600 "$P"
	[ "${#lines[@]}" -eq 2 ]
}

@test "--format json: target total and share, valid whatever the bytes" {
	run fc --format json KeccakF1600 "$P"
	golden "$DATA/analysis/callers.json"
	valid_json
	run fc --format json 'x' < <(printf 'a;\xff"<b>\x01;x 3\n')
	valid_json
}

@test "--no-header drops the text header and the column row" {
	run fc --no-header KeccakF1600 "$P"
	[ "${lines[0]}" = "38  69.09%  ethrex_trie::Trie::get" ]
}

@test "no match at all: a message and exit 1" {
	run --separate-stderr fc nosuchfunction "$P"
	[ "$status" -eq 1 ]
	[ "$stderr" = "foldcallers: no frame matches 'nosuchfunction'" ]
	[ -z "$output" ]
}

@test "empty input: no match, exit 1" {
	run --separate-stderr fc x < /dev/null
	[ "$status" -eq 1 ]
}

@test "a bad pattern is exit 2 with the regex error" {
	run --separate-stderr fc 'a(' "$P"
	[ "$status" -eq 2 ]
	[[ "$stderr" == "foldcallers: bad pattern 'a(': "* ]]
	run --separate-stderr fc -c '[' x "$P"
	[ "$status" -eq 2 ]
}

@test "a missing PATTERN or a bad option is a usage error" {
	run --separate-stderr fc
	[ "$status" -eq 2 ]
	[[ "$stderr" == "usage: foldcallers "* ]]
	run fc --nope x "$P"
	[ "$status" -eq 2 ]
}

@test "invalid lines are reported, the rest still counted; --strict" {
	run --separate-stderr fc --format tsv --no-header b < <(printf 'a;b 1\nbad\na;b 2\n')
	[ "$status" -eq 0 ]
	[ "$stderr" = "foldcallers: <stdin>:2: no count at the end of the line (1 invalid line skipped)" ]
	[ "${lines[0]}" = $'3\t100.0000\ta' ]
	run fc --strict b < <(printf 'a;b 1\nbad\n')
	[ "$status" -eq 1 ]
}

@test "--help, --version, usage matches the man page, lint" {
	run fc --help
	[ "$status" -eq 0 ]
	[[ "${lines[0]}" == "usage: foldcallers "* ]]
	run fc --version
	[[ "$output" =~ ^foldcallers\ \(foldkit\)\ [0-9.]+$ ]]
	usage_matches_man foldcallers
	man_lint foldcallers.1
}

@test "/dev/full is a write error, exit 1; | head ends quietly" {
	full_disk foldcallers KeccakF1600 "$P"
	for i in $(seq 1 30000); do echo "main;caller$i;target $i"; done > "$BATS_TEST_TMPDIR/many"
	closed_pipe "target: 450015000 of 450015000 samples (100.00%)" foldcallers target "$BATS_TEST_TMPDIR/many"
}

@test "frames shared with the line before keep their roles (prefix reuse)" {
	in=$'m;a;T;b;T 1\nm;a;T;c 2\nm;T 4\nm;a 8\nT;x 16\nm;a;T;b;T 32'
	rows() { fc --format tsv --no-header "$@" <<< "$in" | cut -f1,3 | tr '\t\n' ': '; }
	[ "$(rows '^T$')" = "35:a 16:<root> 4:m " ]
	[ "$(rows --innermost '^T$')" = "33:b 16:<root> 4:m 2:a " ]
	[ "$(rows -c '^a$' '^T$')" = "35:a 20:<other> " ]
	[ "$(rows --callees '^T$')" = "33:b 16:x 4:<self> 2:c " ]
	[ "$(rows --callees --innermost '^T$')" = "37:<self> 16:x 2:c " ]
}

# ---- differential input (STACK BEFORE AFTER) --------------------------------

@test "differential: callers with before, after, delta, delta% (checked by awk)" {
	[ -x "$BIN/folddiff" ] || skip "folddiff not built"
	ex=$BATS_TEST_DIRNAME/../examples
	"$BIN/folddiff" "$ex/wordfreq-before.folded" "$ex/wordfreq-after.folded" > "$BATS_TEST_TMPDIR/d"
	run "$BIN/foldcallers" --format tsv --no-header memcmp "$BATS_TEST_TMPDIR/d"
	[ "$status" -eq 0 ]
	# awk: the frame before the first one matching memcmp, both columns
	want=$(awk '{ n = split($1, f, ";"); tb += $2
		for (i = 1; i <= n; i++) if (f[i] ~ /memcmp/) { c = i > 1 ? f[i - 1] : "<root>"; b[c] += $2; a[c] += $3; break } }
		END { for (c in b) printf "%d\t%d\t%d\t%.4f\t%s\n", b[c], a[c], a[c] - b[c], 100 * (a[c] - b[c]) / tb, c }' "$BATS_TEST_TMPDIR/d" | sort -t $'\t' -k3,3n -k5)
	[ "$(printf '%s\n' "${lines[@]}" | sort -t $'\t' -k3,3n -k5)" = "$want" ]
	run "$BIN/foldcallers" memcmp "$BATS_TEST_TMPDIR/d"
	[ "${lines[0]}" = "memcmp: before 2319 of 3770 samples (61.51%), after 14 of 251 (5.58%)" ]
	[ "${lines[1]}" = "before  after  delta   delta%  caller" ]
}

@test "differential: --sort delta|count, -r, --callees, --depth, --folded, json" {
	f=$DATA/foldtop/diff.folded	# main;a;b 10 20, main;a;c 5 0, main;d 0 7
	run "$BIN/foldcallers" --callees --format tsv --no-header main "$f"
	[ "$(printf '%s\n' "${lines[@]}" | tr '\t\n' ', ')" = "0,7,7,46.6667,d 15,20,5,33.3333,a " ]
	run "$BIN/foldcallers" --callees -r --format tsv --no-header '^a$' "$f"
	[ "$(printf '%s\n' "${lines[@]}" | cut -f5 | tr '\n' ' ')" = "c b " ]
	run "$BIN/foldcallers" --callees --sort count --format tsv --no-header '^a$' "$f"
	[ "$(printf '%s\n' "${lines[@]}" | cut -f5 | tr '\n' ' ')" = "b c " ]
	run "$BIN/foldcallers" --depth 2 --format csv b "$f"
	[ "${lines[1]}" = "10,20,10,66.6667,main;a" ]
	run "$BIN/foldcallers" --folded '^a$' "$f"
	[ "$output" = $'a;b 10 20\na;c 5 0' ]
	run "$BIN/foldcallers" --format json '^d$' "$f"
	[[ "$output" == '{"pattern": "^d$", "before": 15, "after": 27, "matched_before": 0, "matched_after": 7,'* ]]
	valid_json
	run --separate-stderr "$BIN/foldcallers" --sort delta main "$DATA/foldtop/basic.folded"
	[ "$status" -eq 2 ]
	run "$BIN/foldcallers" --reverse --callees --format tsv --no-header main < <(printf 'main;x 1\nmain;y 2\n')
	[ "$(printf '%s\n' "${lines[@]}" | cut -f3 | tr '\n' ' ')" = "x y " ]
}

@test "a pattern without special characters: only its frames are looked up, the same table" {
	# --ignore with a pattern that matches nothing takes the general path
	# (every frame interned); the plain run looks frames up only where the
	# pattern's bytes are.  Both must agree, whatever the frames hold.
	in=$BATS_TEST_TMPDIR/in
	{
		cat "$P"
		printf 'root;a;keccak;keccak_x;b 3\n'	# recursion, outermost
		printf 'keccak;b 2\n'			# at the root
		printf 'r;c;xkeccak 0\n'		# a zero count still a row
		printf 'r;ke;ccak;kec\001cak;pre\000keccak;k;keccak 4\n'
		printf 'r;;keccak;; 1\n'		# empty frames
		printf 'r;a;b;keccak;x;keccak 5\n'
		printf 'ke;ccak;r 1\n'			# bytes across a ';'
	} > "$in"
	for pat in keccak KeccakF1600 'ccak;k' ethrex; do
		for opt in "" --innermost --callees "--callees --innermost" -F; do
			# shellcheck disable=SC2086
			a=$(fc $opt "$pat" "$in" | od -c)
			# shellcheck disable=SC2086
			b=$(fc $opt --ignore 'no such frame anywhere' "$pat" "$in" | od -c)
			[ "$a" = "$b" ] || { echo "differs: '$opt' '$pat'"; return 1; }
		done
	done
	run fc --format tsv --no-header --callees keccak "$in"
	[[ "$output" == *$'0\t0.0000\tb'* ]] || [[ "$output" == *$'\tb'* ]]
	run fc --format tsv --no-header keccak "$in"
	[[ "$output" == *$'0\t0.0000\tc'* ]]
}

@test "the search for a pattern's bytes agrees with a byte-by-byte search (random haystacks)" {
	# fold_memmem looks 16 places a step for the first and last bytes: a
	# match at any offset of a step, at the very end, overlapping, or
	# across bytes 0 and 0xff must be found as a plain search finds it
	if [ -n "${FOLDKIT_SAN:-}" ] && [ -x "$BIN/../test/libcheck" ]; then
		lc=$BIN/../test/libcheck
	else
		lc=$TESTBIN/libcheck
	fi
	for seed in 1 2 3; do
		run "$lc" memmem 20000 "$seed"
		[ "$status" -eq 0 ]
		[ "$output" = "ok 20000 haystacks" ]
	done
	# and through the tool: a long line where the pattern is last
	in=$BATS_TEST_TMPDIR/long
	{ printf 'r'; for i in $(seq 200); do printf ';kecca%d' "$i"; done; printf ';keccak 7\n'; } > "$in"
	run fc --format tsv --no-header keccak "$in"
	[ "$status" -eq 0 ]
	[ "$output" = "$(printf '7\t100.0000\tkecca200')" ]
}
