#!/bin/sh
# Check that a trace event's record has no hole: from the first field after
# the common_ ones, each field starts where the one before it ends (offset
# = previous offset + previous size), and the last one ends at a multiple
# of the record's alignment (its largest field's, 8 with an unsigned long
# on x86-64), so that no tail padding follows it either.  FORMAT is the
# event's tracefs format file (/sys/kernel/tracing/events/SYS/EVENT/format)
# or a copy of it.  Prints the layout, then "ok: ..." or "FAIL: ..." lines;
# exits 0 if there is no hole, 1 if there is one, 2 if FORMAT is not a
# format file.  The same code runs in the guest (guest/end-event-layout, on
# the running kernel's event) and on the host (host/end-event-layout, on
# fixtures of the layouts).
#
# usage: event-layout.sh FORMAT
set -eu

[ $# -eq 1 ] && [ "$1" != -h ] && [ "$1" != --help ] || {
	sed -n '2,/^set -eu/p' "$0" | sed -e '$d' -e 's/^# \{0,1\}//'
	[ $# -eq 1 ]; exit
}
[ -r "$1" ] || { echo "event-layout: $1: cannot read it" >&2; exit 2; }

awk '
$1 == "name:" { event = $2 }
$1 ~ /^field:/ {
	decl = $0; sub(/^[ \t]*field:/, "", decl); sub(/;.*/, "", decl)
	off = $0; if (!sub(/.*offset:/, "", off)) next; sub(/;.*/, "", off)
	size = $0; if (!sub(/.*size:/, "", size)) next; sub(/;.*/, "", size)
	name = decl; sub(/\[.*/, "", name); n = split(name, w, /[ \t*]+/); name = w[n]
	# a field aligns to its size, an array to its element, a __data_loc
	# (u32 offset and length) to 4; at most 8
	al = size + 0
	if (decl ~ /__data_loc/) al = 4
	else if (decl ~ /\[[0-9]+\]/) { cnt = decl; sub(/.*\[/, "", cnt); sub(/\].*/, "", cnt); if (cnt + 0 > 0) al = size / cnt }
	if (al > 8) al = 8
	if (al > align) align = al
	if (name ~ /^common_/) { common_end = off + size; next }
	nf++; fname[nf] = name; foff[nf] = off + 0; fsize[nf] = size + 0
}
END {
	if (!nf) { print "event-layout: no field after the common ones: not a format file?" > "/dev/stderr"; exit 2 }
	printf "%s: %d fields after the common ones (which end at %d):\n", event, nf, common_end
	end = common_end
	for (i = 1; i <= nf; i++) {
		printf "  %-20s offset %3d size %d\n", fname[i], foff[i], fsize[i]
		if (foff[i] != end) {
			printf "FAIL: %s: a hole of %d bytes before %s (offset %d, the field before ends at %d)\n", event, foff[i] - end, fname[i], foff[i], end
			bad = 1
		}
		end = foff[i] + fsize[i]
	}
	if (end % align) {
		printf "FAIL: %s: the last field, %s, ends at %d, not a multiple of the record alignment %d: %d bytes of tail padding\n", event, fname[nf], end, align, align - end % align
		bad = 1
	}
	if (!bad)
		printf "ok: %s: no hole: every field starts where the one before ends, the last ends at %d, a multiple of %d\n", event, end, align
	exit bad
}' "$1"
