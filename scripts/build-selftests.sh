#!/bin/sh
# Build kselftests of the tree's mm kselftests for the guest: the folder is
# tools/testing/selftests/vm in 6.1, tools/testing/selftests/mm since 6.3.
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
dir=$src/mm
[ -d "$dir" ] || dir=$src/vm
mkdir -p "$out"
for t in "$@"; do
	[ -r "$dir/$t.c" ] || { echo "build-selftests: no $dir/$t.c" >&2; exit 1; }
	extra= libs=
	# vm_util.c, and since 6.5 thp_settings.c, hold helpers the tests share
	grep -q '"vm_util.h"' "$dir/$t.c" && extra=$dir/vm_util.c
	grep -q '"thp_settings.h"' "$dir/$t.c" && extra="$extra $dir/thp_settings.c"
	grep -q '<numa.h>' "$dir/$t.c" && libs='-Wl,-Bstatic -lnuma -Wl,-Bdynamic'
	echo "  CC      $out/$t"
	# shellcheck disable=SC2086 # empty or one word each
	${CC:-cc} -O2 -Wall -I "$src" -I "$dir" -o "$out/$t" "$dir/$t.c" $extra -lrt -lpthread $libs
done
