#!/usr/bin/env bats
# libfold's shape: domains in folders, each with its header; calls go one
# way (checked on the objects the build made, with nm).

load helper

LIB=$BATS_TEST_DIRNAME/../lib
OBJ=$BIN/../obj/lib
# the library checks: the sanitizer build's copy when there is one
if [ -n "${FOLDKIT_SAN:-}" ] && [ -x "$BIN/../test/libcheck" ]; then
	LIBCHECK=$BIN/../test/libcheck
else
	LIBCHECK=$TESTBIN/libcheck
fi

# The domains in the order lib/fold.h lists them, lowest first.
domains() {
	sed -n 's|^ \*   \([a-z]*\)/ .*|\1|p' "$LIB/fold.h"
}

# "unit dep" for every call from one unit of the library into another
# (units as DOMAIN/NAME), from the objects' defined and undefined symbols.
calls() {
	local o
	for o in "$OBJ"/*/*.o; do
		nm "$o" | awk -v u="$(basename "$(dirname "$o")")/$(basename "$o" .o)" \
			'NF == 2 && $1 == "U" { print "U", u, $2 }
			 NF == 3 && $2 ~ /^[TDRB]$/ { print "D", u, $3 }'
	done | awk '$1 == "D" { def[$3] = $2; next }
		{ use[++n] = $2 " " $3 }
		END {
			for (i = 1; i <= n; i++) {
				split(use[i], p, " ")
				if ((p[2] in def) && def[p[2]] != p[1])
					print p[1], def[p[2]]
			}
		}' | sort -u
}

# wrongway ORDER FILE: the calls of FILE ("unit dep" lines) into a domain
# after the caller's in ORDER (" base folded ... ").
wrongway() {
	awk -v order="$1" '
		function rank(d,  n, a, i) {
			n = split(order, a, " ")
			for (i = 1; i <= n; i++)
				if (a[i] == d)
					return i
			return 999
		}
		{
			split($1, a, "/")
			split($2, b, "/")
			if (rank(b[1]) > rank(a[1]))
				print $1 " calls " $2
		}' "$2"
}

# circles FILE: the units of FILE's calls that reach themselves (the
# transitive closure of the calls).
circles() {
	awk '
		{ u[$1] = 1; u[$2] = 1; r[$1, $2] = 1 }
		END {
			for (k in u)
				for (i in u)
					if ((i, k) in r)
						for (j in u)
							if ((k, j) in r)
								r[i, j] = 1
			for (i in u)
				if ((i, i) in r)
					print i
		}' "$1" | sort
}

need_objects() {
	command -v nm >/dev/null || skip "nm not installed"
	ls "$OBJ"/*/*.o >/dev/null 2>&1 || skip "no objects in $OBJ"
}

@test "lib/: a folder per domain of fold.h, each with its header, no unit outside" {
	run domains
	[ "${#lines[@]}" -ge 5 ]
	for d in "${lines[@]}"; do
		[ -f "$LIB/$d/$d.h" ] || { echo "no $d/$d.h"; return 1; }
		ls "$LIB/$d"/*.c >/dev/null
	done
	for f in "$LIB"/*/; do
		d=$(basename "$f")
		printf '%s\n' "${lines[@]}" | grep -qx "$d" || { echo "$d/ is not in fold.h"; return 1; }
	done
	[ -z "$(ls "$LIB"/*.c 2>/dev/null)" ]
}

@test "no header over 500 lines" {
	for h in "$LIB"/fold.h "$LIB"/*/*.h; do
		n=$(wc -l < "$h")
		[ "$n" -le 500 ] || { echo "$h: $n lines"; return 1; }
	done
}

@test "a domain calls only the domains before it in fold.h, and no units call each other in a circle" {
	need_objects
	run domains
	calls > "$BATS_TEST_TMPDIR/calls"
	# the calls were found: perf.data reads symbols, the flame graph the format
	grep -qx 'perf/perfdata symbols/symsrc' "$BATS_TEST_TMPDIR/calls"
	grep -qx 'flame/flame folded/folded' "$BATS_TEST_TMPDIR/calls"
	bad=$(wrongway " ${lines[*]} " "$BATS_TEST_TMPDIR/calls")
	[ -z "$bad" ] || { echo "$bad"; return 1; }
	bad=$(circles "$BATS_TEST_TMPDIR/calls")
	[ -z "$bad" ] || { echo "in a circle: $bad"; return 1; }
}

@test "the checks find a call the wrong way and a circle" {
	printf '%s\n' "base/util report/table" "report/table base/out" \
		"report/tally report/difftab" "report/difftab report/tally" > "$BATS_TEST_TMPDIR/calls"
	run wrongway " base folded report " "$BATS_TEST_TMPDIR/calls"
	[ "$output" = "base/util calls report/table" ]
	run circles "$BATS_TEST_TMPDIR/calls"
	[ "$output" = "$(printf 'report/difftab\nreport/tally')" ]
}

@test "fold_pair: jobs on the second thread and here, in turn, their results seen after the wait; freed with a job running; no pair" {
	# (under ThreadSanitizer too: make test's tsan run has this file)
	for seed in 1 2; do
		run "$LIBCHECK" pair 3000 "$seed"
		[ "$status" -eq 0 ]
		[ "$output" = "ok 3000 rounds" ]
	done
}
