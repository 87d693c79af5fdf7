# sample.sh - sourced by run.sh ($work is the cwd, $bin, $top, $runs
# defined there): stackcollapse-sample on macOS sample reports beside
# inferno-collapse-sample 0.12.8 (INFERNO=dir, PATH, or
# ~/.cache/foldkit-peers/inferno/bin) in the same run; best_of is run.sh's.
#
# The inputs: inferno's large capture (../shared/conformance/macos/sample/
# inferno-large.txt.gz: Firefox's plugin-container, 49 threads, 10,425
# lines, 1.5 MB; FOLDKIT_MACOS=dir to point elsewhere), and the same
# report with its call graph 64 times over, each copy's threads renamed
# (Thread_N_2, ...) so that every copy's stacks are new: 86 MB, 615k lines,
# 118k distinct stacks, the shape of a long sample of a busy process.  But
# its frame lines repeat 64 times: only 0.6% of them are new, where 38% of
# the capture's own lines are.  So also the same 64 copies with each
# copy's frame names made its own ("_K" after the name, copies 2 on):
# 88 MB, 92k distinct frames, new lines in the proportion of the
# capture; the row that says what a real report of this size costs.  Both
# tools read the file and write to /dev/null; best of $runs runs, wall and
# CPU (user + system) from runstat; against inferno, the two in turn
# (best_pair), best of $BENCH_PAIR_RUNS (11) each.  Where inferno is right the stacks are
# the same (tests/stackcollapse-sample.bats checks it on the capture).
sm_src=
for d in ${FOLDKIT_MACOS:-} "$top/../shared/conformance/macos/sample" \
    "$top/../../shared/conformance/macos/sample"; do
	[ -n "$d" ] && [ -s "$d/inferno-large.txt.gz" ] && { sm_src=$d; break; }
done
sm_peer=
for d in ${INFERNO:-} $(command -v inferno-collapse-sample 2>/dev/null | sed 's,/[^/]*$,,') \
    "$HOME/.cache/foldkit-peers/inferno/bin"; do
	[ -x "$d/inferno-collapse-sample" ] && { sm_peer=$d/inferno-collapse-sample; break; }
done

# sm_row NAME INPUT: our row, inferno's and the ratios.
sm_row() {
	set -- "$1" "$2" $(best_of "$2" "$bin/stackcollapse-sample" -q)
	awk -v n="$1" -v w="$3" -v k="$4" -v c="$5" -v s="$(wc -c < "$2")" 'BEGIN {
		printf "%-5s %-22s %-34s %8.3f s  %.3f s CPU  %7.1f MB RSS  (%.1f MB)\n",
		    "S", "stackcollapse-sample", n, w, c, k / 1024, s / 1e6 }'
	[ -n "$sm_peer" ] || return 0
	# ours again, in turn with inferno's (the host's speed drifts)
	set -- "$1" "$2" $(best_pair "$2" "${BENCH_PAIR_RUNS:-11}" \
	    "$bin/stackcollapse-sample" -q -- "$sm_peer")
	awk -v w="$3" -v c="$5" 'BEGIN {
		printf "%-5s %-22s %-34s %8.3f s  %.3f s CPU\n",
		    "S", "stackcollapse-sample", "in turn with inferno:", w, c }'
	set -- "$1" "$2" "$3" "$4" "$5" "$6" "$7" "$8"
	sm_inf=$6
	awk -v w="$6" -v k="$7" -v c="$8" -v ow="$3" -v oc="$5" -v n="$1" 'BEGIN {
		printf "%-5s %-22s %-34s %8.3f s  %.3f s CPU  %7.1f MB RSS\n",
		    "S", "inferno-collapse-sample", "same file (0.12.8)", w, c, k / 1024
		printf "%-5s %-22s %-34s %7.1fx faster (CPU %.1fx) on %s\n",
		    "S", "stackcollapse-sample", "against inferno-collapse-sample",
		    w / ow, (oc > 0 ? c / oc : 0), n }'
}

# sm_floor WHAT CMD...: a floor's row (best_of, stdin /dev/null),
# with what a tenth of inferno's time in the row before (sm_inf) is.
sm_floor() {
	sm_what=$1
	shift
	set -- $(best_of /dev/null "$@")
	awk -v n="$sm_what" -v w="$1" -v c="$3" -v p="$sm_inf" 'BEGIN {
		printf "%-5s %-22s %-34s %8.4f s  %.4f s CPU", "S", "floor", n, w, c
		if (p != "")
			printf "  (10x inferno: %.4f s)", p / 10
		printf "\n" }'
}

# sm_copies F: the capture's call graph 64 times over, each copy's threads
# renamed (Thread_N_2, ...); with F 1, each copy's frame names too ("_K"
# before "  (in "), so that its frame lines are new as the capture's are.
sm_copies() {
	awk -v K=64 -v F="$1" '
	$0 == "Call graph:" { s = 1; print; next }
	s == 1 && /^Total number in stack/ { s = 2 }
	s == 1 { body[++n] = $0; next }
	s == 2 && !done {
		for (k = 1; k <= K; k++)
			for (i = 1; i <= n; i++) {
				l = body[i]
				if (k > 1) {
					sub(/Thread_[0-9]+/, "&_" k, l)
					if (F) sub(/  \(in /, "_" k "&", l)
				}
				print l
			}
		done = 1
	}
	{ print }' sample-large.txt
}

if [ -z "$sm_src" ]; then
	echo "sample: no inferno-large.txt.gz (set FOLDKIT_MACOS): skipped"
else
	[ -s sample-large.txt ] || gzip -dc "$sm_src/inferno-large.txt.gz" > sample-large.txt
	[ -s sample-64.txt ] || sm_copies 0 > sample-64.txt
	[ -s sample-64f.txt ] || sm_copies 1 > sample-64f.txt
	[ -n "$sm_peer" ] || echo "sample: no inferno-collapse-sample (../shared/peers/build-inferno): ours alone"
	sm_inf=
	sm_row "sample, large capture (1.5 MB)" sample-large.txt
	# what no tool avoids on the capture: being started (a program that
	# opens /dev/null and ends), and reading the report and finding its
	# lines (tests/bench/floor.c)
	sm_floor "start, nothing read" ./floor lines /dev/null
	sm_floor "capture: read, lines found" ./floor lines sample-large.txt
	sm_inf=
	sm_row "sample, capture x64 (86 MB)" sample-64.txt
	# the floor below (floor sample) on the same 64 copies: the tree is
	# the same as x64f's, the names fewer
	sm_out=$("$bin/stackcollapse-sample" -q sample-64.txt | wc -c)
	sm_floor "x64: names interned+sorted, out" ./floor sample sample-64.txt $sm_out
	sm_inf=
	sm_row "sample, x64, frames each copy's (88 MB)" sample-64f.txt
	# less than any collapser does on it, in two threads: each frame
	# line's text hashed, the names of texts not seen lately interned
	# and sorted (the output is in byte order), and as many bytes
	# written as our output has (names copied in turn); no text
	# compared, no tree, no stacks ordered
	sm_out=$("$bin/stackcollapse-sample" -q sample-64f.txt | wc -c)
	sm_floor "x64f: names interned+sorted, out" ./floor sample sample-64f.txt $sm_out
	sm_inf=
	# the floor: reading the report and finding its lines, nothing else
	set -- $(best_of /dev/null ./floor lines sample-64.txt)
	awk -v w="$1" -v c="$3" 'BEGIN {
		printf "%-5s %-22s %-34s %8.3f s  %.3f s CPU\n",
		    "S", "floor lines", "capture x64: read, lines found", w, c }'
fi
