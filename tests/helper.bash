# helper.bash - loaded by every .bats file.
export LC_ALL=C
bats_require_minimum_version 1.5.0
BIN=${FOLDKIT_BIN:?run the suite with make test}
TESTBIN=${FOLDKIT_TESTBIN:-$BIN/../test}
DATA=$BATS_TEST_DIRNAME/data

# Compare $output with a golden file, showing the diff on failure.
golden() {
	diff -u "$1" <(printf '%s\n' "$output")
}

# Assert the JSON in $output is valid.
valid_json() {
	printf '%s' "$output" | "$TESTBIN/jsoncheck"
}

# The boxes of a flame graph on stdin, one per line (flamegraph-svg writes
# one line per branch: the boxes from a fork down to a leaf).
boxes() {
	awk '{ gsub(/<\/g></, "</g>\n<"); gsub(/<\/a></, "</a>\n<"); print }'
}

# full_disk TOOL [ARGS...]: writing to /dev/full is an error: exit 1 and
# "TOOL: write error: No space left on device" on stderr.
full_disk() {
	local tool=$1
	shift
	run --separate-stderr bash -c '"$@" > /dev/full' _ "$BIN/$tool" "$@"
	[ "$status" -eq 1 ] || { fail "status $status, want 1"; return 1; }
	[ "$stderr" = "$tool: write error: No space left on device" ] || { fail "stderr: $stderr"; return 1; }
}

# closed_pipe FIRST TOOL [ARGS...]: into "| head -1" the tool ends quietly:
# status 0 (with pipefail), nothing on stderr, and FIRST the line out.
closed_pipe() {
	local first=$1 tool=$2 err=$BATS_TEST_TMPDIR/closed_pipe.err
	shift 2
	run bash -c 'set -o pipefail; e=$1; shift; "$@" 2>"$e" | head -1' _ "$err" "$BIN/$tool" "$@"
	[ "$status" -eq 0 ] || { fail "status $status, want 0"; return 1; }
	[ "$output" = "$first" ] || { fail "first line: $output"; return 1; }
	[ ! -s "$err" ] || { fail "stderr: $(cat "$err")"; return 1; }
}

# Fail with a message.
fail() {
	echo "$@" >&2
	return 1
}

# The options of a tool's usage text (--help up to the first blank line) and
# of its man page SYNOPSIS must be the same set (an option starts after '[',
# ' ' or '|': the "-total" of a value "delta-total" is none).
usage_matches_man() {
	local tool=$1 man=$BATS_TEST_DIRNAME/../man/$1.1 u m
	u=$("$BIN/$tool" --help | sed -n '1,/^$/p' | sed 's/^usage: [^ ]*//' | grep -o -- '[[ |]-\{1,2\}[A-Za-z][A-Za-z-]*' | sed 's/^.//' | sort -u)
	m=$(sed -n '/^\.Sh SYNOPSIS/,/^\.Sh /p' "$man" | grep -o 'Fl [^ ]*' |
		sed 's/^Fl //; s/\\-/-/g; s/^/-/' | sort -u)
	[ "$u" = "$m" ] || { diff <(echo "$u") <(echo "$m") >&2; return 1; }
}

# mandoc -Tlint must find nothing to say about the pages (skip without mandoc).
man_lint() {
	command -v mandoc >/dev/null 2>&1 || skip "mandoc not installed"
	local p out
	for p in "$@"; do
		out=$(mandoc -Tlint -Wwarning "$BATS_TEST_DIRNAME/../man/$p" 2>&1) ||
			{ echo "$out" >&2; return 1; }
		[ -z "$out" ] || { echo "$out" >&2; return 1; }
	done
}
