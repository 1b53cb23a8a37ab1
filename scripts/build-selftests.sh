#!/bin/sh
# Build kselftests of the tree's tools/testing/selftests/vm for the guest.
# They are plain C programs on kselftest.h; the guest runs Debian bookworm,
# as the host does, so the host's compiler and libc serve.
#
# usage: build-selftests.sh TREE OUTDIR NAME...
set -eu

tree=$1 out=$2
shift 2
src=$tree/tools/testing/selftests
mkdir -p "$out"
for t in "$@"; do
	[ -r "$src/vm/$t.c" ] || { echo "build-selftests: no $src/vm/$t.c" >&2; exit 1; }
	echo "  CC      $out/$t"
	${CC:-cc} -O2 -Wall -I "$src" -o "$out/$t" "$src/vm/$t.c" -lrt -lpthread
done
