#!/bin/sh
# Configure a kernel build folder: tinyconfig, then the project's fragments,
# then olddefconfig.  Every option a fragment asks for is checked afterwards:
# Kconfig silently drops an option whose dependencies are not met, and a lab
# kernel without, say, CONFIG_ADVISE_SYSCALLS looks fine until madvise()
# returns ENOSYS.
#
# usage: kconfig.sh TREE KBUILD FRAGMENT...
set -eu

tree=$1 kbuild=$2
shift 2

kmake() { make -s -C "$tree" O="$(realpath "$kbuild")" "$@"; }

mkdir -p "$kbuild"
log=$kbuild/.lab-kconfig.log
{
	kmake tinyconfig &&
	"$tree/scripts/kconfig/merge_config.sh" -m -O "$kbuild" "$kbuild/.config" "$@" &&
	kmake olddefconfig
} > "$log" 2>&1 || { cat "$log" >&2; exit 1; }

for frag in "$@"; do
	sed -n -e 's/^\(CONFIG_[A-Za-z0-9_]*\)=\(.*\)$/\1 \2/p' \
	       -e 's/^# \(CONFIG_[A-Za-z0-9_]*\) is not set$/\1 n/p' "$frag" |
	while read -r sym want; do
		got=$(sed -n "s/^$sym=//p" "$kbuild/.config")
		[ -n "$got" ] || got=n
		if [ "$got" != "$want" ]; then
			echo "kconfig: $sym=$want requested by $(basename "$frag") but got $sym=$got" >&2
			echo x
		fi
	done
done > "$kbuild/.config-missing"
if [ -s "$kbuild/.config-missing" ]; then
	rm -f "$kbuild/.config"
	exit 1
fi
rm -f "$kbuild/.config-missing"
