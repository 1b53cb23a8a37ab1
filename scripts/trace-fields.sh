#!/bin/sh
# Check that trace-cmd (libtraceevent, which KernelShark also parses with)
# reads every field of every event of the series in a trace.dat: for each
# mm_compaction_proactive_* event recorded, the formatted line shows exactly
# the fields of the event's format, in order, each with the raw value, or for
# a __print_symbolic field the name its format gives that value.  Each of the
# series' events must be in the file at least once.
#
# usage: trace-fields.sh TRACE.dat
set -eu

[ $# -eq 1 ] && [ "$1" != -h ] && [ "$1" != --help ] || {
	sed -n '2,/^set -eu/p' "$0" | sed -e '$d' -e 's/^# \{0,1\}//'
	[ $# -eq 1 ]; exit
}
dat=$1
[ -r "$dat" ] || { echo "trace-fields: $dat: cannot read it" >&2; exit 2; }

events="mm_compaction_proactive_check mm_compaction_proactive_end"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

trace-cmd dump --events -i "$dat" > "$tmp/formats" 2>/dev/null
trace-cmd report -R -i "$dat" 2>/dev/null | grep ': mm_compaction_proactive_' > "$tmp/raw" || :
trace-cmd report -i "$dat" 2>/dev/null | grep ': mm_compaction_proactive_' > "$tmp/fmt" || :

awk -v events="$events" '
# Formats: the non-common fields of each event, and its symbol tables.
FILENAME == ARGV[1] {
	if ($1 == "name:") { ev = $2; nf[ev] = 0; next }
	if ($1 == "field:" || $1 ~ /^field:/) {
		if (!(ev in nf)) next
		f = $0; sub(/;.*/, "", f); n = split(f, w, /[ \t*]+/); f = w[n]
		if (f !~ /^common_/) field[ev, ++nf[ev]] = f
		next
	}
	if ($1 == "print" && (ev in nf)) {
		s = $0
		while (match(s, /__print_symbolic\(REC->[a-z_0-9]+/)) {
			name = substr(s, RSTART + 22, RLENGTH - 22)
			s = substr(s, RSTART + RLENGTH)
			end = index(s, ")")
			list = substr(s, 1, end)
			while (match(list, /\{ *[0-9x]+, *"[^"]*" *\}/)) {
				pair = substr(list, RSTART + 1, RLENGTH - 2)
				list = substr(list, RSTART + RLENGTH)
				split(pair, kv, /, */)
				gsub(/ /, "", kv[1]); gsub(/[" ]/, "", kv[2])
				sym[ev, name, kv[1] + 0] = kv[2]
				symbolic[ev, name] = 1
			}
		}
	}
	next
}
# The raw lines, then the formatted lines, in the same order.
FILENAME == ARGV[2] { raw[++nraw] = $0; next }
{
	line = ++nfmt
	match($0, /: mm_compaction_proactive_[a-z]+:/); ev = substr($0, RSTART + 2, RLENGTH - 3)
	if (!(ev in nf)) { print "trace-fields: " ev ": no format in the file"; bad = 1; next }
	seen[ev]++
	r = raw[line]; sub(/.*: mm_compaction_proactive_[a-z]+: +/, "", r)
	t = $0; sub(/.*: mm_compaction_proactive_[a-z]+: +/, "", t)
	nr = split(r, rv, / +/); nt = split(t, tv, / +/)
	if (nt != nf[ev] || nr != nf[ev]) {
		printf "trace-fields: %s: %d fields shown, %d raw, %d in the format: %s\n", ev, nt, nr, nf[ev], $0
		bad = 1; next
	}
	for (i = 1; i <= nf[ev]; i++) {
		f = field[ev, i]
		if (index(tv[i], f "=") != 1 || index(rv[i], f "=") != 1) {
			printf "trace-fields: %s: field %d is not %s: %s\n", ev, i, f, $0; bad = 1; continue
		}
		tval = substr(tv[i], length(f) + 2); rval = substr(rv[i], length(f) + 2)
		want = ((ev, f) in symbolic) ? sym[ev, f, rval + 0] : rval
		if (tval == "" || tval != want) {
			printf "trace-fields: %s: %s shows \"%s\", raw %s gives \"%s\": %s\n", ev, f, tval, rval, want, $0
			bad = 1
		}
	}
}
END {
	if (nraw != nfmt) { printf "trace-fields: %d raw lines, %d formatted\n", nraw, nfmt; bad = 1 }
	n = split(events, want_ev, " ")
	for (i = 1; i <= n; i++) {
		ev = want_ev[i]
		if (!seen[ev]) { print "trace-fields: no " ev " event in the file"; bad = 1; continue }
		fl = ""
		for (j = 1; j <= nf[ev]; j++) fl = fl " " field[ev, j] (((ev, field[ev, j]) in symbolic) ? "(symbolic)" : "")
		printf "ok: %s: %d events, every field parsed:%s\n", ev, seen[ev], fl
	}
	exit bad
}' "$tmp/formats" "$tmp/raw" "$tmp/fmt"
