#!/bin/sh
# The static method of make bench (Documentation/bench.md): what the series
# adds to kcompactd's code, from objdump of stock's and the patched
# kernel's mm/compaction.o.  Writes to OUTDIR:
#   stock.s, patched.s    the disassembly of FUNC (kcompactd: the proactive
#                         check is inlined into it), with relocations
#   summary               instructions in FUNC in each, and by mnemonic
#                         the change (patched - stock)
# and prints the summary.  The path of a below-threshold check is traced by
# hand from the two listings (bench.md says which instructions).
#
# usage: bench-static.sh STOCK_OBJ PATCHED_OBJ OUTDIR [FUNC]
set -eu

[ $# -ge 3 ] && [ $# -le 4 ] || { echo "usage: bench-static.sh STOCK_OBJ PATCHED_OBJ OUTDIR [FUNC]" >&2; exit 2; }
stock=$1 patched=$2 out=$3 func=${4:-kcompactd}
for o in "$stock" "$patched"; do
	[ -r "$o" ] || { echo "bench-static: no object $o" >&2; exit 1; }
	nm "$o" | grep -q " [tT] $func\$" || { echo "bench-static: $o has no function $func" >&2; exit 1; }
done
mkdir -p "$out"

# listing OBJ: FUNC's instructions, one a line, "addr: mnemonic operands",
# with the relocations' targets as objdump prints them (-r)
listing() {
	objdump -d -r --no-show-raw-insn "$1" |
		awk -v f="<$func>:" '$2 == f { on = 1; next } on && /^$/ { exit } on'
}
listing "$stock" > "$out/stock.s"
listing "$patched" > "$out/patched.s"

# mnemonics OBJ-LISTING: "count mnemonic", instructions only (not the
# relocation lines)
mnemonics() {
	awk -F'\t' '$1 ~ /^ *[0-9a-f]+:$/ && NF >= 2 { split($2, m, " "); n[m[1]]++ }
		END { for (k in n) print k, n[k] }' "$1" | sort
}
insns() { mnemonics "$1" | awk '{ s += $2 } END { print s + 0 }'; }
{
	echo "function $func: stock $(insns "$out/stock.s") instructions, patched $(insns "$out/patched.s")"
	echo "by mnemonic, patched - stock (where they differ):"
	join -a1 -a2 -e0 -o 0,1.2,2.2 "$(mnemonics "$out/stock.s" > "$out/.m1" && echo "$out/.m1")" \
		"$(mnemonics "$out/patched.s" > "$out/.m2" && echo "$out/.m2")" |
		awk '$2 != $3 { printf "  %-10s %+d\n", $1, $3 - $2 }'
	rm -f "$out/.m1" "$out/.m2"
} > "$out/summary"
cat "$out/summary"
