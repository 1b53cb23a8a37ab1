#!/bin/sh
# Check the series the way a maintainer would before taking it:
#  - scripts/checkpatch.pl --strict reports no error and no warning on any
#    patch;
#  - every prefix of the series builds (bzImage and modules);
#  - W=1 reports no warning in the C files a patch touches;
#  - the whole series builds with each of COMPACTION, DEBUG_FS, FTRACE (and
#    so TRACEPOINTS), VM_EVENT_COUNTERS and NUMA off, each checked off after
#    olddefconfig.
# Builds in its own folders, so the lab's kernels are left alone.
#
# usage: check-series.sh TREE KBUILD PATCHDIR FRAGMENT...
set -eu

tree=$1 kbuild=$2 patchdir=$(realpath "$3")
shift 3
here=$(cd "$(dirname "$0")" && pwd)
kbuild=$(mkdir -p "$kbuild" && cd "$kbuild" && pwd)
fail() { echo "check-series: $*" >&2; exit 1; }
kmake() { make -s -C "$tree" O="$kbuild" CC="ccache gcc" -j"$(($(nproc) + 1))" "$@"; }

"$here/checkpatch-series.sh" "$tree" "$patchdir" || fail "checkpatch found errors or warnings"

commits=$(git -C "$tree" rev-list --reverse lab-base..lab-series)
[ -n "$commits" ] || { echo "  (empty series)"; exit 0; }
trap 'git -C "$tree" checkout -q lab-series' EXIT
"$here/kconfig.sh" "$tree" "$kbuild" "$@"
k=0
# CHECK_PREFIXES=0 skips the prefix builds (the matrix alone).
[ "${CHECK_PREFIXES:?}" = 1 ] || commits=
for c in $commits; do
	k=$((k + 1))
	subject=$(git -C "$tree" log -1 --format=%s "$c")
	git -C "$tree" checkout -q "$c"
	echo "  BUILD   $k: $subject"
	kmake olddefconfig >/dev/null
	kmake bzImage modules > "$kbuild/build-$k.log" 2>&1 ||
		{ tail -20 "$kbuild/build-$k.log" >&2; fail "patch $k ($subject) does not build"; }
	for f in $(git -C "$tree" diff --name-only "$c~1" "$c" -- '*.c'); do
		case $f in tools/*) continue ;; esac
		kmake W=1 "${f%.c}.o" > "$kbuild/w1.log" 2>&1 || true
		if grep -q 'warning:' "$kbuild/w1.log"; then
			cat "$kbuild/w1.log" >&2
			fail "patch $k ($subject): W=1 warnings in $f"
		fi
		echo "  W=1     $f: no warnings"
	done
done

# The config matrix, on the last patch.  Each entry: options to turn off
# (checked off after olddefconfig) : options of the fragment that depend on
# them, or select them, and are dropped from it.
git -C "$tree" checkout -q lab-series
base=$1
for entry in COMPACTION:TRANSPARENT_HUGEPAGE DEBUG_FS: "FTRACE TRACEPOINTS:EVENT_TRACING" \
	VM_EVENT_COUNTERS: "NUMA:X86_64_ACPI_NUMA NODES_SHIFT"; do
	off=${entry%%:*} drop=${entry#*:}
	frag=$kbuild-matrix.config
	cp "$base" "$frag"
	for o in $off $drop; do
		sed -i "/^CONFIG_$o=/d" "$frag"
	done
	for o in $off; do
		echo "# CONFIG_$o is not set" >> "$frag"
	done
	echo "  BUILD   all patches, $(echo "$off" | sed 's/ /, /g') off"
	"$here/kconfig.sh" "$tree" "$kbuild-matrix" "$frag"
	make -s -C "$tree" O="$kbuild-matrix" CC="ccache gcc" -j"$(($(nproc) + 1))" \
		bzImage modules > "$kbuild-matrix/build.log" 2>&1 ||
		{ tail -20 "$kbuild-matrix/build.log" >&2; fail "the series does not build with $off off"; }
done
prefixes="$k patches, each builds"
[ "$CHECK_PREFIXES" = 1 ] || prefixes="prefix builds skipped (CHECK_PREFIXES=0)"
echo "check-series: checkpatch clean; $prefixes; the series builds with each of COMPACTION, DEBUG_FS, FTRACE, VM_EVENT_COUNTERS, NUMA off"
