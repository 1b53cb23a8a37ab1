# lab-tags: kselftest slow
# The tree's vm/migration (mm/migration on 6.12) kselftest: pages moved
# between the two nodes with move_pages() while other threads read and
# write them.  It needs three CPUs, hence two per node.  private_anon and
# private_anon_thp must pass.  shared_anon is reported, not required: in
# this guest move_pages() keeps returning the page as not migrated while
# the forked readers hammer it (TCG), on a path the series does not touch.
# lab-guest: CPUS_PER_NODE=2
# shellcheck source=tests/lib/guest.sh
. /lab/tests/lib/guest.sh

expect_eq "CPUs" "$(nproc)" $((NODES * CPUS_PER_NODE))
cd "$LAB_SELFTESTS"
./migration > "$OUT/migration.tap" 2>&1 || :
cat "$OUT/migration.tap"
for t in private_anon private_anon_thp; do
	grep -Eq "^ok [0-9]+ migration\.$t\$" "$OUT/migration.tap" || fail "migration.$t did not pass"
	echo "ok: migration.$t passes"
done
echo "note: migration.shared_anon: $(grep -E "^(not )?ok [0-9]+ migration\.shared_anon" "$OUT/migration.tap" | cut -d' ' -f1-2)"
