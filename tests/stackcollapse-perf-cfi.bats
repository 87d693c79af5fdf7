#!/usr/bin/env bats
# The call frame information behind stackcollapse-perf's DWARF unwinding
# (libfold's cfi.c), through the cfidump test tool: every row of every FDE
# it finds by lookups must be the row `readelf --debug-dump=frames-interp`
# prints, for system libraries and programs compiled here by each compiler
# on this machine; then the expressions, and damaged CFI.

load helper

# the sanitizer build's copy when there is one
if [ -n "${FOLDKIT_SAN:-}" ] && [ -x "$BIN/../test/cfidump" ]; then
	CFIDUMP=$BIN/../test/cfidump
else
	CFIDUMP=$TESTBIN/cfidump
fi

# a number in hex without leading zeros
hexn() { printf '%x' $((0x$1)); }

# section NAME of FILE: "ADDRESS OFFSET" (hex)
section() {
	readelf -SW "$1" | sed -n 's/^ *\[ *[0-9]*\] *//p' |
		awk -v n="$2" '$1 == n { print $3, $4 }'
}

setup() {
	command -v readelf >/dev/null || skip "readelf is not installed"
	T=$BATS_TEST_TMPDIR
}

# One line per row of an FDE from readelf -wF or cfidump on stdin:
#   SECTION START..END LOC cfa=CFA REG=RULE...
# undefined rules and registers above 32 left out (cfi.c keeps 0..32).
# With re=1 (readelf's output): an FDE without instructions has no rows
# there (it gets its CIE's last), rows at or past the FDE's end and all
# but the last row at one LOC are dropped, FDEs of empty range too; a
# return address column above 32 is left out.
NORM='
BEGIN {
	split("rax rdx rcx rbx rsi rdi rbp rsp r8 r9 r10 r11 r12 r13 r14 r15 rip " \
	    "eax ecx edx ebx esp ebp esi edi eip eflags sp zero gp tp fp " \
	    "t0 t1 t2 t3 t4 t5 t6 s0 s1 s2 s3 s4 s5 s6 s7 s8 s9 s10 s11 " \
	    "a0 a1 a2 a3 a4 a5 a6 a7", n0, " ")
	for (i in n0)
		known[n0[i]] = 1
	for (i = 0; i <= 32; i++)
		known["r" i] = known["x" i] = known["xmm" i] = 1
}
function flush(   i) {
	if (infde && fstart != fend) {
		if (nrows == 0 && re && (cie in cierow)) {
			nrows = 1
			rloc[1] = fstart
			rstate[1] = cierow[cie]
		}
		for (i = 1; i <= nrows; i++) {
			if (re && (rloc[i] "") >= (fend ""))
				continue
			if (re && i < nrows && (rloc[i + 1] "") == (rloc[i] ""))
				continue
			print sec, fstart ".." fend, rloc[i], rstate[i]
		}
	}
	infde = incie = nrows = 0
}
function range(s,   a) {
	sub(/^pc=/, "", s)
	split(s, a, /\.\./)
	fstart = a[1]
	fend = a[2]
}
/^Contents of the / { flush(); sec = $4; next }
$2 == "ZERO" { flush(); next }
$4 == "CIE" {
	flush()
	incie = 1
	cieoff = $1
	ra = 0
	for (j = 5; j <= NF; j++)
		if ($j ~ /^ra=/)
			ra = substr($j, 4) + 0
	ciera[cieoff] = ra
	next
}
$4 == "FDE" { flush(); infde = 1; cie = substr($5, 5); ra = ciera[cie]; range($6); next }
/^pc=/ { flush(); infde = 1; ra = 0; range($1); next }
/^   LOC/ {
	for (j = 3; j <= NF; j++)
		col[j] = $j
	next
}
/^[0-9a-f]+ / && (infde || incie) {
	gsub(/ \([^)]*\)/, "")
	st = "cfa=" $2
	for (j = 3; j <= NF; j++)
		if ($j != "u" && ((col[j] in known) || (col[j] == "ra" && ra <= 32)))
			st = st " " col[j] "=" $j
	if (incie)
		cierow[cieoff] = st
	else {
		rloc[++nrows] = $1
		rstate[nrows] = st
	}
}
END { flush() }'

# readelf's rows of FILE, normalised, into $T/NAME.re
readelf_rows() {
	readelf -wF -wN "$1" 2>/dev/null | awk -v re=1 "$NORM" | sort > "$T/$2.re"
}

# compare FILE NAME [cfidump options]: cfidump's rows of FILE must be
# readelf's, at least one; sets ROWS (how many) and SECTIONS (which).
compare() {
	local file=$1 name=$2
	shift 2
	readelf_rows "$file" "$name"
	"$CFIDUMP" "$@" "$file" > "$T/$name.out" 2> "$T/$name.err" ||
		{ cat "$T/$name.err" >&2; fail "cfidump $* $file: status $?"; return 1; }
	[ ! -s "$T/$name.err" ] || { cat "$T/$name.err" >&2; fail "cfidump said something"; return 1; }
	awk "$NORM" "$T/$name.out" | sort > "$T/$name.me"
	diff "$T/$name.re" "$T/$name.me" > "$T/$name.diff" ||
		{ head -20 "$T/$name.diff" >&2; fail "$file: rows differ"; return 1; }
	ROWS=$(wc -l < "$T/$name.re")
	SECTIONS=$(cut -d' ' -f1 "$T/$name.re" | sort -u | tr '\n' ' ')
	[ "$ROWS" -gt 0 ] || { fail "$file: no rows compared"; return 1; }
	echo "# $file: $ROWS rows ($SECTIONS)" >&3
}

# a C program with loops, alloca, varargs and libc calls through the PLT
c_source() {
	cat > "$T/prog.c" <<'EOF'
#include <alloca.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
static int __attribute__((noinline)) rec(int n, char *buf)
{
	char *p;

	if (n <= 0)
		return buf[0];
	p = alloca(n * 16);
	memset(p, n, n * 16);
	return rec(n - 1, p) + p[3];
}
int __attribute__((noinline)) va(int n, ...) { return n * 3; }
int main(int argc, char **argv)
{
	char b[64];

	snprintf(b, sizeof(b), "%d %s", argc, argv[0]);
	printf("%d %s\n", rec(argc + 3, b), b);
	return va(argc, 1, 2) & 1;
}
EOF
}

@test "libc: every row of .eh_frame, through .eh_frame_hdr and through the index" {
	libc=/usr/lib/x86_64-linux-gnu/libc.so.6
	[ -f "$libc" ] || libc=$(ldd /bin/sh 2>/dev/null | awk '/libc\.so/ { print $3 }')
	[ -f "$libc" ] || skip "no libc.so.6 found"
	compare "$libc" libc
	[ "$ROWS" -gt 1000 ]
	compare "$libc" libcix -H
}

@test "system programs: ls and bash" {
	for p in ls bash; do
		f=$(command -v $p) || continue
		compare "$f" $p
	done
}

@test "gcc -O2 -g: .eh_frame" {
	command -v gcc >/dev/null || skip "gcc is not installed"
	c_source
	gcc -O2 -g -o "$T/gcc" "$T/prog.c"
	compare "$T/gcc" gcc
	[[ "$SECTIONS" == *.eh_frame* ]]
}

@test "gcc -g -fno-asynchronous-unwind-tables: .debug_frame (CIE version 1)" {
	command -v gcc >/dev/null || skip "gcc is not installed"
	c_source
	gcc -O2 -g -fno-asynchronous-unwind-tables -o "$T/dbg" "$T/prog.c"
	compare "$T/dbg" dbg
	grep -q '^\.debug_frame .* cfa=rsp+16' "$T/dbg.me"
	# the program's functions are in .debug_frame only
	main=$(nm "$T/dbg" | awk '$3 == "main" { print $1 }')
	grep -q "^\.debug_frame $main\.\." "$T/dbg.me"
	! grep -q "^\.eh_frame $main\.\." "$T/dbg.me"
	# and a lookup finds them there: .eh_frame first, then .debug_frame
	run "$CFIDUMP" "$T/dbg" "$main"
	[ "$status" -eq 0 ]
	[[ "${lines[0]}" == "$(hexn $main) pc=$main.."* ]]
}

@test "g++ -O2: C++ with exceptions (zPLR CIEs, LSDA)" {
	command -v g++ >/dev/null || skip "g++ is not installed"
	cat > "$T/prog.cc" <<'EOF'
#include <iostream>
#include <stdexcept>
#include <string>
#include <vector>
struct E : std::runtime_error { E(const std::string &s) : std::runtime_error(s) {} };
static void __attribute__((noinline)) thrower(int n)
{
	std::vector<std::string> v(n, "x");
	if (n > 2)
		throw E("boom " + v[0]);
}
int main(int argc, char **)
{
	try {
		thrower(argc + 5);
	} catch (const E &e) {
		std::cout << e.what() << "\n";
	}
	return 0;
}
EOF
	g++ -O2 -o "$T/gxx" "$T/prog.cc"
	readelf -wf "$T/gxx" | grep -q 'Augmentation: *"zPLR"'
	compare "$T/gxx" gxx
}

@test "clang -O2 -gdwarf-5: .eh_frame, and .debug_frame (CIE version 4)" {
	command -v clang >/dev/null || skip "clang is not installed"
	c_source
	clang -O2 -gdwarf-5 -o "$T/clang" "$T/prog.c"
	compare "$T/clang" clang
	clang -O2 -gdwarf-5 -fno-asynchronous-unwind-tables -o "$T/clangdbg" "$T/prog.c"
	readelf -wf "$T/clangdbg" | grep -q 'Version: *4'
	compare "$T/clangdbg" clangdbg
	[[ "$SECTIONS" == *.debug_frame* ]]
}

@test "rustc -O: a Rust release binary" {
	command -v rustc >/dev/null || skip "rustc is not installed"
	cat > "$T/prog.rs" <<'EOF'
fn main() {
    let v: Vec<String> = std::env::args().collect();
    let r = std::panic::catch_unwind(|| {
        if v.len() < 5 {
            panic!("x");
        }
    });
    println!("{:?} {}", r.is_err(), v.len());
}
EOF
	rustc -O -o "$T/rust" "$T/prog.rs" 2>/dev/null
	compare "$T/rust" rust
	[ "$ROWS" -gt 1000 ]
}

@test "hand-written CFI: the rarer instructions, encodings and CIE forms (tests/data/cfi)" {
	compare "$DATA/cfi/handmade.elf" hm
	[ "$SECTIONS" = ".debug_frame .eh_frame " ]
	compare "$DATA/cfi/handmade.elf" hmix -H
	# 64-bit DWARF in .eh_frame, 4-byte addresses in a version 4 CIE:
	# the same rows
	"$CFIDUMP" "$DATA/cfi/handmade64.elf" | awk "$NORM" | sort > "$T/hm64"
	diff "$T/hm.me" "$T/hm64"
	run "$CFIDUMP" "$DATA/cfi/handmade64.elf" 401004 404002 402100
	[ "${lines[0]}" = "401004 pc=0000000000401000..0000000000401040" ]
	[[ "${lines[2]}" == "0000000000401004 rbp+16   v-16  c-8 "* ]]
	[[ "${lines[5]}" == "0000000000404002 rsp+24   c-24  c-8 "* ]]
	[ "${lines[6]}" = "402100 pc=0000000000402100..0000000000402110 signal" ]
}

@test "other machines: AArch64 (pointer authentication), big-endian, 32-bit, both sections" {
	command -v clang >/dev/null && command -v ld.lld >/dev/null ||
		skip "clang and ld.lld are not installed"
	cat > "$T/fs.c" <<'EOF'
void *memset(void *d, int c, unsigned long n) { unsigned char *p = d; while (n--) *p++ = (unsigned char)c; return d; }
extern int ext(int *, int);
static int __attribute__((noinline)) leaf(int *p, int n) { int s = 0; for (int i = 0; i < n; i++) s += p[i] * i; return s; }
int __attribute__((noinline)) mid(int n) { int a[64]; memset(a, n, sizeof a); int *v = __builtin_alloca(n * 4 + 16); v[0] = leaf(a, n); return ext(v, n) + leaf(v, 1); }
int ext(int *p, int n) { return n > 0 ? mid(n - 1) + p[0] : 0; }
int _start(void) { return mid(5); }
EOF
	built=
	for t in aarch64-linux-gnu aarch64_be-linux-gnu powerpc-linux-gnu \
	    powerpc64-linux-gnu mips-linux-gnu mips64-linux-gnuabi64 \
	    i386-linux-gnu riscv64-linux-gnu; do
		extra=
		case $t in aarch64*) extra=-mbranch-protection=pac-ret+b-key ;; esac
		clang --target=$t -O2 -ffreestanding -fasynchronous-unwind-tables \
		    $extra -c "$T/fs.c" -o "$T/$t.o" 2>/dev/null &&
		    ld.lld -e _start --eh-frame-hdr -o "$T/$t" "$T/$t.o" 2>/dev/null ||
		    continue
		compare "$T/$t" "$t"
		clang --target=$t -O2 -g -ffreestanding -fno-unwind-tables \
		    -fno-asynchronous-unwind-tables -c "$T/fs.c" -o "$T/$t-d.o" &&
		    ld.lld -e _start -o "$T/$t-d" "$T/$t-d.o"
		compare "$T/$t-d" "$t-d"
		[[ "$SECTIONS" == *.debug_frame* ]]
		built="$built $t"
	done
	[ -n "$built" ] || skip "clang cannot build for other machines here"
	[[ "$built" != *aarch64-linux-gnu* ]] ||
		readelf -wf "$T/aarch64-linux-gnu" | grep -q 'Augmentation: *"zRB"'
}

@test "a changed rule, a missing row, a missing FDE: the comparison fails" {
	command -v gcc >/dev/null || skip "gcc is not installed"
	c_source
	gcc -O2 -g -o "$T/gcc" "$T/prog.c"
	compare "$T/gcc" gcc
	sed '0,/ c-16 / s// c-24 /' "$T/gcc.out" | awk "$NORM" | sort > "$T/bad1"
	! cmp -s "$T/gcc.re" "$T/bad1"
	awk '/^0/ && ++n == 3 { next } { print }' "$T/gcc.out" | awk "$NORM" | sort > "$T/bad2"
	! cmp -s "$T/gcc.re" "$T/bad2"
	awk '/^pc=/ && ++n == 2 { skip = 1 } /^$/ { skip = 0 } !skip' "$T/gcc.out" |
		awk "$NORM" | sort > "$T/bad3"
	! cmp -s "$T/gcc.re" "$T/bad3"
}

@test "the PLT's CFA expression: rsp+8 before the jump back, rsp+16 after" {
	command -v gcc >/dev/null || skip "gcc is not installed"
	c_source
	gcc -O2 -o "$T/gcc" "$T/prog.c"
	plt=$(section "$T/gcc" .plt | cut -d' ' -f1)
	[ -n "$plt" ] || skip "no .plt"
	# GCC's and binutils' expression: (rip & 15) >= 11 (or 10) adds 8
	lit=$(readelf -wf "$T/gcc" | sed -n 's/.*DW_OP_lit\(1[01]\); DW_OP_ge.*/\1/p' | head -1)
	[ -n "$lit" ] || skip "no PLT expression"
	e1=$(printf '%x' $((0x$plt + 16)))
	for i in 0 1 5 9 10 11 12 15; do
		run "$CFIDUMP" -c "$T/gcc" "$(printf '%x' $((0x$e1 + i)))" 7ffe0000
		[ "$status" -eq 0 ]
		if [ "$i" -lt "$lit" ]; then want=7ffe0008; else want=7ffe0010; fi
		[ "$output" = "$want" ] || fail "entry + $i: $output, want $want"
	done
	# the same bytes alone (lit11, then lit10), both sides of the line
	x=770880003f1a3b2a332422
	run "$CFIDUMP" -x $x 7=1000 16=401a
	[ "$output" = 1008 ]
	run "$CFIDUMP" -x $x 7=1000 16=401b
	[ "$output" = 1010 ]
	run "$CFIDUMP" -x ${x/3b/3a} 7=1000 16=4019
	[ "$output" = 1008 ]
	run "$CFIDUMP" -x ${x/3b/3a} 7=1000 16=401a
	[ "$output" = 1010 ]
	# no rip: fail
	run "$CFIDUMP" -x $x 7=1000
	[ "$status" -eq 1 ]
	[ "$output" = fail ]
}

# ev EXPECTED [-4] [-B] HEX... [REG=VAL...]: the value of the expression
# of the bytes HEX... (joined)
ev() {
	local want=$1 a opts=() hex= regs=()
	shift
	for a in "$@"; do
		case $a in
		-*) opts+=("$a") ;;
		*=*) regs+=("$a") ;;
		*) hex=$hex$a ;;
		esac
	done
	run "$CFIDUMP" -x "${opts[@]}" "$hex" "${regs[@]}"
	[ "$output" = "$want" ] || { fail "$*: $output, want $want"; return 1; }
}

@test "DWARF expressions: constants, arithmetic, stack, branches, memory, limits" {
	ev 1f 0c10000000 3f 22			# const4u + lit15
	ev ffffffffffffffff 09ff		# const1s -1
	ev 0 09ff 31 22				# -1 + 1
	ev fffffffffffffffd 1179 32 1b		# -7 / 2 (signed)
	ev 1 37 33 1d				# 7 mod 3
	ev fail 31 30 1b			# division by zero
	ev fail 31 30 1d
	ev 8000000000000000 0e0000000000000080 09ff 1b	# INT64_MIN / -1
	ev fffffffffffffffc 1170 32 26		# -16 >> 2 (arithmetic)
	ev 3ffffffffffffffc 1170 32 25		# -16 >> 2 (logical)
	ev 0 31 10c000 24			# 1 << 64
	ev 10 31 34 24				# 1 << 4
	ev 2 31 32 33 17			# rot
	ev 1 31 32 33 17 13			# rot, drop
	ev 1 31 32 16				# swap
	ev 1 31 32 14				# over
	ev 1 31 32 33 1502			# pick 2
	ev fail 31 1501				# pick past the stack
	ev 7 1179 19				# abs
	ev 7 1179 1f				# neg
	ev fffffffffffffff8 37 20		# not
	ev 1 37 37 29 ; ev 0 37 37 2e		# eq, ne
	ev 1 1179 31 2d ; ev 0 1179 31 2b	# lt, gt: signed
	ev 1 31 31 2a ; ev 1 31 31 2c		# ge, le
	ev 6 31 280100 35 36			# bra taken over lit5
	ev 5 30 280100 35			# bra not taken
	ev 6 2f0100 35 36			# skip
	ev fail 2f0500				# skip past the end
	ev fail 2ffdff				# skip to itself: 1000 operations
	ev 108 920708 7=100			# bregx
	ev abc 9010 16=abc			# regx
	ev 5 50 0=5				# reg0
	ev fail 50				# reg0 not given
	ev 15545 0c10000100 06			# deref
	ev 5545 0c10000100 9402			# deref_size 2
	ev fail 30 06				# unreadable memory
	ev fail 0c10000100 9409			# deref_size 9
	ev fail 22				# stack underflow
	ev fail ''				# empty
	ev fail 02				# unknown operation
	ev fail 0c1000				# operand cut short
	ev 0 $(printf '30%.0s' $(seq 64))	# 64 values
	ev fail $(printf '30%.0s' $(seq 65))	# 65
	ev 0 -4 0cffffffff 31 22		# 32-bit: wraps
	ev fffffffc -4 0cf0ffffff 32 26		# 32-bit shra
	ev 15545 -4 0c10000100 06		# 32-bit deref: 4 bytes
	ev 10010 -B 0c00010010			# big-endian operands
	ev 0 -B 0c00010010 9402			# deref_size: the first bytes
	ev 1234000000000000 -B 0e1234000000000000
}

@test "addresses outside every FDE: none" {
	command -v gcc >/dev/null || skip "gcc is not installed"
	c_source
	gcc -O2 -g -o "$T/gcc" "$T/prog.c"
	run "$CFIDUMP" "$T/gcc" 0 1 ffffffffffffffff
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "0 none" ]
	[ "${lines[1]}" = "1 none" ]
	[ "${lines[2]}" = "ffffffffffffffff none" ]
}

# patch FILE OFFSET HEXBYTES: overwrite bytes of a file
patch() {
	printf "$(echo "$3" | sed 's/../\\x&/g')" |
		dd of="$1" bs=1 seek="$2" conv=notrunc status=none
}

@test "damaged CFI: the FDE fails with a message, the others still work" {
	command -v gcc >/dev/null || skip "gcc is not installed"
	c_source
	gcc -O2 -g -o "$T/gcc" "$T/prog.c"
	cp "$T/gcc" "$T/bad"
	eh=$(section "$T/gcc" .eh_frame | cut -d' ' -f2)
	main=$(nm "$T/gcc" | awk '$3 == "main" { print $1 }')
	rec=$(nm "$T/gcc" | awk '$3 == "rec" { print $1 }')
	# main's FDE ("zR" CIE: instructions 17 bytes in), an unknown
	# instruction in place of its first
	fde=$(readelf -wf "$T/gcc" | awk -v m="pc=$main" '$4 == "FDE" && index($6, m) == 1 { print $1 }')
	[ -n "$fde" ]
	patch "$T/bad" $((0x$eh + 0x$fde + 17)) 3f
	run --separate-stderr "$CFIDUMP" -e "$T/bad" "$main" "$rec"
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "$(hexn $main) none" ]
	[[ "${lines[1]}" == "$(hexn $rec) pc=$rec.."* ]]
	[[ "$stderr" == *"CFA instruction unknown"* ]]
	# a length past the end of the section: the walk stops there
	cp "$T/gcc" "$T/bad2"
	patch "$T/bad2" $((0x$eh + 0x$fde)) f0ffff7f
	run --separate-stderr "$CFIDUMP" -e -H "$T/bad2"
	[ "$status" -eq 0 ]
	[[ "$stderr" == *"CFI entry longer than its section"* ]]
}

@test "an unsorted .eh_frame_hdr table is not used: every row from the index" {
	command -v gcc >/dev/null || skip "gcc is not installed"
	c_source
	gcc -O2 -g -o "$T/gcc" "$T/prog.c"
	cp "$T/gcc" "$T/bad"
	hdr=$(section "$T/gcc" .eh_frame_hdr | cut -d' ' -f2)
	t=$((0x$hdr + 12))
	a=$(od -An -tx1 -j $t -N 8 "$T/gcc" | tr -d ' \n')
	b=$(od -An -tx1 -j $((t + 8)) -N 8 "$T/gcc" | tr -d ' \n')
	patch "$T/bad" $t "$b$a"
	readelf_rows "$T/gcc" good
	"$CFIDUMP" -e "$T/bad" 2> "$T/err" | awk "$NORM" | sort > "$T/bad.me"
	grep -q '\.eh_frame_hdr table not sorted' "$T/err"
	diff "$T/good.re" "$T/bad.me"
}
