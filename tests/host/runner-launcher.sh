# lab-tags: runner
# The launcher (lab-run.sh) on small guest jobs: a job that skips (exit 4)
# is a skip with its reason; a skip whose kernel WARNs is still a failure;
# a job whose required shape conflicts with a value the user gave is
# skipped unbooted; an argument the job does not declare fails it
# unbooted; a declared setting reaches the guest exactly, quotes and
# spaces included; and the host-side check's skip or failure is the job's.
# ACCEL=icount boots one vCPU on node 0 and memory-only nodes, and a shape
# it cannot boot, or an unknown accelerator, is refused before anything
# is touched.
# shellcheck source=tests/lib/host.sh
. "$(dirname "$0")/../lib/host.sh"

verdict() { cat "$TEST_DIR/$1/verdict"; }
expect_run() {	# NAME STATUS VERDICT-PREFIX
	[ "$st" = "$2" ] || fail "$1: status $st, want $2 ($(verdict "$1"))"
	case $(verdict "$1") in "$3"*) ;; *) fail "$1: verdict '$(verdict "$1")', want '$3...'" ;; esac
	echo "ok: $1: $(verdict "$1")"
}

st=0
guest_run skip '. /lab/tests/lib/guest.sh; skip "no frobnicator in this guest"' || st=$?
expect_run skip 4 "skip: no frobnicator in this guest"

st=0
guest_run warn-skip 'insmod $LAB_MODULES/lab_warn.ko; exit 4' || st=$?
expect_run warn-skip 1 "splat:"

st=0
LAB_GIVEN="NODES" NODES=1 guest_run shape '# lab-guest: NODES=2
true' || st=$?
expect_run shape 4 "skip: needs NODES=2, and NODES=1 was given"
[ ! -e "$TEST_DIR/shape/console.log" ] || fail "shape: booted a guest the user did not ask for"

st=0
guest_run undeclared 'true' FOO=1 || st=$?
expect_run undeclared 1 "header: FOO is given, but undeclared.job does not declare it in lab-env"
[ ! -e "$TEST_DIR/undeclared/console.log" ] || fail "undeclared: booted"

odd="two  spaces, 'quotes', \"double\", \$HOME and a; semicolon"
st=0
ODD=$odd guest_run quoting '# lab-env: ODD
printf "%s" "$ODD" > "$OUT/odd"' || st=$?
expect_run quoting 0 ok
[ "$(cat "$TEST_DIR/quoting/out/odd")" = "$odd" ] || fail "quoting: the guest saw '$(cat "$TEST_DIR/quoting/out/odd")'"

printf '%s\n' 'echo "SKIP: no host tool"; exit 4' > "$TEST_DIR/hc-skip.job.host"
st=0
guest_run hc-skip 'true' || st=$?
expect_run hc-skip 4 "skip: host-check: no host tool"
printf '%s\n' '[ -e "$1/mark" ] && echo "FAIL: the job left a mark"; exit 1' > "$TEST_DIR/hc-fail.job.host"
st=0
guest_run hc-fail 'touch "$OUT/mark"' || st=$?
expect_run hc-fail 1 "host-check: the job left a mark"

# The repeatable mode: one vCPU, on node 0; the other nodes memory only.
st=0
ACCEL=icount QEMU_CPU=qemu64 guest_run icount '. /lab/tests/lib/guest.sh
[ "$(nproc)" = 1 ] || fail "$(nproc) CPUs"
[ "$(cat /sys/devices/system/node/node0/cpulist)" = 0 ] || fail "node 0 has CPUs $(cat /sys/devices/system/node/node0/cpulist)"
for n in /sys/devices/system/node/node[1-9]*; do
	[ -z "$(cat "$n/cpulist")" ] || fail "${n##*/} has CPUs $(cat "$n/cpulist")"
done
[ "$(ls -d /sys/devices/system/node/node[0-9]* | wc -l)" = "$NODES" ] || fail "not $NODES nodes"' || st=$?
expect_run icount 0 ok
grep -q -- '-icount shift=1,sleep=off -cpu qemu64' "$TEST_DIR/icount/machine" ||
	fail "icount: booted $(cat "$TEST_DIR/icount/machine")"
# and what it cannot boot: refused, the run folder untouched
for bad in "ACCEL=icount CPUS_PER_NODE=2:boots one vCPU" "ACCEL=hvf:want tcg, icount or kvm"; do
	mkdir -p "$TEST_DIR/refused" && : > "$TEST_DIR/refused/mark"
	st=0
	# shellcheck disable=SC2046 # the settings, one word each
	env $(echo "${bad%%:*}") "$scripts/run-guest.sh" "$TEST_DIR/refused" </dev/null 2>"$TEST_DIR/refused.err" || st=$?
	[ "$st" = 2 ] || fail "${bad%%:*}: status $st, want 2"
	grep -q "${bad#*:}" "$TEST_DIR/refused.err" || fail "${bad%%:*}: said '$(cat "$TEST_DIR/refused.err")'"
	[ -e "$TEST_DIR/refused/mark" ] || fail "${bad%%:*}: the run folder was touched"
	echo "ok: ${bad%%:*} refused: $(cat "$TEST_DIR/refused.err")"
done
