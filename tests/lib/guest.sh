# Helpers for guest tests (bash, sourced).  A test prints what it does and
# ends with "FAIL: why" and a non-zero exit on the first broken expectation;
# a command that fails unexpectedly ends it the same way.

set -eE -o pipefail
trap 'echo "FAIL: line $LINENO: \"$BASH_COMMAND\" exited with status $?"' ERR

fail() {
	echo "FAIL: $*"
	exit 1
}

# expect_eq WHAT GOT WANT
expect_eq() {
	[ "$2" = "$3" ] || fail "$1: got '$2', want '$3'"
	echo "ok: $1 = $3"
}

# vmstat NAME: one counter of /proc/vmstat
vmstat() {
	awk -v k="$1" '$1 == k { print $2; found = 1 } END { if (!found) exit 1 }' /proc/vmstat
}
