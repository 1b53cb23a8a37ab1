# lab-tags: tools
# tests/lib/event-layout.sh, the no-hole check that guest/end-event-layout
# runs on the kernel's mm_compaction_proactive_end, on copies of the event's
# two layouts: v3's (nid, score_before, score_after, outcome, then the two
# unsigned long counts: offsets 8 12 16 20 24 32, sizes 4 4 4 4 8 8) passes;
# v2's (outcome last) fails, naming the 4-byte hole before migrate_scanned
# and the 4 bytes of tail padding after outcome.  A file that is not a
# format file is an error, not a pass.
# shellcheck source=tests/lib/host.sh
. "$(dirname "$0")/../lib/host.sh"

check=$top/tests/lib/event-layout.sh
fx=$top/tests/host/fixtures

sh "$check" "$fx/proactive-end-format-v3" > "$TEST_DIR/v3.out" 2>&1 || fail "v3 layout: $(cat "$TEST_DIR/v3.out")"
cat "$TEST_DIR/v3.out"
got=$(awk '$2 == "offset" { printf "%s%s@%s/%s", sep, $1, $3, $5; sep = " " }' "$TEST_DIR/v3.out")
[ "$got" = "nid@8/4 score_before@12/4 score_after@16/4 outcome@20/4 migrate_scanned@24/8 free_scanned@32/8" ] ||
	fail "v3 layout read as: $got"
echo "ok: v3's layout passes"

if sh "$check" "$fx/proactive-end-format-v2" > "$TEST_DIR/v2.out" 2>&1; then
	fail "v2 layout (outcome last) passed: $(cat "$TEST_DIR/v2.out")"
fi
cat "$TEST_DIR/v2.out"
grep -q '^FAIL: mm_compaction_proactive_end: a hole of 4 bytes before migrate_scanned (offset 24, the field before ends at 20)$' "$TEST_DIR/v2.out" ||
	fail "v2: the hole before migrate_scanned is not named"
grep -q '^FAIL: mm_compaction_proactive_end: the last field, outcome, ends at 44, .* 4 bytes of tail padding$' "$TEST_DIR/v2.out" ||
	fail "v2: the tail padding after outcome is not named"
echo "ok: v2's layout fails, with its hole and its tail padding"

# Only the tail: v3's fields with free_scanned shrunk to 4 bytes (ends at 36)
sed 's/free_scanned;\toffset:32;\tsize:8;/free_scanned;\toffset:32;\tsize:4;/' "$fx/proactive-end-format-v3" > "$TEST_DIR/tail"
! cmp -s "$TEST_DIR/tail" "$fx/proactive-end-format-v3" || fail "could not make the tail-padding case"
if sh "$check" "$TEST_DIR/tail" > "$TEST_DIR/tail.out" 2>&1; then
	fail "a record ending at 36 with 8-byte fields passed: $(cat "$TEST_DIR/tail.out")"
fi
grep -q 'ends at 36, not a multiple of the record alignment 8' "$TEST_DIR/tail.out" || fail "tail padding: $(cat "$TEST_DIR/tail.out")"
echo "ok: tail padding alone fails"

status=0
sh "$check" "$fx/console-clean.log" > "$TEST_DIR/bad.out" 2>&1 || status=$?
[ "$status" = 2 ] || fail "a console log as a format file: status $status, want 2: $(cat "$TEST_DIR/bad.out")"
echo "ok: a file that is not a format file is an error (status 2)"
