#!/usr/bin/env bash
# `synctrace run` with no command: the built-in demo is recorded (both
# two-queue variants and the timed-wait race print their lines; its
# condvar events are in the trace) and reported: the default text report
# of this busy program fits 80 lines and names its top waits; with
# --format json the report alone is on stdout (the demo's own output on
# stderr) and parses.
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
if grep -q "^synctrace report: \|\"tables\"" "$T/out"; then pass "report printed"; else
	grep -q "not built" "$T/err" && echo "$name: analyzer not built: report not checked" ||
		fail "no report in the output"
fi
report=$(sed -n '/^synctrace report: /,$p' "$T/out")
n=$(wc -l <<<"$report")
[ "$n" -le 80 ] && pass "text report: $n lines (at most 80)" || fail "text report: $n lines"
w=$(awk '{ if (length($0) > m) m = length($0) } END { print m + 0 }' <<<"$(sed 's/µ/u/g; s/…/./g; s/→/>/g' <<<"$report")")
[ "$w" -le 120 ] && pass "text report: at most 120 columns ($w)" || fail "text report: $w columns"
# The top wait is the timed-wait race's condvar: its wait, or (on a loaded
# machine, where a woken waiter is often preempted) taking its mutex back.
for part in '^Findings$' '^ 1\. ' '^Where threads wait' '^1 cond(-relock)? ' '^Waiting per thread$'; do
	grep -qE "$part" <<<"$report" && pass "text report has '$part'" || fail "text report lacks '$part'"
done
# The demo's condvar waits are its top wait, in the findings too.
grep -qE '^ [0-9]\. cond `[^`]+`.*% of all waiting \(cond\)' <<<"$report" &&
	pass "a finding names the top condvar" || fail "no finding on the top condvar"

run_st 0 "run --format json (the demo)" run -q --format json -o "$T/demo2"
if jq -e '.schema == "synctrace-report"' "$T/out" >/dev/null 2>&1; then
	pass "run --format json: stdout is the JSON report alone"
else fail "run --format json: stdout does not parse: $(head -c 300 "$T/out")"; fi
grep -qE '^timed-wait race' "$T/err" && pass "the demo's own output went to stderr" ||
	fail "the demo's output is not on stderr"
k=$(jq -r '[.tables[] | select(.name == "findings") | .rows[] | select(.kind == "wait")] | length' "$T/out")
[ "$k" -ge 1 ] && pass "json: $k wait findings (data)" || fail "json: no wait finding"
finish
