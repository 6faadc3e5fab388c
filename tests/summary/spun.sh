#!/usr/bin/env bash
# Condvar hand-offs that spin (handoff.c ROUNDS), at the summary level
# alone (spin outcomes differ from run to run, so not compared with the
# contention level's): the waiter aggregates its queue between the looks
# of its spin, and the numbers are still those the program made, none
# lost or counted twice: ROUNDS waits begun and ended, signals, signaled
# wakes, no timeout; and the waits did spin (else this tested nothing
# new). A build whose steps dropped the wakes they aggregated counted
# ~16,000 waits ended of 20,000.
# usage: spun.sh SYNCTRACE PROGRAM ROUNDS
SYNCTRACE=$1 prog=$2 r=$3
. "$(dirname "$0")/../cli/lib.sh"
. "$(dirname "$0")/lib.sh"
need_daemon
run_st 0 "record --level summary" record -q --level summary -o "$T/summary" -- "$prog" "$r"
"$SYNCTRACE" report --format json "$T/summary" >"$T/summary.json" 2>"$T/err" ||
	{ fail "report: $(cat "$T/err")"; finish; }
cv='.tables[] | select(.name == "races.condvars") | .rows[]'
spin='.tables[] | select(.name == "spin.objects") | .rows[] | select(.type == "cond")'
top='.tables[] | select(.name == "waits.top") | .rows[] | select(.type == "cond")'
out='.tables[] | select(.name == "wakes.outcomes") | .rows[] | select(.type == "cond")'
eq_json summary "waits" "$cv | .waits" "$r"
eq_json summary "waits that ended (their wake, aggregated in the spin)" "$top | .waits" "$r"
eq_json summary "signals that woke a waiter" "$out | .woken" "$r"
eq_json summary "signals" "$cv | .signals" "$r"
eq_json summary "signaled waiters" "$cv | .signaled_waiters" "$r"
eq_json summary "timeouts" "$cv | .timeouts" 0
eq_json summary "waits that saw their signal in their spin" "[$spin | .acquired] | add > 0" true
finish
