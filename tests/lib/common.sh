# Helpers for both sides, sourced by tests/lib/guest.sh (bash, in the
# guest) and tests/lib/host.sh (sh, on the host): POSIX shell only.

# A test ends with fail (status 1) at its first broken expectation, or
# with skip (status 4, as a kselftest) when it cannot test what it tests
# here; either prints its reason and keeps the first reason given in
# WHY_FILE (set by the library that sources this), for the runner.
why() {
	[ -z "${WHY_FILE:-}" ] || [ -s "$WHY_FILE" ] || echo "$*" > "$WHY_FILE"
}

fail() {
	why "$*"
	echo "FAIL: $*"
	exit 1
}

skip() {
	why "$*"
	echo "SKIP: $*"
	exit 4
}

# cols CSV NAME...: the named columns of a CSV with a header line, one row
# a line, space separated, in the order named; fails on an unknown name
cols() {
	_f=$1
	shift
	awk -F, -v want="$*" '
	NR == 1 {
		n = split(want, w, " ")
		for (i = 1; i <= NF; i++) c[$i] = i
		for (j = 1; j <= n; j++) if (!(w[j] in c)) { print "cols: no column " w[j] > "/dev/stderr"; exit 2 }
		next
	}
	{ s = $(c[w[1]]); for (j = 2; j <= n; j++) s = s " " $(c[w[j]]); print s }' "$_f"
}

# min_score FILE: the lowest node score in fragscore's output
min_score() {
	awk '{ print $4 }' "$1" | sort -n | head -1
}
