#!/usr/bin/env bash
# A worker asleep on a mutex when the process exits (blocked.c): what it
# queued (its 4 rounds, never drained on its own path) goes out with the
# exiting thread's summaries, and the tables are the contention level's.
# usage: blocked.sh SYNCTRACE PROGRAM
SYNCTRACE=$1 prog=$2
. "$(dirname "$0")/../cli/lib.sh"
. "$(dirname "$0")/lib.sh"
need_daemon
same_at_both_levels --spin none -- "$prog"
expect_flushed PROCESS_EXIT 2 "main's and the blocked worker's summaries at process exit"
eq_json summary "contended acquisitions" "$lock | .contended" 4
eq_json summary "after sleeping" "$lock | .after_sleep" 4
eq_json summary "futex wakes" "$wake | .futex_wakes" 8
finish
