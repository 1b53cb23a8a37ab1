# The seed's evaluation, run in the guest (bash, as a job of run-guest.sh).
#
# For each proactiveness in DEMO_MODES: fragment every node to a score of
# at least 95 with proactive compaction off, switch to the mode and let
# kcompactd settle for DEMO_SETTLE seconds (recording whether and when every
# node reached its low threshold or was deferred), then run the experiment
# while trace-cmd records the compaction events, with /proc/vmstat and
# kcompactd's CPU time read before and after.  Experiments: the huge-page
# allocation latency driver (lab_hpalloc) and the pre-toucher; then the
# back-off experiment at proactiveness 40 on unmovable fragmentation.
#
# Results go to $OUT/<mode>/ and $OUT/backoff/, for scripts/demo-report.sh.
. /lab/tests/lib/guest.sh

: "${DEMO_MODES:=0,20}" "${DEMO_SETTLE:=30}" "${DEMO_EXPERIMENTS:=alloc,pretouch}"
: "${DEMO_BACKOFF_S:=70}" "${DEMO_PRETOUCH_PCT:=80}"
DEMO_MODES=${DEMO_MODES//,/ } DEMO_EXPERIMENTS=${DEMO_EXPERIMENTS//,/ }
log() { echo "demo: $*"; }

# kcompactd_cpu FILE: "nid seconds" of each kcompactd's utime + stime
kcompactd_cpu() {
	local hz
	hz=$(getconf CLK_TCK)
	for pid in $(pgrep '^kcompactd[0-9]+$'); do
		read -r -a st < "/proc/$pid/stat"
		comm=${st[1]}
		echo "${comm//[!0-9]/} $(( st[13] + st[14] )) $hz"
	done | awk '{ printf "%s %.3f\n", $1, $2 / $3 }' | sort -n > "$1"
}

node_meminfo_kb() {	# KEY: total over nodes
	cat /sys/devices/system/node/node*/meminfo | awk -v k="$1:" '$3 == k { s += $4 } END { print s }'
}

# prepare DIR MODE: fragment, switch to MODE, settle
prepare() {
	local dir=$1 mode=$2 t=0 state=timeout
	set_proactiveness 0
	fragment
	min=$(awk '{ print $4 }' "$OUT/fragscore-after-fragmenting" | sort -n | head -1)
	cp "$OUT/fragscore-after-fragmenting" "$dir/fragscore-before"
	[ "$min" -ge 95 ] || fail "fragmentation reached only $min (want >= 95 on every node)"
	set_proactiveness "$mode"
	while [ "$t" -lt $((DEMO_SETTLE * 5)) ]; do
		if [ "$mode" != 0 ] && [ "$state" = timeout ] && settled; then
			state="settled after $((t / 5)).$((t % 5 * 2))s"
		fi
		sleep 0.2
		t=$((t + 1))
	done
	[ "$mode" = 0 ] && state="waited ${DEMO_SETTLE}s (proactive compaction off)"
	echo "$state" > "$dir/settle"
	cp "$PROACTIVE" "$dir/proactive-after-settle"
	"$LAB_BIN/fragscore" > "$dir/fragscore-after-settle"
	log "p$mode: $state; $(paste -sd' ' "$dir/fragscore-after-settle")"
}

# measure DIR NAME COMMAND...: the experiment under trace, with counters
measure() {
	local dir=$1 name=$2
	shift 2
	node_meminfo_kb MemFree > "$dir/$name-memfree-kb"
	trace_start
	snap "$dir/$name-vmstat-before"
	kcompactd_cpu "$dir/$name-kcompactd-cpu-before"
	"$@"
	snap "$dir/$name-vmstat-after"
	kcompactd_cpu "$dir/$name-kcompactd-cpu-after"
	trace_stop "$name-tmp"
	mv "$OUT/$name-tmp.dat" "$dir/$name.dat"
}

run_alloc() {
	echo 0 > /sys/kernel/debug/lab_hpalloc/run
	cp /sys/kernel/debug/lab_hpalloc/samples "$1/alloc-samples-ns"
}

insmod "$LAB_MODULES/lab_hpalloc.ko"
for mode in $DEMO_MODES; do
	dir=$OUT/p$mode
	mkdir -p "$dir"
	for exp in $DEMO_EXPERIMENTS; do
		prepare "$dir" "$mode"
		cp "$dir/settle" "$dir/$exp-settle"
		case $exp in
		alloc)	measure "$dir" alloc run_alloc "$dir"
			log "p$mode: $(($(wc -l < "$dir/alloc-samples-ns") - 1)) huge pages allocated" ;;
		pretouch) measure "$dir" pretouch sh -c "'$LAB_BIN/pretouch' --percent $DEMO_PRETOUCH_PCT > '$dir/pretouch.txt'"
			log "p$mode: $(cat "$dir/pretouch.txt")" ;;
		esac
		kill "$FRAGMENTER"
		wait "$FRAGMENTER" 2>/dev/null || :
	done
done
rmmod lab_hpalloc

if [ "$DEMO_BACKOFF_S" -gt 0 ]; then
	dir=$OUT/backoff
	mkdir -p "$dir"
	set_proactiveness 0
	insmod "$LAB_MODULES/lab_unmovable.ko" percent=100
	sleep 5
	"$LAB_BIN/fragscore" > "$dir/fragscore-before"
	measure "$dir" backoff sh -c "sysctl -q -w $KNOB=40; sleep $DEMO_BACKOFF_S"
	rmmod lab_unmovable
	log "backoff: $(grep -c . "$dir/fragscore-before") nodes, ${DEMO_BACKOFF_S}s at proactiveness 40"
fi
set_proactiveness 20
log done
