#!/bin/sh
# Count the results of one or more KTAP version 1 streams (make test's
# output, concatenated; other lines in between are ignored) and judge the
# skips against a list of expected ones.
#
#   ktap-count.sh EXPECTED_SKIPS [FILE...]
#
# EXPECTED_SKIPS: one test name (a shell glob) a line, "#" comments; a
# skip of any other test counts as a failure, so that a lab regression
# cannot hide as a skip.  A stream whose plan does not match its results
# (a runner that died mid-way) counts one failure.  Result lines count only
# inside a stream (after "KTAP version 1").
#
# Prints each unexpected skip and broken plan in a "#" line, then the
# counts: "PASSED FAILED SKIPPED".  Exit status 0 when nothing failed.
set -eu
set -f	# the expected skips are globs, matched with case
[ $# -ge 1 ] || { echo "usage: ktap-count.sh EXPECTED_SKIPS [FILE...]" >&2; exit 2; }
expected=$1
shift
[ -r "$expected" ] || { echo "ktap-count.sh: cannot read $expected" >&2; exit 2; }

globs=$(sed -e 's/#.*//' -e 's/[[:space:]]*$//' "$expected" | grep . || true)

# name STATUS lines: pass, fail, skip; "plan EXPECTED GOT" per stream
awk '
	function close_stream() { if (inplan) print "plan", planned, results; inplan = 0 }
	FNR == 1 { close_stream() }
	/^KTAP version 1$/ { close_stream(); inplan = 1; planned = -1; results = 0; next }
	inplan && /^1\.\.[0-9]+$/ && planned < 0 { planned = substr($0, 4) + 0; next }
	inplan && /^(not )?ok [0-9]+ / {
		results++
		st = /^not ok/ ? "fail" : ($0 ~ /# SKIP/ ? "skip" : "pass")
		sub(/^(not )?ok [0-9]+ /, ""); sub(/ # .*/, "")
		print st, $0
	}
	END { close_stream() }' "$@" | {
	passed=0 failed=0 skipped=0
	while read -r st name rest; do
		case $st in
		pass) passed=$((passed + 1)) ;;
		fail) failed=$((failed + 1)) ;;
		skip)
			ok=no
			for g in $globs; do
				# shellcheck disable=SC2254 # the list holds globs
				case $name in $g) ok=yes ;; esac
			done
			if [ "$ok" = yes ]; then
				skipped=$((skipped + 1))
			else
				echo "# unexpected skip: $name (not in $expected)"
				failed=$((failed + 1))
			fi ;;
		plan)
			if [ "$name" != "$rest" ]; then
				echo "# broken stream: plan of $name tests, $rest results"
				failed=$((failed + 1))
			fi ;;
		esac
	done
	echo "$passed $failed $skipped"
	[ "$failed" -eq 0 ]
}
