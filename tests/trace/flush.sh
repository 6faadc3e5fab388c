#!/usr/bin/env bash
# synctrace_flush: a program that calls it and is killed (SIGKILL) right
# after has every record it made in the trace, at the contention and the
# full level (without the call it loses the ~85 records still in its ring,
# younger than the flusher's 10 ms: flush.c's "no-flush", printed here for
# the record); untraced (not preloaded, or preloaded with no session) and
# at the summary level it returns -1.
# usage: flush.sh SYNCTRACE LIBSYNCTRACE PROGRAM
SYNCTRACE=$1 lib=$2 prog=$3
. "$(dirname "$0")/../cli/lib.sh"
need_daemon
n=700
records() { trace_events "$1" | grep -c 'synctrace_sem:trywait_failed:'; }
for level in contention full; do
	run_st 137 "$level: killed after the flush" record -q --level $level -o "$T/$level" -- "$prog" $n die
	grep -q '^flush=0$' "$T/out" && pass "$level: synctrace_flush returned 0" ||
		fail "$level: the program printed '$(cat "$T/out")', want flush=0"
	got=$(records "$T/$level")
	[ "$got" -eq $n ] && pass "$level: all $n records in the trace" ||
		fail "$level: $got of $n records in the trace"
done
run_st 137 "killed, no flush" record -q -o "$T/none" -- "$prog" $n no-flush
echo "$name: without the flush: $(records "$T/none") of $n records in the trace"
out=$("$prog" 5)
[ "$out" = flush=-1 ] && pass "not preloaded: -1" || fail "not preloaded: '$out'"
out=$(LD_PRELOAD=$lib "$prog" 5)
[ "$out" = flush=-1 ] && pass "preloaded, no session: -1" || fail "preloaded, no session: '$out'"
run_st 0 "summary level" record -q --level summary -o "$T/summary" -- "$prog" 5
grep -q '^flush=-1$' "$T/out" && pass "summary level: -1" || fail "summary level: '$(cat "$T/out")'"
finish
