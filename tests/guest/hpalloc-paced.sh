# lab-tags: tools
# The latency driver's pacing, which make demo's paced runs and make
# demo-quick's rate sweep use: with rate=R seconds=S, a run on
# unfragmented memory makes R*S attempts, all successful, attempt k no
# earlier than k/R seconds in; with a page limit it stops at the limit;
# an unpaced run with seconds=S ends by itself; bad
# parameters are refused by the driver's run file.
# shellcheck source=tests/lib/guest.sh
. /lab/tests/lib/guest.sh

hpalloc_load rate=50 seconds=2
trap hpalloc_stop EXIT
expect_eq "rate parameter" "$(hpalloc_param rate)" 50
expect_eq "seconds parameter" "$(hpalloc_param seconds)" 2

# run LIMIT: one run; prints its wall time in ms
run() {
	local t0 t1
	t0=$(date +%s%N)
	hpalloc_run "$1"
	t1=$(date +%s%N)
	echo $(((t1 - t0) / 1000000))
}

ms=$(run 0)
expect_eq "attempts at 50/s for 2 s (successes)" "$(hpalloc_count samples)" 100
expect_eq "failed attempts" "$(hpalloc_count failures)" 0
# The last attempt's slot is 99/50 s = 1980 ms in
[ "$ms" -ge 1980 ] || fail "100 paced attempts took $ms ms, before the last one's slot (1980 ms)"
echo "ok: the paced run took $ms ms (last slot at 1980 ms)"

ms=$(run 10)
expect_eq "a paced run with a limit of 10" "$(hpalloc_count samples)" 10
[ "$ms" -ge 180 ] || fail "10 paced attempts took $ms ms, before the last one's slot (180 ms)"
echo "ok: 10 paced attempts took $ms ms (last slot at 180 ms)"

# Unpaced, limited to 1 s: it ends by itself.  Also limited to half of
# free memory in huge pages: unbounded, a fast guest fills its memory
# within the second, the driver keeps what it allocated until the next
# run, and the OOM killer ends the test's shell.
limit=$(awk '$1 == "MemFree:" { print int($2 / 2048 / 2) }' /proc/meminfo)
hpalloc_set rate 0
hpalloc_set seconds 1
ms=$(run "$limit")
n=$(hpalloc_count samples)
[ "$n" -gt 0 ] || fail "an unpaced run of 1 s allocated nothing"
if [ "$n" -lt "$limit" ]; then
	[ "$ms" -ge 1000 ] || fail "an unpaced run of 1 s ended after $ms ms, below its limit ($n of $limit)"
	echo "ok: an unpaced run of 1 s ended by itself after $ms ms, $n huge pages (limit $limit)"
else
	echo "ok: an unpaced run of 1 s ended at its limit of $limit huge pages, after $ms ms"
fi

hpalloc_run x 2>/dev/null && fail "the run file took 'x'"
echo "ok: the run file refuses 'x'"
