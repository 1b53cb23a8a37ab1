#!/bin/sh
# Build kselftests of the tree's tools/testing/selftests/vm for the guest.
# They are plain C programs on kselftest.h; the guest runs Debian bookworm,
# as the host does, so the host's compiler and libc serve.  A test that
# includes vm_util.h is linked with vm_util.c, one on <numa.h> with libnuma,
# statically: the image has no libnuma.
#
# usage: build-selftests.sh TREE OUTDIR NAME...
set -eu

tree=$1 out=$2
shift 2
src=$tree/tools/testing/selftests
mkdir -p "$out"
for t in "$@"; do
	[ -r "$src/vm/$t.c" ] || { echo "build-selftests: no $src/vm/$t.c" >&2; exit 1; }
	extra= libs=
	grep -q '"vm_util.h"' "$src/vm/$t.c" && extra=$src/vm/vm_util.c
	grep -q '<numa.h>' "$src/vm/$t.c" && libs='-Wl,-Bstatic -lnuma -Wl,-Bdynamic'
	echo "  CC      $out/$t"
	# shellcheck disable=SC2086 # empty or one word each
	${CC:-cc} -O2 -Wall -I "$src" -o "$out/$t" "$src/vm/$t.c" $extra -lrt -lpthread $libs
done
