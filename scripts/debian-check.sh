#!/bin/sh
# Build the objects the series touches under Debian's own kernel config
# (linux-config-X.Y, amd64, through olddefconfig), stock and patched, with
# W=1 and KBUILD_SYMTYPES=1, and report:
#  - W=1: the warnings of each object, stock against patched (new ones fail);
#  - kABI: the exported symbols of those objects whose CRC (genksyms, as
#    Debian's ABI check reads them) the series changes, the enums whose
#    items it shifts, and the change in sizeof(struct pglist_data) (DWARF).
# The objects: each .c file the series changes outside tools/, and each file
# that creates the tracepoints of a trace/events header it changes.
#
# usage: debian-check.sh TREE CONFIG_XZ OUTDIR
#   TREE: a tree made by prepare-tree.sh (lab-base, and the series on
#   lab-series); the stock side is a worktree of it at lab-base.
set -eu

die() { echo "debian-check: $*" >&2; exit 1; }
[ $# = 3 ] || die "usage: debian-check.sh TREE CONFIG_XZ OUTDIR"
tree=$(realpath "$1") config=$2 out=$3
[ -r "$config" ] || die "$config not found (install linux-config-X.Y: make deps)"
git -C "$tree" rev-parse -q --verify lab-series >/dev/null || die "$tree has no series (make tree)"
mkdir -p "$out"
out=$(realpath "$out")
jobs=${JOBS:-3}

# The objects, from the series' diff.
changed=$(git -C "$tree" diff --name-only lab-base lab-series)
objs=$(echo "$changed" | grep '\.c$' | grep -v '^tools/' | sed 's/\.c$/.o/' || :)
for h in $(echo "$changed" | grep '^include/trace/events/.*\.h$' || :); do
	ev=${h#include/}
	objs="$objs $(git -C "$tree" grep -l -e "#include <$ev>" lab-series -- '*.c' |
		sed 's/^lab-series://' | while read -r f; do
			if git -C "$tree" show "lab-series:$f" | grep -q '^#define CREATE_TRACE_POINTS'; then
				echo "${f%.c}.o"
			fi
		done)"
done
objs=$(echo "$objs" | tr ' ' '\n' | grep . | sort -u | tr '\n' ' ')
[ -n "$objs" ] || die "the series changes no object"

# The stock side: a worktree at lab-base, made once.
stock=$out/src-stock
if [ "$(git -C "$stock" rev-parse HEAD 2>/dev/null)" != "$(git -C "$tree" rev-parse lab-base)" ]; then
	rm -rf "$stock"
	git -C "$tree" worktree prune
	git -C "$tree" worktree add -q --detach "$stock" lab-base
fi

build() {	# SIDE SRC: olddefconfig, prepare, then the objects
	o=$out/obj-$1
	mkdir -p "$o"
	xz -dc "$config" > "$o/.config.debian"
	if ! cmp -s "$o/.config.debian" "$o/.config.from" 2>/dev/null; then
		cp "$o/.config.debian" "$o/.config"
		cp "$o/.config.debian" "$o/.config.from"
	fi
	echo "  DEBIAN  $1: olddefconfig, prepare, $objs"
	kmake() {	# SIDE SRC TARGET...
		_src=$2
		shift 2
		make -s -C "$_src" O="$o" CC="ccache gcc" KBUILD_BUILD_USER=lab KBUILD_BUILD_HOST=lab -j"$jobs" "$@"
	}
	kmake "$1" "$2" olddefconfig >/dev/null
	if grep -q '^CONFIG_MODVERSIONS=y' "$o/.config"; then modversions=1; else modversions=; fi
	kmake "$1" "$2" prepare >/dev/null 2>"$out/$1-prepare.log" ||
		die "$1: make prepare failed: $(tail -n 5 "$out/$1-prepare.log")"
	# shellcheck disable=SC2086 # one word per object
	(cd "$o" && rm -f $objs)
	# shellcheck disable=SC2086 # one word per object
	kmake "$1" "$2" W=1 KBUILD_SYMTYPES=1 $objs > "$out/$1-w1.log" 2>&1 ||
		die "$1: the objects do not build: $(grep -m 5 'error' "$out/$1-w1.log")"
}
[ "$(git -C "$tree" rev-parse HEAD)" = "$(git -C "$tree" rev-parse lab-series)" ] ||
	die "$tree is not at its series (lab-series): a branch is being worked on there"
build stock "$stock"
build patched "$tree"

# W=1: warnings by object and text (line and column numbers dropped).
# Only the objects' own compiles count (not the host tools prepare builds);
# the path is taken from the tree's root, so that both sides compare.
warnings() {	# SIDE
	grep -E ':[0-9]+:[0-9]+: warning: ' "$out/$1-w1.log" |
		sed -E 's#^(.*/)?(linux-[^/]+|src-stock)/##; s/:[0-9]+:[0-9]+: /: /' |
		grep -v '^scripts/' | sort || :
}
warnings stock > "$out/stock.warnings"
warnings patched > "$out/patched.warnings"
new_warnings=$(comm -13 "$out/stock.warnings" "$out/patched.warnings")

# CRCs: genksyms' "#SYMVER name crc" lines in each object's .cmd file (or,
# on older trees, the __crc_ symbols of the object).
crcs() {	# SIDE
	for ob in $objs; do
		cmdf=$out/obj-$1/$(dirname "$ob")/.$(basename "$ob").cmd
		if grep -q '^#SYMVER ' "$cmdf" 2>/dev/null; then
			sed -n 's/^#SYMVER \([^ ]*\) \(0x[0-9a-f]*\).*/\1 \2/p' "$cmdf"
		else
			nm "$out/obj-$1/$ob" 2>/dev/null | awk '$3 ~ /^__crc_/ { sub(/^__crc_/, "", $3); print $3, "0x" $1 }'
		fi
	done | sort -u
}
crcs stock > "$out/stock.crcs"
crcs patched > "$out/patched.crcs"
[ -z "$modversions" ] || [ -s "$out/stock.crcs" ] || die "no CRC found in the stock objects' .cmd files or symbols"
changed_crcs=$(join "$out/stock.crcs" "$out/patched.crcs" | awk '$2 != $3 { print $1 }')
unchanged_crcs=$(join "$out/stock.crcs" "$out/patched.crcs" | awk '$2 == $3 { print $1 }')

# Enums: each enum's items in order, from the symtypes of every object.
enums() {	# SIDE: "enum-name item item ..." lines
	for ob in $objs; do cat "$out/obj-$1/${ob%.o}.symtypes"; done 2>/dev/null |
		grep '^e#' | sort -u | sed -E 's/^e#([^ ]+) enum [^ ]+ \{ (.*) \}.*/\1 \2/' |
		sed -E 's/ = [^,]*//g; s/ ,/ /g; s/  +/ /g'
}
enums stock | sort -u > "$out/stock.enums"
enums patched | sort -u > "$out/patched.enums"
enum_changes=$(awk 'FNR == NR { old[$1] = $0; next }
	($1 in old) && old[$1] != $0 {
		n = split(old[$1], a, " "); m = split($0, b, " ")
		delete was; added = ""; moved = ""
		for (i = 2; i <= n; i++) was[a[i]] = i
		for (i = 2; i <= m; i++) {
			if (!(b[i] in was)) added = added " " b[i]
			else if (was[b[i]] != i) moved = moved sprintf(" %s(%+d)", b[i], i - was[b[i]])
		}
		printf "enum %s: %d -> %d items; added:%s; moved:%s\n", $1, n - 1, m - 1, added, moved == "" ? " none" : moved
	}' "$out/stock.enums" "$out/patched.enums")

# sizeof(struct pglist_data), from the DWARF of mm/vmstat.o.
pgdat_size() {	# SIDE
	readelf --debug-dump=info "$out/obj-$1/mm/vmstat.o" 2>/dev/null |
		awk '/DW_TAG_structure_type/ { s = 1; name = ""; next }
		     s && /DW_AT_name/ { name = $NF }
		     s && /DW_AT_byte_size/ && name == "pglist_data" { print $NF; exit }
		     /^ <1>/ && !/DW_TAG_structure_type/ { s = 0 }'
}
size_stock=$(($(pgdat_size stock))) size_patched=$(($(pgdat_size patched)))

{
	echo "# Debian config check: $(basename "$tree"), $(basename "$config")"
	echo "objects: $objs"
	echo "W=1 warnings: stock $(wc -l < "$out/stock.warnings"), patched $(wc -l < "$out/patched.warnings"), new $(printf '%s' "$new_warnings" | grep -c . || :)"
	[ -z "$new_warnings" ] || echo "$new_warnings" | sed 's/^/  new: /'
	[ -n "$modversions" ] || echo "CONFIG_MODVERSIONS is not set in this config: no CRCs and no symtypes to compare"
	echo "exported symbols of these objects: $(wc -l < "$out/stock.crcs") stock, $(wc -l < "$out/patched.crcs") patched"
	echo "CRC changed: $(echo "$changed_crcs" | grep -c . || :): $(echo "$changed_crcs" | tr '\n' ' ')"
	echo "CRC unchanged: $(echo "$unchanged_crcs" | grep -c . || :): $(echo "$unchanged_crcs" | tr '\n' ' ')"
	echo "exports added: $(join -v 2 "$out/stock.crcs" "$out/patched.crcs" | cut -d' ' -f1 | tr '\n' ' ')"
	echo "exports removed: $(join -v 1 "$out/stock.crcs" "$out/patched.crcs" | cut -d' ' -f1 | tr '\n' ' ')"
	echo "${enum_changes:-enums: none changed}"
	echo "sizeof(struct pglist_data): stock $size_stock, patched $size_patched ($((size_patched - size_stock)) bytes)"
} | tee "$out/report.txt"
[ -z "$new_warnings" ] || die "W=1: the series adds warnings"
