#!/usr/bin/env bash
# The batches' flusher naps while no ring holds a record, and the record
# that makes one hold one wakes it (nap.c): over 300 ms of an idle process
# it wakes at most twice (every 5 ms before: ~60), and a process killed
# once its later records were out has every record in the trace (the
# flusher's nap set to 10 minutes: only the wake ends it).
# usage: nap.sh SYNCTRACE PROGRAM
SYNCTRACE=$1 prog=$2
. "$(dirname "$0")/../cli/lib.sh"
need_daemon
n1=50 n2=30
export SYNCTRACE_TEST_NAP_MS=600000
level=contention
run_st 137 "$level: killed after its records were out" record -q --level $level \
	-o "$T/$level" -- "$prog" $n1 $n2 300
wakes=$(sed -n 's/^idle_wakes=//p' "$T/out")
if [ -z "$wakes" ]; then fail "$level: $(cat "$T/out")"
elif [ "$wakes" -le 2 ]; then pass "$level: the flusher woke $wakes times in 300 ms idle"
else fail "$level: the flusher woke $wakes times in 300 ms idle"; fi
got=$(trace_events "$T/$level" | grep -c 'synctrace_sem:trywait_failed:')
[ "$got" -eq $((n1 + n2)) ] && pass "$level: all $((n1 + n2)) records in the trace" ||
	fail "$level: $got of $((n1 + n2)) records in the trace"
finish
