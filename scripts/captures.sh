#!/bin/sh
# make captures: the excerpts that the docs and the mainline cover letter
# quote, made from one run of the guest tests that assert what the
# excerpts show: proactive-round (proactiveness 0 -> 20 on fragmented
# nodes), backoff-unmovable (rounds that cannot progress, at 40),
# kselftest-proactive, perf-proactive, bpftrace-rounds and node-exporter.  Each file is small text, cut from the tests'
# recordings by a fixed rule, so that a document quoting it can be checked
# against it (tests/host/doc-figures.sh):
#   run                   what ran: commit, date, kernel, guest shape
#   round.txt             the write's wake-up, then per node its first
#                         round's start check and end, and its first check
#                         below the high threshold after that
#   round-counters.txt    every compact_daemon_proactive_* counter's delta
#                         over that recording, per node and in /proc/vmstat
#   backoff.txt           per node: the first round that ended deferred
#                         and whose back-off ran undisturbed (its next
#                         check 31.7 s or more later, as backoff-unmovable
#                         measures it; a wake-up by kswapd or a write ends
#                         a back-off early): its check, its end and the
#                         node's next check, in time order
#   backoff-counters.txt  the counters' deltas over that recording
#   kselftest.txt         the kselftest's TAP output
#   trace-fields.txt      the host's check that trace-cmd parses every
#                         field of the round recording (its "ok:" lines)
#   perf-stat.txt         perf stat's counts of the events over a round
#                         (its CSV, comments left out)
#   perf-script.txt       perf script's first check and first end event
#   compaction-times.txt  perf's compaction-times script over that round
#   bpftrace.txt          the bpftrace one-liner's maps over a round
#   scrape.txt            node_exporter's scrape after a round, trimmed to
#                         the rounds (the sum and per node) and the scores
#
# usage: captures.sh RUNS OUT   (RUNS: run-tests.sh's LAB_RUNS of that run;
# OUT is replaced only once every file is made)
set -eu

die() { echo "captures: $*" >&2; exit 1; }
[ $# = 2 ] || die "usage: captures.sh RUNS OUT"
runs=$1 out=$2
tests="proactive-round backoff-unmovable kselftest-proactive perf-proactive bpftrace-rounds node-exporter"
for t in $tests; do
	[ -d "$runs/guest/$t/out" ] || die "no $runs/guest/$t/out: the test did not run"
done
command -v trace-cmd >/dev/null || die "no trace-cmd on the host (make deps)"
tmp=$out.new
rm -rf "$tmp" && mkdir -p "$tmp"

# events DAT: the recording's compaction events, one space between fields
events() {
	trace-cmd report -i "$1" 2>/dev/null |
		sed -n '/ mm_compaction_/{s/^ *//; s/  */ /g; s/ *$//; p; }'
}
# nid LINE's node, in awk: the value of its nid= field
nid_awk='function nid(  i) { for (i = 1; i <= NF; i++) if ($i ~ /^nid=/) return substr($i, 5); return "" }'

r=$runs/guest/proactive-round/out
events "$r/round.dat" | awk "$nid_awk"'
	/ mm_compaction_wakeup_kcompactd: / && / order=-1 / && !woken { print; woken = 1; next }
	/ mm_compaction_proactive_check: / {
		n = nid()
		if (/ decision=start/ && !started[n]++) print
		else if (/ decision=below/ && ended[n] && !below[n]++) print
		next
	}
	/ mm_compaction_proactive_end: / { n = nid(); if (started[n] && !ended[n]++) print }' > "$tmp/round.txt"

b=$runs/guest/backoff-unmovable/out
events "$b/backoff.dat" | awk "$nid_awk"'
	function field(k,  i) { for (i = 1; i <= NF; i++) if (index($i, k "=") == 1) return substr($i, length(k) + 2) }
	function t() { return substr($3, 1, length($3) - 1) + 0 }
	/ mm_compaction_proactive_check: / {
		n = nid()
		if (done[n]) next
		if (end[n] != "" && t() - end_t[n] >= 31.7) { print start[n]; print end[n]; print; done[n] = 1; next }
		end[n] = ""
		if (/ decision=start/) start[n] = $0
		next
	}
	/ mm_compaction_proactive_end: / {
		n = nid()
		if (!done[n] && field("score_after") + 0 >= field("score_before") + 0) { end[n] = $0; end_t[n] = t() }
	}' | sort -s -t' ' -k3,3n > "$tmp/backoff.txt"

# counters OLD NEW: each compact_daemon_proactive_* counter's delta per
# node and in /proc/vmstat (snap files: "NAME VALUE", "nodeN:NAME VALUE")
counters() {
	awk 'FNR == NR { old[$1] = $2; next }
		$1 ~ /compact_daemon_proactive_/ {
			k = $1; n = "/proc/vmstat"
			if (k ~ /^node[0-9]+:/) { n = substr(k, 1, index(k, ":") - 1); k = substr(k, index(k, ":") + 1) }
			if (!(n in seen)) { seen[n] = 1; cols[++nc] = n }
			if (!(k in known)) { known[k] = 1; names[++nk] = k }
			d[n, k] = $2 - old[$1]
		}
		END {
			# the nodes in order, /proc/vmstat last
			for (i = 1; i <= nc; i++) for (j = i + 1; j <= nc; j++)
				if (cols[j] < cols[i] && cols[j] != "/proc/vmstat" || cols[i] == "/proc/vmstat") { t = cols[i]; cols[i] = cols[j]; cols[j] = t }
			printf "%-40s", "delta"; for (i = 1; i <= nc; i++) printf " %12s", cols[i]; print ""
			for (j = 1; j <= nk; j++) {
				printf "%-40s", names[j]; for (i = 1; i <= nc; i++) printf " %12s", d[cols[i], names[j]]; print ""
			}
		}' "$1" "$2"
}
counters "$r/round.v0" "$r/round.v1" > "$tmp/round-counters.txt"
counters "$b/backoff.v0" "$b/backoff.v1" > "$tmp/backoff-counters.txt"
cp "$runs/guest/kselftest-proactive/out/tap.txt" "$tmp/kselftest.txt"
grep '^ok: ' "$runs/guest/proactive-round/host-check.log" > "$tmp/trace-fields.txt" || :
p=$runs/guest/perf-proactive/out
grep -v '^#' "$p/perf-stat.csv" | grep . > "$tmp/perf-stat.txt" || :
{ grep -m1 ':mm_compaction_proactive_check: ' "$p/perf-script.txt"; grep -m1 ':mm_compaction_proactive_end: ' "$p/perf-script.txt"; } |
	sed 's/^ *//; s/  */ /g; s/ *$//' > "$tmp/perf-script.txt" || :
cp "$p/compaction-times.txt" "$tmp/compaction-times.txt"
grep . "$runs/guest/bpftrace-rounds/out/bpftrace.txt" > "$tmp/bpftrace.txt" || :
grep -E '^(# (HELP|TYPE) )?node_(vmstat_compact_daemon_proactive_round|compaction_proactive_round_total|compaction_proactive_score)[ {]' \
	"$runs/guest/node-exporter/out/metrics.prom" > "$tmp/scrape.txt" || :

for f in round.txt backoff.txt round-counters.txt backoff-counters.txt kselftest.txt \
	trace-fields.txt perf-stat.txt perf-script.txt compaction-times.txt bpftrace.txt scrape.txt; do
	[ -s "$tmp/$f" ] || die "$f came out empty (see $runs/guest/*/out)"
done
grep -q ' decision=start' "$tmp/round.txt" || die "round.txt has no start check"
grep -q ' mm_compaction_proactive_end: ' "$tmp/backoff.txt" || die "backoff.txt has no deferred round"

# The kernel: its release and build, as the bzImage's header gives them,
# and the Debian package its tree came from
kernel=$(file -bL "${LAB_KERNEL:-}" 2>/dev/null | sed -n 's/.*, version \([^ ]*\) ([^)]*) \(#[^,]*\),.*/\1 \2/p')
pkg=linux-source-${KVER:-?}
[ "${KVER:-}" != mainline ] || pkg=$(cut -d' ' -f1,2 "$(dirname "$0")/../build/mainline.pkg" 2>/dev/null || echo "linux-source-7.x")
commit=$(git -C "$(dirname "$0")/.." rev-parse --short HEAD 2>/dev/null || echo unknown)
# (what ran: the series but its cover letters, the tests, the scripts)
[ -z "$(git -C "$(dirname "$0")/.." status --porcelain -- scripts tests/guest tests/lib tests/modules tests/progs \
	'patches/*.patch' ':!patches/*/0000-cover-letter.patch' 2>/dev/null)" ] || commit="$commit (with uncommitted changes)"
{
	echo "make captures at commit $commit, $(date -u '+%Y-%m-%d %H:%M UTC')"
	echo "kernel ${kernel:-(unknown)}: Debian's $pkg with patches/${KVER:-?}, ${KFLAVOR:-?} flavour"
	echo "guest: $(cat "$r/../machine" 2>/dev/null || echo "(no machine line)")"
	echo "tests: $tests (their runs: $runs)"
} > "$tmp/run"
rm -rf "$out" && mv "$tmp" "$out"
echo "captures: $out"
