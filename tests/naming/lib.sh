# Shared by the tests/naming scripts (sourced after ../cli/lib.sh): the
# names driver over a recorded trace, and assertions on its lines.
# Each script: usage SCRIPT SYNCTRACE NAMES PROGRAM SOURCE [more...].
SYNCTRACE=$1 names=$2 prog=$3 src=$4
. "$(dirname "$0")/../cli/lib.sh"
need_daemon
export ST_TEST_MODE=traced # the programs check that synctrace is interposed
comm=$(basename "$prog" | cut -c1-15) # the process name in the trace
s=$(basename "$src")
# line MARK: the line of SOURCE marked "NAMESITE MARK".
line() { grep -nE "NAMESITE $1( |\$)" "$src" | head -1 | cut -d: -f1; }

# names [OPTIONS] TRACE_OUTPUT FILE: the driver's lines (TYPE HOW NAME SITE
# KLASS VPID SHARED INSTANCES, names.c), sorted. Default options: -k -p,
# every object of every process (no classes, no process-shared merging).
names() {
	local ctf opts=()
	while [[ $1 == -* ]]; do opts+=("$1"); shift; done
	[ ${#opts[@]} -gt 0 ] || opts=(-k -p)
	ctf=$(dirname "$(find "$1" -name metadata | head -1)")
	"$names" "${opts[@]}" "$comm" "$ctf" >"$2.raw" 2>"$T/names-err" ||
		{ fail "names $1: status $?"; cat "$T/names-err" >&2; }
	sort "$2.raw" >"$2"
}
# expect FILE WHAT COUNT TYPE|HOW|NAME|SITE: exactly COUNT objects so named.
expect() {
	local n
	n=$(cut -f1-4 "$1" | tr '\t' '|' | grep -cxF "$4")
	[ "$n" -eq "$3" ] && pass "$2: $4 (${3}x)" || { fail "$2: $n objects '$4', want $3"; tr '\t' '|' <"$1" >&2; }
}
# klass_of FILE NAME: the class keys of the objects named NAME (sorted, unique).
klass_of() { awk -F'\t' -v n="$2" '$3 == n { print $5 }' "$1" | sort -u; }

