# lab-tags: series
# Compaction moves pages and must never change them.  pagecheck fills half
# of free memory with checksummed base pages, fragments it three times and,
# each time, has compaction migrate what is left (proactiveness 100 until
# kcompactd settles, then a write of compact_memory) while it re-reads every
# page; then verifies them all.  Private anonymous memory first, then
# shared (shmem) memory.  hugetlbfs is not covered: 6.1 compaction migrates
# hugetlb pages only for alloc_contig_range(), never for compaction's own
# sake.  Each kind must verify with 0 mismatches and migrate at least
# 100,000 pages (pgmigrate_success).
# shellcheck source=tests/lib/guest.sh
. /lab/tests/lib/guest.sh

# The command pagecheck runs each cycle: the migration it checks.
compact_cycle() {
	local end
	set_proactiveness 100
	end=$((SECONDS + 10))		# up to 10 s for kcompactd to settle (a try takes 1.5 s)
	until settled || [ "$SECONDS" -ge "$end" ]; do
		sleep 0.2
	done
	echo 1 > /proc/sys/vm/compact_memory
	set_proactiveness 0
}
as_command compact_cycle
set_proactiveness 0

for kind in private shared; do
	flag=
	[ $kind = shared ] && flag=--shared
	before=$(vmstat pgmigrate_success)
	"$LAB_BIN/pagecheck" --percent 50 --cycles 3 $flag -- "${COMMAND[@]}" | tee "$OUT/pagecheck-$kind.log" ||
		fail "$kind: pagecheck found changed pages (or could not run)"
	migrated=$(($(vmstat pgmigrate_success) - before))
	verified=$(pagecheck_total "$OUT/pagecheck-$kind.log" pages_verified)
	mismatches=$(pagecheck_total "$OUT/pagecheck-$kind.log" mismatches)
	expect_eq "$kind: mismatching pages" "$mismatches" 0
	[ "$migrated" -ge 100000 ] || fail "$kind: only $migrated pages migrated (want >= 100000): the test did not exercise migration"
	echo "ok: $kind: $verified page verifications, 0 mismatches, $migrated pages migrated"
done
set_proactiveness 20
