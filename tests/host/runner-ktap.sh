# lab-tags: runner
# The runner's results, without a guest: run-tests.sh on a small suite of
# its own prints one KTAP v1 stream (plan, "ok"/"not ok", "# SKIP reason"
# for a test that exits 4), selects by T and by TAGS, and fails a test
# whose header is wrong (an unknown key in a guest job: failed unbooted;
# a guest key in a host test); ktap-count.sh counts streams, judging skips
# against a list, on the fixtures in fixtures/ktap.
# shellcheck source=tests/lib/host.sh
. "$(dirname "$0")/../lib/host.sh"

suite=$TEST_DIR/suite
mkdir -p "$suite/host" "$suite/guest"
cat > "$suite/host/a-pass.sh" <<'T'
# lab-tags: alpha
echo "ok: fine"
T
cat > "$suite/host/b-fail.sh" <<'T'
# lab-tags: beta
echo "FAIL: broken on purpose"
exit 1
T
cat > "$suite/host/c-skip.sh" <<'T'
# lab-tags: alpha beta
echo "SKIP: nothing to test here"
exit 4
T
cat > "$suite/host/d-guest-key.sh" <<'T'
# lab-guest: NODES=1
true
T
cat > "$suite/guest/e-typo.sh" <<'T'
# lab-gust: NODES=1
true
T

# run TAGS T: the suite's KTAP stream
run() {
	LAB_SUITE=$suite LAB_RUNS=$TEST_DIR/runs TAGS=$1 T=$2 TEST_PREFIX=t/ "$scripts/run-tests.sh" > "$TEST_DIR/out" 2>&1
}
run "" '*' && fail "run-tests.sh passed a suite with failures"
cat "$TEST_DIR/out"
expect() {	# LINE
	grep -qxF -- "$1" "$TEST_DIR/out" || fail "no line '$1' in the stream"
}
expect "KTAP version 1"
expect "1..5"
expect "ok 1 t/host/a-pass"
expect "not ok 2 t/host/b-fail"
expect "# t/host/b-fail: broken on purpose (log: $TEST_DIR/runs/host/b-fail/test.log)"
expect "ok 3 t/host/c-skip # SKIP nothing to test here"
expect "not ok 4 t/host/d-guest-key"
expect "# t/host/d-guest-key: header: a host test declares lab-tags only (log: $TEST_DIR/runs/host/d-guest-key/test.log)"
expect "not ok 5 t/guest/e-typo"
grep -q "^# t/guest/e-typo: header: .*e-typo.sh:1: unknown header key lab-gust" "$TEST_DIR/out" ||
	fail "the typo's reason does not name the key and its line"
[ ! -e "$TEST_DIR/runs/guest/e-typo/console.log" ] || fail "a job with a bad header was booted"
expect "# 1 passed, 3 failed, 1 skipped"
echo "ok: the stream, the reasons, a bad header unbooted"

# Selection
list() {	# TAGS T
	LAB_SUITE=$suite LAB_RUNS=$TEST_DIR/runs TAGS=$1 T=$2 "$scripts/run-tests.sh" --list | tr '\n' ' '
}
expect_list() {	# TAGS T WANT
	got=$(list "$1" "$2")
	[ "$got" = "$3" ] || fail "TAGS='$1' T='$2': got '$got', want '$3'"
	echo "ok: TAGS='$1' T='$2': $got"
}
# (a header that cannot be read is taken by every TAGS, so that its error
# shows: e-typo)
expect_list alpha '*' "host/a-pass host/c-skip guest/e-typo "
expect_list alpha,beta '*' "host/a-pass host/b-fail host/c-skip guest/e-typo "
expect_list -beta '*' "host/a-pass host/d-guest-key guest/e-typo "
expect_list alpha,-beta '*' "host/a-pass guest/e-typo "
expect_list "" 'guest/*' "guest/e-typo "
expect_list beta 'host/[ab]*' "host/b-fail "
run alpha 'host/*' || fail "TAGS=alpha T=host/* (a pass and a skip) failed"
expect "1..2"
# Guest jobs alone, in a runs folder that does not exist yet
# (TAGS and TEST_PREFIX are set here: make exports the caller's, and CI's
# prefix names the tree)
LAB_SUITE=$suite LAB_RUNS=$TEST_DIR/fresh/runs TAGS='' T='guest/*' TEST_PREFIX=t/ "$scripts/run-tests.sh" > "$TEST_DIR/out" 2>&1
grep -q "^# t/guest/e-typo: header: .*unknown header key lab-gust" "$TEST_DIR/out" ||
	fail "guest jobs in a new runs folder: $(cat "$TEST_DIR/out")"

# The counter, on fixtures
for f in "$top"/tests/host/fixtures/ktap/*.log; do
	n=${f%.log}
	got=$("$scripts/ktap-count.sh" "$n.expected-skips" "$f" | tail -n 1) || :
	[ "$got" = "$(cat "$n.counts")" ] || fail "$(basename "$f"): counted '$got', want '$(cat "$n.counts")'"
	echo "ok: $(basename "$f"): $got"
done
"$scripts/ktap-count.sh" "$top/tests/host/fixtures/ktap/ci-two-trees.expected-skips" \
	"$top/tests/host/fixtures/ktap/ci-two-trees.log" | grep -qx "# unexpected skip: mainline-base/guest/bpftrace-rounds (not in $top/tests/host/fixtures/ktap/ci-two-trees.expected-skips)" ||
	fail "the unexpected skip is not named"
"$scripts/ktap-count.sh" "$top/tests/host/fixtures/ktap/truncated.expected-skips" "$top/tests/host/fixtures/ktap/truncated.log" &&
	fail "a truncated stream counted as a pass"
echo "ok: ktap-count.sh"

# The header's timeout: a sum of products of settings and integers
# shellcheck source=scripts/lib/job.sh
. "$scripts/lib/job.sh"
expect_timeout() {	# EXPRESSION WANT
	got=$(TA=20 TB=5 TIMEOUT=300 EMPTY='' job_timeout "timeout $1") || got="error: $got"
	case $got in "$2"*) echo "ok: lab-timeout '$1': $got" ;; *) fail "lab-timeout '$1': got '$got', want '$2'" ;; esac
}
expect_timeout "" 300
expect_timeout "TA + 2 * TB" 30
expect_timeout "2 * TB * 3 + TA + 1" 51
expect_timeout "TA +" "error: lab-timeout: 'TA +' ends with an operator"
expect_timeout "TA TB" "error: lab-timeout: 'TB' where + or * was expected"
expect_timeout "TA - TB" "error: lab-timeout: '-' where + or * was expected"
expect_timeout "EMPTY + 1" "error: lab-timeout: EMPTY='' is not a number of seconds"
expect_timeout "* 2" "error: lab-timeout: '*' where a setting or an integer was expected"
