# lab-tags: tools
# The project's C programs run in the guest: fragscore reads the guest's
# buddy allocator and reports, for a freshly booted guest whose free memory
# is still in large blocks, a low score on every node.
# shellcheck source=tests/lib/guest.sh
. /lab/tests/lib/guest.sh

"$LAB_BIN/fragscore" --zones | tee /tmp/score || fail "fragscore failed"
expect_eq "nodes scored" "$(grep -c '^node [0-9]* score' /tmp/score)" "$NODES"
high=$(awk '$1 == "node" && $3 == "score" && $4 > 20' /tmp/score)
[ -z "$high" ] || fail "high score on an idle guest: $high"
echo "ok: every node scores 20 or less"
