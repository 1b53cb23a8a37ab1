# Helpers for both sides, sourced by tests/lib/guest.sh (bash, in the
# guest) and tests/lib/host.sh (sh, on the host): POSIX shell only.

# cols CSV NAME...: the named columns of a CSV with a header line, one row
# a line, space separated, in the order named; fails on an unknown name
cols() {
	_f=$1
	shift
	awk -F, -v want="$*" '
	NR == 1 {
		n = split(want, w, " ")
		for (i = 1; i <= NF; i++) c[$i] = i
		for (j = 1; j <= n; j++) if (!(w[j] in c)) { print "cols: no column " w[j] > "/dev/stderr"; exit 2 }
		next
	}
	{ s = $(c[w[1]]); for (j = 2; j <= n; j++) s = s " " $(c[w[j]]); print s }' "$_f"
}

# min_score FILE: the lowest node score in fragscore's output
min_score() {
	awk '{ print $4 }' "$1" | sort -n | head -1
}

# shape JOB: the guest a guest test or job declares it needs, in a line
#   # lab-guest: CPUS_PER_NODE=2 MEM_PER_NODE=2048
# (words NAME=value for NODES, CPUS_PER_NODE, MEM_PER_NODE, DIMM_PER_NODE;
# the other settings apply as given), printed for `env`.  Fails on any
# other word.
shape() {
	_s=$(sed -n 's/^# lab-guest://p' "$1" | head -1)
	for _kv in $_s; do
		case $_kv in
		NODES=[1-9]* | CPUS_PER_NODE=[1-9]* | MEM_PER_NODE=[1-9]* | DIMM_PER_NODE=[0-9]*) ;;
		*) echo "bad lab-guest word '$_kv' (want NODES=, CPUS_PER_NODE=, MEM_PER_NODE= or DIMM_PER_NODE=)"; return 1 ;;
		esac
	done
	echo $_s
}
