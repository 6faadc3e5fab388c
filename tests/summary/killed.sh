#!/usr/bin/env bash
# A process killed by a signal (killed.c) loses, at the summary level, what
# its threads aggregated since their last summaries: here exactly its last
# round (its threads' summaries of the first 3 went out by age, on their
# own paths, as the 4th began), where the contention level, which emits
# each event at once, keeps all 4. The rest is the contention level's.
# Both record one LTTng event per transition (SYNCTRACE_BATCH=0): batched
# records of a thread's last 10 ms would die with the process too
# (tracepoints/batch.c).
# usage: killed.sh SYNCTRACE PROGRAM
SYNCTRACE=$1 prog=$2
. "$(dirname "$0")/../cli/lib.sh"
. "$(dirname "$0")/lib.sh"
need_daemon
export SYNCTRACE_BATCH=0
want_status=137 record_levels --spin none -- "$prog"
no_transitions
eq_json contention "contended acquisitions" "$lock | .contended" 4
eq_json summary "contended acquisitions (the last round lost)" "$lock | .contended" 3
eq_json contention "futex wakes" "$wake | .futex_wakes" 8
eq_json summary "futex wakes (the last round lost)" "$wake | .futex_wakes" 6
eq_json summary "futex waits (the last round lost)" "$wake | .futex_waits" 3
expect_flushed AGE 2 "both threads' summaries went out by age"
expect_flushed PROCESS_EXIT 0 "no process-exit summary (killed)"
finish
