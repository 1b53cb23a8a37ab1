#!/bin/sh
# Boot the lab guest once in QEMU and judge the run.
#
#   run-guest.sh RUNDIR < JOB       run JOB (bash, read from stdin) in the
#                                   guest; console in RUNDIR/console.log,
#                                   verdict in RUNDIR/verdict (see verdict())
#   run-guest.sh --shell RUNDIR     root shell on the console; when stdin is
#                                   not a terminal, run what it reads instead
#
# Every job reaches the guest this one way: a guest test or a guest job
# (tests/guest/, tests/guest/jobs/) is run by the one-line job
# "exec bash /lab/PATH", the project being /lab in the guest.
#
# A job run fails, whatever the job said, when the console shows a kernel
# splat (console-verdict.sh), when the guest does not finish the job (panic,
# hang, timeout) or when the job exits non-zero.  The verdict names its kind
# first and the log last; the exit status is 0 only for "ok".
#
# This is the launcher's boot-and-judge stage: jobs are run with
# lab-run.sh, which reads their headers and calls this; make shell calls it
# directly.
#
# Settings come from the environment (the Makefile is the one place that
# defines them): LAB_KERNEL LAB_IMAGE LAB_ROOT NODES CPUS_PER_NODE
# MEM_PER_NODE DIMM_PER_NODE ACCEL QEMU_CPU TIMEOUT QEMU, optional EXTRA_CMDLINE, and
# the guest library's environment (JOB_BASE_ENV in lib/job.sh), which every
# job gets.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=scripts/lib/job.sh
. "$here/lib/job.sh"
mode=job
if [ "${1:-}" = --shell ]; then mode=shell; shift; fi
[ $# -eq 1 ] || { echo "usage: run-guest.sh [--shell] RUNDIR < JOB" >&2; exit 2; }
run=$1

: "${LAB_KERNEL:?}" "${LAB_IMAGE:?}" "${LAB_ROOT:?}" "${TIMEOUT:?}"
: "${NODES:?}" "${CPUS_PER_NODE:?}" "${MEM_PER_NODE:?}" "${DIMM_PER_NODE:?}" "${ACCEL:?}" "${QEMU:?}"
: "${QEMU_CPU:?}"

# The accelerator.  icount is the repeatable mode (Documentation/testing.md,
# "The repeatable mode"): TCG with one vCPU whose clock counts instructions
# (shift=1: 2 ns each), so that guest time does not follow the host's load;
# node 0 holds the vCPU and the other nodes are memory only, because QEMU's
# icount stalls at the bring-up of a second vCPU.
case $ACCEL in
tcg|kvm)
	accel=$ACCEL
	vcpus=$((NODES * CPUS_PER_NODE)) ;;
icount)
	[ "$CPUS_PER_NODE" -eq 1 ] || {
		echo "run-guest: ACCEL=icount boots one vCPU (node 0's); CPUS_PER_NODE=$CPUS_PER_NODE needs ACCEL=tcg" >&2
		exit 2
	}
	accel="tcg -icount shift=1,sleep=off"
	vcpus=1 ;;
*)
	echo "run-guest: ACCEL=$ACCEL: want tcg, icount or kvm" >&2
	exit 2 ;;
esac

rm -rf "$run"
mkdir -p "$run/out"
run=$(cd "$run" && pwd)
log=$run/console.log

# The job: the guest library's environment (the shape as booted, the
# tree, the lab's guest paths), quoted, then what stdin holds.
write_job() {
	{
		for name in $JOB_BASE_ENV; do
			eval ": \"\${$name:?}\""
			env_line "$name"
		done
		cat
	} > "$run/out/job"
}
# What was booted, for reports: one line
echo "$NODES nodes x $MEM_PER_NODE MiB, $vcpus vCPU in all, $DIMM_PER_NODE MiB DIMM each, QEMU -accel $accel -cpu $QEMU_CPU" > "$run/machine"

interactive=no
if [ "$mode" = shell ] && [ -t 0 ]; then
	interactive=yes
elif [ "$mode" = shell ]; then
	mode=job			# commands from a pipe: run them as the job
	write_job
	console="-chardev stdio,id=con,logfile=$log"
else
	write_job
	console="-chardev file,id=con,path=$log"
fi

cmdline="console=ttyS0,115200 root=/dev/vda rw rootfstype=ext4 init=/sbin/lab-init"
cmdline="$cmdline loglevel=5 printk.time=1 panic=-1 oops=panic sysrq_always_enabled"
cmdline="$cmdline rcupdate.rcu_cpu_stall_timeout=100 lab.mode=$mode"
if [ "$interactive" = yes ]; then
	size=$(stty size 2>/dev/null || echo "24 80")
	cmdline="$cmdline lab.rows=${size% *} lab.cols=${size#* }"
	# Ctrl-A x leaves QEMU; Ctrl-C goes to the guest.
	console="-chardev stdio,id=con,mux=on,signal=off,logfile=$log -mon chardev=con,mode=readline"
fi
# Under TCG a vCPU sometimes crawls for seconds (about a page a second,
# against 40 us normally) while it writes to the pages freed from the
# kernel image's rodata/data gap; seen up to 23 s, with no steal time on
# the host.  The soft-lockup detector (2 x watchdog_thresh) is raised past
# that: a real lockup still fails the run, a minute in.
[ "$ACCEL" = kvm ] || cmdline="$cmdline watchdog_thresh=30"
# Hot-pluggable memory goes to ZONE_MOVABLE, so that it can be offlined.
[ "$DIMM_PER_NODE" -eq 0 ] || cmdline="$cmdline memhp_default_state=online_movable"
cmdline="$cmdline ${EXTRA_CMDLINE:-}"

# The boot memory, and slots for the DIMMs (QEMU refuses slots without
# room for them).
mem=$((NODES * MEM_PER_NODE))M
[ "$DIMM_PER_NODE" -eq 0 ] ||
	mem="$mem,slots=$NODES,maxmem=$((NODES * (MEM_PER_NODE + DIMM_PER_NODE)))M"

# The QEMU command line, built in "$@".
# shellcheck disable=SC2086 # $accel is the accelerator and its options
set -- "$QEMU" -accel $accel -machine q35 -cpu "$QEMU_CPU" \
	-nodefaults -no-user-config -display none -no-reboot -m "$mem"
if [ "$ACCEL" = icount ]; then
	set -- "$@" -smp 1
else
	set -- "$@" -smp "$vcpus,sockets=$NODES,cores=$CPUS_PER_NODE,threads=1"
fi
[ -r /usr/share/qemu/qboot.rom ] && set -- "$@" -bios /usr/share/qemu/qboot.rom
n=0
# One socket per node: CPUs that share a last-level cache on two nodes make
# the scheduler WARN at boot (topology_sane()).
while [ "$n" -lt "$NODES" ]; do		# node n: its memory and its CPUs
	first=$((n * CPUS_PER_NODE))
	cpus=",cpus=$first-$((first + CPUS_PER_NODE - 1))"
	[ "$ACCEL" != icount ] || [ "$n" -eq 0 ] || cpus=
	set -- "$@" -object "memory-backend-ram,id=mem$n,size=${MEM_PER_NODE}M" \
		-numa "node,nodeid=$n$cpus,memdev=mem$n"
	# its hot-pluggable memory: a DIMM plugged before boot, which the
	# kernel adds through ACPI like one plugged later
	[ "$DIMM_PER_NODE" -eq 0 ] ||
		set -- "$@" -object "memory-backend-ram,id=dimm$n,size=${DIMM_PER_NODE}M" \
			-device "pc-dimm,id=pc-dimm$n,memdev=dimm$n,node=$n"
	n=$((n + 1))
done
set -- "$@" -kernel "$LAB_KERNEL" -append "$cmdline" \
	-drive "file=$LAB_IMAGE,if=virtio,format=raw,snapshot=on" \
	-fsdev "local,id=lab,path=$LAB_ROOT,security_model=none,readonly=on" \
	-device virtio-9p-pci,fsdev=lab,mount_tag=lab \
	-fsdev "local,id=out,path=$run/out,security_model=none" \
	-device virtio-9p-pci,fsdev=out,mount_tag=out \
	-serial chardev:con
# shellcheck disable=SC2086 # $console is a list of options
set -- "$@" $console

if [ "$interactive" = yes ]; then
	"$@" 2>"$run/qemu.err" || { cat "$run/qemu.err" >&2; exit 1; }
	exit 0
fi

qrc=0
# --foreground: QEMU stays in the caller's process group, so that an
# interrupt (Ctrl-C, a cancelled CI job) stops it with the caller.
timeout --foreground -k 5 "$TIMEOUT" "$@" </dev/null 2>"$run/qemu.err" || qrc=$?

# The verdict: one line in RUNDIR/verdict, assembled here only, whose first
# word says what happened, for callers to match on:
#   ok          the job ran to its end and exited 0, and the console is clean
#   skip        the job ran to its end and exited 4 (it could not test what
#               it tests here: its reason follows), and the console is clean
#   splat       the console shows a kernel complaint (its line follows)
#   timeout     QEMU was killed after TIMEOUT seconds
#   qemu        QEMU itself failed
#   incomplete  the guest stopped before the job finished
#   job         the job exited non-zero (and not 4): its reason follows
# The exit status is 0 for ok, 4 for skip, 1 for the others.  The job's
# reason is what the guest library's fail or skip left in $OUT/why (else
# the job's last FAIL, SKIP or "not ok" line).  The runner prints nothing:
# the caller reports the verdict.
verdict() {	# KIND [WHAT]
	case $1 in
	ok) job_verdict "$run" ok ;;
	skip) job_verdict "$run" skip "$2" ;;
	*) job_verdict "$run" "$1" "$2 (log: $log)" ;;
	esac
	exit $?
}
[ -s "$log" ] || verdict qemu "no console output (status $qrc): $(head -c 300 "$run/qemu.err")"
if splat=$("$here/console-verdict.sh" "$log"); then :; else verdict splat "$splat"; fi
[ "$qrc" -ne 124 ] && [ "$qrc" -ne 137 ] || verdict timeout "killed after ${TIMEOUT}s"
[ "$qrc" -eq 0 ] || verdict qemu "exited with status $qrc: $(head -c 300 "$run/qemu.err")"
[ -s "$run/out/rc" ] || verdict incomplete "the guest stopped before the job finished"
rc=$(cat "$run/out/rc")
reason=$(job_reason "$run/out/why" "$run/out/job.log")
case $rc in
0) verdict ok ;;
4) verdict skip "$reason" ;;
*) verdict job "exited with status $rc${reason:+: $reason}" ;;
esac
