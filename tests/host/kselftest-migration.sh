# The tree's vm/migration kselftest: pages moved between the two nodes with
# move_pages() while other threads read and write them.  It needs three
# CPUs, so it boots a guest with two per node.  private_anon and
# private_anon_thp must pass.  shared_anon is reported, not required: in
# this guest move_pages() keeps returning the page as not migrated while
# the forked readers hammer it (TCG), on a path the series does not touch.
. "$(dirname "$0")/../lib/host.sh"

CPUS_PER_NODE=2 guest_run migration 'cd "$LAB_SELFTESTS" && { ./migration || :; }' ||
	fail "the guest run failed: $(cat "$TEST_DIR/migration/verdict")"
log=$TEST_DIR/migration/out/job.log
cat "$log"
for t in private_anon private_anon_thp; do
	grep -Eq "^ok [0-9]+ migration\.$t\$" "$log" || fail "migration.$t did not pass"
	echo "ok: migration.$t passes"
done
echo "note: migration.shared_anon: $(grep -E "^(not )?ok [0-9]+ migration\.shared_anon" "$log" | cut -d' ' -f1-2)"
