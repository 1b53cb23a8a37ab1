# lab-tags: tools
# scripts/trace-fields.sh, the field check of make kernelshark and of
# proactive-round's host side: it passes the two recordings made in the
# guest with the exact event counts, and fails, naming the event and field,
# when trace-cmd's formatted output shows a symbol other than the raw value's,
# drops a field, or when the file has no series event.
# shellcheck source=tests/lib/host.sh
. "$(dirname "$0")/../lib/host.sh"

tf=$scripts/trace-fields.sh
fx=$top/tests/host/fixtures
real=$(command -v trace-cmd) || fail "no trace-cmd"

expect_out() {	# WHAT WANT-GREP FILE
	grep -q "$2" "$3" || fail "$1: no '$2' in: $(cat "$3")"
	echo "ok: $1"
}

"$tf" "$fx/trace-round.dat" > "$TEST_DIR/round.out" 2>&1 || fail "trace-round.dat: $(cat "$TEST_DIR/round.out")"
expect_out "round: checks" "^ok: mm_compaction_proactive_check: 16 events, every field parsed: nid score low high decision(symbolic)$" "$TEST_DIR/round.out"
expect_out "round: ends" "^ok: mm_compaction_proactive_end: 2 events, every field parsed: nid score_before score_after outcome(symbolic) migrate_scanned free_scanned$" "$TEST_DIR/round.out"
"$tf" "$fx/trace-backoff.dat" > "$TEST_DIR/backoff.out" 2>&1 || fail "trace-backoff.dat: $(cat "$TEST_DIR/backoff.out")"
expect_out "backoff: ends" "^ok: mm_compaction_proactive_end: 4 events" "$TEST_DIR/backoff.out"

# A trace-cmd whose formatted report (not -R) is altered by SED.
shim() {
	mkdir -p "$TEST_DIR/shim"
	cat > "$TEST_DIR/shim/trace-cmd" <<SHIM
#!/bin/sh
if [ "\$1" = report ] && [ "\$2" != -R ]; then
	"$real" "\$@" | sed '$1'
else
	exec "$real" "\$@"
fi
SHIM
	chmod +x "$TEST_DIR/shim/trace-cmd"
}
bad() {	# WHAT SED WANT-GREP [FILE]
	shim "$2"
	if PATH=$TEST_DIR/shim:$PATH "$tf" "${4:-$fx/trace-round.dat}" > "$TEST_DIR/bad.out" 2>&1; then
		fail "$1: passed: $(cat "$TEST_DIR/bad.out")"
	fi
	expect_out "$1 fails" "$3" "$TEST_DIR/bad.out"
}
bad "a wrong symbol" 's/outcome=success/outcome=partial/' \
	'mm_compaction_proactive_end: outcome shows "partial", raw 0 gives "success"'
bad "a dropped field" 's/ low=80//' 'mm_compaction_proactive_check: 4 fields shown, 5 raw, 5 in the format'
bad "a changed number" 's/score_after=78/score_after=75/' 'mm_compaction_proactive_end: score_after shows "75", raw 78'
bad "no series event" 's/proactive_/other_/' 'no mm_compaction_proactive_check event in the file'
