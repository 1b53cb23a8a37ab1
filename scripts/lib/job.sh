# The job header: what a guest job (a test in tests/guest/, a workload in
# tests/guest/jobs/) or a host test declares it needs, read by the launcher
# (scripts/lab-run.sh) and the test runner (scripts/run-tests.sh).  POSIX
# shell, sourced.
#
# The header is the file's leading comment block; a line of it of the form
# "# lab-KEY: VALUE" is a declaration.  Each key at most once:
#
#   lab-guest    NAME=value words: the guest shape the job requires, for
#                NODES, CPUS_PER_NODE, MEM_PER_NODE and DIMM_PER_NODE
#                (the others are what the command line or the Makefile
#                says)
#   lab-env      the settings the job reads, by name: exactly these reach
#                the guest, besides the guest library's own environment
#                (JOB_BASE_ENV below)
#   lab-timeout  the seconds QEMU may run, as a sum of products of
#                settings and integers, e.g. "STRESS_S + 2 * STRESS_WINDOW_S
#                + TIMEOUT" (default: TIMEOUT)
#   lab-collect  what the job leaves in $OUT that the host keeps (paths or
#                globs relative to $OUT; a folder ends with /)
#   lab-tags     the groups the test belongs to, for TAGS= selection
#
# A host test may declare lab-tags only.  Any other "# lab-" line in the
# header is an error, so that a typo cannot silently drop a requirement.

JOB_KEYS="guest env timeout collect tags"
JOB_SHAPE="NODES CPUS_PER_NODE MEM_PER_NODE DIMM_PER_NODE"
# Every guest job gets these: the shape as booted, the tree, and where the
# lab's binaries, modules, tests and kselftests are in the guest.
# shellcheck disable=SC2034 # read by run-guest.sh, which sources this
JOB_BASE_ENV="$JOB_SHAPE KVER KFLAVOR LAB_BIN LAB_MODULES LAB_SELFTESTS"

# job_header FILE: the header's declarations, "KEY VALUE" a line; fails
# with a message naming the file and line on an unknown or repeated key
job_header() {
	awk -v keys=" $JOB_KEYS " -v f="$1" '
	!/^#/ && NR > 1 { exit }
	/^# *lab-[A-Za-z0-9_-]*:/ {
		k = $0; sub(/^# *lab-/, "", k); sub(/:.*/, "", k)
		v = $0; sub(/^[^:]*:[ \t]*/, "", v); sub(/[ \t]+$/, "", v)
		if (index(keys, " " k " ") == 0) {
			known = keys; gsub(/^ | $/, "", known); gsub(/ /, ", lab-", known)
			printf "%s:%d: unknown header key lab-%s (known: lab-%s)\n", f, NR, k, known > "/dev/stderr"
			bad = 1; exit
		}
		if (k in seen) { printf "%s:%d: lab-%s declared twice\n", f, NR, k > "/dev/stderr"; bad = 1; exit }
		seen[k] = 1
		print k, v
	}
	END { exit bad }' "$1"
}

# job_get HEADER KEY: one declaration's value from job_header's output
job_get() {
	printf '%s\n' "$1" | sed -n "s/^$2 //p"
}

# job_has_tag HEADER TAGS: whether a test with this header is selected by
# TAGS, comma separated: a test is taken when it has any plain tag of TAGS
# (or TAGS has none) and none of its "-tag"s
job_has_tag() {
	_tags=" $(job_get "$1" tags) "
	_want=no _plain=no
	for _t in $(echo "$2" | tr , ' '); do
		case $_t in
		-*) case $_tags in *" ${_t#-} "*) return 1 ;; esac ;;
		*) _plain=yes; case $_tags in *" $_t "*) _want=yes ;; esac ;;
		esac
	done
	[ "$_plain" = no ] || [ "$_want" = yes ]
}

# job_shape HEADER: the lab-guest words, checked; fails naming a bad word
job_shape() {
	_s=$(job_get "$1" guest)
	for _kv in $_s; do
		case $_kv in
		NODES=[1-9]* | CPUS_PER_NODE=[1-9]* | MEM_PER_NODE=[1-9]* | DIMM_PER_NODE=[0-9]*)
			case ${_kv#*=} in *[!0-9]*) ;; *) continue ;; esac ;;
		esac
		echo "bad lab-guest word '$_kv' (want NAME=number for NODES, CPUS_PER_NODE, MEM_PER_NODE or DIMM_PER_NODE)"
		return 1
	done
	echo $_s
}

# job_timeout HEADER: the lab-timeout expression's value in seconds, from
# the settings in the environment: a sum of products of settings and
# integers; fails naming what is wrong
job_timeout() {
	_e=$(job_get "$1" timeout)
	set -f
	# shellcheck disable=SC2086 # the words of the expression
	set -- ${_e:-TIMEOUT}
	set +f
	_sum=0 _prod=1 _want=term
	for _w; do
		case $_want$_w in
		op+) _sum=$((_sum + _prod)) _prod=1 _want=term; continue ;;
		op\*) _want=term; continue ;;
		op*) echo "lab-timeout: '$_w' where + or * was expected"; return 1 ;;
		term[0-9]*) _v=$_w ;;
		term[A-Z_]*) _v=$(job_value "$_w") ;;
		*) echo "lab-timeout: '$_w' where a setting or an integer was expected"; return 1 ;;
		esac
		case $_v in
		'' | *[!0-9]*) echo "lab-timeout: $_w='$_v' is not a number of seconds"; return 1 ;;
		esac
		_prod=$((_prod * _v)) _want=op
	done
	[ "$_want" = op ] || { echo "lab-timeout: '$_e' ends with an operator"; return 1; }
	echo $((_sum + _prod))
}

# job_name WORD: whether WORD can name a setting
job_name() {
	case $1 in
	'' | [0-9]* | *[!A-Za-z0-9_]*) return 1 ;;
	esac
}

# job_value NAME: a setting's value (empty when unset); NAME is checked
job_value() {
	job_name "$1" || return 1
	eval "printf %s \"\${$1-}\""
}

# env_line NAME: "export NAME='value'" for a shell to read back exactly,
# quotes and spaces included
env_line() {
	printf "export %s='%s'\n" "$1" "$(job_value "$1" | sed "s/'/'\\\\''/g")"
}

# job_reason WHYFILE LOG: why a job or test ended: the first line of the
# reason it left in WHYFILE (fail and skip in tests/lib/common.sh write
# it), else its log's last FAIL, SKIP or "not ok" line; on one line
job_reason() {
	if [ -s "$1" ]; then
		head -n 1 "$1"
	else
		grep -E '^(FAIL|SKIP|not ok)' "$2" 2>/dev/null | tail -n 1 | sed -E 's/^(FAIL|SKIP): //'
	fi
}

# job_verdict RUNDIR KIND [WHY]: write the run's one-line verdict and
# return its status: 0 for ok, 4 for skip, 1 for any failure
job_verdict() {
	case $2 in
	ok) echo ok > "$1/verdict"; return 0 ;;
	skip) echo "skip: $3" > "$1/verdict"; return 4 ;;
	esac
	printf '%s: %s\n' "$2" "$3" | tr '\n' ' ' | sed 's/ $/\n/' > "$1/verdict"
	return 1
}
