# lab-tags: tools
# The latency driver's pacing, which make demo's rate sweep uses: with
# rate=R seconds=S, a run on unfragmented memory makes R*S attempts, all
# successful, attempt k no earlier than k/R seconds in; with a page limit it
# stops at the limit; an unpaced run with seconds=S ends by itself; bad
# parameters are refused by the driver's run file.
. /lab/tests/lib/guest.sh

d=/sys/kernel/debug/lab_hpalloc
p=/sys/module/lab_hpalloc/parameters
insmod "$LAB_MODULES/lab_hpalloc.ko" rate=50 seconds=2
trap 'rmmod lab_hpalloc 2>/dev/null || :' EXIT
expect_eq "rate parameter" "$(cat $p/rate)" 50
expect_eq "seconds parameter" "$(cat $p/seconds)" 2

# run LIMIT: one run; prints its wall time in ms
run() {
	local t0 t1
	t0=$(date +%s%N)
	echo "$1" > $d/run
	t1=$(date +%s%N)
	echo $(((t1 - t0) / 1000000))
}

ms=$(run 0)
expect_eq "attempts at 50/s for 2 s (successes)" "$(grep -c . $d/samples)" 100
expect_eq "failed attempts" "$(grep -c . $d/failures || :)" 0
# The last attempt's slot is 99/50 s = 1980 ms in
[ "$ms" -ge 1980 ] || fail "100 paced attempts took $ms ms, before the last one's slot (1980 ms)"
echo "ok: the paced run took $ms ms (last slot at 1980 ms)"

ms=$(run 10)
expect_eq "a paced run with a limit of 10" "$(grep -c . $d/samples)" 10
[ "$ms" -ge 180 ] || fail "10 paced attempts took $ms ms, before the last one's slot (180 ms)"
echo "ok: 10 paced attempts took $ms ms (last slot at 180 ms)"

# Unpaced, limited to 1 s: it ends, at 1 s or when memory runs out
echo 0 > $p/rate
echo 1 > $p/seconds
run 0 > /dev/null
n=$(grep -c . $d/samples)
[ "$n" -gt 0 ] || fail "an unpaced run of 1 s allocated nothing"
echo "ok: an unpaced run of 1 s ended by itself, $n huge pages"

echo x > $d/run 2>/dev/null && fail "the run file took 'x'"
echo "ok: the run file refuses 'x'"
