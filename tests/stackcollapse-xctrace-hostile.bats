#!/usr/bin/env bats
# stackcollapse-xctrace on hostile input: damaged XML, bad ids and refs,
# entity tricks, deep nesting, cut exports.  Always one message,
# "stackcollapse-xctrace: FILE:LINE: what is wrong", and exit 1; the rows
# before the damage are kept (valid folded output); never a crash, a hang
# or an entity expanded.

load helper

D=$BATS_TEST_DIRNAME/data/xctrace
sc() { "$BIN/stackcollapse-xctrace" "$@"; }

setup() {
	T=$BATS_TEST_TMPDIR
}

HEAD='<?xml version="1.0"?>
<trace-query-result>
<node><schema name="time-profile"><col><mnemonic>weight</mnemonic><name>Weight</name><engineering-type>weight</engineering-type></col><col><mnemonic>stack</mnemonic><name>Backtrace</name><engineering-type>backtrace</engineering-type></col></schema>
<row><weight id="1" fmt="1.00 ms">1000000</weight><backtrace id="2"><frame id="3" name="main" addr="0x10"><binary id="4" name="app"/></frame></backtrace></row>'
TAIL='</node>
</trace-query-result>'

# doc NAME ROW...: an export of the rows after HEAD's good one, in $T/NAME.
doc() {
	local n=$1
	shift
	{ printf '%s\n' "$HEAD"; printf '%s\n' "$@"; printf '%s\n' "$TAIL"; } > "$T/$n"
}

# bad NAME LINE WHY [ARGS]: one message for $T/NAME at LINE, exit 1; the
# first row (main 1) is kept.
bad() {
	local n=$1 line=$2 why=$3
	shift 3
	run --separate-stderr sc "$@" "$T/$n"
	[ "$status" -eq 1 ] || { fail "$n: status $status"; return 1; }
	[ "$stderr" = "stackcollapse-xctrace: $T/$n:$line: $why" ] ||
		{ fail "$n: stderr: $stderr"; return 1; }
	[ "$output" = "main 1" ] || [ "$output" = "main 1000000" ] ||
		{ fail "$n: output: $output"; return 1; }
}

@test "bad refs and ids: to nothing, to another kind, an id twice, not a number" {
	doc nothing '<row><weight ref="1"/><backtrace ref="99"/></row>'
	bad nothing 5 '<backtrace ref="99">: no element with that id before it'
	doc kind '<row><weight ref="1"/><backtrace id="5"><frame ref="4"/></backtrace></row>'
	bad kind 5 '<frame ref="4">: that id is a <binary>'
	doc skipped '<row><weight ref="1"/><backtrace id="5"><frame ref="1"/></backtrace></row>'
	bad skipped 5 '<frame ref="1">: no element with that id before it'
	doc twice '<row><weight ref="1"/><backtrace id="5"><frame id="3" name="x"/></backtrace></row>'
	bad twice 5 'id="3" given twice (a <frame>, then a <frame>)'
	doc nan '<row><weight ref="1"/><backtrace id="5"><frame id="x7" name="x"/></backtrace></row>'
	bad nan 5 'id="x7" is not a number'
	doc big '<row><weight ref="1"/><backtrace id="5"><frame ref="123456789012345678901"/></backtrace></row>'
	bad big 5 'ref="123456789012345678901" is not a number'
	doc wref '<row><weight ref="2"/><backtrace ref="2"/></row>'
	bad wref 5 '<weight ref="2">: that id is a <backtrace>' --weight
}

@test "weights: not a number, or a sum past 2^64 - 1, with --weight" {
	doc nanw '<row><weight id="5">1.5</weight><backtrace ref="2"/></row>'
	bad nanw 5 '<weight> is not a whole number from 0 to 18446744073709551615: "1.5"' --weight
	doc neg '<row><weight id="5">-1</weight><backtrace ref="2"/></row>'
	bad neg 5 '<weight> is not a whole number from 0 to 18446744073709551615: "-1"' --weight
	doc over '<row><weight id="5">18446744073709551615</weight><backtrace ref="2"/></row>'
	bad over 5 'sum of weights larger than 18446744073709551615' --weight
	# without --weight the weights are not read
	run sc "$T/nanw"
	[ "$status" -eq 0 ]
	[ "$output" = "main 2" ]
}

@test "entity tricks: a DTD's entities are never expanded (billion laughs is one message)" {
	cat > "$T/lol" <<-'EOF'
	<?xml version="1.0"?>
	<!DOCTYPE lolz [
	 <!ENTITY lol "lol">
	 <!ENTITY lol1 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
	 <!ENTITY lol2 "&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;">
	 <!ENTITY lol9 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
	]>
	<trace-query-result><node><schema name="time-profile"><col><mnemonic>stack</mnemonic></col></schema>
	<row><backtrace id="2"><frame id="3" name="&lol9;"/></backtrace></row>
	</node></trace-query-result>
	EOF
	run --separate-stderr sc "$T/lol"
	[ "$status" -eq 1 ]
	[ -z "$output" ]
	[ "$stderr" = "stackcollapse-xctrace: $T/lol:9: unknown entity &lol9; (only &amp; &lt; &gt; &quot; &apos; and character references: no DTD entity is expanded)" ]
}

@test "entity tricks: bad character references, a bare '&', no double decoding" {
	local r
	for r in '&#0;' '&#xD800;' '&#x110000;' '&#;' '&#x;' '&#12a;' '&#1;' '&#xFFFE;'; do
		doc ref "<row><weight ref=\"1\"/><backtrace id=\"5\"><frame id=\"6\" name=\"a${r}b\"/></backtrace></row>"
		bad ref 5 "bad character reference ${r:0:${#r}-1};"
	done
	doc amp '<row><weight ref="1"/><backtrace id="5"><frame id="6" name="a & b"/></backtrace></row>'
	bad amp 5 "'&' not followed by an entity or character reference ending in ';'"
	doc long '<row><weight ref="1"/><backtrace id="5"><frame id="6" name="a&amp b;c"/></backtrace></row>'
	bad long 5 "unknown entity &amp b; (only &amp; &lt; &gt; &quot; &apos; and character references: no DTD entity is expanded)"
	doc twice '<row><weight ref="1"/><backtrace id="5"><frame id="6" name="&#38;amp; &amp;lt; &#x26;#60;"/><frame ref="3"/></backtrace></row>'
	run sc "$T/twice"
	[ "$status" -eq 0 ]
	# decoded once: "&amp; &lt; &#60;", its ';' made ':'
	[[ "$output" == *"main;&amp: &lt: &#60: 1"* ]]
	doc lt '<row><weight ref="1"/><backtrace id="5"><frame id="6" name="a<b"/></backtrace></row>'
	bad lt 5 "'<' in an attribute value"
}

@test "damaged markup: each its message and line" {
	doc close '<row><weight ref="1"/><backtrace ref="2"/></rows>'
	bad close 5 "end tag </rows> closes <row>"
	doc quote '<row><weight ref=1/></row>'
	bad quote 5 "attribute value not quoted"
	doc dup '<row><weight ref="1" ref="1"/></row>'
	bad dup 5 "attribute ref given twice"
	doc noeq '<row><weight ref/></row>'
	bad noeq 5 "attribute without '=' and a value"
	doc blank '<row><weight id="5"ref="1"/></row>'
	bad blank 5 "no blank before an attribute"
	doc name '<row><1weight/></row>'
	bad name 5 "'<' not followed by a name"
	doc slash '<row><weight ref="1"/ ></row>'
	bad slash 5 "'/' not followed by '>'"
	doc bang '<row><!ELEMENT x></row>'
	bad bang 5 "bad markup after '<!'"
	printf '%s\n%s\n<second/>\n' "$HEAD" "$TAIL" > "$T/second"
	bad second 7 "a second root element <second>"
	printf '%s\n%s\ntrailing words\n' "$HEAD" "$TAIL" > "$T/after"
	bad after 7 "text outside the root element"
	printf '%s\n</node>\n' "$HEAD" > "$T/cut"
	bad cut 6 "input ends inside <trace-query-result>"
	printf '%s\n<!-- a comment\n' "$HEAD" > "$T/comment"
	bad comment 5 "input ends inside a comment"
	printf '%s\n<![CDATA[ x\n' "$HEAD" > "$T/cdata"
	bad cdata 5 "input ends inside <![CDATA["
}

@test "line numbers count the bytes as written, not as decoded: CR, CR LF, a newline in a value with an entity" {
	# a line ends at each LF of the file, as sed and editors count them;
	# before each error, text or a value that decoding changes: newlines
	# in a value beside an entity (each becomes a blank), a run of CR LF
	# (each one LF), lone CRs (no LF: no line ends)
	doc attr "<row><weight ref=\"1\"/><backtrace id=\"5\"><frame id=\"6\" name=\"a
&amp;
b\"/></backtrace></row>" '<row><weight ref="1"/><backtrace ref="99"/></row>'
	run --separate-stderr sc "$T/attr"
	[ "$status" -eq 1 ]
	[ "$stderr" = "stackcollapse-xctrace: $T/attr:8: <backtrace ref=\"99\">: no element with that id before it" ]
	[ "$output" = "$(printf 'a & b 1\nmain 1')" ]
	printf '%s\n<row><weight ref="1"/><backtrace ref="2"/>x\r\n\r\ny</row>\n<row><weight ref="1"/><backtrace ref="99"/></row>\n%s\n' "$HEAD" "$TAIL" > "$T/crlf"
	run --separate-stderr sc "$T/crlf"
	[ "$status" -eq 1 ]
	[ "$stderr" = "stackcollapse-xctrace: $T/crlf:8: <backtrace ref=\"99\">: no element with that id before it" ]
	printf '%s\n<row><weight ref="1"/><backtrace ref="2"/>x\ry\rz</row>\n\n<row><weight ref="1"/><backtrace ref="99"/></row>\n%s\n' "$HEAD" "$TAIL" > "$T/cr"
	run --separate-stderr sc "$T/cr"
	[ "$status" -eq 1 ]
	[ "$stderr" = "stackcollapse-xctrace: $T/cr:7: <backtrace ref=\"99\">: no element with that id before it" ]
	# the same before an error of the reader's own
	printf '%s\n<row><weight ref="1"/><backtrace ref="2"/>a&amp;\r\r\r</row>\n\n<row></rows>\n%s\n' "$HEAD" "$TAIL" > "$T/own"
	run --separate-stderr sc "$T/own"
	[ "$status" -eq 1 ]
	[ "$stderr" = "stackcollapse-xctrace: $T/own:7: end tag </rows> closes <row>" ]
}

@test "deep nesting: more than 256 elements deep is an error, not a crash" {
	{ printf '%s\n<row>' "$HEAD"; for i in $(seq 300); do printf '<a>'; done; printf '\n'; } > "$T/deep"
	bad deep 5 "elements nested more than 256 deep"
	# 250 deep is read (and skipped)
	{ printf '%s\n<row><weight ref="1"/><backtrace ref="2"/><extra>' "$HEAD"
	  for i in $(seq 245); do printf '<a>'; done
	  for i in $(seq 245); do printf '</a>'; done
	  printf '</extra></row>\n%s\n' "$TAIL"; } > "$T/deep250"
	run sc "$T/deep250"
	[ "$status" -eq 0 ]
	[ "$output" = "main 2" ]
}

@test "not XML, empty, a byte order mark, another root" {
	: > "$T/empty"
	run --separate-stderr sc "$T/empty"
	[ "$status" -eq 1 ]
	[ "$stderr" = "stackcollapse-xctrace: $T/empty:1: no element: not XML" ]
	printf 'main;a 1\n' > "$T/folded"
	run --separate-stderr sc "$T/folded"
	[ "$status" -eq 1 ]
	[ "$stderr" = "stackcollapse-xctrace: $T/folded:1: text outside the root element" ]
	printf '<svg><g/></svg>\n' > "$T/svg"
	run --separate-stderr sc "$T/svg"
	[ "$status" -eq 1 ]
	[ "$stderr" = "stackcollapse-xctrace: $T/svg:1: not an xctrace export: its root is <svg>, not <trace-query-result>" ]
	{ printf '\357\273\277'; cat "$D/tagged26.xml"; } > "$T/bom"
	run sc "$T/bom"
	[ "$status" -eq 0 ]
	golden "$D/tagged.folded"
}

@test "an export cut at every length: exit 1 and one message naming the line; what came before it is valid" {
	run bash -c '
	bin=$1 f=$2 t=$3
	n=$(wc -c < "$f")
	for i in $(seq 0 $((n - 2))); do
		head -c $i "$f" > "$t/cut"
		st=0
		"$bin/stackcollapse-xctrace" -q "$t/cut" > "$t/out" 2> "$t/err" || st=$?
		[ $st -eq 1 ] || { echo "$i: status $st"; exit 1; }
		[ $(wc -l < "$t/err") -eq 1 ] && grep -q "^stackcollapse-xctrace: $t/cut:[0-9]*: " "$t/err" ||
			{ echo "$i: message: $(cat "$t/err")"; exit 1; }
		if [ -s "$t/out" ]; then
			"$bin/foldtop" --strict "$t/out" > /dev/null 2>&1 ||
				{ echo "$i: invalid output"; exit 1; }
		fi
	done' _ "$BIN" "$D/nodes.xml" "$T"
	[ "$status" -eq 0 ] || fail "$output"
}

@test "random bytes, and random bytes inside an export: a message and exit 1, never a crash" {
	local s
	for s in 1 2 3 4 5; do
		"$TESTBIN/randbytes" 20000 $s > "$T/r"
		run --separate-stderr sc "$T/r"
		[ "$status" -eq 1 ] || fail "seed $s: status $status"
		[[ "$stderr" == "stackcollapse-xctrace: $T/r:"* ]] || fail "seed $s: $stderr"
		{ head -c 900 "$D/nodes.xml"; "$TESTBIN/randbytes" 3000 $s; } > "$T/m"
		run --separate-stderr sc "$T/m"
		[ "$status" -eq 1 ] || fail "seed $s: status $status"
	done
}
