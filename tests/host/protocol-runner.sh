# lab-tags: runner
# The protocol's runner (scripts/protocol.sh) on a fake launcher, which
# writes what the guest job would and acts on a script of events: a boot
# excluded by a (fragmentation) or b (lost events), a failed boot, a boot
# during which a detached process burns a host CPU (rule c).  Checked: bad
# settings are refused before anything is made; the knee is the highest
# swept rate below which every rate needed direct compaction in at most
# 5% of attempts, "none" and "all" included; each size's blocks hold
# every cell once, the pre-touch and co-located cells at the first size
# only, in the same order for the same seed; an excluded boot is kept and
# run again (BLOCKr1, ...), three times at most a cell; a failed boot
# leaves its console under failed/ and is run again, and a third failure
# stops the run, which then resumes without running a finished boot again.
# shellcheck source=tests/lib/host.sh
. "$(dirname "$0")/../lib/host.sh"

fake=$TEST_DIR/fake-lab-run.sh
cat > "$fake" <<'EOF'
#!/bin/sh
# A fake lab-run.sh: --keep KEEP JOB RUN NAME=value...
keep=$2 run=$4
shift 4
for a in "$@"; do export "${a?}"; done
mkdir -p "$run/out" "$keep"
echo "fake console" > "$run/console.log"
echo "fake machine" > "$run/machine"
echo "$DEMO_RUN $DEMO_DEFRAG" >> "$FAKE_LOG"
mode=${DEMO_RUN%%:*} exp=${DEMO_RUN#*:}
# The first line of FAKE_ACTIONS naming this DEMO_RUN is taken
act=$(awk -v r="$DEMO_RUN" '$1 == r { print $2; exit }' "$FAKE_ACTIONS")
if [ -n "$act" ]; then
	awk -v r="$DEMO_RUN" '$1 == r && !done { done = 1; next } { print }' "$FAKE_ACTIONS" > "$FAKE_ACTIONS.new"
	mv "$FAKE_ACTIONS.new" "$FAKE_ACTIONS"
fi
# A boot takes a second, so that the host's CPU time over it is
# measured in many clock ticks; "burn" keeps a host CPU busy meanwhile
# from a process that is not the boot's (setsid, not waited for)
case $act in
fail) echo "timeout: fake" > "$run/verdict"; exit 1 ;;
hang) echo $$ > "$FAKE_LOG.hung"; sleep 60 ;;
own)	# burnt by the boot's own child, waited for: not "other"
	sh -c 'e=$(($(date +%s) + 2)); while [ "$(date +%s)" -lt "$e" ]; do :; done' ;;
burn)	# burnt by a process the boot never waits for: not its own time
	rm -f "$run.burnt"
	# (a grandchild: the subshell ends at once, and init reaps it)
	( setsid sh -c 'e=$(($(date +%s) + 2)); while [ "$(date +%s)" -lt "$e" ]; do :; done; : > "$0"' "$run.burnt" & )
	while [ ! -e "$run.burnt" ]; do sleep 0.1; done ;;
*) sleep 1 ;;
esac
d=$keep/p$mode
mkdir -p "$d"
echo "demo: p$mode $exp: fake" > "$run/out/job.log"
[ "$act" != exclude-a ] || { echo "a: a node at 93 after 5 tries at fragmenting" > "$d/$exp-excluded"; echo "ok" > "$run/verdict"; exit 0; }
echo 0 > "$d/$exp-settle-overrun"
if [ "$act" = overrun ]; then echo 12 > "$d/$exp-overrun"; else echo 0 > "$d/$exp-overrun"; fi
case $exp in
count*)
	# FAKE_DIRECT_<MiB per node>: "RATE:PERCENT ...", the share of 100
	# attempts that needed direct compaction
	r=${exp#count}
	eval "direct=\${FAKE_DIRECT_$MEM_PER_NODE:-}"
	pct=$(echo "$direct" | tr ' ' '\n' | awk -F: -v r="$r" '$1 == r { print $2 }')
	# Paced at r a second: attempt i starts at its slot, i/r s in, or
	# at once if the run is behind.  FAKE_STALL ("MODE:EXP:DEFRAG")
	# makes attempt 10 of that boot take 11 s, and the run catch up.
	stall=0
	[ "${FAKE_STALL:-}" != "$DEMO_RUN:$DEMO_DEFRAG" ] || stall=1
	awk -v p="${pct:-0}" -v r="$r" -v s="$stall" 'BEGIN { t = 0
		for (i = 0; i < 100; i++) {
			st = i * 1e9 / r; if (st < t) st = t
			ns = s && i == 10 ? 11e9 : 500000
			printf "%.0f %.0f ok %d\n", st, ns, i < p ? 1 : 0; t = st + ns
		}
		print "outside", 0 }' > "$d/$exp-attempts"
	# (each allocation 500 us)
	awk 'BEGIN { for (i = 0; i < 100; i++) print 500000 }' > "$d/$exp-samples-ns" ;;
esac
echo "ok" > "$run/verdict"
EOF
chmod +x "$fake"

export PROTO_LAB_RUN="$fake" FAKE_LOG="$TEST_DIR/log" FAKE_ACTIONS="$TEST_DIR/actions"
export LAB_ROOT="$top" LAB_RUNS="$TEST_DIR/runs" KVER=mainline NODES=2 CPUS_PER_NODE=1 DEMO_SETTLE=30 DEMO_TIMEOUT=900
export DEMO_PRETOUCH_PCT=80 PROTO_SWEEP=5,10,20,50 PROTO_KNEE_PCT=5 PROTO_BOOTS=2 PROTO_LONG_BOOTS=1
export PROTO_SEED=7 PROTO_HOST_PCT=50 PROTO_RETRIES=2 PROTO_SIZES=256,512
proto() { sh "$scripts/protocol.sh" "$TEST_DIR/$1" "$TEST_DIR/$1.bulk" > "$TEST_DIR/$1.out" 2>&1; }
expect_eq() {	# WHAT GOT WANT
	[ "$2" = "$3" ] || fail "$1: got '$2', want '$3'"
}

# ---- Bad settings: refused, nothing made
for bad in PROTO_SIZES=256,,512 PROTO_SWEEP=5,x PROTO_BOOTS=0 PROTO_SEED=-3 KVER=6.12 CPUS_PER_NODE=2 PROTO_KNEE_PCT=; do
	st=0
	env "$bad" sh "$scripts/protocol.sh" "$TEST_DIR/bad" "$TEST_DIR/bad.bulk" > "$TEST_DIR/bad.out" 2>&1 || st=$?
	[ "$st" = 2 ] || fail "$bad: exit $st, want 2: $(cat "$TEST_DIR/bad.out")"
	[ ! -e "$TEST_DIR/bad" ] && [ ! -e "$TEST_DIR/bad.bulk" ] || fail "$bad: made $TEST_DIR/bad or bad.bulk"
	grep -q "^protocol: ${bad%%=*}=" "$TEST_DIR/bad.out" || fail "$bad: the message does not name it: $(cat "$TEST_DIR/bad.out")"
	echo "ok: $bad refused: $(head -1 "$TEST_DIR/bad.out")"
done

# ---- A whole run, with every kind of event
# 256 MiB: the knee is 10 (20 needs 7%, though 50 needs only 2%); one
# boot of the sweep fails once; one has a host CPU burnt (c); the boots
# at 3 a second (0.25 x 10, rounded) lose events (b) until their cell's
# three reruns are used.  512 MiB: every swept rate qualifies: 50, "all".
printf '%s\n' "20:count20 fail" "20:count10 burn" "20:count50 exclude-a" "20:count5 own" "0:count3 overrun" "0:count3 overrun" "0:count3 overrun" \
	"0:count3 overrun" "0:count3 overrun" "0:count3 overrun" "0:count3 overrun" "0:count3 overrun" > "$FAKE_ACTIONS"
export FAKE_DIRECT_256="5:0 10:5 20:7 50:2" FAKE_DIRECT_512="5:0 10:1 20:2 50:5" FAKE_STALL=20:count10:0
proto run1 || fail "the run failed: $(tail -3 "$TEST_DIR/run1.out")"
res=$(ls -d "$TEST_DIR"/run1/protocol-[0-9]*)
expect_eq "256 MiB sweep" "$(paste -sd' ' "$res/sweep-256")" "5 0 10 5 20 7 50 2"
expect_eq "256 MiB knee" "$(cat "$res/knee-256")" "10 knee"
expect_eq "512 MiB knee" "$(cat "$res/knee-512")" "50 all"
echo "ok: the knee: 10 at 256 MiB (20 broke the run of rates), 50 and all at 512"

bulk=$TEST_DIR/run1.bulk/$(basename "$res")
grep -q "^timeout: fake" "$bulk/256/failed/sweep-r20-1-1/verdict" || fail "the failed boot's verdict is not kept under failed/"
[ -s "$bulk/256/failed/sweep-r20-1-1/console.log" ] || fail "the failed boot's console is not kept"
expect_eq "the record's list of failed boots" "$(cat "$res/failed-256")" "sweep-r20 1 1 timeout: fake"
[ -s "$bulk/256/sweep-r20/1/console.log" ] && [ ! -e "$res/256/sweep-r20/1/console.log" ] ||
	fail "a boot's console log is not in the bulk folder alone"
[ -e "$res/256/sweep-r20/1/done" ] || fail "the failed boot was not run again"
echo "ok: a failed boot is kept under failed/ and run again"

grep -q "^c: " "$res/256/sweep-r10/1/excluded" || fail "the boot with a CPU burnt is not excluded by c: $(cat "$res/256/sweep-r10/1/host-cpu")"
[ -e "$res/256/sweep-r10/1r1/done" ] || fail "the boot excluded by c was not run again"
[ ! -e "$res/256/sweep-r10/1r1/excluded" ] || fail "the rerun of sweep-r10 was excluded: $(cat "$res/256/sweep-r10/1r1/excluded")"
echo "ok: rule c: $(cat "$res/256/sweep-r10/1/host-cpu"): excluded and run again"
[ ! -e "$res/256/sweep-r5/1/excluded" ] || fail "the boot that burnt a CPU in its own process was excluded: $(cat "$res/256/sweep-r5/1/excluded")"
echo "ok: rule c: a boot's own CPU is not other: $(cat "$res/256/sweep-r5/1/host-cpu")"
grep -q "^a: " "$res/256/sweep-r50/1/excluded" || fail "the boot the guest excluded (a) is not excluded"
[ -e "$res/256/sweep-r50/1r1/done" ] || fail "the boot excluded by a was not run again"
echo "ok: rule a: the guest's exclusion kept, and the boot run again"

# The cells at 3 a second: p0-d0-x0.25 and p0-d1-x0.25, the first two of
# them in the plan's order lose events: boot 1, then reruns 1r1 1r2 1r3
# of the first cell; the second's boot, whose reruns ...
excl=$(find "$res/256" -name excluded -path '*x0.25*' -exec grep -l '^b: 12 events lost' {} + | grep -c . || :)
for c in p0-d0-x0.25 p0-d1-x0.25; do
	r=$(find "$res/256/$c" -mindepth 1 -maxdepth 1 -type d -name '*r[0-9]*' | grep -c . || :)
	[ "$r" -le 3 ] || fail "$c: $r reruns, more than three"
done
grep -q "three reruns are used" "$TEST_DIR/run1.out" || fail "no cell reached its cap of three reruns: $(grep excluded "$TEST_DIR/run1.out")"
[ "$excl" -ge 4 ] || fail "only $excl boots excluded by b"
echo "ok: rule b: $excl boots excluded, run again three times at most a cell"

# Blocks: every cell once per block, pre-touch and co-located at 256 only
for s in 256 512; do
	awk '!/^long-/ { n[$1]++ } END { for (c in n) if (n[c] != 2) { print "cell " c " in " n[c] " blocks"; bad = 1 }; exit bad }' "$res/plan-$s" ||
		fail "$s MiB: a cell not once per block"
done
expect_eq "256 MiB cells" "$(grep -v '^long-' "$res/plan-256" | cut -d' ' -f1 | sort -u | grep -c .)" 16
expect_eq "512 MiB cells" "$(cut -d' ' -f1 "$res/plan-512" | sort -u | grep -c .)" 12
expect_eq "long compactions" "$(grep '^long-' "$res/plan-256" | sort | paste -sd' ' -)" "long-icount 1 long-tcg 1"
grep -q "accel=icount" "$res/256/long-icount/1/cell" || fail "the icount arm's boot did not run under icount"
grep -q "^DEMO_RUN=20:count10 " "$res/256/long-tcg/1/cell" || fail "the long compactions do not run at the knee"
expect_eq "p20-d1-x0.5's settings at 512 MiB" "$(cat "$res/512/p20-d1-x0.5/2/cell")" "DEMO_RUN=20:count25 DEMO_DEFRAG=1 DEMO_PROTOCOL=1 accel=tcg"
echo "ok: each size's blocks hold every cell once; pre-touch and co-located at 256 MiB only; both arms of the long compactions"

# ---- A finished run boots nothing again
: > "$FAKE_LOG"
proto run1 || fail "the finished run, again, failed"
[ ! -s "$FAKE_LOG" ] || fail "the finished run booted again: $(head -3 "$FAKE_LOG")"
echo "ok: a finished run boots nothing again"

# ---- A boot that fails three times stops the run, which resumes there;
# no rate qualifies: the knee is the lowest, "none"; the same seed draws
# the same order
: > "$FAKE_LOG"
printf '%s\n' "20:count5 fail" "20:count5 fail" "20:count5 fail" > "$FAKE_ACTIONS"
st=0
PROTO_SIZES=256 FAKE_DIRECT_256="5:9" proto run2 || st=$?
[ "$st" = 1 ] || fail "three failures of a boot: exit $st, want 1"
grep -q "resumes here" "$TEST_DIR/run2.out" || fail "the stop does not say how to resume"
expect_eq "boots tried" "$(grep -c . "$FAKE_LOG")" 3
: > "$FAKE_LOG"
PROTO_SIZES=256 FAKE_DIRECT_256="5:9" proto run2 || fail "the resumed run failed: $(tail -3 "$TEST_DIR/run2.out")"
res2=$(ls -d "$TEST_DIR"/run2/protocol-[0-9]*)
expect_eq "the resumed run's first boot" "$(head -1 "$FAKE_LOG")" "20:count5 0"
expect_eq "knee when no rate qualifies" "$(cat "$res2/knee-256")" "5 none"
cmp -s "$res2/plan-256" "$res/plan-256" || fail "the same seed drew another order at 256 MiB"
echo "ok: three failures stop the run; it resumes at that boot; no rate qualifying gives 'none'; the seed fixes the order"

# ---- The report of the first run: the knee sweeps, every cell with its
# boots counted, kept and excluded apart
r=$res/report.md
[ -s "$r" ] || fail "no report.md"
grep -q '^The knee: `10 knee`' "$r" || fail "the report does not give 256 MiB's knee: $(grep -n knee "$r" | head -3)"
grep -q '^The knee: `50 all`' "$r" || fail "the report does not give 512 MiB's knee"
row=$(grep '^| p0-d0-x0.25 |' "$r" | head -1)
kept=$(find "$res/256/p0-d0-x0.25" -mindepth 1 -maxdepth 1 -type d | while read -r b; do [ -e "$b/excluded" ] || echo "$b"; done | grep -c . || :)
excl=$(find "$res/256/p0-d0-x0.25" -name excluded | grep -c . || :)
expect_eq "the report's p0-d0-x0.25 row: rate, n, excluded" "$(echo "$row" | awk -F'|' '{ gsub(/ /, ""); print $3, $4, $5 }')" "3 $kept $excl"
expect_eq "metrics.csv rows" "$(($(grep -c . "$res/metrics.csv") - 1))" "$(find "$res" -name 'done' | grep -c .)"
# The pooled percentiles take every kept boot's 100 allocations
row=$(awk '/^Pooled/ { p = 1 } /^kcompactd/ { p = 0 } p && /^\| p0-d0-x0.25 \|/' "$r" | head -1)
expect_eq "the pooled row of p0-d0-x0.25: allocations, p50" "$(echo "$row" | awk -F' *[|] *' '{ print $3, $4 }')" "$((kept * 100)) 500 [500, 500]"
# Every boot of the first size's count cells has its row; the failed boot is listed
n256=$(find "$res/256" -name 'done' | while read -r d; do grep -q count "${d%/*}/cell" && echo "$d"; done | grep -c .)
rows=$(awk '/^## 256 MiB/ { s = 1 } /^## 512 MiB/ { s = 0 } s && /^### .* each boot.s run$/ { e = 1 } e && /^### .* failed boots$/ { e = 0 } s && e && /^\| [a-z]/ && !/^\| cell /' "$r" | grep -c .)
expect_eq "256 MiB: the rows of every boot" "$rows" "$n256"
grep -q '^- `sweep-r20 1 1 timeout: fake`$' "$r" || fail "the report does not list the failed boot"
# The stalls and pacing of p20-d0-x1 (10 a second at 256 MiB), whose
# boots stall 11 s: counted again here from the kept boots' attempt logs
# (an attempt behind its slot started over a period after it)
# shellcheck disable=SC2046 # (the test's paths have no blanks)
set -- $(for b in "$res"/256/p20-d0-x1/*/; do [ -e "$b/excluded" ] || echo "$b"p20/count10-attempts; done)
[ $# -gt 0 ] || fail "no kept boot of p20-d0-x1 at 256 MiB"
want=$(awk -v n=$# 'FNR == 1 { first = $1; k = 0 } $3 == "ok" || $3 == "fail" {
		if ($2 > 1e9) o1[FILENAME] = 1; if ($2 > 1e10) o10[FILENAME] = 1; if ($2 / 1e9 > max) max = $2 / 1e9
		behind = $1 - first > (k + 1) * 1e8; b[FILENAME] += behind; a[FILENAME]++
		if (!behind) { on[FILENAME]++; direct[FILENAME] += $4 > 0 } k++ }
	END { for (f in a) { nb += 100 * b[f] / a[f]; nd += 100 * (on[f] - direct[f]) / on[f]; c1 += o1[f]; c10 += o10[f] }
		printf "%d %d %d %d %.1f %.1f %.1f", n, n, c1, c10, max, nb / n, nd / n }' "$@")
got=$(awk '/^## 256 MiB/ { s = 1 } /^## 512 MiB/ { s = 0 } s && /^\| cell \| rate \/s \| boots \|/ { t++ } s && t == 1 && /^\| p20-d0-x1 \|/ { print; exit }' "$r" |
	awk -F' *[|] *' '{ split($10, m, " "); split($12, d, " "); print $4, $5, $7, $8, $9, m[1], d[1] }')
# (each boot needed direct compaction in 5% of its attempts: all met the knee's criterion)
expect_eq "256 MiB: p20-d0-x1's stalls: boots, met the knee's criterion, over 1 s, over 10 s, longest s, % behind, on-slot share" "$got" "$want"
echo "$want" | awk '{ exit !($3 > 0 && $6 > 0) }' || fail "the stalled boots show no stall: $want"
echo "ok: 256 MiB: p20-d0-x1's stalls: $want"
# the knee's rate again: every kept boot at 10 a second needed direct
# compaction in 5% of its attempts, which meets the criterion
n=$(for b in "$res"/256/p20-d0-x1/*/ "$res"/256/long-tcg/*/; do [ -e "$b/excluded" ] || echo "$b"; done | grep -c .)
grep -q "^The knee.s rate again, in the kept boots of p20-d0-x1 and long-tcg (proactiveness 20, defrag_mode 0, 10/s, TCG): $n of $n met the knee.s criterion" "$r" ||
	fail "the knee's rate again: $(grep -n 'rate again' "$r" | head -2)"
# Each boot recorded the run's identity as it began, and the report says so
lab=$(sed -n 's/.* \(lab=[0-9]*\).*/\1/p' "$res/settings")
[ -n "$lab" ] || fail "the run's settings have no identity: $(cat "$res/settings")"
nd=$(find "$res" -name 'done' | grep -c .)
expect_eq "the boots that recorded the run's identity" "$(find "$res" -name ident -exec cat {} + | grep -cx "$lab")" "$nd"
grep -q "  $nd of the $nd boots recorded their identity as they began, each the run's\.$" "$r" ||
	fail "the report's identity line: $(sed -n 3p "$r")"
echo "ok: the report: both knees, the cells' n kept and excluded apart, a metrics row per boot, pooled percentiles, every boot, the failed boot, the stalls, the identities"

# ---- A SIGTERM to the runner stops the boot in progress at once; the
# run resumes at that boot
: > "$FAKE_LOG"
printf '%s\n' "20:count5 hang" > "$FAKE_ACTIONS"
rm -f "$FAKE_LOG.hung"
PROTO_SIZES=128 FAKE_DIRECT_128="5:0" sh "$scripts/protocol.sh" "$TEST_DIR/run3" "$TEST_DIR/run3.bulk" > "$TEST_DIR/run3.out" 2>&1 &
runner=$!
i=0
while [ ! -s "$FAKE_LOG.hung" ]; do
	i=$((i + 1)); [ "$i" -lt 100 ] || fail "the hanging boot did not start"
	sleep 0.1
done
hung=$(cat "$FAKE_LOG.hung")
t0=$(date +%s)
kill -TERM "$runner"
st=0
wait "$runner" || st=$?
expect_eq "the runner's exit on SIGTERM" "$st" 130
[ $(($(date +%s) - t0)) -lt 10 ] || fail "the runner took $(($(date +%s) - t0)) s to stop"
sleep 0.5
# (a zombie that its new parent has not reaped yet is not running)
case $(ps -o stat= -p "$hung" 2>/dev/null) in
'' | Z*) ;;
*) kill "$hung"; fail "the boot in progress still runs after the runner stopped: $(ps -o pid=,stat=,args= -p "$hung")" ;;
esac
grep -q "resumes" "$TEST_DIR/run3.out" || fail "the interrupted runner does not say how to resume"
: > "$FAKE_LOG"
PROTO_SIZES=128 FAKE_DIRECT_128="5:0" proto run3 || fail "the resumed run failed: $(tail -3 "$TEST_DIR/run3.out")"
expect_eq "the resumed run's first boot" "$(head -1 "$FAKE_LOG")" "20:count5 0"
echo "ok: SIGTERM stops the runner and its boot at once; the run resumes at that boot"

