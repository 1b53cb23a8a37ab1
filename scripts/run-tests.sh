#!/bin/sh
# Run the selected host tests (tests/host/*.sh, each in its own folder) and
# guest tests (tests/guest/*.sh, each a guest job run by lab-run.sh, one
# boot each), and report them as one flat KTAP version 1 stream on stdout:
# a plan, one "ok"/"not ok" line per test ("# SKIP reason" on a skip), the
# reason of a failure in a "#" line before its result, and the counts in
# "#" lines at the end.
#
# Selection: T (shell globs on test names, space separated) and TAGS
# (comma separated: a test is taken if it has any of the plain tags, or
# none is given, and none of the "-tag"s; see job_has_tag in lib/job.sh;
# a test whose header cannot be read is taken, so that its error shows).
# Names are host/NAME and guest/NAME, after TEST_PREFIX (CI names the tree
# there).  A test exits 0 to pass, 4 to skip (as kselftests do); a guest
# test's result is lab-run.sh's verdict, its host-side check included.
#
# Settings: T, TAGS, TEST_PREFIX, LAB_RUNS, and what lab-run.sh reads;
# LAB_SUITE, a folder with host/ and guest/ in place of tests/ (the
# runner's own tests use it).
#
#   run-tests.sh          run the selected tests
#   run-tests.sh --list   print their names only
set -u

here=$(cd "$(dirname "$0")" && pwd)
top=$(dirname "$here")
# shellcheck source=scripts/lib/job.sh
. "$here/lib/job.sh"
: "${LAB_RUNS:?}" "${T:?}"
tags=${TAGS:-}
prefix=${TEST_PREFIX:-}
suite=${LAB_SUITE:-$top/tests}

selected() {	# NAME FILE
	set -f
	for p in $T; do
		# shellcheck disable=SC2254 # the pattern is a glob on purpose
		case $1 in $p) set +f; break ;; esac
		p=
	done
	set +f
	[ -n "$p" ] || return 1
	[ -z "$tags" ] && return 0
	h=$(job_header "$2" 2>/dev/null) || return 0	# a bad header is reported when run
	job_has_tag "$h" "$tags"
}

mkdir -p "$LAB_RUNS"
# The plan first: the selected tests, "NAME FILE" a line
list=$(mktemp)
trap 'rm -f "$list"' EXIT
for t in "$suite"/host/*.sh "$suite"/guest/*.sh; do
	[ -e "$t" ] || continue
	kind=$(basename "$(dirname "$t")")
	name=$kind/$(basename "$t" .sh)
	selected "$name" "$t" && echo "$name $t"
done > "$list"

if [ "${1:-}" = --list ]; then
	cut -d' ' -f1 "$list"
	exit 0
fi
echo "KTAP version 1"
echo "1..$(grep -c . "$list")"
if ! [ -s "$list" ]; then
	echo "# no test is selected by T='$T' TAGS='$tags'"
	exit 1
fi
n=0 passed=0 failed=0 skipped=0

# report NAME STATUS WHY: the test's KTAP line
report() {
	n=$((n + 1))
	case $2 in
	0) passed=$((passed + 1)); echo "ok $n $prefix$1" ;;
	4) skipped=$((skipped + 1)); echo "ok $n $prefix$1 # SKIP $3" ;;
	*) failed=$((failed + 1)); echo "# $prefix$1: $3"; echo "not ok $n $prefix$1" ;;
	esac
}

# host_test FILE DIR: run a host test, its log and reason in DIR
host_test() {
	h=$(job_header "$1" 2>&1) || { echo "header: $h" > "$2/why"; return 1; }
	[ -z "$(job_get "$h" guest)$(job_get "$h" env)$(job_get "$h" timeout)$(job_get "$h" collect)" ] ||
		{ echo "header: a host test declares lab-tags only" > "$2/why"; return 1; }
	TEST_DIR=$2 sh "$1" > "$2/test.log" 2>&1
}

while read -r name t; do
	dir=$LAB_RUNS/$name
	status=0
	case $name in
	host/*)
		rm -rf "$dir" && mkdir -p "$dir"
		host_test "$t" "$dir" < /dev/null || status=$?
		why=$(job_reason "$dir/why" "$dir/test.log")
		[ "$status" = 0 ] || [ "$status" = 4 ] || why="$why (log: $dir/test.log)"
		report "$name" "$status" "$why" ;;
	guest/*)
		"$here/lab-run.sh" "$t" "$dir" < /dev/null 2> "$LAB_RUNS/launcher.err" || status=$?
		why=$(cat "$dir/verdict" 2>/dev/null) ||
			why="the launcher stopped (status $status): $(tr '\n' ' ' < "$LAB_RUNS/launcher.err")"
		report "$name" "$status" "${why#skip: }" ;;
	esac
done < "$list"

echo "# $passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
