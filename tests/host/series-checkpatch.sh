# lab-tags: series
# Every patch of the series passes the tree's checkpatch.pl --strict with no
# error and no warning, and the check does catch a patch that breaks style.
# shellcheck source=tests/lib/host.sh
. "$(dirname "$0")/../lib/host.sh"

tree=${LAB_TREE:?}
"$scripts/checkpatch-series.sh" "$tree" "${LAB_PATCHES:?}" || fail "the series is not checkpatch clean"

mkdir -p "$TEST_DIR/bad"
first=$(ls "$LAB_PATCHES"/0001-*.patch)
# A trailing space on an added line, and a line over 100 columns.
awk '/^\+\t\t/ && !done { print $0 " "; print "+\t" sprintf("%0120d", 0) ";"; done = 1; next } { print }' \
	"$first" > "$TEST_DIR/bad/0001-bad.patch"
if "$scripts/checkpatch-series.sh" "$tree" "$TEST_DIR/bad"; then
	fail "a patch with style errors passed"
fi
echo "ok: a patch with style errors is caught"
