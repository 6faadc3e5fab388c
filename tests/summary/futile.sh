#!/usr/bin/env bash
# A condvar's wake outcomes at the summary level (doc/wakes.md): each thread
# counts what it can alone (the broadcasts and whom they signalled, its own
# futile wakes: woken signalled, then waiting again on the same condvar
# without releasing the mutex), so the condvar's row of wakes.outcomes is
# the contention level's, latencies aside, and so is the futile finding;
# the summary names no waking call site.
# broadcast_futile R: R broadcasts x 4 woken, 1 useful and 3 futile each,
# and a last broadcast that lets all 4 go.
# usage: futile.sh SYNCTRACE PROGRAM R
SYNCTRACE=$1 prog=$2 r=$3
. "$(dirname "$0")/../cli/lib.sh"
. "$(dirname "$0")/lib.sh"
need_daemon
record_levels -- "$prog" "$r"
cv='.tables[] | select(.name == "wakes.outcomes") | .rows[] | select(.type == "cond")'
finding='[.tables[] | select(.name == "findings") | .rows[] | select(.kind == "futile_wakes" and .verdict == "futile")]'
for level in contention summary; do
	eq_json $level "condvars" "[$cv] | length" 1
	eq_json $level "calls" "$cv | .wake_calls" $((r + 1))
	eq_json $level "woken" "$cv | .woken" $((4 * r + 4))
	eq_json $level "won" "$cv | .won" $((r + 4))
	eq_json $level "futile" "$cv | .futile" $((3 * r))
	eq_json $level "undecided" "$cv | .undecided" 0
	eq_json $level "broadcasts" "$cv | .multi_calls" $((r + 1))
	eq_json $level "the finding's count" "$finding[0].count" $((3 * r))
done
# The whole row, but what differs from run to run and what needs the order
# of the waker's and the wakee's events (the latencies).
row() { jq -S "[$cv] | map(del(.vpid, .address, .sched_delay_mean_ns, .sched_delay_max_ns, .reacquire_mean_ns, .reacquire_max_ns))" "$T/$1.json"; }
if diff <(row contention) <(row summary) >"$T/diff"; then
	pass "the condvar's wake outcomes are the same at both levels"
else
	fail "the condvar's wake outcomes differ (contention <, summary >):"
	cat "$T/diff" >&2
fi
eq_json summary "latencies: not in a summary" "$cv | .sched_delay_mean_ns" null
eq_json summary "no call site" "[.tables[] | select(.name == \"wakes.sites\") | .rows[] | select(.type == \"cond\") | .call_site] | unique | tojson" '[null]'
eq_json summary "the finding says it has no call site" "$finding[0].text | test(\"waiters woken by cond:broadcast waited again.*; the summary level records no call sites[.]\")" true
finish
