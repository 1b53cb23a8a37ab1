# lab-tags: series
# Proactiveness 0 switches kcompactd's 500 ms timer off: on an idle guest,
# no check or round events and no kcompactd wake-up at all (not even
# mm_compaction_kcompactd_sleep) over 5 s.  The same recording at 20 shows
# both, so the zero is not an empty recording.
# shellcheck source=tests/lib/guest.sh
. /lab/tests/lib/guest.sh

set_proactiveness 20
trace_start
sleep 2
trace_stop enabled
checks=$(summary enabled checks) sleeps=$(summary enabled kcompactd_sleeps)
[ "$checks" -gt 0 ] && [ "$sleeps" -gt 0 ] || fail "at 20: $checks checks, $sleeps sleeps in 2 s"
echo "ok: at 20: $checks checks and $sleeps kcompactd sleeps in 2 s"

set_proactiveness 0
sleep 1		# the last 500 ms wait expires once more
trace_start
sleep 5
trace_stop disabled
expect_eq "check events at 0" "$(summary disabled checks)" 0
expect_eq "round events at 0" "$(summary disabled rounds)" 0
expect_eq "kcompactd wake-ups at 0" "$(summary disabled kcompactd_sleeps)" 0
