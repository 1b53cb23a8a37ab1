# lab-tags: series debug
# trace-cmd records the compaction events in the guest; the trace goes back
# to the host, where trace-kcompactd.host reads it.  kcompactd wakes every
# 500 ms while proactiveness is non-zero, so a few seconds show every node.
# shellcheck source=tests/lib/guest.sh
. /lab/tests/lib/guest.sh

trace-cmd record -q -e compaction -o /root/trace.dat sleep 3 ||
	fail "trace-cmd record failed"
cp /root/trace.dat "$OUT/trace.dat"
echo "ok: recorded $(stat -c %s "$OUT/trace.dat") bytes"
