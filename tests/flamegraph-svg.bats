#!/usr/bin/env bats
# flamegraph-svg: geometry, merging, colours, options, escaping, errors.
# Fixtures in data/flamegraph: minieth*.folded are our recorded capture
# (examples/minieth.perf.txt) collapsed by stackcollapse-perf; the others
# are written by hand.  The *.frames goldens are the frame lines of our
# own output (checked against flamegraph.pl's drawings outside the suite).

load helper

fg() { "$BIN/flamegraph-svg" "$@"; }
FG=$BATS_TEST_DIRNAME/data/flamegraph

# The frame lines of an SVG on stdin: "TITLE | <rect .../> | LABEL".
frames() {
	boxes | grep '^<[ga][ >].*<title>' | sed 's/<text[^>]*>/ | /; s/<\/text>//;
		s/<\/\{0,1\}g>//g; s/^<a [^>]*>//; s/<\/a>//; s/<title>//; s/<\/title>/ | /'
}
# An attribute of the rect of the box whose title starts with "NAME (".
rect_attr() {
	boxes | grep -F "<title>$2 (" | head -1 | sed "s/.*<rect[^>]* $1=\"\([^\"]*\)\".*/\1/"
}
xml_ok() { printf '%s\n' "$output" | "$TESTBIN/xmlcheck"; }

@test "geometry: the minieth capture, frame by frame, against our golden" {
	run fg "$FG/minieth.folded"
	[ "$status" -eq 0 ]
	xml_ok
	diff -u "$FG/minieth.frames" <(printf '%s\n' "$output" | frames)
}

@test "geometry goldens: --hash --inverted, --reverse, --flamechart, --width 800 --minwidth 0.5%" {
	for v in "inverted:--hash --inverted" "reverse:--reverse" \
	    "flamechart:--flamechart" "w800:--width 800 --minwidth 0.5%"; do
		run fg ${v#*:} "$FG/minieth-all.folded"
		[ "$status" -eq 0 ]
		xml_ok
		diff -u "$FG/minieth-all-${v%%:*}.frames" <(printf '%s\n' "$output" | frames)
	done
}

@test "geometry: x, width, y and image height follow flamegraph.pl's formulas" {
	run fg < <(printf 'a;b 1\na;c 3\n')
	# 3 levels: height = 3*16 + 36 + 34 = 118; widthpertime = 1180/4
	[[ "$output" == *'<svg version="1.1" width="1200" height="118" viewBox="0 0 1200 118"'* ]]
	[ "$(rect_attr y all <<< "$output")" = 69 ]
	[ "$(rect_attr y a <<< "$output")" = 53 ]
	[ "$(rect_attr y b <<< "$output")" = 37 ]
	# the box height (frame height - 1) is in the stylesheet
	[[ "$output" == *'#frames rect { height: 15px; rx: 2px; ry: 2px; }'* ]]
	[ "$(boxes <<< "$output" | grep '<title>' | grep -c '<rect[^>]*height')" -eq 0 ]
	[ "$(rect_attr x b <<< "$output")" = 10 ]
	[ "$(rect_attr width b <<< "$output")" = 295 ]
	[ "$(rect_attr x c <<< "$output")" = 305 ]
	[ "$(rect_attr width c <<< "$output")" = 885 ]
	# self time comes first, children after it
	run fg < <(printf 'a 1\na;b 1\n')
	[ "$(rect_attr x b <<< "$output")" = 600 ]
}

@test "titles: counts with commas, two-decimal percentages, root 100%" {
	run fg --minwidth 0 < <(printf 'main;work 1234567\nmain;idle 1\n')
	[[ "$output" == *'<title>all (1,234,568 samples, 100%)</title>'* ]]
	[[ "$output" == *'<title>work (1,234,567 samples, 100.00%)</title>'* ]]
	[[ "$output" == *'<title>idle (1 samples, 0.00%)</title>'* ]]
}

@test "merging is frame by frame: no split boxes, siblings in byte order" {
	run fg "$FG/merge.folded"
	[ "$status" -eq 0 ]
	[ "$(printf '%s\n' "$output" | boxes | grep -c '<title>foo (')" -eq 1 ]
	[[ "$output" == *'<title>foo (2 samples, 28.57%)'* ]]
	# byte order: Zed a foo foo.b foo::x, left to right
	order=$(printf '%s\n' "$output" | frames | grep 'y="53"' | cut -d' ' -f1 | tr '\n' ' ')
	[ "$order" = "Zed a foo foo.b foo::x " ]
}

@test "empty frames: none at the end (a;b; is a;b), a box elsewhere (a;;b)" {
	# the SVG itself: svg-frames does not see boxes with empty names
	titles() { boxes | grep -o '<title>[^<]*</title><rect x="[^"]*" y="[^"]*"' | tr '\n' '|'; }
	run fg < <(printf 'a;b; 1\n')
	xml_ok
	[ "$(titles <<< "$output")" = '<title>all (1 samples, 100%)</title><rect x="10" y="69"|<title>a (1 samples, 100.00%)</title><rect x="10" y="53"|<title>b (1 samples, 100.00%)</title><rect x="10" y="37"|' ]
	[ "$(fg < <(printf 'a;b;;; 1\n') | titles)" = "$(titles <<< "$output")" ]
	# --reverse: b sits on the root, a above it, nothing else
	run fg --reverse < <(printf 'a;b; 1\n')
	[ "$(titles <<< "$output")" = '<title>all (1 samples, 100%)</title><rect x="10" y="69"|<title>b (1 samples, 100.00%)</title><rect x="10" y="53"|<title>a (1 samples, 100.00%)</title><rect x="10" y="37"|' ]
	# an empty frame in the middle or first is a box with an empty name
	run fg < <(printf 'a;;b 1\n')
	xml_ok
	[ "$(titles <<< "$output")" = '<title>all (1 samples, 100%)</title><rect x="10" y="85"|<title>a (1 samples, 100.00%)</title><rect x="10" y="69"|<title> (1 samples, 100.00%)</title><rect x="10" y="53"|<title>b (1 samples, 100.00%)</title><rect x="10" y="37"|' ]
	run fg < <(printf ';a 1\n')
	[[ "$(titles <<< "$output")" == *'<title> (1 samples, 100.00%)</title><rect x="10" y="53"|<title>a '* ]]
	# ... except first with --reverse, as flamegraph.pl (reversed, it is last)
	run fg --reverse < <(printf ';a 1\n')
	[ "$(titles <<< "$output")" = '<title>all (1 samples, 100%)</title><rect x="10" y="53"|<title>a (1 samples, 100.00%)</title><rect x="10" y="37"|' ]
	# ';' then two blanks: a last frame of one blank, as flamegraph.pl
	# reads it (the Java captures hold such frames)
	run fg < <(printf 'a;b;  3\n')
	[[ "$(titles <<< "$output")" == *'<title>b (3 samples, 100.00%)</title><rect x="10" y="53"|<title>  (3 samples, 100.00%)</title><rect x="10" y="37"|' ]]
	# only empty frames: the count goes to the root
	run --separate-stderr fg < <(printf 'a 1\n;; 2\n')
	[ "$status" -eq 0 ]
	[ -z "$stderr" ]
	[ "$(rect_attr width a <<< "$output")" = 393.3 ]
	[ "$(rect_attr x a <<< "$output")" = 796.7 ]
}

@test "CRLF input is read like LF input" {
	run fg --hash < <(printf 'a;b 3\r\na;c 2\r\n')
	[ "$status" -eq 0 ]
	[ "$output" = "$(fg --hash < <(printf 'a;b 3\na;c 2\n'))" ]
}

@test "a count with no stack (' 2') is skipped and reported, not added to the root" {
	run --separate-stderr fg < <(printf 'a 3\n 2\n')
	[ "$status" -eq 0 ]
	[ "$stderr" = "flamegraph-svg: <stdin>:2: no stack before the count (1 invalid line skipped)" ]
	[[ "$output" == *'<title>all (3 samples, 100%)</title>'* ]]
	[ "$(rect_attr width a <<< "$output")" = 1180 ]
}

@test "one-count lines among two-count lines: differential, no change for them" {
	run fg < <(printf 'a 1\nb 1 2\n')
	[ "$status" -eq 0 ]
	[[ "$output" == *'<title>a (1 samples, 33.33%; 0.00%)</title>'* ]]
	[[ "$output" == *'<title>b (2 samples, 66.67%; +33.33%)</title>'* ]]
	[ "$(rect_attr fill a <<< "$output")" = "rgb(255,255,255)" ]
	[ "$(rect_attr fill b <<< "$output")" = "rgb(255,0,0)" ]
	[ "$(rect_attr width b <<< "$output")" = 786.7 ]
}

@test "input order does not matter; identical stacks are summed" {
	run fg "$FG/minieth.folded"
	sorted=$output
	run fg < <(sort -r "$FG/minieth.folded")
	[ "$output" = "$sorted" ]
	run fg < <(printf 'a;b 2\na;c 1\na;b 3\n')
	[[ "$output" == *'<title>b (5 samples, 83.33%)'* ]]
}

@test "deterministic: the same input gives the same bytes" {
	a=$(fg --hash "$FG/minieth-all.folded" | cksum)
	b=$(fg --hash "$FG/minieth-all.folded" | cksum)
	[ "$a" = "$b" ]
	a=$(fg "$FG/minieth-all.folded" | cksum)
	b=$(fg "$FG/minieth-all.folded" | cksum)
	[ "$a" = "$b" ]
}

@test "--flamechart keeps input order and merges only with the box just before" {
	run fg --flamechart < <(printf 'a;b 1\na;c 1\na;b 1\na;b;d 1\n')
	[ "$status" -eq 0 ]
	[[ "$output" == *'<text id="title" x="600" y="24" font-size="17">Flame Chart</text>'* ]]
	[ "$(printf '%s\n' "$output" | boxes | grep -c '<title>b (')" -eq 2 ]
	[[ "$output" == *'<title>b (2 samples, 50.00%)</title><rect x="600" '* ]]
	[[ "$output" == *'<title>c (1 samples, 25.00%)</title><rect x="305" '* ]]
}

@test "--reverse merges the reversed stacks" {
	run fg --reverse < <(printf 'main;a;leaf 2\nmain;b;leaf 1\n')
	[[ "$output" == *'<title>leaf (3 samples, 100.00%)'* ]]
	[ "$(printf '%s\n' "$output" | boxes | grep -c '<title>main (')" -eq 2 ]
}

@test "--inverted: icicle geometry and title" {
	run fg --inverted < <(printf 'a;b 1\n')
	[[ "$output" == *'>Icicle Graph</text>'* ]]
	[ "$(rect_attr y all <<< "$output")" = 36 ]
	[ "$(rect_attr y a <<< "$output")" = 52 ]
	[ "$(rect_attr y b <<< "$output")" = 68 ]
	run fg --inverted --subtitle sub < <(printf 'a;b 1\n')
	[ "$(rect_attr y all <<< "$output")" = 60 ]
}

@test "--minwidth in pixels and in percent prunes boxes and their children" {
	in=$(printf 'a;big 1000\na;small;deeper 1\n')
	run fg < <(printf '%s\n' "$in")
	[[ "$output" == *'<title>small ('* ]]
	run fg --minwidth 2 < <(printf '%s\n' "$in")
	[[ "$output" != *'<title>small ('* ]]
	[[ "$output" != *'<title>deeper ('* ]]
	[[ "$output" == *'<svg version="1.1" width="1200" height="118"'* ]]
	run fg --minwidth 0.05% < <(printf '%s\n' "$in")
	[[ "$output" == *'<title>small ('* ]]
	run fg --minwidth 0.2% < <(printf '%s\n' "$in")
	[[ "$output" != *'<title>small ('* ]]
	# a width below 1 is written without its leading zero
	run fg --minwidth 0 < <(printf 'a;b 1\na;c 9999\n')
	[ "$(rect_attr width b <<< "$output")" = .1 ]
	run fg --minwidth 0 < <(printf 'a;zero 0\na;one 1\n')
	[[ "$output" == *'<title>zero (0 samples, 0.00%)'* ]]
}

@test "--width and --height scale the geometry" {
	run fg --width 620 --height 20 < <(printf 'a;b 1\na;c 1\n')
	[[ "$output" == *'width="620" height="130"'* ]]
	[ "$(rect_attr width b <<< "$output")" = 300 ]
	[[ "$output" == *'#frames rect { height: 19px;'* ]]
	run fg --height 16.5 < <(printf 'a;b 1\n')
	[[ "$output" == *'#frames rect { height: 15.5px;'* ]]
	run fg --height 1.5 < <(printf 'a;b 1\n')
	[[ "$output" == *'#frames rect { height: .5px;'* ]]
}

@test "labels: cut to fit with '..', whole UTF-8 characters, annotations hidden" {
	run fg --width 120 < <(printf 'main;abcdefghijklmnopqrstuvwxyz_[k] 1\nmain;\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9 1\n')
	xml_ok
	# 50 px / (12 * 0.59) = 7 characters: 5 and ".."
	[[ "$output" == *'<title>abcdefghijklmnopqrstuvwxyz (1 samples, 50.00%)</title>'*'>abcde..</text>'* ]]
	[[ "$output" == *$'>\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9..</text>'* ]]
	# narrower than 3 characters: no label at all
	run fg < <(printf 'main;tiny 1\nmain;big 1000\n')
	[[ "$output" != *'>tiny</text>'* ]]
	[[ "$output" == *'>big</text>'* ]]
	run fg --fontsize 24 --fontwidth 1 --width 140 < <(printf 'abcdefghij 1\n')
	[[ "$output" == *'>abc..</text>'* ]]
	[[ "$output" == *'font-size="24"'* ]]
}

@test "--fonttype, --fontsize go to the root element, escaped" {
	run fg --fonttype 'Fira "Code" <x>' --fontsize 10 < <(printf 'a 1\n')
	xml_ok
	[[ "$output" == *'font-family="Fira &quot;Code&quot; &lt;x&gt;" font-size="10"'* ]]
}

@test "colours: --hash is flamegraph.pl's namehash (read -> rgb(241,184,40))" {
	run fg --hash < <(printf 'read 1\n')
	[[ "$output" == *'<title>read (1 samples, 100.00%)</title><rect x="10" y="37" width="1180" fill="rgb(241,184,40)"/>'* ]]
	# the root is coloured as the empty name: namehash = 1
	[[ "$output" == *'<title>all (1 samples, 100%)</title><rect x="10" y="53" width="1180" fill="rgb(255,230,55)"/>'* ]]
	# a module prefix up to the first backtick is ignored
	# (for v1; v2 and v3 hash the reversed name, where it is a suffix)
	a=$(fg --hash < <(printf 'libc.so`read 1\n') | rect_attr fill 'libc.so`read')
	[[ "$a" == rgb\(*,184,*\) ]]
}

@test "colours: default is the seeded generator, one colour per name" {
	run fg < <(printf 'a;x 1\nb;x 1\n')
	[ "$(printf '%s\n' "$output" | boxes | grep '<title>x (' | sed 's/.*fill="//; s/".*//' | sort -u | wc -l)" -eq 1 ]
	# the root (empty name, seed 0)
	[[ "$output" == *'<title>all (2 samples, 100%)</title><rect x="10" y="69" width="1180" fill="rgb(213,39,9)"/>'* ]]
	run fg --random < <(printf 'a 1\n')
	[ "$status" -eq 0 ]
	[[ "$output" =~ fill=\"rgb\(2[0-9][0-9],[0-9]+,[0-9]+\)\" ]]
}

@test "colours per palette follow the palette's formula" {
	rgb() { fg --hash --colors "$1" < <(printf 'somefunction 1\n') | rect_attr fill somefunction | tr -d 'rgb()' | tr ',' ' '; }
	read r g b <<< "$(rgb hot)"; [ "$r" -ge 205 ] && [ "$g" -le 230 ] && [ "$b" -le 55 ]
	read r g b <<< "$(rgb mem)"; [ "$r" -eq 0 ] && [ "$g" -ge 190 ]
	read r g b <<< "$(rgb io)"; [ "$r" -eq "$g" ] && [ "$b" -ge 190 ]
	read r g b <<< "$(rgb red)"; [ "$g" -eq "$b" ] && [ "$r" -ge 200 ]
	read r g b <<< "$(rgb green)"; [ "$r" -eq "$b" ] && [ "$g" -ge 200 ]
	read r g b <<< "$(rgb blue)"; [ "$r" -eq "$g" ] && [ "$b" -ge 205 ]
	read r g b <<< "$(rgb yellow)"; [ "$r" -eq "$g" ] && [ "$b" -ge 50 ] && [ "$b" -le 70 ]
	read r g b <<< "$(rgb purple)"; [ "$r" -eq "$b" ] && [ "$g" -ge 80 ] && [ "$g" -le 140 ]
	read r g b <<< "$(rgb aqua)"; [ "$g" -eq "$b" ] && [ "$r" -le 110 ]
	read r g b <<< "$(rgb orange)"; [ "$b" -eq 0 ] && [ "$r" -ge 190 ]
	read r g b <<< "$(rgb wakeup)"; [ "$g" -eq "$b" ] && [ "$r" -le 110 ]
	# the same values with the same v1 (red, green, blue... use v1 only)
	[ "$(rgb red)" = "$(fg --hash --colors java < <(printf 'somefunction 1\n') | rect_attr fill somefunction | tr -d 'rgb()' | tr ',' ' ')" ]
}

@test "rule palettes: java, js, perl, rust, python pick by name" {
	fam() {	# the family of a fill: which formula produced it
		local r g b
		read r g b <<< "$(tr -d 'rgb()' <<< "$1" | tr ',' ' ')"
		if [ "$b" -eq 0 ]; then echo orange
		elif [ "$r" -eq "$g" ] && [ "$b" -lt "$r" ]; then echo yellow
		elif [ "$r" -eq "$b" ] && [ "$g" -gt "$r" ]; then echo green
		elif [ "$g" -eq "$b" ] && [ "$g" -gt "$r" ]; then echo aqua
		elif [ "$g" -eq "$b" ]; then echo red
		else echo other; fi
	}
	check() {	# palette name family
		local f
		f=$(fg --hash --colors "$1" "$FG/palettes.folded" | rect_attr fill "$2")
		[ "$(fam "$f")" = "$3" ] || fail "$1 '$2': $f is not $3"
	}
	check java 'sun/nio/ch/Epoll:.poll' green
	check java 'Lorg/mozilla/Script:::call' aqua
	check java 'Interpreter' green
	check java 'GCTaskThread::run' yellow
	check java 'sys_write' orange
	check java 'SpinPause' red
	check js 'LazyCompile:~handle /srv/app/server.js:12' green
	check js 'Builtin:ArgumentsAdaptor' aqua
	check js 'node::Start' yellow
	check js 'Stub:CEntry' aqua
	check js ' ' green
	check js 'uv_run' red
	check perl 'main::handler' yellow
	check perl 'Perl_pp_entersub' green
	check perl '/usr/lib/x.pl' green
	check perl 'perl_run' red
	check rust 'std::rt::lang_start' yellow
	check rust '&lt;core::ops::Fn&gt;::call' yellow
	check rust 'minieth_vm::run' green
	check rust 'memcpy' red
	check rust 'sys_write' orange
	check python 'handler (app.py:42)' green
	check python '_PyEval_EvalFrameDefault' yellow
	check python 'PyObject_Call' yellow
	check python 'python' red
}

@test "chain palette: frames after ;--; are wakers (aqua), -- is grey" {
	run fg --hash --colors chain < <(printf 'sleep;schedule;--;wake_up;waker_fn 3\n')
	xml_ok
	[[ "$output" == *'<title>-- (3 samples, 100.00%)</title><rect x="10" y="69" width="1180" fill="rgb(160,160,160)"/>'* ]]
	[[ "$output" == *'<title>waker_fn (3 samples'* ]]
	f=$(rect_attr fill waker_fn <<< "$output")
	read r g b <<< "$(tr -d 'rgb()' <<< "$f" | tr ',' ' ')"
	[ "$g" -eq "$b" ] && [ "$r" -lt "$g" ]
	f=$(rect_attr fill schedule <<< "$output")
	read r g b <<< "$(tr -d 'rgb()' <<< "$f" | tr ',' ' ')"
	[ "$r" -eq "$g" ] && [ "$b" -ge 205 ]
	run fg < <(printf 'a;-;b 1\n')
	[ "$(rect_attr fill - <<< "$output")" = "rgb(200,200,200)" ]
	# the blue background by default
	[[ "$(fg --colors chain < <(printf 'a 1\n'))" == *'stop-color="#e0e0ff"'* ]]
}

@test "chain palette: siblings after -- in the order of their names as written" {
	run fg --hash --colors chain < <(printf 'x;--;b 1\nx;--;b_Z 1\n')
	xml_ok
	[ "$(rect_attr x b <<< "$output")" = 10 ]
	[ "$(rect_attr x b_Z <<< "$output")" = 600 ]
	# deeper, and with "--" among the siblings ("-" < "b")
	run fg --hash --colors chain < <(printf 'x;--;w;b 1\nx;--;w;b_Z 1\nx;--;w;-- 2\n')
	[ "$(boxes <<< "$output" | grep -o '<title>[^ ]*' | tr '\n' ' ')" = '<title>all <title>x <title>-- <title>w <title>-- <title>b <title>b_Z ' ]
	[ "$(rect_attr x b <<< "$output")" = 600 ]
	[ "$(rect_attr x b_Z <<< "$output")" = 895 ]
}

@test "--bgcolors, and the default background by palette" {
	bg() { fg "$@" < <(printf 'a 1\n') | grep -o 'stop-color="[^"]*"' | tr '\n' ' '; }
	[ "$(bg)" = 'stop-color="#eeeeee" stop-color="#eeeeb0" ' ]
	[ "$(bg --colors mem)" = 'stop-color="#eef2ee" stop-color="#e0ffe0" ' ]
	[ "$(bg --colors io)" = 'stop-color="#eeeeee" stop-color="#e0e0ff" ' ]
	[ "$(bg --colors red)" = 'stop-color="#f8f8f8" stop-color="#e8e8e8" ' ]
	[ "$(bg --bgcolors green)" = 'stop-color="#eef2ee" stop-color="#e0ffe0" ' ]
	[ "$(bg --bgcolors grey)" = 'stop-color="#f8f8f8" stop-color="#e8e8e8" ' ]
	[ "$(bg --bgcolors blue)" = 'stop-color="#eeeeee" stop-color="#e0e0ff" ' ]
	[ "$(bg --bgcolors '#123abc')" = 'stop-color="#123abc" stop-color="#123abc" ' ]
	run fg --bgcolors '#12345' < /dev/null
	[ "$status" -eq 2 ]
	run fg --bgcolors 'red"><script>' < /dev/null
	[ "$status" -eq 2 ]
}

@test "differential input: width by NEW, red/blue by NEW - OLD, white when equal" {
	run fg "$FG/diff.folded"
	[ "$status" -eq 0 ]
	xml_ok
	diff -u "$FG/diff.frames" <(printf '%s\n' "$output" | frames)
	# largest |delta| is 12 (add): full blue; mul +6: half red
	[ "$(rect_attr fill add <<< "$output")" = "rgb(0,0,255)" ]
	[ "$(rect_attr fill mul <<< "$output")" = "rgb(255,105,105)" ]
	[ "$(rect_attr fill gc <<< "$output")" = "rgb(255,255,255)" ]
	[[ "$output" == *'<title>add (8 samples, 22.86%; -34.29%)'* ]]
	[[ "$output" == *'<title>mul (6 samples, 17.14%; +17.14%)'* ]]
}

@test "--negate swaps the differential colours and signs" {
	run fg --negate "$FG/diff.folded"
	[ "$(rect_attr fill add <<< "$output")" = "rgb(255,0,0)" ]
	[ "$(rect_attr fill mul <<< "$output")" = "rgb(105,105,255)" ]
	[[ "$output" == *'<title>add (8 samples, 22.86%; +34.29%)'* ]]
	[[ "$output" == *'<title>mul (6 samples, 17.14%; -17.14%)'* ]]
}

@test "--title, --subtitle, --notes, --nametype, --countname" {
	run fg --title 'My graph' --subtitle 'run 2' --notes 'a note' --nametype 'Frame:' --countname ms < <(printf 'a;b 2\n')
	xml_ok
	[[ "$output" == *'<text id="title" x="600" y="24" font-size="17">My graph</text>'* ]]
	[[ "$output" == *'<text id="subtitle" x="600" y="48">run 2</text>'* ]]
	[[ "$output" == *'<desc id="notes">a note</desc>'* ]]
	[[ "$output" == *'data-nametype="Frame:"'* ]]
	[[ "$output" == *'<title>b (2 ms, 100.00%)</title>'* ]]
	# the subtitle adds 2 font sizes of height
	[[ "$output" == *'height="142"'* ]]
}

@test "--total (when larger) scales the graph; a smaller one is ignored with a warning" {
	run fg --total 400 < <(printf 'a 100\n')
	# the root spans the whole width (flamegraph.pl's); its title keeps
	# the real count and share
	[[ "$output" == *'<title>all (100 samples, 25.00%)</title><rect x="10" y="53" width="1180" '* ]]
	[[ "$output" == *'<title>a (100 samples, 25.00%)</title><rect x="10" y="37" width="295" '* ]]
	run fg --total 10 < <(printf 'a 5\n')
	[ "$(rect_attr width all <<< "$output")" = 1180 ]
	[ "$(rect_attr width a <<< "$output")" = 590 ]
	run fg --total 10 --inverted < <(printf 'a 5\n')
	[ "$(rect_attr width all <<< "$output")" = 1180 ]
	run fg --total 10 --flamechart < <(printf 'a 5\n')
	[ "$(rect_attr width all <<< "$output")" = 1180 ]
	run --separate-stderr fg --total 50 < <(printf 'a 100\n')
	[ "$status" -eq 0 ]
	[[ "$stderr" == *"less than the actual total"* ]]
	[[ "$output" == *'<title>a (100 samples, 100.00%)</title>'* ]]
}

@test "--factor multiplies the counts shown; decimal counts" {
	run fg --factor 1000 < <(printf 'a 3\nb 1\n')
	[[ "$output" == *'<title>a (3,000 samples, 75.00%)</title>'* ]]
	run fg < <(printf 'a 1.5\nb 0.5\n')
	[[ "$output" == *'<title>a (2 samples, 100.00%)</title>'* ]]
	[[ "$output" == *'<title>b (0 samples, 0.00%)</title>'* ]]
	[[ "$output" == *'<title>all (2 samples, 100%)</title>'* ]]
	# 1.5 rounds to 2 (half to even), and the percentage follows the rounded count
	run fg --factor 0.5 < <(printf 'a 3\n')
	[[ "$output" == *'<title>a (2 samples, 133.33%)</title>'* ]]
}

@test "--cp keeps colours in ./palette.map and reuses them" {
	cd "$BATS_TEST_TMPDIR"
	run fg --cp < <(printf 'a;b 1\n')
	[ "$status" -eq 0 ]
	[ -f palette.map ]
	grep -q '^b->rgb(' palette.map
	printf 'b->rgb(1,2,3)\nop->x->rgb(4,5,6)\nbad line\n' > palette.map
	run --separate-stderr fg --cp < <(printf 'a;b 1\na;op->x 1\n')
	[ "$(rect_attr fill b <<< "$output")" = "rgb(1,2,3)" ]
	[ "$(rect_attr fill 'op-&gt;x' <<< "$output")" = "rgb(4,5,6)" ]
	[[ "$stderr" == *"palette.map:3: not NAME->rgb(R,G,B)"* ]]
	grep -q '^a->rgb(' palette.map
	grep -q '^b->rgb(1,2,3)$' palette.map
}

@test "--nameattr: extra attributes, links and titles per name, escaped" {
	printf 'b\thref=http://x/?a=1&b=2\tclass=hot "one"\tonload=x\tbad name=1\n' > "$BATS_TEST_TMPDIR/attrs"
	printf 'c\ttitle=<custom> title (1 x, 1%%)\n' >> "$BATS_TEST_TMPDIR/attrs"
	run fg --nameattr "$BATS_TEST_TMPDIR/attrs" < <(printf 'a;b 1\na;c 1\n')
	[ "$status" -eq 0 ]
	xml_ok
	[[ "$output" == *'<a xlink:href="http://x/?a=1&amp;b=2" target="_top" class="hot &quot;one&quot;" onload="x"><title>b (1 samples, 50.00%)</title>'* ]]
	[[ "$output" == *'<g><title>&lt;custom&gt; title (1 x, 1%)</title>'* ]]
	[[ "$output" != *'bad name'* ]]
	run --separate-stderr fg --nameattr /nonexistent < <(printf 'a 1\n')
	[ "$status" -eq 1 ]
	[[ "$stderr" == *"/nonexistent"* ]]
}

@test "--encoding declares the encoding; other bytes pass through for it" {
	run fg --encoding ISO-8859-1 < <(printf 'caf\xe9 1\n')
	[ "${lines[0]}" = '<?xml version="1.0" encoding="ISO-8859-1" standalone="no"?>' ]
	[[ "$output" == *$'<title>caf\xe9 (1 samples'* ]]
	run fg < <(printf 'caf\xe9 1\n')
	[[ "$output" == *$'<title>caf\xef\xbf\xbd (1 samples'* ]]
	xml_ok
	run fg --encoding 'x"y' < /dev/null
	[ "$status" -eq 2 ]
}

@test "escaping: names with markup, ]]>, quotes, &, control bytes, NUL, bad UTF-8" {
	run fg < <(printf 'main;<script>alert(1)</script> 1\nmain;x]]>y 1\nmain;q"u'"'"'o&t 1\nm;\x01\x1b\x7f\x00z 1\nm;\xff\xc3(\xed\xa0\x80\xef\xbf\xbe 1\nm;\xf0\x9f\x94\xa5 1\n')
	[ "$status" -eq 0 ]
	xml_ok
	[[ "$output" != *'<script>alert'* ]]
	[[ "$output" == *'<title>&lt;script&gt;alert(1)&lt;/script&gt; (1 samples'* ]]
	[[ "$output" == *'<title>x]]&gt;y (1 samples'* ]]
	[[ "$output" == *'<title>q&quot;u&#39;o&amp;t (1 samples'* ]]
	[[ "$output" == *$'<title>\xef\xbf\xbd\xef\xbf\xbd\x7f\xef\xbf\xbdz (1 samples'* ]]
	[[ "$output" == *$'<title>\xf0\x9f\x94\xa5 (1 samples'* ]]
	# one CDATA section only: ours, around the script
	[ "$(printf '%s\n' "$output" | grep -c 'CDATA')" -eq 1 ]
}

@test "escaping in --title, --subtitle, --notes, --nametype, --countname" {
	bad=$'<b>&"\'\x01\x1f]]>\xff-->'
	run fg --title "$bad" --subtitle "$bad" --notes "$bad" --nametype "$bad" --countname "$bad" < <(printf 'a 1\n')
	[ "$status" -eq 0 ]
	xml_ok
	esc=$'&lt;b&gt;&amp;&quot;&#39;\xef\xbf\xbd\xef\xbf\xbd]]&gt;\xef\xbf\xbd--&gt;'
	[[ "$output" == *"font-size=\"17\">$esc</text>"* ]]
	[[ "$output" == *"<text id=\"subtitle\" x=\"600\" y=\"48\">$esc</text>"* ]]
	[[ "$output" == *"<desc id=\"notes\">$esc</desc>"* ]]
	[[ "$output" == *"data-nametype=\"$esc\""* ]]
	[[ "$output" == *"<title>a (1 $esc, 100.00%)</title>"* ]]
	[[ "$output" != *'<b>'* ]]
}

@test "empty input: a small valid SVG saying so, an error, exit 1" {
	run --separate-stderr fg < /dev/null
	[ "$status" -eq 1 ]
	xml_ok
	[[ "$output" == *'ERROR: No valid input provided to flamegraph-svg.'* ]]
	[ "$stderr" = "flamegraph-svg: no valid input: no stacks" ]
	run --separate-stderr fg < <(printf 'garbage\nmore garbage\n')
	[ "$status" -eq 1 ]
	xml_ok
	[[ "$stderr" == *"2 invalid lines skipped"* ]]
	[[ "$stderr" == *"no valid input: every line was invalid"* ]]
	run --separate-stderr fg < <(printf 'a 0\nb 0\n')
	[ "$status" -eq 1 ]
	xml_ok
	[ "$stderr" = "flamegraph-svg: no valid input: all counts are zero" ]
}

@test "invalid lines are skipped and reported once, the rest drawn, exit 0" {
	run --separate-stderr fg < <(printf 'a;b 1\nnot a line\na;c -3\n')
	[ "$status" -eq 0 ]
	[[ "$stderr" == "flamegraph-svg: <stdin>:2: no count at the end of the line (2 invalid lines skipped)" ]]
	[[ "$output" == *'<title>all (1 samples, 100%)'* ]]
	run --separate-stderr fg --strict < <(printf 'a;b 1\nnot a line\n')
	[ "$status" -eq 1 ]
}

@test "files: several read in order, a missing one reported, exit 1" {
	run --separate-stderr fg "$FG/merge.folded" /nonexistent/x "$FG/merge.folded"
	[ "$status" -eq 1 ]
	[[ "$stderr" == *"flamegraph-svg: /nonexistent/x: No such file or directory"* ]]
	[[ "$output" == *'<title>all (14 samples, 100%)'* ]]
}

@test "the SVG carries the script and its settings; frames hold title, rect, label" {
	run fg "$FG/minieth.folded"
	[[ "$output" == *'data-fontsize="12" data-fontwidth="0.59" data-inverted="0" data-nametype="Function:"'* ]]
	[[ "$output" == *'<script type="text/ecmascript"><![CDATA['*'Matched: '*']]></script>'* ]]
	[[ "$output" == *'<text id="search" x="1090" y="24">Search</text>'* ]]
	[[ "$output" == *'<text id="unzoom" class="hide" x="10" y="24">Reset Zoom</text>'* ]]
	# no empty labels
	[[ "$output" != *'"></text>'* ]]
}

@test "a differential percentage of 80 digits is written whole (was: read past a 64-byte buffer)" {
	z=$(printf '0%.0s' $(seq 60))
	run fg < <(printf 'a;b 18000000000000000000 0.%s1\na;c 1 0.%s1\n' "$z" "$z")
	[ "$status" -eq 0 ]
	xml_ok
	[[ "$output" == *'<title>b (0 samples, 0.00%; -9000000000000000344659835746563911656599806078236977855240938022598689878978854912.00%)</title>'* ]]
}

@test "compact: --minwidth 0 on 20k deep stacks: at most 100 bytes per box besides the names" {
	# the bench input (tests/bench/deep.awk): 370k boxes; the figure is the
	# whole file (script and styles too) less the names, per box
	awk -f "$BATS_TEST_DIRNAME/bench/deep.awk" | sort > "$BATS_TEST_TMPDIR/deep.folded"
	fg --minwidth 0 "$BATS_TEST_TMPDIR/deep.folded" > "$BATS_TEST_TMPDIR/deep.svg"
	"$TESTBIN/xmlcheck" < "$BATS_TEST_TMPDIR/deep.svg"
	read bytes texts nbox total < <(awk -f "$BATS_TEST_DIRNAME/bench/boxbytes.awk" "$BATS_TEST_TMPDIR/deep.svg")
	echo "$bytes bytes per box besides the names ($texts besides the title and label texts), $nbox boxes, $total bytes" >&2
	[ "$nbox" -gt 300000 ]
	awk -v b="$bytes" 'BEGIN { exit !(b <= 100) }'
}

@test "without a browser: librsvg draws the boxes frame height - 1 high (the height is in the stylesheet)" {
	command -v rsvg-convert > /dev/null || skip "rsvg-convert not installed (apt-get install librsvg2-bin)"
	run fg < <(printf 'a;b 1\na;c 3\n')
	# rsvg's own SVG output has each box as a filled path: the root box
	# (rgb(213,39,9)) spans y 69 to 84, its rounded corners 2 px
	run rsvg-convert -f svg <<< "$output"
	[ "$status" -eq 0 ]
	[[ "$output" == *'fill:rgb(83.529413%,15.294118%,3.529412%);fill-opacity:1;" d="M 12 69 L 1188 69 C '*' L 12 84 C '* ]]
	# all four boxes (the black paths are the glyphs of the texts)
	[ "$(grep -o 'fill:rgb([^)]*);fill-opacity:1;" d="M [0-9.]* [0-9.]* L ' <<< "$output" | grep -vc 'rgb(0%,0%,0%)')" -eq 4 ]
}

@test "the man page's fix-up for SVG 1.1 renderers puts the height on every box, and the XML stays valid" {
	cmd=$(grep "^\.Dl sed 's,</title><rect " "$BATS_TEST_DIRNAME/../man/flamegraph-svg.1" | sed 's/^\.Dl //; s/\\(dq/"/g; s/ cpu\.svg$//')
	[ -n "$cmd" ]
	fg "$FG/minieth.folded" > "$BATS_TEST_TMPDIR/m.svg"
	eval "$cmd" < "$BATS_TEST_TMPDIR/m.svg" > "$BATS_TEST_TMPDIR/h.svg"
	"$TESTBIN/xmlcheck" < "$BATS_TEST_TMPDIR/h.svg"
	n=$(boxes < "$BATS_TEST_TMPDIR/m.svg" | grep -c '<title>')
	[ "$(boxes < "$BATS_TEST_TMPDIR/h.svg" | grep -c '</title><rect height="15" x="')" -eq "$n" ]
}

@test "one line per branch: a line ends after a leaf box, the next starts at a fork" {
	run fg < <(printf 'm;a;x 1\nm;a;y 1\nm;b 1\n')
	[ "$status" -eq 0 ]
	# all, m, a, x on one line; y; then b
	got=$(grep '<title>' <<< "$output" | sed 's/<text[^>]*>[^<]*<\/text>//g; s/<title>\([^ ]*\) ([^<]*/[\1]/g; s/<[^>]*>//g')
	[ "$got" = "$(printf '[all][m][a][x]\n[y]\n[b]')" ] || fail "$got"
}

@test "--help prints the usage and exits 0; --version" {
	run fg --help
	[ "$status" -eq 0 ]
	[[ "${lines[0]}" == "usage: flamegraph-svg [--bgcolors C] [--colors PALETTE]"* ]]
	run fg -h
	[ "$status" -eq 0 ]
	run fg --version
	[ "$status" -eq 0 ]
	[[ "$output" =~ ^flamegraph-svg\ \(foldkit\)\ [0-9]+\.[0-9]+\.[0-9]+$ ]]
}

@test "usage errors exit 2: unknown option or palette, malformed numbers" {
	for args in "--bogus" "--colors nope" "--width abc" "--width 0" "--height -1" \
	    "--minwidth x" "--minwidth 101%" "--minwidth -1" "--fontsize 0" \
	    "--fontwidth x" "--total -5" "--factor 0" "--width 1e999" "--title"; do
		run --separate-stderr fg $args < /dev/null
		[ "$status" -eq 2 ] || fail "$args: status $status"
		[ -n "$stderr" ] || fail "$args: no message"
	done
}

@test "usage text matches the man page synopsis" {
	usage_matches_man flamegraph-svg
}

@test "man page flamegraph-svg.1 is lint-clean" {
	man_lint flamegraph-svg.1
}

@test "a full disk is a write error, exit 1" {
	full_disk flamegraph-svg "$FG/minieth.folded"
}

@test "a closed pipe ends quietly" {
	for i in $(seq 1 20000); do echo "main;f$i $i"; done > "$BATS_TEST_TMPDIR/many.folded"
	closed_pipe '<?xml version="1.0" standalone="no"?>' flamegraph-svg --minwidth 0 "$BATS_TEST_TMPDIR/many.folded"
}

@test "the example in examples/minieth.svg is well-formed and current" {
	"$TESTBIN/xmlcheck" < "$BATS_TEST_DIRNAME/../examples/minieth.svg"
	diff <("$BIN/flamegraph-svg" --title "minieth: replaying blocks" "$FG/minieth.folded") \
		"$BATS_TEST_DIRNAME/../examples/minieth.svg" > /dev/null
}

@test "flamegraph.pl's reference drawings: the same frames and fills (where the shared data is beside the project)" {
	C=${FOLDKIT_CONFORMANCE:-$BATS_TEST_DIRNAME/../../shared/conformance/flamegraph-pl}
	S=$C/../../bin/svg-frames
	[ -d "$C/svg" ] && [ -x "$S" ] && command -v perl >/dev/null ||
		skip "no reference drawings at $C (set FOLDKIT_CONFORMANCE)"
	R=$C/test/results/perf-vertx-stacks-01-collapsed-all.txt
	cmp() {	# REF.svg [--icicle] -- flamegraph-svg ARGS < input
		local ref=$1 ic=
		shift
		[ "$1" = --icicle ] && { ic=--icicle; shift; }
		fg "$@" > "$BATS_TEST_TMPDIR/ours.svg"
		run "$S" --compare --fill $ic "$C/svg/$ref" "$BATS_TEST_TMPDIR/ours.svg"
		[[ "${lines[-1]}" == *" passed, 0 failed" ]] || fail "$ref: ${lines[-1]}"
	}
	zcat "$C/example-perf-stacks-collapsed.txt.gz" > "$BATS_TEST_TMPDIR/ex.folded"
	cmp example-perf-stacks.svg --hash "$BATS_TEST_TMPDIR/ex.folded"
	cmp example-perf-stacks-default-colors.svg "$BATS_TEST_TMPDIR/ex.folded"
	cmp example-perf-stacks-w800-min0.5pct.svg --hash --width 800 --minwidth 0.5% "$BATS_TEST_TMPDIR/ex.folded"
	cmp java-all-java-palette.svg --colors java "$C/test/results/perf-java-stacks-01-collapsed-all.txt"
	cmp vertx-all.svg --hash "$R"
	cmp vertx-all-reverse.svg --hash --reverse "$R"
	cmp vertx-all-inverted.svg --icicle --hash --inverted "$R"
	cmp vertx-all-flamechart.svg --hash --flamechart "$R"
}

# ---- input order (the boxes are built by a flow over the stacks in frame
# order: sorted input is used as it comes, other input is sorted once) ----

# Names where byte order (`sort`) and frame order differ: '-', '.', ':'
# and digits sort before ';'.
order_input() {
	printf '%s\n' 'a;b 1' 'a;b-c;d 2' 'a;b;c 3' 'a;bc 4' 'a;b.x;y 5' \
	    'a::x;q 6' 'a;q 7' 'a;b;c;e 8' 'a;f_1;g 9' 'a;f_12;g 10' 'z 11' \
	    'a;b;c 12' 'a::x 13'
}

@test "input order: sorted, byte-sorted, shuffled, reversed, stdin or split across files, the same drawing" {
	order_input > "$BATS_TEST_TMPDIR/in.folded"
	ref=$(fg --minwidth 0 "$BATS_TEST_TMPDIR/in.folded")
	[ "$(printf '%s\n' "$ref" | frames | wc -l)" -eq 18 ]
	LC_ALL=C sort "$BATS_TEST_TMPDIR/in.folded" > "$BATS_TEST_TMPDIR/bytes.folded"
	[ "$(fg --minwidth 0 "$BATS_TEST_TMPDIR/bytes.folded")" = "$ref" ]
	tac "$BATS_TEST_TMPDIR/in.folded" > "$BATS_TEST_TMPDIR/rev.folded"
	[ "$(fg --minwidth 0 "$BATS_TEST_TMPDIR/rev.folded")" = "$ref" ]
	awk 'NR % 2' "$BATS_TEST_TMPDIR/in.folded" > "$BATS_TEST_TMPDIR/odd.folded"
	awk '!(NR % 2)' "$BATS_TEST_TMPDIR/in.folded" > "$BATS_TEST_TMPDIR/even.folded"
	[ "$(fg --minwidth 0 "$BATS_TEST_TMPDIR/even.folded" "$BATS_TEST_TMPDIR/odd.folded")" = "$ref" ]
	[ "$(cat "$BATS_TEST_TMPDIR/in.folded" | fg --minwidth 0)" = "$ref" ]
	# siblings by name: b, b-c, b.x, bc, f_1, f_12, q under a
	[ "$(printf '%s\n' "$ref" | frames | sed -n 's/^\([^ ]*\) (.*/\1/p' | tr '\n' ' ')" = \
	    "all a b c e b-c d b.x y bc f_1 g f_12 g q a::x q z " ]
	# the stack seen twice (a;b;c 3 and 12) is one box of 15 + 8
	[[ "$ref" == *'<title>c (23 samples, 25.27%)</title><rect x="23" '* ]]
}

@test "a box too narrow to draw is left out with its children; the boxes after it keep their place" {
	printf '%s\n' 'm;a;x 1' 'm;b 10000' > "$BATS_TEST_TMPDIR/n.folded"
	run fg --minwidth 0.5 "$BATS_TEST_TMPDIR/n.folded"
	[ "$status" -eq 0 ]
	[[ "$output" != *'<title>a ('* ]]
	[[ "$output" != *'<title>x ('* ]]
	# b starts after a's 1 sample: 10 + 1180 / 10001 = 10.118
	[ "$(rect_attr x b <<< "$output")" = 10.1 ]
	run fg --minwidth 0 "$BATS_TEST_TMPDIR/n.folded"
	[[ "$output" == *'<title>x (1 samples, 0.01%)</title><rect x="10" '* ]]
}

@test "differential input in any order: the same colours" {
	printf '%s\n' 'a;b 5 1' 'a;c 1 5' 'a;b;d 2 2' 'a;c 3 1' > "$BATS_TEST_TMPDIR/d.folded"
	ref=$(fg "$BATS_TEST_TMPDIR/d.folded")
	[ "$(LC_ALL=C sort "$BATS_TEST_TMPDIR/d.folded" | fg)" = "$ref" ]
	[[ "$ref" == *'<title>c (6 samples, 66.67%; +22.22%)</title>'* ]]
	[[ "$ref" == *'<title>b (3 samples, 33.33%; -44.44%)</title>'* ]]
}

@test "a sorted profile of 5000 stacks concatenated with itself: the same as one copy with the counts doubled" {
	awk 'BEGIN { for (i = 0; i < 5000; i++) printf "main;f%d;g%d %d\n", i % 97, i, 1 + i % 7 }' |
	    LC_ALL=C sort > "$BATS_TEST_TMPDIR/one.folded"
	awk '{ $NF = 2 * $NF; print }' "$BATS_TEST_TMPDIR/one.folded" > "$BATS_TEST_TMPDIR/double.folded"
	run timeout 60 "$BIN/flamegraph-svg" "$BATS_TEST_TMPDIR/one.folded" "$BATS_TEST_TMPDIR/one.folded"
	[ "$status" -eq 0 ]
	[ "$output" = "$(fg "$BATS_TEST_TMPDIR/double.folded")" ]
	run timeout 60 sh -c 'cat "$1" "$1" | "$2/flamegraph-svg"' sh "$BATS_TEST_TMPDIR/one.folded" "$BIN"
	[ "$output" = "$(fg "$BATS_TEST_TMPDIR/double.folded")" ]
}

@test "stdin from a regular file is mapped from where the shell left it" {
	f=$BATS_TEST_TMPDIR/in.folded
	{
		printf 'skipped;by;the;shell 1000\n'
		for i in $(seq 1 3000); do
			printf 'main;work%d;leaf%d %d\n' $((i % 7)) $((i % 13)) $((i % 5 + 1))
		done
	} > "$f"
	# the same bytes through a pipe are read, not mapped
	tail -n +2 "$f" | fg > "$BATS_TEST_TMPDIR/pipe.svg"
	# the shell's read takes the first line and leaves the offset after it
	{ IFS= read -r first; fg > "$BATS_TEST_TMPDIR/map.svg"; } < "$f"
	[ "$first" = "skipped;by;the;shell 1000" ]
	cmp "$BATS_TEST_TMPDIR/pipe.svg" "$BATS_TEST_TMPDIR/map.svg"
	# and from the start: the file named, or all of stdin
	fg "$f" > "$BATS_TEST_TMPDIR/named.svg"
	fg < "$f" > "$BATS_TEST_TMPDIR/stdin.svg"
	cmp "$BATS_TEST_TMPDIR/named.svg" "$BATS_TEST_TMPDIR/stdin.svg"
	! cmp -s "$BATS_TEST_TMPDIR/named.svg" "$BATS_TEST_TMPDIR/map.svg"
}

@test "a differential line with no stack (' 4 8') is skipped and reported, not a box named ' 4' (#34)" {
	for l in ' 4 8' '  4 8' ' 4.5 8' $'\t4 8'; do
		run --separate-stderr fg < <(printf '%s\na 1 1\n' "$l")
		[ "$status" -eq 0 ]
		xml_ok
		[ "$(boxes <<< "$output" | grep -o '<title>[^<]*' | tr '\n' '|')" = '<title>all (1 samples, 100%)|<title>a (1 samples, 100.00%; 0.00%)|' ]
		[ "$stderr" = 'flamegraph-svg: <stdin>:1: no stack before the count (1 invalid line skipped)' ]
	done
	# only such lines: no valid input
	run fg < <(printf ' 4 8\n  1 2\n')
	[ "$status" -eq 1 ]
	[[ "$output" == *'no valid input'* ]]
	# --strict: an error at that line
	run fg --strict < <(printf 'a 1 1\n 4 8\n')
	[ "$status" -eq 1 ]
	[[ "$output" == *'<stdin>:2: invalid line: no stack before the count'* ]]
	# a stack of one blank frame before two counts is still a stack
	run fg < <(printf 'a;  4 8\n')
	[ "$status" -eq 0 ]
	[[ "$output" == *'<title>  (8 samples'* ]]
}

@test "differential colours scaled by the largest change of any box, the root's too; channels held in 0..255 (#34)" {
	for o in '' --flamechart; do
		run fg $o < <(printf ';; 0 10\na 0 5\n')
		[ "$status" -eq 0 ]
		xml_ok
		[ "$(rect_attr fill all <<< "$output")" = "rgb(255,0,0)" ]
		[ "$(rect_attr fill a <<< "$output")" = "rgb(255,105,105)" ]
		run fg $o --negate < <(printf ';; 0 10\na 0 5\n')
		[ "$(rect_attr fill all <<< "$output")" = "rgb(0,0,255)" ]
		[ "$(rect_attr fill a <<< "$output")" = "rgb(105,105,255)" ]
		# every fill of a differential graph is a colour of 0..255
		run fg $o < <(printf ';; 9 0\n;a 0 3\nb;; 1 7\n')
		! grep -o 'fill="rgb([^"]*)"' <<< "$output" | tr -c '0-9\n' ' ' |
			awk '{ for (i = 1; i <= NF; i++) if ($i > 255) bad = 1 } END { exit !bad }'
		[ "$(rect_attr fill all <<< "$output")" = "rgb(0,0,255)" ]
	done
}

@test "chain palette: a ';' after a stack with '--' is no frame, no empty waker box (#34)" {
	run fg --colors chain < <(printf 'a;--;b; 7\n')
	[ "$status" -eq 0 ]
	[ "$(boxes <<< "$output" | grep -o '<title>[^ ]*' | tr '\n' ' ')" = '<title>all <title>a <title>-- <title>b ' ]
}

@test "differential: a box's change sums its lines, wherever they sort (flamegraph.pl keeps the first's)" {
	# b's change: +2 (b;;) plus nothing else; the largest is b's own
	run fg --hash < <(printf 'b;--;x 4 2\nb;; 5 7\n')
	[ "$(rect_attr fill b <<< "$output")" = "rgb(255,0,0)" ]
	# the same stack on two lines: -1 and -1, the largest change
	run fg --hash < <(printf 'x 2 1\nx; 4 3\ny 1 2\n')
	[ "$(rect_attr fill x <<< "$output")" = "rgb(0,0,255)" ]
	[ "$(rect_attr fill y <<< "$output")" = "rgb(255,105,105)" ]
	# the root's change from ';;' also when another stack sorts first
	run fg --hash < <(printf '%s\n' '-- 6 2' ';;; 2 6')
	[ "$(rect_attr fill all <<< "$output")" = "rgb(255,0,0)" ]
}

@test "a stack of count 0 does not replace a box of the same name and depth (flamegraph.pl loses c;f)" {
	run fg --hash --minwidth 0 < <(printf 'a;-- 6\nf;f;f; 0\nc;f 10\nb;-- 8\nx y;main 10\n')
	[ "$status" -eq 0 ]
	[[ "$output" == *'<title>f (10 samples, 29.41%)'* ]]
}
