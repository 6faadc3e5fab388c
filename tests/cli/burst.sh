#!/usr/bin/env bash
# A 10M-event burst from two threads (5M lock/unlock pairs each at full
# level: one event per pair), recorded with synctrace record's default
# channel: nothing may be discarded (the report's summary says how many
# events were recorded and discarded).
# usage: burst.sh SYNCTRACE REPORT PROGRAM
SYNCTRACE=$1 report=$2 prog=$3
. "$(dirname "$0")/lib.sh"
need_daemon
run_st 0 "record --level full (10M events)" record -q --level full -o "$T/trace" -- "$prog" 2 5000000
"$report" --format json "$T/trace" >"$T/report.json" 2>"$T/report.err" ||
	fail "report: status $? ($(head -3 "$T/report.err"))"
discarded=$(grep -o '"discarded_events": *[0-9]*' "$T/report.json" | head -1 | grep -o '[0-9]*$')
events=$(grep -o '"events": *[0-9]*' "$T/report.json" | head -1 | grep -o '[0-9]*$')
if [ "${discarded:-x}" = 0 ]; then pass "discarded events: 0"; else fail "discarded events: ${discarded:-none reported}"; fi
if [ "${events:-0}" -ge 10000000 ]; then pass "events recorded: $events"; else fail "events recorded: ${events:-none}, expected at least 10000000"; fi
rm -rf "$T/trace"
finish
