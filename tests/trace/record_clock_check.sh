#!/usr/bin/env bash
# record_clock.c's trace: its 5000 sem:trywait_failed records and
# thread:name events (rc0 .. rc4999) alternate, each record before the
# name of the same round, in the trace's time order; told the clocksource
# is distrusted, the process's meta:clock says PER_CPU.
set -u
events=$(${ST_EVENTS:?set by tests/run-mode.sh} "$1") || { echo "record_clock: cannot read $1" >&2; exit 1; }
seq=$(grep -E 'synctrace_sem:trywait_failed:|synctrace_thread:name:.*name = "rc[0-9]+"' <<<"$events" |
	sed -E 's/.*synctrace_sem:trywait_failed:.*/T/; s/.*name = "rc([0-9]+)".*/N \1/')
awk -v want=5000 '
	$1 == "T" { if (last == "T") { bad++; if (!first) first = "two records before name rc" nn }; last = "T"; t++ }
	$1 == "N" { if (last != "T" || $2 != n) { bad++; if (!first) first = "name rc" $2 " not after its record" }; last = "N"; n++; nn = n }
	END {
		if (t != want || n != want) { printf "record_clock: %d records and %d names, expected %d each\n", t, n, want > "/dev/stderr"; exit 1 }
		if (bad) { printf "record_clock: %d out of order (first: %s)\n", bad, first > "/dev/stderr"; exit 1 }
		printf "record_clock: %d records and names in order\n", want
	}' <<<"$seq" || exit 1
src=$(cat /sys/devices/system/clocksource/clocksource0/current_clocksource 2>/dev/null)
echo "record_clock: clocksource ${src:-unknown}"
# Told the clocksource is distrusted (SYNCTRACE_TEST_CLOCKSOURCE), the
# process read the counter per CPU (glibc's rseq): else the per-CPU paths
# this test is for did not run.
if [ -n "${SYNCTRACE_TEST_CLOCKSOURCE:-}" ]; then
	clk=$(grep 'synctrace_meta:clock:' <<<"$events")
	grep -q 'why = ( "PER_CPU"' <<<"$clk" ||
		{ echo "record_clock: told distrusted, yet meta:clock is '$clk' (want why PER_CPU: glibc's rseq?)" >&2; exit 1; }
	echo "record_clock: the records read the counter per CPU (meta:clock PER_CPU)"
fi
