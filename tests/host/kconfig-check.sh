# lab-tags: runner
# kconfig.sh names every requested option that did not land after
# olddefconfig (here: one that does not exist and one whose dependency is
# off), and accepts a fragment whose options all land.
# shellcheck source=tests/lib/host.sh
. "$(dirname "$0")/../lib/host.sh"

tree=${LAB_TREE:?}
[ -d "$tree/.git" ] || fail "no kernel tree at $tree (make tree)"
printf 'CONFIG_LAB_NO_SUCH_OPTION=y\nCONFIG_9P_FS=y\n# CONFIG_INET is not set\n' > "$TEST_DIR/bad.config"
if out=$("$scripts/kconfig.sh" "$tree" "$TEST_DIR/kbuild" "$TEST_DIR/bad.config" 2>&1); then
	fail "a fragment with options that cannot be set was accepted"
fi
echo "$out"
echo "$out" | grep -q 'CONFIG_LAB_NO_SUCH_OPTION=y requested by bad.config but got CONFIG_LAB_NO_SUCH_OPTION=n' ||
	fail "missing option not named"
echo "$out" | grep -q 'CONFIG_9P_FS=y requested' || fail "option with unmet dependency not named"
[ ! -e "$TEST_DIR/kbuild/.config" ] || fail "a rejected configuration was left in place"

printf 'CONFIG_64BIT=y\nCONFIG_MODULES=y\n' > "$TEST_DIR/good.config"
"$scripts/kconfig.sh" "$tree" "$TEST_DIR/kbuild" "$TEST_DIR/good.config" || fail "a good fragment was rejected"
grep -q '^CONFIG_MODULES=y' "$TEST_DIR/kbuild/.config" || fail "good fragment not applied"
echo "ok"
