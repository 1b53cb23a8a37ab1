#!/bin/sh
# Build kselftests of the tree's mm kselftests for the guest: the folder is
# tools/testing/selftests/vm in 6.1, tools/testing/selftests/mm since 6.3.
# They are plain C programs on kselftest.h; the guest runs Debian bookworm,
# as the host does, so the host's compiler and libc serve.  A test that
# includes vm_util.h is linked with vm_util.c, one on <numa.h> with libnuma,
# statically: the image has no libnuma.  Like the kselftest Makefiles, they
# compile against the tree's own uapi headers (make headers_install, into
# OUTDIR/usr, from a build folder so the source tree stays clean): 6.12's
# vm_util.c uses PAGE_IS_* flags that bookworm's libc headers predate.
#
# usage: build-selftests.sh TREE OUTDIR NAME...
set -eu

tree=$1 out=$2
shift 2
src=$tree/tools/testing/selftests
dir=$src/mm
[ -d "$dir" ] || dir=$src/vm
mkdir -p "$out"
echo "  HDRINST $out/usr/include"
make -s -C "$tree" O="$(realpath "$out")/hdr-obj" ARCH=x86_64 \
	INSTALL_HDR_PATH="$(realpath "$out")/usr" headers_install
for t in "$@"; do
	[ -r "$dir/$t.c" ] || { echo "build-selftests: no $dir/$t.c" >&2; exit 1; }
	extra="" libs=""
	# vm_util.c, since 6.5 thp_settings.c, since 7.2 hugepage_settings.c
	# (thp_settings.c renamed) hold helpers the tests share; the tree's
	# Makefile links them with every test, and so does this.
	if grep -q '"\(vm_util\|thp_settings\|hugepage_settings\).h"' "$dir/$t.c"; then
		for h in vm_util thp_settings hugepage_settings; do
			[ -r "$dir/$h.c" ] && extra="$extra $dir/$h.c"
		done
	fi
	grep -q '<numa.h>' "$dir/$t.c" && libs='-Wl,-Bstatic -lnuma -Wl,-Bdynamic'
	# 6.12.y's khugepaged.c got a stable backport that returns KSFT_SKIP,
	# which upstream's vm_util.h defines by including kselftest.h and
	# 6.12's does not: give such a test kselftest.h, as upstream does.
	if grep -q 'KSFT_' "$dir/$t.c" && ! grep -q 'kselftest.h' "$dir/$t.c" "$dir/vm_util.h"; then
		extra="$extra -D_GNU_SOURCE= -include $src/kselftest.h"
	fi
	echo "  CC      $out/$t"
	# shellcheck disable=SC2086 # empty or one word each
	${CC:-cc} -O2 -Wall -isystem "$out/usr/include" -I "$src" -I "$dir" -o "$out/$t" "$dir/$t.c" $extra -lrt -lpthread $libs
done
