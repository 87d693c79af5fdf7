#!/usr/bin/env bats
# foldmodules: samples by module.

load helper

fm() { "$BIN/foldmodules" "$@"; }
P=$BATS_TEST_DIRNAME/data/analysis/profile.folded
L=$BATS_TEST_DIRNAME/data/analysis/langs.folded

@test "-p: the seed's ethrex crate breakdown, <other> for the rest" {
	run fm -p '(ethrex_\w+)::' "$P"
	[ "$status" -eq 0 ]
	golden "$DATA/analysis/modules.txt"
}

@test "the seed's one-liner sums zeros; foldmodules sums the counts" {
	run fm --format tsv --no-header -p '(ethrex_\w+)::' "$DATA/analysis/seed-bug.folded"
	[ "$output" = $'10\t100.0000\tethrex_vm' ]
}

@test "--pattern without a group: the whole match names the module" {
	run fm --format tsv --no-header --pattern 'ethrex_[a-z]+' "$P"
	[ "${lines[0]}" = $'66\t66.0000\tethrex_vm' ]
}

@test "--by root (default), leaf and inclusive" {
	run fm --preset rust --by root --format tsv --no-header "$P"
	[ "$(printf '%s\n' "${lines[@]}" | cut -f1,3 | tr '\t\n' ': ')" = "64:ethrex_vm 17:ethrex_blockchain 11:serde_json 6:<other> 2:tokio " ]
	[ "$(mods --preset rust --by leaf "$P")" = "50:ethrex_trie 20:SliceOrd 8:ethrex_vm 7:hex 6:<other> 5:ethrex_rlp 4:std " ]
	run fm --preset rust --by inclusive --format tsv --no-header "$P"
	[ "$(printf '%s\n' "${lines[@]}" | cut -f1,3 | tr '\t\n' ': ')" = "66:ethrex_vm 50:ethrex_trie 20:SliceOrd 20:alloc 17:ethrex_blockchain 11:serde_json 7:hex 6:<other> 5:ethrex_rlp 4:std 2:tokio " ]
	run fm --preset rust --by sideways "$P"
	[ "$status" -eq 2 ]
}

@test "--by inclusive counts a module once per sample (recursion)" {
	run fm --by inclusive --format tsv --no-header -p '(ethrex_vm)' < <(printf 'a;ethrex_vm::run;ethrex_vm::call;ethrex_vm::run 5\n')
	[ "$output" = $'5\t100.0000\tethrex_vm' ]
}

@test "--by inclusive: a first sample in no module is <other>, no crash" {
	# the count was once added through a table the add had just moved
	run fm --preset rust --by inclusive --format tsv --no-header < <(printf 'main;run 3\nmain;serde_json::de::parse 2\n')
	[ "$status" -eq 0 ]
	[ "$output" = $'3\t60.0000\t<other>\n2\t40.0000\tserde_json' ]
}

# mods ARGS...: the modules as "count:name ..." for a compact comparison
mods() {
	fm "$@" --format tsv --no-header | cut -f1,3 | tr '\t\n' ': '
}

@test "presets: rust cpp java go kernel dso" {
	[ "$(mods --preset java "$L")" = "11:<other> 6:net 5:java/util 4:java/util/concurrent 3:java.lang " ]
	[ "$(mods --preset java --by leaf "$L")" = "11:<other> 9:com/acme 6:net 3:org.eclipse.jetty " ]
	[ "$(mods --preset go "$L")" = "14:<other> 8:runtime 4:java/util/concurrent/ThreadPoolExecutor 3:java " ]
	[ "$(mods --preset go --by leaf "$L")" = "14:<other> 6:github.com/acme/api 4:com/acme/Server 3:org 2:runtime " ]
	[ "$(mods --preset cpp --by leaf "$L")" = "22:<other> 4:v8 3:(anonymous namespace) " ]
	[ "$(mods --preset rust "$L")" = "22:<other> 4:v8 3:std " ]
	[ "$(mods --preset kernel "$L")" = "25:<other> 4:kernel " ]
	[ "$(mods --preset dso "$L")" = "27:<other> 2:libc.so.6 " ]
	run --separate-stderr fm --preset cobol "$L"
	[ "$status" -eq 2 ]
	[ "$stderr" = "foldmodules: unknown preset 'cobol' (want rust, cpp, java, go, kernel or dso)" ]
}

@test "--top-functions N: the hottest leaves of each module" {
	run fm --preset rust --top-functions 2 "$P"
	golden "$DATA/analysis/modules-top.txt"
	run fm --preset rust --top-functions 1 --format csv "$P"
	[ "${lines[0]}" = "count,percent,module,function" ]
	[ "${lines[1]}" = "64,64.0000,ethrex_vm," ]
	[ "${lines[2]}" = "38,38.0000,ethrex_vm,KeccakF1600" ]
	run fm --preset rust --top-functions 1 --format json "$P"
	valid_json
}

@test "-F makes -p a fixed string" {
	run fm -F -p 'hex::' --format tsv --no-header "$P"
	[ "${lines[1]}" = $'7\t7.0000\thex::' ]
}

@test "--focus, --ignore, -n, --min-percent" {
	run fm --preset rust --focus tokio --format tsv --no-header "$P"
	[ "$output" = $'2\t2.0000\ttokio' ]
	run fm --preset rust --ignore serde --format tsv --no-header "$P"
	[[ "$output" != *serde* ]]
	run fm --preset rust -n 2 "$P"
	[ "${lines[3]}" = "(3 more not shown, 19.00%)" ]
	run fm --preset rust --min-percent 10 --format tsv --no-header "$P"
	[ "${#lines[@]}" -eq 3 ]
}

@test "--format json is valid whatever bytes the names hold" {
	run fm --preset rust --format json "$P"
	golden "$DATA/analysis/modules.json"
	valid_json
	run fm -p '^(.)' --format json < <(printf '\xff\x01"x;y 1\n')
	valid_json
}

@test "empty input: just the header, exit 0" {
	run fm --preset rust < /dev/null
	[ "$status" -eq 0 ]
	[ "$output" = "count  percent  module" ]
}

@test "no pattern, a bad pattern, a bad option: exit 2" {
	run --separate-stderr fm "$P"
	[ "$status" -eq 2 ]
	[[ "$stderr" == "foldmodules: no module pattern: give -p RE or --preset NAME"* ]]
	run --separate-stderr fm -p '(' "$P"
	[ "$status" -eq 2 ]
	[[ "$stderr" == "foldmodules: bad pattern '(': "* ]]
	run fm --preset rust --top-functions x "$P"
	[ "$status" -eq 2 ]
}

@test "invalid lines reported; --strict" {
	run --separate-stderr fm --preset rust < <(printf 'a::b 1\nnope\n')
	[ "$status" -eq 0 ]
	[ "$stderr" = "foldmodules: <stdin>:2: no count at the end of the line (1 invalid line skipped)" ]
	run fm --preset rust --strict < <(printf 'a::b 1\nnope\n')
	[ "$status" -eq 1 ]
}

@test "--help, --version, usage matches the man page, lint" {
	run fm --help
	[ "$status" -eq 0 ]
	run fm --version
	[[ "$output" =~ ^foldmodules\ \(foldkit\)\ [0-9.]+$ ]]
	usage_matches_man foldmodules
	man_lint foldmodules.1
}

@test "/dev/full is a write error, exit 1; | head ends quietly" {
	full_disk foldmodules --preset rust "$P"
	for i in $(seq 1 30000); do echo "main;mod$i::f $i"; done > "$BATS_TEST_TMPDIR/many"
	closed_pipe "count  percent  module" foldmodules --preset rust "$BATS_TEST_TMPDIR/many"
}

@test "--by inclusive over shared prefixes, filters and zero counts" {
	in=$'p;a::x;b::y;a::z 1\np;a::x;c::w 2\np;a::x 4\nq;b::y 8\nq;d::v 0\nr;plain 16'
	incl() { fm --preset rust --by inclusive --format tsv --no-header "$@" <<< "$in" | cut -f1,3 | tr '\t\n' ': '; }
	[ "$(incl)" = "16:<other> 9:b 7:a 2:c 0:d " ]
	[ "$(incl --ignore '^c::')" = "16:<other> 9:b 5:a 0:d " ]
	[ "$(incl --focus '^q$')" = "8:b 0:d " ]
}

# ---- differential input (STACK BEFORE AFTER) --------------------------------

@test "differential: modules with before, after, delta, delta% (checked by awk)" {
	f=$BATS_TEST_TMPDIR/d
	printf 'p;x::a;y::b 10 20\np;x::a 5 0\np;y::c;x::d 0 7\np;z 3 3\n' > "$f"
	run "$BIN/foldmodules" -p '^(\w+)::' --format tsv --no-header "$f"
	[ "$status" -eq 0 ]
	want=$(awk '{ n = split($1, fr, ";"); tb += $2; m = "<other>"
		for (i = 1; i <= n; i++) if (fr[i] ~ /::/) { m = fr[i]; sub(/::.*/, "", m); break }
		b[m] += $2; a[m] += $3 }
		END { for (m in b) printf "%d\t%d\t%d\t%.4f\t%s\n", b[m], a[m], a[m] - b[m], 100 * (a[m] - b[m]) / tb, m }' "$f" | sort -t $'\t' -k3,3nr -k5)
	[ "$(printf '%s\n' "${lines[@]}")" = "$want" ]
	run "$BIN/foldmodules" -p '^(\w+)::' --by leaf -r --format tsv --no-header "$f"
	[ "$(printf '%s\n' "${lines[@]}" | cut -f5 | tr '\n' ' ')" = "<other> x y " ]
	run "$BIN/foldmodules" -p '^(\w+)::' --by inclusive --sort count --format tsv --no-header "$f"
	[ "$(printf '%s\n' "${lines[@]}" | tr '\t\n' ', ')" = "15,27,12,66.6667,x 10,27,17,94.4444,y 3,3,0,0.0000,<other> " ]
}

@test "differential: --top-functions in text, csv and json" {
	f=$BATS_TEST_TMPDIR/d
	printf 'p;x::a;y::b 10 20\np;x::a 5 0\np;y::c;x::d 0 7\n' > "$f"
	run "$BIN/foldmodules" -p '^(\w+)::' --top-functions 2 "$f"
	[ "${lines[0]}" = "before  after  delta   delta%  module" ]
	[ "${lines[1]}" = "     0      7     +7  +46.67%  y" ]
	[ "${lines[2]}" = "     0      7     +7  +46.67%    x::d" ]
	[ "${lines[3]}" = "    15     20     +5  +33.33%  x" ]
	[ "${lines[4]}" = "    10     20    +10  +66.67%    y::b" ]
	[ "${lines[5]}" = "     5      0     -5  -33.33%    x::a" ]
	run "$BIN/foldmodules" -p '^(\w+)::' --top-functions 1 --format csv "$f"
	[ "${lines[2]}" = "0,7,7,46.6667,y,x::d" ]
	[ "${lines[4]}" = "10,20,10,66.6667,x,y::b" ]
	run "$BIN/foldmodules" -p '^(\w+)::' --top-functions 1 --format json "$f"
	[[ "$output" == '{"before": 15, "after": 27, "by": "root", "rows": ['* ]]
	valid_json
	run --separate-stderr "$BIN/foldmodules" -p x --sort delta <<< 'a 1'
	[ "$status" -eq 2 ]
	run "$BIN/foldmodules" -p '^(\w)' --reverse --format tsv --no-header <<< $'a 1\nb 2'
	[ "$(printf '%s\n' "${lines[@]}" | cut -f3 | tr '\n' ' ')" = "a b " ]
}

@test "--by root and leaf look frames up only until a module decides: the same table" {
	# --ignore with a pattern that matches nothing takes the general path
	# (every frame interned); both must agree whatever the stacks hold.
	in=$BATS_TEST_TMPDIR/in
	{
		cat "$P" "$L"
		printf 'main;serde_json::de::parse;serde_json::x 2\n'
		printf 'main;serde_json::de::parse;tokio::run 3\n'	# same decider
		printf 'main;serde_json::de::parse 1\n'			# a prefix
		printf 'main 4\nmain;run 2\nmain;run;std::io::read 5\n'	# none, then one
		printf 'main;run 0\n;;std::x 1\n;std::y;z 2\n'
		printf 'a\001b;std::\000x;core::y 3\n'
	} > "$in"
	for opt in "--preset rust" "--preset cpp" "--preset kernel" "-p ^(st)" "-F -p ::"; do
		for by in root leaf; do
			# shellcheck disable=SC2086
			a=$(fm $opt --by $by "$in" | od -c)
			# shellcheck disable=SC2086
			b=$(fm $opt --by $by --ignore 'no such frame anywhere' "$in" | od -c)
			[ "$a" = "$b" ] || { echo "differs: '$opt' $by"; return 1; }
		done
	done
	[ "$(mods --preset rust <(printf 'main 4\nmain;run 2\nmain;run;std::io::read 5\nmain;serde_json::a;tokio::b 3\nmain;serde_json::a 1\n'))" = "6:<other> 5:std 4:serde_json " ]
}
