# lab-tags: runner
# The debug flavour's defaults are the documented ones (TIMEOUT 900,
# STRESS_CI_S 300) under make test-debug, whose sub-make would otherwise
# inherit the base values this make exports; a value given on the command
# line or in the environment still wins.  Checked through make settings and
# settings-debug, which pass settings on exactly as test and test-debug do.
# shellcheck source=tests/lib/host.sh
. "$(dirname "$0")/../lib/host.sh"

# settings [NAME=value...] make ARGS...: the command's output as from a
# shell, without the settings the running make exported; NAME=value words
# go into its environment.
settings() {
	set -- env -u MAKEFLAGS -u MAKELEVEL -u MFLAGS -u TIMEOUT -u STRESS_CI_S -u KFLAVOR "$@"
	"$@" 2>&1 | tr '\n' ' '
}
has() {	# WHAT OUTPUT NAME=VALUE...
	what=$1 out=$2
	shift 2
	for kv in "$@"; do
		case " $out" in *" $kv "*) ;; *) fail "$what: no $kv in: $out" ;; esac
	done
	echo "ok: $what: $*"
}
has "make settings" "$(settings make -s -C "$top" settings)" KFLAVOR=base TIMEOUT=300 STRESS_CI_S=180
has "make settings-debug" "$(settings make -s -C "$top" settings-debug)" KFLAVOR=debug TIMEOUT=900 STRESS_CI_S=300
has "make KFLAVOR=debug settings" "$(settings make -s -C "$top" KFLAVOR=debug settings)" TIMEOUT=900 STRESS_CI_S=300
has "make settings-debug TIMEOUT=42" "$(settings make -s -C "$top" settings-debug TIMEOUT=42)" TIMEOUT=42 STRESS_CI_S=300
has "STRESS_CI_S=7 make settings-debug" "$(settings STRESS_CI_S=7 make -s -C "$top" settings-debug)" TIMEOUT=900 STRESS_CI_S=7
# test-debug and settings-debug pass the same settings.
grep -q '^	@$(MAKE) KFLAVOR=debug $(call flavor_defaults,debug) test$' "$top/Makefile" ||
	fail "test-debug does not pass the flavour's defaults as settings-debug does"
echo "ok: test-debug passes the same settings"
