#!/bin/sh
# make demo: the evaluation of Documentation/protocol.md, boot by boot.
# For each size (PROTO_SIZES, MiB per node, in that order):
#   1. the knee sweep: one boot per rate of PROTO_SWEEP, at proactiveness
#      20 and defrag_mode 0; the knee is the highest swept rate at which,
#      and at every swept rate below it, at most PROTO_KNEE_PCT% of the
#      attempts needed direct compaction (knee-<size>: how it was found);
#   2. PROTO_BOOTS blocks, each holding every cell once in an order drawn
#      from the run's seed: proactiveness {0,20} x defrag_mode {0,1} x
#      rate {0.25,0.5,1} x the knee, and, at the first size, pre-touch and
#      the co-located workload at proactiveness 0 and 20;
#   3. at the first size, after its blocks, the long compactions: the
#      cell p20-d0-x1 PROTO_LONG_BOOTS times under ACCEL=tcg and as many
#      under ACCEL=icount, interleaved in an order drawn from the seed.
# Every boot runs tests/guest/jobs/demo.sh with DEMO_PROTOCOL=1.
#
# Exclusions (the protocol's a, b, c), decided as each boot ends and kept
# in its folder as "excluded": a, the guest's word (a node under 95 after
# five tries at fragmenting); b, the measured recording lost events
# (NAME-overrun > 0); c, host processes other than the boot's own used
# more than PROTO_HOST_PCT% of one CPU over the boot (host-cpu).  An
# excluded boot is kept and run again as BLOCKrK, at most three times a
# cell.  A boot that fails (timeout, warning, panic) is no measurement:
# its console log is kept under failed/ and it is run again, at most
# PROTO_RETRIES times, after which the run stops.
#
# The run resumes: its folder is named by a hash of the protocol's
# settings and of what builds the kernel and runs a boot (the series, the
# configs, the package, the job, the library, the driver and the guest
# programs), not of the kernel's image, so a rebuilt identical lab
# resumes it; a boot's results move into SIZE/CELL/BLOCK only once it has
# ended, and each boot's folder names the lab's commit it ran at
# (lab-commit), the identity as the boot began (ident) and the tracked
# files that differed from that commit (lab-tree).  The run has two
# folders of that name: the record, under RECORD_ROOT (make demo:
# PROTO_RUNS, results/runs), which holds
# the plan, the knees and each boot's small text files, everything the
# report reads, so that it can be committed as the run goes and a later
# checkout resumes from it; and the bulk, under BULK_ROOT (results/):
# each boot's recordings, console log and dmesg, and the failed boots'
# consoles, which the record's failed-SIZE lists.
#
# Settings (from the Makefile): PROTO_SIZES PROTO_SWEEP PROTO_KNEE_PCT
# PROTO_BOOTS PROTO_LONG_BOOTS PROTO_SEED PROTO_HOST_PCT PROTO_RETRIES
# DEMO_SETTLE DEMO_PRETOUCH_PCT DEMO_TIMEOUT, NODES; CPUS_PER_NODE is 1.
# PROTO_LAB_RUN replaces scripts/lab-run.sh, for the runner's own test
# (tests/host/protocol-runner.sh).
#
# usage: protocol.sh RECORD_ROOT BULK_ROOT
set -eu

here=$(cd "$(dirname "$0")" && pwd)
[ $# -eq 2 ] || { echo "usage: protocol.sh RECORD_ROOT BULK_ROOT" >&2; exit 2; }
root=$1 bulk_root=$2
: "${LAB_ROOT:?}" "${LAB_RUNS:?}" "${KVER:?}" "${NODES:?}" "${DEMO_SETTLE:?}" "${DEMO_TIMEOUT:?}"
: "${PROTO_SIZES?}" "${PROTO_SWEEP?}" "${PROTO_KNEE_PCT?}" "${PROTO_BOOTS?}" "${PROTO_LONG_BOOTS?}"
: "${PROTO_HOST_PCT?}" "${PROTO_RETRIES?}"
die() { echo "protocol: $*" >&2; exit 2; }

# ---- The settings, checked before anything runs
[ "$KVER" = mainline ] || die "KVER=$KVER: the protocol runs on the mainline tree (defrag_mode is mainline's)"
[ "${KFLAVOR:-base}" = base ] || die "KFLAVOR=$KFLAVOR: the protocol runs on the base flavour"
[ "${CPUS_PER_NODE:-1}" = 1 ] || die "CPUS_PER_NODE=$CPUS_PER_NODE: the protocol's guests have one vCPU a node"
for v in "PROTO_SIZES=$PROTO_SIZES" "PROTO_SWEEP=$PROTO_SWEEP"; do
	case ${v#*=} in '' | ,* | *, | *,,* | *[!0-9,]*) die "$v: want comma-separated positive numbers" ;; esac
	for n in $(echo "${v#*=}" | tr , ' '); do [ "$n" -gt 0 ] || die "$v: want positive numbers"; done
done
for v in "PROTO_KNEE_PCT=$PROTO_KNEE_PCT" "PROTO_BOOTS=$PROTO_BOOTS" "PROTO_LONG_BOOTS=$PROTO_LONG_BOOTS" \
	"PROTO_HOST_PCT=$PROTO_HOST_PCT" "PROTO_RETRIES=$PROTO_RETRIES"; do
	case ${v#*=} in '' | *[!0-9]*) die "$v: want a whole number" ;; esac
done
[ "$PROTO_BOOTS" -gt 0 ] || die "PROTO_BOOTS=0: want at least one block"
seed=${PROTO_SEED:-}
case $seed in *[!0-9]*) die "PROTO_SEED=$seed: want a number" ;; esac
sizes=$(echo "$PROTO_SIZES" | tr , ' ')
sweep=$(echo "$PROTO_SWEEP" | tr , '\n' | sort -n | tr '\n' ' ')
first_size=${sizes%% *}

# ---- The run's identity: the protocol's settings, and what makes a boot
ident() {	# the checksum of the files that build the kernel and run a boot
	cd "$LAB_ROOT" && cat patches/"$KVER"/*.patch scripts/kconfig/*.config build/mainline.pkg \
		tests/guest/jobs/demo.sh tests/lib/guest.sh tests/modules/lab_hpalloc/*.c tests/progs/fragmenter.c \
		tests/progs/pretouch.c tests/progs/thpfault.c tests/progs/lab-kb.h 2>/dev/null | cksum | cut -d' ' -f1
}
settings="sizes=$PROTO_SIZES sweep=$PROTO_SWEEP knee_pct=$PROTO_KNEE_PCT boots=$PROTO_BOOTS long=$PROTO_LONG_BOOTS"
settings="$settings host_pct=$PROTO_HOST_PCT nodes=$NODES dimm=${DIMM_PER_NODE:-0} settle=$DEMO_SETTLE"
settings="$settings pretouch=${DEMO_PRETOUCH_PCT:-} lab=$(ident)"
name=protocol-$(printf '%s' "$settings" | cksum | cut -d' ' -f1)
res=$root/$name bulk=$bulk_root/$name
mkdir -p "$res" "$bulk"
if [ -s "$res/settings" ]; then
	[ -z "$seed" ] || [ "$seed" = "$(cat "$res/seed")" ] ||
		die "PROTO_SEED=$seed: the run $res was drawn with seed $(cat "$res/seed"); give that, or none"
	seed=$(cat "$res/seed")
	echo "protocol: resuming $res (seed $seed)"
else
	[ -n "$seed" ] || seed=$(od -An -N2 -tu2 /dev/urandom | tr -d ' ')
	echo "$seed" > "$res/seed"
	echo "$settings" > "$res/settings"
	echo "protocol: new run $res (seed $seed)"
fi

# ---- One boot
# cell_args SIZE CELL: the job's settings for a boot of CELL
cell_args() {
	case $2 in
	sweep-r*) echo "DEMO_RUN=20:count${2#sweep-r} DEMO_DEFRAG=0" ;;
	p*-d*-x*)
		p=${2%%-*} rest=${2#*-d} d=${rest%%-*} x=${2##*-x}
		echo "DEMO_RUN=${p#p}:count$(rate "$1" "$x") DEMO_DEFRAG=$d" ;;
	long-tcg | long-icount) echo "DEMO_RUN=20:count$(rate "$1" 1) DEMO_DEFRAG=0" ;;
	pretouch-p*) echo "DEMO_RUN=${2#pretouch-p}:pretouch DEMO_DEFRAG=0" ;;
	coloc-p*) echo "DEMO_RUN=${2#coloc-p}:coloc DEMO_DEFRAG=0" ;;
	*) die "no such cell $2" ;;
	esac
}
# rate SIZE FACTOR: FACTOR x the size's knee, rounded, at least 1
rate() {
	awk -v k="$(cut -d' ' -f1 "$res/knee-$1")" -v x="$2" 'BEGIN { r = int(k * x + 0.5); print r < 1 ? 1 : r }'
}

# busy: the host's busy CPU time, in clock ticks, from /proc/stat
busy() { awk '$1 == "cpu" { print $2 + $3 + $4 + $7 + $8 + $9; exit }' /proc/stat; }

# boot SIZE CELL ID: one boot into $res/SIZE/CELL/ID, unless it is there;
# returns 1 if it failed PROTO_RETRIES + 1 times
boot() {
	size=$1 cell=$2 id=$3 dest=$res/$1/$2/$3
	[ ! -e "$dest/done" ] || return 0
	run=$LAB_RUNS/protocol/$size-$cell-$id
	accel=tcg
	[ "$cell" != long-icount ] || accel=icount
	cpu=max
	[ "$accel" = tcg ] || cpu=qemu64
	args="$(cell_args "$size" "$cell") DEMO_PROTOCOL=1"
	# What the boot runs from, as it begins: the identity's files (the
	# guest reads the job from the tree), and the tracked files that
	# differ from the commit
	lab=$(ident)
	tree=$(cd "$LAB_ROOT" && git status --porcelain --untracked-files=no 2>/dev/null || :)
	# The timeout: five tries at fragmenting (the fragmenter may take
	# 180 s a GiB of a node), and twice the count's time at the rate, over
	# DEMO_TIMEOUT
	r=$(echo "$args" | sed -n 's/.*:count\([0-9]*\).*/\1/p')
	t=$((DEMO_TIMEOUT + 5 * 180 * size / 1024))
	[ -z "$r" ] || t=$((t + 2 * NODES * size / 2 / r))
	# Failures are numbered on from those of earlier invocations, whose
	# consoles stay; the cap is this invocation's (a resume is a person's
	# decision to try again)
	prev=$(find "$bulk/$size/failed" -mindepth 1 -maxdepth 1 -name "$cell-$id-*" 2>/dev/null | grep -c . || :)
	try=0
	while :; do
		echo "protocol: $size MiB $cell $id: $args (accel $accel, timeout ${t}s)"
		rm -rf "$run.keep"
		b0=$(busy) w0=$(date +%s%N)
		# The boot's own CPU time: what its processes used, read from
		# the shell that waited for them (cutime + cstime).  In the
		# background, so that a signal to the runner is taken at once
		# (the trap below stops the boot), not when the boot ends.
		mkdir -p "$LAB_RUNS/protocol"
		# shellcheck disable=SC2086 # the job's settings, one a word
		ACCEL=$accel QEMU_CPU=$cpu MEM_PER_NODE=$size CPUS_PER_NODE=1 DEMO_TIMEOUT=$t \
			LAB_GIVEN='' sh -c '"$@" >&2; s=$?; sed "s/.*) //" /proc/$$/stat | awk -v s=$s "{ print s, \$14 + \$15 }"' \
			sh "${PROTO_LAB_RUN:-$here/lab-run.sh}" --keep "$run.keep" "$LAB_ROOT/tests/guest/jobs/demo.sh" "$run" $args \
			< /dev/null > "$run.own" &
		wait $! || :
		own=$(cat "$run.own")
		b1=$(busy) w1=$(date +%s%N)
		status=${own%% *}
		[ "$status" != 0 ] || break
		try=$((try + 1))
		f=$bulk/$size/failed/$cell-$id-$((prev + try))
		mkdir -p "$f" && cp "$run/verdict" "$run/console.log" "$f/" 2>/dev/null || :
		echo "$cell $id $((prev + try)) $(cat "$run/verdict")" >> "$res/failed-$size"
		echo "protocol: $size MiB $cell $id failed ($try of $((PROTO_RETRIES + 1))): $(cat "$run/verdict"); console in $f" >&2
		[ "$try" -le "$PROTO_RETRIES" ] || return 1
	done
	tmp=$dest.tmp
	rm -rf "$tmp" && mkdir -p "$tmp" &&
		cp -r "$run.keep/." "$tmp/" && cp "$run/console.log" "$run/machine" "$tmp/" &&
		cp "$run/out/job.log" "$tmp/" || { echo "protocol: $size $cell $id: could not keep its results" >&2; return 1; }
	echo "$args accel=$accel" > "$tmp/cell"
	(cd "$LAB_ROOT" && git describe --always --dirty 2>/dev/null || echo unknown) > "$tmp/lab-commit"
	echo "lab=$lab" > "$tmp/ident"
	printf '%s\n' "$tree" | grep . > "$tmp/lab-tree" || :
	hz=$(getconf CLK_TCK)
	awk -v b=$((b1 - b0)) -v o="${own#* }" -v w=$(((w1 - w0) / 1000000)) -v hz="$hz" 'BEGIN {
		w /= 1000
		printf "busy_s %.2f own_s %.2f other_s %.2f wall_s %.3f other_pct_of_a_cpu %.1f\n",
			b / hz, o / hz, (b - o) / hz, w, w ? 100 * (b - o) / hz / w : 0 }' > "$tmp/host-cpu"
	# The exclusions, in the protocol's order
	why=
	for e in "$tmp"/p*/*-excluded; do [ ! -e "$e" ] || why="$(cat "$e")"; done
	if [ -z "$why" ]; then
		for o in "$tmp"/p*/*-overrun; do
			[ ! -e "$o" ] || [ "$(cat "$o")" = 0 ] || why="b: $(cat "$o") events lost in $(basename "${o%-overrun}")'s recording"
		done
	fi
	if [ -z "$why" ]; then
		pct=$(awk '{ print $10 }' "$tmp/host-cpu")
		if awk -v p="$pct" -v m="$PROTO_HOST_PCT" 'BEGIN { exit !(p > m) }'; then
			why="c: other host processes used $pct% of a CPU over the boot"
		fi
	fi
	[ -z "$why" ] || echo "$why" > "$tmp/excluded"
	# The bulk out of the record: recordings, logs, and anything over
	# 256 KiB
	heavy=$bulk/$size/$cell/$id
	rm -rf "$heavy" && mkdir -p "$heavy" &&
		find "$tmp" -type f \( -name '*.dat' -o -name '*.log' -o -name 'dmesg.txt' -o -name '*pagetypeinfo*' \
			-o -size +256k \) -exec mv -t "$heavy" {} + ||
		{ echo "protocol: $size $cell $id: could not move its recordings to $heavy" >&2; return 1; }
	# done last, in place: a boot stopped before it is run again whole
	rm -rf "$dest" && mv "$tmp" "$dest" && : > "$dest/done" && rm -rf "$run.keep"
	grep '^demo: p' "$heavy/job.log" | sed "s/^demo:/protocol: $size $cell $id:/" || :
	[ -z "$why" ] || echo "protocol: $size $cell $id excluded: $why"
}

# measure SIZE CELL BLOCK: the block's boot of the cell, then, while the
# last one is excluded, a rerun (BLOCKr1, r2, ...): three at most per
# cell, over all its blocks
measure() {
	boot "$1" "$2" "$3" || return 1
	last=$3 k=0
	while [ -e "$res/$1/$2/$last/excluded" ]; do
		k=$((k + 1))
		if [ ! -e "$res/$1/$2/$3r$k/done" ]; then
			used=$(cd "$res/$1/$2" && for b in [0-9]*r[0-9]*; do [ ! -e "$b/done" ] || echo "$b"; done | grep -c . || :)
			[ "$used" -lt 3 ] || { echo "protocol: $1 $2: its three reruns are used; $last stays excluded"; break; }
			boot "$1" "$2" "$3r$k" || return 1
		fi
		last=$3r$k
	done
}

# d_pct SIZE CELL: the share of attempts that needed direct compaction in
# the cell's kept (not excluded) boot, in percent
d_pct() {
	for b in "$res/$1/$2"/*/; do
		[ -e "$b/done" ] && [ ! -e "$b/excluded" ] || continue
		sed '$d' "$b"/p20/count*-attempts | awk '{ n++; d += $4 > 0 } END { if (n) printf "%.6g\n", 100 * d / n }'
		return
	done
}

# knee SIZE: the sweep, then the knee from it, in $res/knee-SIZE:
# "KNEE BASIS" (BASIS: knee, none (no rate qualified: the cells run at
# the lowest swept rate) or all (every rate did: the highest))
knee() {
	[ ! -s "$res/knee-$1" ] || return 0
	for r in $sweep; do measure "$1" "sweep-r$r" 1 || return 1; done
	: > "$res/sweep-$1.tmp"
	for r in $sweep; do
		d=$(d_pct "$1" "sweep-r$r")
		[ -n "$d" ] || { echo "protocol: $1 MiB: the sweep at $r a second has no boot that is not excluded" >&2; return 1; }
		echo "$r $d" >> "$res/sweep-$1.tmp"
	done
	mv "$res/sweep-$1.tmp" "$res/sweep-$1"
	awk -v m="$PROTO_KNEE_PCT" '
		NR == 1 { lowest = $1; ok = 1 }
		{ if (ok && $2 <= m) { knee = $1; n++ } else ok = 0; rows++; last = $1 }
		END {
			if (!n) print lowest, "none"
			else if (n == rows) print last, "all"
			else print knee, "knee"
		}' "$res/sweep-$1" > "$res/knee-$1"
	echo "protocol: $1 MiB: the sweep (rate, % needing direct compaction): $(awk '{ printf "%s%s/s %s%%", (NR > 1 ? ", " : ""), $1, $2 }' "$res/sweep-$1"); knee: $(cat "$res/knee-$1")"
}

# blocks SIZE: the plan of the size's blocks, drawn once from the seed
blocks() {
	plan=$res/plan-$1
	[ ! -s "$plan" ] || return 0
	cells=
	for p in 0 20; do for d in 0 1; do for x in 0.25 0.5 1; do cells="$cells p$p-d$d-x$x"; done; done; done
	[ "$1" != "$first_size" ] || cells="$cells pretouch-p0 pretouch-p20 coloc-p0 coloc-p20"
	awk -v seed="$((seed + $1))" -v n="$PROTO_BOOTS" -v cells="$cells" 'BEGIN {
		srand(seed); k = split(cells, c, " ")
		for (b = 1; b <= n; b++) {
			for (i = k; i > 1; i--) { j = int(rand() * i) + 1; t = c[i]; c[i] = c[j]; c[j] = t }
			for (i = 1; i <= k; i++) print c[i], b
		}
	}' > "$plan.tmp"
	if [ "$1" = "$first_size" ] && [ "$PROTO_LONG_BOOTS" -gt 0 ]; then
		awk -v seed="$((seed + 1))" -v n="$PROTO_LONG_BOOTS" 'BEGIN {
			srand(seed); for (i = 1; i <= n; i++) { c[2 * i - 1] = "long-tcg " i; c[2 * i] = "long-icount " i }
			k = 2 * n; for (i = k; i > 1; i--) { j = int(rand() * i) + 1; t = c[i]; c[i] = c[j]; c[j] = t }
			for (i = 1; i <= k; i++) print c[i] }' >> "$plan.tmp"
	fi
	mv "$plan.tmp" "$plan"
}

# An interrupt stops the guest too
kill_tree() {	# PID: the process and its descendants
	for c in $(pgrep -P "$1" 2>/dev/null); do kill_tree "$c"; done
	kill -TERM "$1" 2>/dev/null || :
}
trap 'trap - INT TERM; for c in $(pgrep -P $$); do kill_tree "$c"; done; echo "protocol: interrupted; make demo again, with the same settings, resumes at the boots not done" >&2; exit 130' INT TERM

start=$(date +%s)
for size in $sizes; do
	knee "$size" || { echo "protocol: stopped; make demo again, with the same settings, resumes here" >&2; exit 1; }
	blocks "$size"
	while read -r cell block; do
		measure "$size" "$cell" "$block" || { echo "protocol: stopped; make demo again, with the same settings, resumes here" >&2; exit 1; }
	done < "$res/plan-$size"
done
trap - INT TERM
echo "protocol: every boot done, $(($(date +%s) - start)) s for this part; the record in $res, the recordings in $bulk"
"${LAB_REPORT:-$here/../build/bin/lab-report}" protocol "$res"
echo "protocol: report $res/report.md, every boot's measures in $res/metrics.csv"
