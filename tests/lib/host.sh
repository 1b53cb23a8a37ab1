# Helpers for host tests (sh, sourced).  TEST_DIR is the test's own scratch
# folder; a test ends with "FAIL: why" and a non-zero exit.

fail() {
	echo "FAIL: $*"
	exit 1
}

# A test writes under TEST_DIR only: without it, "$TEST_DIR/x" would be /x.
case ${TEST_DIR:-} in
/?*) [ -d "$TEST_DIR" ] || fail "TEST_DIR=$TEST_DIR is not a folder" ;;
*) fail "TEST_DIR is not set to an absolute folder (run host tests with make test)" ;;
esac

top=$(cd "$(dirname "$0")/../.." && pwd)
scripts=$top/scripts
. "$top/tests/lib/common.sh"

# guest_run NAME JOB: boot the guest on JOB (a string), in TEST_DIR/NAME.
# Returns run-guest.sh's status; the verdict is in TEST_DIR/NAME/verdict.
guest_run() {
	printf '%s\n' "$2" | "$scripts/run-guest.sh" "$TEST_DIR/$1"
}
