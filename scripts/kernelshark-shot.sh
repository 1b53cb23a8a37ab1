#!/bin/sh
# Open a trace.dat in KernelShark (Debian's kernelshark) under Xvfb and take
# a screenshot: both CPUs, a plot per kcompactd thread, and the list of the
# series' events (mm_compaction_proactive_check and _end) only.
#
# KernelShark shows a blocking warning dialog when it runs as root, so it
# runs as the unprivileged user nobody, on a copy of the trace in a private
# folder.  The view comes from a KernelShark session file (JSON) written
# here: task plots by PID, CPU plots, and a "show event filter" applied to
# the list (the graph keeps every event, so rounds show as busy stretches).
#
# usage: kernelshark-shot.sh TRACE.dat OUT.png
set -eu

[ $# -eq 2 ] || { sed -n '2,/^set -eu/p' "$0" | sed -e '$d' -e 's/^# \{0,1\}//'; exit 2; }
dat=$1 png=$2
: "${KS_GEOMETRY:?}" "${KS_WAIT_S:?}"
w=${KS_GEOMETRY%x*} h=${KS_GEOMETRY#*x}

die() { echo "kernelshark-shot: $*" >&2; exit 1; }
[ -r "$dat" ] || die "$dat: cannot read it"
for c in kernelshark Xvfb xdotool xwininfo import setpriv; do
	command -v $c >/dev/null || die "$c not found (make deps-kernelshark)"
done

tmp=$(mktemp -d)
xvfb="" ks=""
cleanup() {
	[ -z "$ks" ] || kill "$ks" 2>/dev/null || :
	[ -z "$xvfb" ] || kill "$xvfb" 2>/dev/null || :
	[ -n "${KS_KEEP:-}" ] || rm -rf "$tmp"
}
trap cleanup EXIT
mkdir "$tmp/home"
cp "$dat" "$tmp/trace.dat"
chmod 755 "$tmp"
chown -R nobody "$tmp/home"
chmod 644 "$tmp/trace.dat"

pids=$(trace-cmd report -i "$dat" 2>/dev/null |
	sed -n 's/^ *kcompactd[0-9]*-\([0-9]*\) .*: mm_compaction_proactive_.*/\1/p' | sort -un | paste -sd, -)
[ -n "$pids" ] || die "$dat: no mm_compaction_proactive_* event of a kcompactd thread"
cpus=$(trace-cmd report -i "$dat" 2>/dev/null | sed -n 's/^cpus=\([0-9]*\)$/\1/p' | head -1)

# The whole recording, in ns, as the model's range.
range=$(trace-cmd report -i "$dat" 2>/dev/null | awk '
	match($0, / [0-9]+\.[0-9]+: /) {
		t = substr($0, RSTART + 1, RLENGTH - 3); if (first == "") first = t; last = t
	}
	END { split(first, f, "."); split(last, l, "."); printf "%s%s, %s%s", f[1], f[2] "000", l[1], l[2] "000" }')

# KernelShark loads a session only with every part present.
cat > "$tmp/session.json" <<EOF
{
  "type": "kshark.config.session",
  "MainWindow": [$w, $h],
  "Splitter": [$((h / 2)), $((h * 2 / 5))],
  "Model": { "type": "kshark.config.model", "range": [$range], "bins": $((w - 180)) },
  "data streams": [{
    "type": "kshark.config.stream", "stream id": 0,
    "data": { "type": "kshark.config.data", "file": "$tmp/trace.dat", "name": "top buffer",
              "time": $(stat -c %Y "$tmp/trace.dat") },
    "filters": { "type": "kshark.config.filter", "filter mask": 5,
                 "show event filter": ["compaction/mm_compaction_proactive_check",
                                       "compaction/mm_compaction_proactive_end"] },
    "plugins": { "type": "kshark.config.plugins",
                 "registered": [["sched_events", true], ["missed_events", true]] },
    "CPUPlots": [$(seq -s, 0 $((${cpus:-1} - 1)))],
    "TaskPlots": [$pids]
  }],
  "ComboPlots": [],
  "Markers": { "type": "kshark.config.markers", "markA": { "isSet": false },
               "markB": { "isSet": false }, "Active": "A" },
  "ViewTop": 0,
  "ColorScheme": 0.75,
  "User Plugins": { "type": "kshark.config.plugins", "obj. files": [] }
}
EOF
chmod 644 "$tmp/session.json"

display=:$((90 + $$ % 100))
Xvfb "$display" -screen 0 "${w}x${h}x24" -nolisten tcp > "$tmp/xvfb.log" 2>&1 &
xvfb=$!
export DISPLAY=$display
i=0
until xwininfo -root >/dev/null 2>&1; do
	i=$((i + 1)); [ $i -lt 50 ] || die "Xvfb did not start: $(cat "$tmp/xvfb.log")"; sleep 0.2
done
setpriv --reuid=nobody --regid=nogroup --clear-groups \
	env HOME="$tmp/home" XDG_RUNTIME_DIR="$tmp/home" \
	kernelshark -s "$tmp/session.json" > "$tmp/kernelshark.log" 2>&1 &
ks=$!
i=0
until win=$(xdotool search --onlyvisible --name "^Kernel Shark" 2>/dev/null | head -1) && [ -n "$win" ]; do
	kill -0 "$ks" 2>/dev/null || die "kernelshark exited: $(cat "$tmp/kernelshark.log")"
	i=$((i + 1)); [ $i -lt $((KS_WAIT_S * 5)) ] || die "no KernelShark window after $KS_WAIT_S s"
	sleep 0.2
done
# No window manager: place and size the window ourselves, then let it draw.
xdotool windowmove "$win" 0 0 windowsize "$win" "$w" "$h"
sleep "$KS_WAIT_S"
import -window root "$png"
echo "kernelshark-shot: $png ($dat, kcompactd PIDs $pids)"
