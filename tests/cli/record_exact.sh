#!/usr/bin/env bash
# record of a program with known numbers (tests/trace/mutex_exact.c: 5
# contended acquisitions with SYNCTRACE_SPIN=none; the expectations of
# tests/trace/mutex_exact_check.sh), with the contexts and the statedump;
# then report of that trace. Only this program's events are counted (by
# procname): other traced programs of the same user that run meanwhile
# (parallel tests) are recorded too, as in any per-UID LTTng session.
# usage: record_exact.sh SYNCTRACE PROGRAM
SYNCTRACE=$1 prog=$2
. "$(dirname "$0")/lib.sh"
need_daemon
comm=$(basename "$prog" | cut -c1-15)

run_st 0 "record --spin none" record --spin none -o "$T/trace" -- "$prog"
trace_events "$T/trace" | grep "procname = \"$comm\"" >"$T/events"
expect() { # expect WHAT COUNT PATTERN
	local n
	n=$(grep -cE "$3" "$T/events")
	if [ "$n" -eq "$2" ]; then pass "$1: $n"; else fail "$1: expected $2, found $n"; fi
}
expect "contended requests" 5 'synctrace_mutex:requested:'
expect "acquired after sleeping" 5 'synctrace_mutex:acquired:.*how = \( "SLEEP" : container = 2 \),'
expect "acquired, all" 5 'synctrace_mutex:acquired:'
expect "futex waits, woken" 5 'synctrace_futex:wait:.*result = 0,'
expect "futex waits, all" 5 'synctrace_futex:wait:'
expect "wakes that woke one" 5 'synctrace_futex:wake:.*woken = 1 }'
expect "wakes, all" 10 'synctrace_futex:wake:'
expect "wakes that woke nobody (the sleeper's own unlock: mutex.h)" 5 'synctrace_futex:wake:.*woken = 0 }'
expect "releases with a wake" 5 'synctrace_mutex:released:.*woken = 1,'
expect "releases with a wake that woke nobody" 5 'synctrace_mutex:released:.*woken = 0,'
expect "spin loops (--spin none)" 0 'synctrace_spin:loop:'
expect "destroy: 10 acquisitions, 5 contended" 1 \
	'synctrace_mutex:destroy:.*result = 0, acquisitions = 10, contended = 5 }'
trace_has "contexts vpid, vtid, procname (and no ip)" "$T/trace" \
	'synctrace_mutex:requested: .*vpid = [0-9]+, vtid = [0-9]+, procname = "[^"]*" }'
trace_has "the program among the loaded objects, first, with its build ID" "$T/trace" \
	"synctrace_meta:module: .*path = \"[^\"]*/$(basename "$prog")\", _build_id_length = [1-9][0-9]*, build_id = .*first = 1 }"
trace_has "libc among them" "$T/trace" 'synctrace_meta:module: .*path = "[^"]*/libc\.so\.6"'
if trace_events "$T/trace" | grep -q 'lttng_ust_statedump:bin_info'; then
	fail "lttng-ust's base-address statedump ran (the probes' list replaces it)"
else
	pass "no lttng-ust base-address statedump (the probes' list replaces it)"
fi
trace_has "SYNCTRACE_SPIN=none reached the program (spin_mode 0)" "$T/trace" \
	'synctrace_meta:start: .*spin_mode = \( "NONE" : container = 0 \)'

run_st 0 "record --level full" record -q --level full -o "$T/full" -- "$prog"
trace_has "SYNCTRACE_LEVEL=full reached the program (level 2)" "$T/full" \
	'synctrace_meta:start: .*level = \( "FULL" : container = 2 \)'

# The report, when the analyzer is built (another component).
if "$SYNCTRACE" report "$T/trace" >"$T/report" 2>"$T/err"; then
	if [ -s "$T/report" ]; then pass "report of the trace"; else fail "report printed nothing"; fi
elif grep -q "not built" "$T/err"; then
	echo "$name: analyzer not built: report not checked"
else
	fail "report failed:"; cat "$T/err" >&2
fi
finish
