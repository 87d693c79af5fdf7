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

# Fail with a message.
fail() {
	echo "$@" >&2
	return 1
}
