#!/bin/sh
# Run one guest job: the one way a test, a demo or bench measurement, the
# stress run or any other guest job is run.
#
#   lab-run.sh [--keep DIR] JOB RUNDIR [NAME=value...]
#
# JOB is a bash script below LAB_ROOT (the guest sees the project as /lab)
# whose header (scripts/lib/job.sh) declares what it needs.  The launcher:
#  1. reads the header; an unknown key, a bad shape word or a NAME=value
#     argument the job does not declare in lab-env fails the job unbooted;
#  2. takes the declared shape, except that a shape setting the user gave
#     (on make's command line or in the environment: LAB_GIVEN) and the
#     job requires otherwise skips the job, saying both values;
#  3. writes the declared settings, quoted, into the job file, and boots
#     it in a guest of that shape for the declared timeout (run-guest.sh:
#     boot, console, typed verdict);
#  4. if the job passed and JOB.host (JOB without .sh) exists, runs it on
#     the host with the run's out folder as $1 and the booted shape in the
#     environment: its failure or its skip (exit 4) is the job's;
#  5. with --keep, copies the declared lab-collect entries of $OUT to DIR
#     (relative paths kept), whatever the result; a declared entry that
#     cannot be copied fails a run that had passed.
#
# The result is one line in RUNDIR/verdict, whose first word is its kind
# (ok, skip, or why it failed: see run-guest.sh, plus header, host-check
# and collect), and the exit status: 0 ok, 4 skip (as kselftest's), 1
# fail, 2 a usage error (no verdict).  Nothing is printed: the caller
# reports the result.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=scripts/lib/job.sh
. "$here/lib/job.sh"

usage() {
	echo "usage: lab-run.sh [--keep DIR] JOB RUNDIR [NAME=value...]" >&2
	exit 2
}
keep=
if [ "${1:-}" = --keep ]; then
	[ $# -ge 2 ] || usage
	mkdir -p "$2"
	keep=$(cd "$2" && pwd)
	shift 2
fi
[ $# -ge 2 ] || usage
job=$1 run=$2
shift 2
: "${LAB_ROOT:?}"
[ -f "$job" ] || { echo "lab-run.sh: no job $job" >&2; exit 2; }
job=$(cd "$(dirname "$job")" && pwd)/$(basename "$job")
case $job in
"$LAB_ROOT"/*) ;;
*) echo "lab-run.sh: $job is not below LAB_ROOT=$LAB_ROOT, so the guest cannot see it" >&2; exit 2 ;;
esac

rm -rf "$run"
mkdir -p "$run"
run=$(cd "$run" && pwd)

# result KIND [WHY]: the verdict, and exit with its status
result() {
	job_verdict "$run" "$@" && exit 0
	exit $?
}

# 1. The header
header=$(job_header "$job" 2>&1) || result header "$header"
shape=$(job_shape "$header") || result header "$shape"
declared=" $(job_get "$header" env) "
for name in $declared; do
	job_name "$name" || result header "lab-env: '$name' is not a setting name"
done
for kv in "$@"; do
	name=${kv%%=*}
	case $kv in
	*=*) job_name "$name" || result header "argument '$kv' is not NAME=value" ;;
	*) result header "argument '$kv' is not NAME=value" ;;
	esac
	case $declared in
	*" $name "*) ;;
	*) result header "$name is given, but $(basename "$job") does not declare it in lab-env" ;;
	esac
	eval "$name=\${kv#*=}"
	export "${name?}"
done
for name in $declared; do
	eval "[ \"\${$name+set}\" = set ]" ||
		result header "$name (lab-env) is not set: run the job through make, or give it"
done

# 2. The shape
for kv in $shape; do
	name=${kv%%=*} want=${kv#*=}
	have=$(job_value "$name")
	case " ${LAB_GIVEN:-} " in
	*" $name "*)
		[ "$have" = "$want" ] ||
			result skip "needs $name=$want, and $name=$have was given" ;;
	esac
	eval "$name=\$want"
	export "${name?}"
done
timeout=$(job_timeout "$header") || result header "$timeout"

# 3. Boot and judge
rel=${job#"$LAB_ROOT"/}
status=0
{
	for name in $declared; do env_line "$name"; done
	echo "exec bash /lab/$rel"
} | TIMEOUT=$timeout "$here/run-guest.sh" "$run" || status=$?

# 4. The host-side check, of a run that passed
check=${job%.sh}.host
if [ "$status" = 0 ] && [ -e "$check" ]; then
	status=0
	sh "$check" "$run/out" > "$run/host-check.log" 2>&1 || status=$?
	why=$(job_reason "" "$run/host-check.log")
	[ -n "$why" ] || why=$(grep . "$run/host-check.log" | tail -n 1)
	case $status in
	0) kind=ok ;;
	4) kind=skip why="host-check: $why" ;;
	*) kind=host-check why="$why (exit $status; log: $run/host-check.log)" ;;
	esac
	status=0
	job_verdict "$run" "$kind" "$why" || status=$?
fi

# 5. What the host keeps, whatever the result
if [ -n "$keep" ]; then
	missing=$(
		cd "$run/out" || exit 0
		set -f
		for g in $(job_get "$header" collect); do
			set +f
			for f in $g; do
				[ ! -e "$f" ] || cp -r --parents "${f%/}" "$keep/" 2>/dev/null || echo "$f"
			done
		done
	)
	[ -z "$missing" ] || [ "$status" != 0 ] ||
		result collect "could not keep $(echo "$missing" | tr '\n' ' ')in $keep"
fi
exit "$status"
