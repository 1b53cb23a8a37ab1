# lab-tags: series
# mm_compaction_proactive_end has no hole in its record (v3 of the series):
# tests/lib/event-layout.sh, the checker that host/end-event-layout shows
# failing on v2's layout, passes on the kernel's format file; the fields
# are nid, score_before, score_after, outcome, migrate_scanned,
# free_scanned at offsets 8, 12, 16, 20, 24, 32 with sizes 4, 4, 4, 4, 8, 8
# (x86-64), and printed in that order.  mm_compaction_proactive_check keeps
# its fields (nid, score, low, high, decision), also without a hole.
# shellcheck source=tests/lib/guest.sh
. /lab/tests/lib/guest.sh

expect_eq "architecture" "$(uname -m)" x86_64
ev=$TRACEFS/events/compaction
for e in mm_compaction_proactive_end mm_compaction_proactive_check; do
	[ -r "$ev/$e/format" ] || fail "no $ev/$e/format: a kernel without the series?"
	cp "$ev/$e/format" "$OUT/$e.format"
	sh /lab/tests/lib/event-layout.sh "$OUT/$e.format" | tee "$OUT/$e.layout" ||
		fail "$e: its record has a hole (see above)"
done
layout() { awk '$2 == "offset" { printf "%s%s@%s/%s", sep, $1, $3, $5; sep = " " }' "$OUT/$1.layout"; }
expect_eq "mm_compaction_proactive_end's fields (name@offset/size)" "$(layout mm_compaction_proactive_end)" \
	"nid@8/4 score_before@12/4 score_after@16/4 outcome@20/4 migrate_scanned@24/8 free_scanned@32/8"
expect_eq "mm_compaction_proactive_end's print format" \
	"$(sed -n 's/^print fmt: "\([^"]*\)".*/\1/p' "$OUT/mm_compaction_proactive_end.format")" \
	"nid=%d score_before=%u score_after=%u outcome=%s migrate_scanned=%lu free_scanned=%lu"
expect_eq "mm_compaction_proactive_check's fields (name@offset/size)" "$(layout mm_compaction_proactive_check)" \
	"nid@8/4 score@12/4 low@16/4 high@20/4 decision@24/4"
expect_eq "mm_compaction_proactive_check's print format" \
	"$(sed -n 's/^print fmt: "\([^"]*\)".*/\1/p' "$OUT/mm_compaction_proactive_check.format")" \
	"nid=%d score=%u low=%u high=%u decision=%s"
