#!/usr/bin/env bats
# libfold's inflate.c (zlib, raw DEFLATE and gzip streams) through the
# inflate test tool: what gzip made must come back as the original, both
# into a buffer of the exact size (fold_inflate) and a grown one
# (fold_inflate_alloc); zlib streams are made by the tool from a gzip
# file's raw DEFLATE data; then compressed ELF sections, and damaged input.

load helper

# the sanitizer build's copy when there is one
if [ -n "${FOLDKIT_SAN:-}" ] && [ -x "$BIN/../test/inflate" ]; then
	INFLATE=$BIN/../test/inflate
else
	INFLATE=$TESTBIN/inflate
fi

setup() {
	T=$BATS_TEST_TMPDIR
}

# roundtrip ORIGINAL GZFILE: the gzip file decompresses to ORIGINAL as
# gzip, guessed, into an exact buffer; its raw data as raw DEFLATE; and as
# a zlib stream, guessed and not.
roundtrip() {
	local orig=$1 gz=$2 size
	size=$(wc -c < "$orig")
	"$INFLATE" "$gz" > "$T/out" || return 1
	cmp "$T/out" "$orig" || return 1
	"$INFLATE" -g -e "$size" "$gz" > "$T/out" || return 1
	cmp "$T/out" "$orig" || return 1
	gzip -dc "$gz" | cmp - "$orig" || return 1
	"$INFLATE" -R "$gz" > "$T/raw" || return 1
	"$INFLATE" -r "$T/raw" | cmp - "$orig" || return 1
	"$INFLATE" -r -e "$size" "$T/raw" | cmp - "$orig" || return 1
	"$INFLATE" -Z "$gz" "$orig" > "$T/zlib" || return 1
	"$INFLATE" "$T/zlib" | cmp - "$orig" || return 1
	"$INFLATE" -z -e "$size" "$T/zlib" | cmp - "$orig" || return 1
}

# fails FILE WHY [OPTIONS...]: the tool says "inflate: FILE: WHY", exit 1.
fails() {
	local f=$1 why=$2
	shift 2
	run --separate-stderr "$INFLATE" "$@" "$f"
	[ "$status" -eq 1 ] || { fail "status $status, want 1"; return 1; }
	[ -z "$output" ] || { fail "output: $output"; return 1; }
	[ "$stderr" = "inflate: $f: $why" ] || { fail "stderr: $stderr"; return 1; }
}

# broken FILE [OPTIONS...]: an error ("inflate: FILE: something", exit 1),
# or (exit 0) the file $WANT when it is set, never a crash.
broken() {
	local f=$1 stderr
	shift
	status=0
	"$INFLATE" "$@" "$f" > "$T/broken.out" 2> "$T/broken.err" || status=$?
	if [ "$status" -eq 0 ]; then
		[ -z "${WANT:-}" ] || cmp -s "$T/broken.out" "$WANT" ||
			{ fail "$f: wrong output"; return 1; }
		return 0
	fi
	[ "$status" -eq 1 ] || { fail "$f: status $status"; return 1; }
	stderr=$(< "$T/broken.err")
	[[ $stderr == "inflate: $f: "* ]] && [[ $stderr != *$'\n'* ]] ||
		{ fail "$f: stderr: $stderr"; return 1; }
}

@test "empty input is truncated; an empty file's gzip is empty" {
	: > "$T/empty"
	for k in -r -z -g ""; do
		fails "$T/empty" "truncated input" $k
	done
	gzip -c < "$T/empty" > "$T/empty.gz"
	run "$INFLATE" "$T/empty.gz"
	[ "$status" -eq 0 ] && [ -z "$output" ]
	run "$INFLATE" -e 0 "$T/empty.gz"
	[ "$status" -eq 0 ] && [ -z "$output" ]
	roundtrip "$T/empty" "$T/empty.gz"
}

@test "text, binary, every gzip level" {
	cat "$BATS_TEST_DIRNAME"/../man/*.1 > "$T/text"
	cp /usr/bin/ls "$T/bin"
	for f in text bin; do
		for l in 1 2 3 4 5 6 7 8 9; do
			gzip -$l -c < "$T/$f" > "$T/$f.gz"
			roundtrip "$T/$f" "$T/$f.gz"
		done
	done
}

@test "a 10 MB file; gzip -1 of random data (stored blocks); short ones" {
	{ seq 1 1100000; cat /usr/bin/* 2>/dev/null | head -c 3000000; } > "$T/big"
	[ "$(wc -c < "$T/big")" -gt 9000000 ]
	gzip -c < "$T/big" > "$T/big.gz"
	roundtrip "$T/big" "$T/big.gz"
	"$TESTBIN/randbytes" 300000 7 > "$T/rand"
	gzip -1 -c < "$T/rand" > "$T/rand.gz"
	roundtrip "$T/rand" "$T/rand.gz"
	for s in "a" "ab" "abcabcabcabcabcabcabc" "$(printf 'x%.0s' $(seq 1 300))"; do
		printf '%s' "$s" > "$T/short"
		gzip -c < "$T/short" > "$T/short.gz"
		roundtrip "$T/short" "$T/short.gz"
	done
	# long runs: distances 1 to 8 and matches of 258
	for d in 1 2 3 5 7 8 9; do
		head -c $d /usr/bin/ls | base64 -w0 | head -c $d > "$T/unit"
		for i in $(seq 1 300); do cat "$T/unit"; done > "$T/runs"
		gzip -9 -c < "$T/runs" > "$T/runs.gz"
		roundtrip "$T/runs" "$T/runs.gz"
	done
}

@test "multi-member gzip, trailing zeros, a header with name and hcrc" {
	seq 1 5000 > "$T/a"
	cp /usr/bin/ls "$T/b"
	gzip -c "$T/a" > "$T/ab.gz"
	gzip -c "$T/b" >> "$T/ab.gz"
	gzip -c < /dev/null >> "$T/ab.gz"
	cat "$T/a" "$T/b" > "$T/ab"
	"$INFLATE" "$T/ab.gz" | cmp - "$T/ab"
	"$INFLATE" -e "$(wc -c < "$T/ab")" "$T/ab.gz" | cmp - "$T/ab"
	fails "$T/ab.gz" "output larger than expected" -e "$(($(wc -c < "$T/ab") - 1))"
	fails "$T/ab.gz" "output larger than expected" -m 1000
	head -c 1000 /dev/zero >> "$T/ab.gz"
	"$INFLATE" "$T/ab.gz" | cmp - "$T/ab"
	printf 'x' >> "$T/ab.gz"
	fails "$T/ab.gz" "trailing garbage"
	# FNAME (the name gzip keeps), FHCRC over the header made here
	printf 'hello\n' > "$T/h"
	gzip -c < "$T/h" > "$T/h.gz"
	# flags FNAME|FHCRC|FEXTRA|FCOMMENT, an extra field, a name, a comment
	{ printf '\x1f\x8b\x08\x1e\0\0\0\0\0\x03\x02\0AB'; printf 'name\0comment\0'; } > "$T/hd"
	# the header's CRC-32 low 16 bits: gzip -c of the header, its trailer
	crc=$(gzip -c < "$T/hd" | tail -c 8 | head -c 2 | od -An -tx1 | tr -d ' \n')
	{ cat "$T/hd"; printf "\\x${crc:0:2}\\x${crc:2:2}"; "$INFLATE" -R "$T/h.gz"; tail -c 8 "$T/h.gz"; } > "$T/hx.gz"
	"$INFLATE" "$T/hx.gz" | cmp - "$T/h"
	gzip -dc "$T/hx.gz" | cmp - "$T/h"
	{ cat "$T/hd"; printf "\\x${crc:2:2}\\x${crc:0:2}"; "$INFLATE" -R "$T/h.gz"; tail -c 8 "$T/h.gz"; } > "$T/hy.gz"
	fails "$T/hy.gz" "bad gzip header checksum"
}

@test "the kind: guessed, or given and wrong" {
	seq 1 100 > "$T/s"
	gzip -c < "$T/s" > "$T/s.gz"
	"$INFLATE" -Z "$T/s.gz" "$T/s" > "$T/s.z"
	"$INFLATE" -R "$T/s.gz" > "$T/s.raw"
	fails "$T/s.gz" "bad zlib header" -z
	fails "$T/s.z" "bad gzip header" -g
	fails "$T/s.raw" "bad gzip header" -g
	run "$INFLATE" -r "$T/s.z"
	[ "$status" -eq 1 ]
	# a zlib stream that needs a dictionary (FDICT)
	printf '\x78\xbb\0\0\0\0' > "$T/dict"
	fails "$T/dict" "zlib stream needs a preset dictionary" -z
}

@test "zlib-compressed ELF sections (SHF_COMPRESSED) as their uncompressed copies" {
	command -v gcc >/dev/null || skip "gcc not installed"
	command -v objcopy >/dev/null || skip "objcopy not installed"
	command -v readelf >/dev/null || skip "readelf not installed"
	for i in $(seq 1 200); do
		printf 'struct s%d { int a%d; long b; char c[%d]; };\n' $i $i $i
		printf 'int f%d(struct s%d *p, int x) { return p->a%d * x + f%d(p, x - 1); }\n' \
			$i $i $i $((i - 1))
	done > "$T/p.c"
	sed -i '2s/f0(p, x - 1)/x/' "$T/p.c"
	printf 'int main(void) { return 0; }\n' >> "$T/p.c"
	gcc -g -O1 -Wl,--compress-debug-sections=zlib -o "$T/p" "$T/p.c" ||
		skip "gcc cannot compress debug sections"
	objcopy --decompress-debug-sections "$T/p" "$T/pd"
	n=0
	while read -r name off size flags; do
		[[ $flags == *C* ]] || continue
		off=$((0x$off))
		size=$((0x$size))
		# Elf64_Chdr: ch_type 1 (zlib), ch_reserved, ch_size, ch_addralign
		read -r ctype _ <<<"$(od -An -tu4 -j "$off" -N 4 "$T/p")"
		[ "$ctype" -eq 1 ]
		read -r csize <<<"$(od -An -tu8 -j $((off + 8)) -N 8 "$T/p")"
		tail -c +$((off + 25)) "$T/p" | head -c $((size - 24)) > "$T/sec.z"
		objcopy --dump-section "$name=$T/sec.want" "$T/pd" "$T/junk"
		[ "$(wc -c < "$T/sec.want")" -eq "$csize" ]
		"$INFLATE" -z -e "$csize" "$T/sec.z" | cmp - "$T/sec.want"
		"$INFLATE" "$T/sec.z" | cmp - "$T/sec.want"
		n=$((n + 1))
	done < <(readelf -SW "$T/p" | sed -n 's/^ *\[ *[0-9]*\] *//p' |
		awk '$1 ~ /^\.debug_/ { print $1, $4, $5, $7 }')
	[ "$n" -ge 3 ]
}

@test "a truncated stream is an error at every length" {
	seq 1 250 | tr '\n' ' ' > "$T/orig"
	WANT=$T/orig
	gzip -9 -c < "$T/orig" > "$T/t.gz"
	"$INFLATE" -Z "$T/t.gz" "$T/orig" > "$T/t.z"
	"$INFLATE" -R "$T/t.gz" > "$T/t.raw"
	for f in t.gz t.z; do
		size=$(wc -c < "$T/$f")
		for ((i = 0; i < size; i++)); do
			head -c $i "$T/$f" > "$T/cut"
			broken "$T/cut"
			[ "$status" -eq 1 ] || { fail "$f cut at $i decompressed"; return 1; }
		done
	done
	# raw: no checksum says where it ends; an error or a prefix
	size=$(wc -c < "$T/t.raw")
	for ((i = 0; i < size; i++)); do
		head -c $i "$T/t.raw" > "$T/cut"
		run "$INFLATE" -r "$T/cut"
		[ "$status" -eq 1 ] || { fail "raw cut at $i: status $status"; return 1; }
		[[ $output == "inflate: $T/cut: "* ]]
	done
}

@test "flipped bits, wrong checksums and lengths: an error, never a crash" {
	{ seq 1 100; head -c 1000 /usr/bin/ls; } > "$T/orig"
	WANT=$T/orig
	gzip -6 -c < "$T/orig" > "$T/f.gz"
	"$INFLATE" -Z "$T/f.gz" "$T/orig" > "$T/f.z"
	for f in f.gz f.z; do
		size=$(wc -c < "$T/$f")
		for ((i = 0; i < size; i += 2)); do
			b=$(od -An -tu1 -j $i -N 1 "$T/$f")
			nb=$((b ^ (1 << (i % 8))))
			{ head -c $i "$T/$f"; printf "\\x$(printf %02x $nb)"; tail -c +$((i + 2)) "$T/$f"; } > "$T/flip"
			broken "$T/flip" || return 1
		done
	done
	# the trailer: CRC, ISIZE; adler32
	size=$(wc -c < "$T/f.gz")
	{ head -c $((size - 8)) "$T/f.gz"; printf '\1\2\3\4'; tail -c 4 "$T/f.gz"; } > "$T/badcrc"
	fails "$T/badcrc" "bad checksum"
	{ head -c $((size - 4)) "$T/f.gz"; printf '\1\2\3\4'; } > "$T/badlen"
	fails "$T/badlen" "bad uncompressed length"
	size=$(wc -c < "$T/f.z")
	{ head -c $((size - 4)) "$T/f.z"; printf '\1\2\3\4'; } > "$T/badadler"
	fails "$T/badadler" "bad checksum"
}

@test "handmade DEFLATE: distances too far back, stored lengths, block type, code lengths" {
	# fixed code: a match of 3 at distance 1 first
	printf '\x03\x02\x00' > "$T/far"
	fails "$T/far" "distance too far back" -r
	# 'a', then a match at distance 2: one byte back only
	printf '\x4b\x04\x42\x00' > "$T/far2"
	fails "$T/far2" "distance too far back" -r
	# 'a', a match at distance 1: "aaaa"
	printf '\x4b\x04\x02\x00' > "$T/aaaa"
	run "$INFLATE" -r "$T/aaaa"
	[ "$output" = "aaaa" ]
	fails "$T/aaaa" "output larger than expected" -r -e 3
	# a stored block of 65535 bytes with 3 there; LEN and NLEN that differ
	printf '\x01\xff\xff\x00\x00abc' > "$T/huge"
	fails "$T/huge" "truncated input" -r
	printf '\x01\x05\x00\x00\x00abcde' > "$T/nlen"
	fails "$T/nlen" "bad stored block length" -r
	printf '\x01\x05\x00\xfa\xffabcde' > "$T/st"
	run "$INFLATE" -r "$T/st"
	[ "$output" = "abcde" ]
	printf '\x01\x05\x00\xfa\xffabcdef' > "$T/st2"
	fails "$T/st2" "trailing garbage" -r
	printf '\x07' > "$T/type3"
	fails "$T/type3" "bad block type" -r
	# a dynamic block whose code length code has 19 codes of 1 bit
	printf '\x05\xe0\x93\x24\x49\x92\x24\x49\x92\x00' > "$T/oversub"
	fails "$T/oversub" "bad code length code" -r
	# random bytes as each kind
	for s in 1 2 3 4 5 6 7 8; do
		"$TESTBIN/randbytes" $((s * 37)) $s > "$T/rb"
		for k in -r -z -g ""; do
			broken "$T/rb" $k
		done
	done
}
