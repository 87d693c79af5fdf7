#!/usr/bin/env bats
# flamegraph-svg in a real browser: headless Chromium opens our SVGs from
# disk, runs their script, and we assert on the DOM it dumps.  Skipped, with
# a message, where Chromium is not installed or cannot start.

load helper

FG=$BATS_TEST_DIRNAME/data/flamegraph

setup() {
	CHROMIUM=$(command -v chromium || command -v chromium-browser || command -v google-chrome) ||
		skip "chromium not installed: browser tests skipped (apt-get install chromium)"
	[ -z "${FOLDKIT_SAN:-}" ] || skip "browser tests run once, not under the sanitizers"
}

# chrome URL [extra flags...]: run headless Chromium on URL.
chrome() {
	local url=$1 prof
	shift
	prof=$(mktemp -d "$BATS_TEST_TMPDIR/prof.XXXXXX")
	timeout 90 "$CHROMIUM" --headless --no-sandbox --disable-gpu --disable-quic \
		--no-first-run --disable-background-networking --disable-component-update \
		--disable-sync --user-data-dir="$prof" --virtual-time-budget=3000 "$@" "$url" 2>/dev/null
}
# dom FILE [QUERY]: the DOM of file://FILE?QUERY after the script ran.
dom() {
	chrome "file://$1${2:+?$2}" --dump-dom
}
# The frame groups of a dumped DOM, one a line.
groups() {
	tr -d '\n' | sed 's/<g[ >]/\n&/g' | grep '<title>'
}

@test "browser: the graph loads and the script runs (Chromium can start)" {
	"$BIN/flamegraph-svg" "$FG/minieth.folded" > "$BATS_TEST_TMPDIR/m.svg"
	run dom "$BATS_TEST_TMPDIR/m.svg"
	[ -n "$output" ] || skip "chromium cannot run here: browser tests skipped"
	[[ "$output" == *'<g id="frames">'* ]]
	[[ "$output" == *'>Search</text>'* ]]
}

@test "browser: ?s=TERM highlights the matching boxes and shows the Matched share" {
	printf 'main;a;foo 25\nmain;b;foo;foo 25\nmain;c 50\n' > "$BATS_TEST_TMPDIR/in.folded"
	"$BIN/flamegraph-svg" "$BATS_TEST_TMPDIR/in.folded" > "$BATS_TEST_TMPDIR/s.svg"
	run dom "$BATS_TEST_TMPDIR/s.svg" 's=%5Efo%2B%20'
	[ -n "$output" ] || skip "chromium cannot run here"
	# nested matches count once: 25 + 25 of 100
	[[ "$output" == *'id="matched"'*'>Matched: 50.0%</text>'* ]]
	[ "$(printf '%s' "$output" | groups | grep -c 'fill="rgb(230,0,230)"')" -eq 3 ]
	[ "$(printf '%s' "$output" | groups | grep 'fill="rgb(230,0,230)"' | grep -vc '<title>foo (')" -eq 0 ]
	[[ "$output" == *'>Reset Search</text>'* ]]
	# a term that matches nothing
	run dom "$BATS_TEST_TMPDIR/s.svg" 's=nothing'
	[[ "$output" == *'>Matched: 0.0%</text>'* ]]
	[ "$(printf '%s' "$output" | groups | grep -c 'fill="rgb(230,0,230)"')" -eq 0 ]
}

@test "browser: Matched on a real profile is flamegraph.pl's figure from the drawn widths" {
	"$BIN/flamegraph-svg" "$FG/minieth.folded" > "$BATS_TEST_TMPDIR/m.svg"
	run dom "$BATS_TEST_TMPDIR/m.svg" 's=keccak'
	[ -n "$output" ] || skip "chromium cannot run here"
	got=$(printf '%s' "$output" | grep -o 'Matched: [0-9.]*%')
	# flamegraph.pl's algorithm: matches by x (widest), sorted, overlaps skipped
	want=$(boxes < "$BATS_TEST_TMPDIR/m.svg" | grep '<title>' | awk '
		{ x = $0; sub(/.*<rect x="/, "", x); sub(/".*/, "", x)
		  w = $0; sub(/.*width="/, "", w); sub(/".*/, "", w)
		  t = $0; sub(/.*<title>/, "", t); sub(/<\/title>.*/, "", t)
		  if (w + 0 > max) max = w + 0
		  if (t ~ /keccak/ && (!(x in m) || w + 0 > m[x])) m[x] = w + 0 }
		END { n = 0; for (x in m) xs[++n] = x + 0
		  for (i = 2; i <= n; i++) { v = xs[i]; for (j = i - 1; j > 0 && xs[j] > v; j--) xs[j + 1] = xs[j]; xs[j + 1] = v }
		  lastx = -1; lastw = 0
		  for (i = 1; i <= n; i++) { x = xs[i]; w = m[x ""] + 0
		    if (x >= lastx + lastw - 0.0001) { c += w; lastx = x; lastw = w } }
		  printf "Matched: %.1f%%", 100 * c / max }')
	[ "$got" = "$want" ] || fail "got $got, want $want"
}

@test "browser: ?x=&y= zooms: the box spans the width, ancestors dimmed, others hidden" {
	printf 'main;a;a1 1\nmain;a;a2 1\nmain;b 2\n' > "$BATS_TEST_TMPDIR/z.folded"
	"$BIN/flamegraph-svg" "$BATS_TEST_TMPDIR/z.folded" > "$BATS_TEST_TMPDIR/z.svg"
	grep -q '<title>a (2 samples, 50.00%)</title><rect x="10" y="53" width="590"' "$BATS_TEST_TMPDIR/z.svg"
	run dom "$BATS_TEST_TMPDIR/z.svg" 'x=10&y=53'
	[ -n "$output" ] || skip "chromium cannot run here"
	g=$(printf '%s' "$output" | groups)
	# the zoomed box and its children, rescaled
	[[ "$(grep '<title>a (' <<< "$g")" == *'<rect x="10.0" y="53" width="1180.0"'* ]]
	[[ "$(grep '<title>a1 (' <<< "$g")" == *'<rect x="10.0" y="37" width="590.0"'* ]]
	[[ "$(grep '<title>a2 (' <<< "$g")" == *'<rect x="600.0" y="37" width="590.0"'* ]]
	# ancestors dimmed at full width, the rest hidden
	[[ "$(grep '<title>main (' <<< "$g")" == *'class="parent"'* ]]
	[[ "$(grep '<title>all (' <<< "$g")" == *'class="parent"'* ]]
	[[ "$(grep '<title>b (' <<< "$g")" == *'class="hide"'* ]]
	[ "$(grep -c 'class="hide"' <<< "$g")" -eq 1 ]
	[[ "$output" == *'<text id="unzoom" class="" x="10" y="24">Reset Zoom</text>'* ||
	   "$output" == *'<text id="unzoom" x="10" y="24">Reset Zoom</text>'* ]]
	# labels follow the new widths
	[[ "$(grep '<title>a1 (' <<< "$g")" == *'>a1</text>'* ]]
	# zoom and search together
	run dom "$BATS_TEST_TMPDIR/z.svg" 'x=10&y=53&s=%5Ea2'
	[[ "$output" == *'>Matched: 25.0%</text>'* ]]
	# a box too narrow for a label gets one when zoomed, centred in its
	# row: y + 3 + half the box height (15 px, from the stylesheet)
	printf 'main;a;n 1\nmain;b 300\n' | "$BIN/flamegraph-svg" > "$BATS_TEST_TMPDIR/n.svg"
	[ "$(grep -c '>n</text>' "$BATS_TEST_TMPDIR/n.svg")" -eq 0 ]
	run dom "$BATS_TEST_TMPDIR/n.svg" 'x=10&y=53'
	[[ "$(printf '%s' "$output" | groups | grep '<title>n (')" == *'<text y="47.5" x="13.0">n</text>'* ]]
}

@test "browser: every box is drawn, its height (from the stylesheet) the frame height - 1" {
	"$BIN/flamegraph-svg" --height 20 "$FG/minieth.folded" > "$BATS_TEST_TMPDIR/m.svg"
	# a copy with a probe script: the boxes' rendered heights, and whether
	# the point in the middle of the root box hits its rect
	probe='<script>window.addEventListener("load", function () {
		var n = 0, bad = 0, rs = document.querySelectorAll("#frames rect"), r0 = rs[0].getBBox();
		rs.forEach(function (r) { n++; if (r.getBBox().height !== 19) bad++; });
		var hit = document.elementFromPoint(r0.x + 1, r0.y + r0.height - 1) === rs[0];
		document.documentElement.setAttribute("data-probe", n + " " + bad + " " + hit);
	});</script>'
	{ sed '$d' "$BATS_TEST_TMPDIR/m.svg"; printf '%s\n</svg>\n' "$probe"; } > "$BATS_TEST_TMPDIR/p.svg"
	run chrome "file://$BATS_TEST_TMPDIR/p.svg" --window-size=1400,2000 --dump-dom
	[ -n "$output" ] || skip "chromium cannot run here"
	n=$(boxes < "$BATS_TEST_TMPDIR/m.svg" | grep -c '<title>')
	[[ "$output" == *"data-probe=\"$n 0 true\""* ]] || fail "$(grep -o 'data-probe="[^"]*"' <<< "$output"), want $n boxes"
}

@test "browser: hostile names stay text (no script runs from the data)" {
	printf 'main;<script>document.documentElement.setAttribute("pwned","1")</script> 1\nmain;x]]><svg onload="document.documentElement.setAttribute(&quot;pwned&quot;,1)"/> 1\nm;\x01\xff 1\n' > "$BATS_TEST_TMPDIR/bad.folded"
	"$BIN/flamegraph-svg" "$BATS_TEST_TMPDIR/bad.folded" > "$BATS_TEST_TMPDIR/bad.svg"
	run dom "$BATS_TEST_TMPDIR/bad.svg" 's=script'
	[ -n "$output" ] || skip "chromium cannot run here"
	[[ "$output" != *'pwned="1"'* ]]
	[[ "$output" == *'>Matched: '* ]]
}

@test "browser: a screenshot of a real profile is a non-blank PNG" {
	"$BIN/flamegraph-svg" "$FG/minieth.folded" > "$BATS_TEST_TMPDIR/m.svg"
	cd "$BATS_TEST_TMPDIR"
	chrome "file://$BATS_TEST_TMPDIR/m.svg" --screenshot="$BATS_TEST_TMPDIR/shot.png" --window-size=1200,500 > /dev/null || true
	[ -s shot.png ] || skip "chromium cannot take screenshots here"
	[ "$(head -c 8 shot.png | od -An -tx1 | tr -d ' \n')" = "89504e470d0a1a0a" ]
	# a blank page compresses to a few kilobytes; boxes and labels do not
	[ "$(wc -c < shot.png)" -gt 20000 ]
}
