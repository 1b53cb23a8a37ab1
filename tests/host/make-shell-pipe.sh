# lab-tags: runner
# `make shell` with commands on stdin runs them in the guest, prints their
# output and powers off; a failing command fails it, with the verdict
# printed once.
# shellcheck source=tests/lib/host.sh
. "$(dirname "$0")/../lib/host.sh"

# verdict: the job's one-line verdict, which the runner keeps as the reason
verdict() { cat "$TEST_DIR/shell/verdict" 2>/dev/null || echo "no verdict in $TEST_DIR/shell"; }

if ! out=$(echo 'sysctl vm.compaction_proactiveness' | make -s -C "$top" shell LAB_RUNS="$TEST_DIR" 2>&1); then
	echo "$out"
	fail "make shell failed: $(verdict)"
fi
echo "$out"
echo "$out" | grep -q '^vm.compaction_proactiveness = 20' || fail "value not printed"

if out=$(echo 'false' | make -s -C "$top" shell LAB_RUNS="$TEST_DIR" 2>&1); then
	fail "make shell passed although its command failed"
fi
echo "$out" | grep -q '^job: exited with status 1 (log: ' || fail "make shell did not print the verdict: $out"
echo "ok: a failing command fails make shell, which prints the verdict once"
[ "$(echo "$out" | grep -c '^job: ')" = 1 ] || fail "the verdict printed more than once: $out"
