# `make shell` with commands on stdin runs them in the guest, prints their
# output and powers off; a failing command fails it.
. "$(dirname "$0")/../lib/host.sh"

out=$(echo 'sysctl vm.compaction_proactiveness' | make -s -C "$top" shell LAB_RUNS="$TEST_DIR" 2>&1) ||
	fail "make shell failed: $out"
echo "$out"
echo "$out" | grep -q '^vm.compaction_proactiveness = 20' || fail "value not printed"

if echo 'false' | make -s -C "$top" shell LAB_RUNS="$TEST_DIR" >/dev/null 2>&1; then
	fail "make shell passed although its command failed"
fi
echo "ok: a failing command fails make shell"
