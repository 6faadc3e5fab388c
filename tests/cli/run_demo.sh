#!/usr/bin/env bash
# `synctrace run` with no command: the built-in demo is recorded (both
# two-queue variants and the timed-wait race print their lines; its
# condvar events are in the trace) and reported.
# usage: run_demo.sh SYNCTRACE
SYNCTRACE=$1
. "$(dirname "$0")/lib.sh"
need_daemon
run_st 0 "run (the demo)" run -q -o "$T/demo"
for line in '^  cond ' '^  twomutex ' '^timed-wait race' 'timed out, [0-9]+ signaled'; do
	if grep -qE "$line" "$T/out"; then pass "demo printed '$line'"; else fail "no '$line' in the output"; fi
done
trace_has "demo's condvar signals recorded" "$T/demo" \
	'synctrace_cond:signal: .*procname = "synctrace-demo"'
trace_has "demo's timed waits recorded" "$T/demo" 'synctrace_cond:enqueued: .*timed = 1,'
if grep -q "^Summary\|\"tables\"" "$T/out"; then pass "report printed"; else
	grep -q "not built" "$T/err" && echo "$name: analyzer not built: report not checked" ||
		fail "no report in the output"
fi
finish
