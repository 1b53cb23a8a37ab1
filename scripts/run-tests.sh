#!/bin/sh
# Run the host tests (tests/host/*.sh) and the guest tests (tests/guest/*.sh,
# one guest boot each), one line per test, then "N passed, N failed".
#
# A guest test is a bash script run in the guest with $OUT (the run's
# writable share) and the settings set, in a guest of the shape it declares
# (see shape() in tests/lib/common.sh).  If tests/guest/NAME.host
# exists, it runs on the host afterwards with the run's out folder as $1,
# for checks that need host tools (trace-cmd report on the recorded trace).
#
# Settings: T (shell globs on test names, space separated), LAB_RUNS, and what run-guest.sh reads.
set -u

here=$(cd "$(dirname "$0")" && pwd)
top=$(dirname "$here")
. "$top/tests/lib/common.sh"
: "${LAB_RUNS:?}"
: "${T:?}"
pattern=$T
passed=0 failed=0

report() {	# NAME VERDICT [REASON]
	if [ "$2" = ok ]; then
		passed=$((passed + 1))
		printf 'PASS  %s\n' "$1"
	else
		failed=$((failed + 1))
		printf 'FAIL  %s: %s\n' "$1" "$3"
	fi
}

selected() {
	set -f
	for p in $pattern; do
		# shellcheck disable=SC2254 # the pattern is a glob on purpose
		case $1 in $p) set +f; return 0 ;; esac
	done
	set +f
	return 1
}

# The last line a test printed that says why it failed.
why() {
	grep -E '^(FAIL|not ok|error)' "$1" 2>/dev/null | tail -n 1
}

for t in "$top"/tests/host/*.sh; do
	name=host/$(basename "$t" .sh)
	selected "$name" || continue
	dir=$LAB_RUNS/$name
	rm -rf "$dir" && mkdir -p "$dir"
	if TEST_DIR=$dir sh "$t" > "$dir/test.log" 2>&1; then
		report "$name" ok
	else
		report "$name" fail "$(why "$dir/test.log") (log: $dir/test.log)"
	fi
done

for t in "$top"/tests/guest/*.sh; do
	name=guest/$(basename "$t" .sh)
	selected "$name" || continue
	dir=$LAB_RUNS/$name
	if ! shape=$(shape "$t"); then
		report "$name" fail "$shape"
		continue
	fi
	# shellcheck disable=SC2086 # words NAME=value
	if ! echo "exec bash /lab/tests/guest/$(basename "$t")" | env $shape "$here/run-guest.sh" "$dir"; then
		reason=$(why "$dir/out/job.log")
		report "$name" fail "${reason:+$reason; }$(cat "$dir/verdict")"
		continue
	fi
	check=${t%.sh}.host
	if [ -e "$check" ] && ! sh "$check" "$dir/out" > "$dir/host-check.log" 2>&1; then
		report "$name" fail "$(why "$dir/host-check.log") (log: $dir/host-check.log)"
		continue
	fi
	report "$name" ok
done

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
