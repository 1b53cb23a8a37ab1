# Helpers for host tests (sh, sourced).  TEST_DIR is the test's own scratch
# folder.  A test ends with "FAIL: why" and exit 1 on the first broken
# expectation, or with "SKIP: why" and exit 4 when it cannot test what it
# tests on this machine; the reason is also left in TEST_DIR/why, for the
# runner.

top=$(cd "$(dirname "$0")/../.." && pwd)
scripts=$top/scripts
# shellcheck source=tests/lib/common.sh
. "$top/tests/lib/common.sh"

# A test writes under TEST_DIR only: without it, "$TEST_DIR/x" would be /x.
case ${TEST_DIR:-} in
/?*) [ -d "$TEST_DIR" ] || fail "TEST_DIR=$TEST_DIR is not a folder" ;;
*) fail "TEST_DIR is not set to an absolute folder (run host tests with make test)" ;;
esac
WHY_FILE=$TEST_DIR/why

# guest_run NAME JOB [NAME=value...]: run JOB, a string of bash (a header
# may start it), as a guest job in TEST_DIR/NAME, through the launcher.
# Returns its status (0 ok, 4 skip, 1 fail); the verdict is in
# TEST_DIR/NAME/verdict.
guest_run() {
	_name=$1 _job=$2
	shift 2
	printf '%s\n' "$_job" > "$TEST_DIR/$_name.job"
	"$scripts/lab-run.sh" "$TEST_DIR/$_name.job" "$TEST_DIR/$_name" "$@"
}
