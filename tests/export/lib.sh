# Shared by the export tests: sourced with SYNCTRACE REPORT PROG SRC as
# $1..$4. record_both: $T/plain (no stacks) and $T/stacks (--stacks) of
# contend.c; line numbers of its CALLSITE marks in $take and $loop.
SYNCTRACE=$1 report=$2 prog=$3 src=$4
. "$(dirname "$0")/../cli/lib.sh"
need_daemon
comm=$(basename "$prog" | cut -c1-15)
srcname=$(basename "$src")
take=$(grep -n '/\* CALLSITE take' "$src" | cut -d: -f1)
loop=$(grep -n '/\* CALLSITE loop' "$src" | cut -d: -f1)

record_both() {
	run_st 0 "record" record --spin none -q -o "$T/plain" -- "$prog"
	run_st 0 "record --stacks" record --stacks --spin none -q -o "$T/stacks" -- "$prog"
}

# export WHAT OUTFILE ARGS...: synctrace-report ARGS -o OUTFILE, status 0.
export_to() {
	local what=$1 outf=$2
	shift 2
	if "$report" "$@" -o "$outf" 2>"$T/xerr"; then pass "$what: status 0"; else
		fail "$what: status $?"; cat "$T/xerr" >&2; fi
}

# The report's total wait (ns) and waits of kind mutex on queue_lock,
# from the CSV's waits.top table: "wait_ns waits".
report_wait() { # TRACE
	"$report" --format csv "$1" | awk -F, '
		/^# waits.top/ { on = 1; hdr = 1; next }
		on && /^$/ { on = 0 }
		on && hdr { for (i = 1; i <= NF; i++) col[$i] = i; hdr = 0; next }
		on && $col["name"] == "queue_lock" && $col["kind"] == "mutex" {
			print $col["wait_total_ns"], $col["waits"]; exit }'
}
