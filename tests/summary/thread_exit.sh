#!/usr/bin/env bash
# Two worker threads that exit before the process (thread_exit.c): each
# emits its aggregates as it exits (flushed, reason THREAD_EXIT), main at
# process exit, and the tables are those of the contention level.
# usage: thread_exit.sh SYNCTRACE PROGRAM
SYNCTRACE=$1 prog=$2
. "$(dirname "$0")/../cli/lib.sh"
. "$(dirname "$0")/lib.sh"
need_daemon
same_at_both_levels --spin none -- "$prog"
expect_flushed THREAD_EXIT 2 "each worker's summaries left with it"
expect_flushed PROCESS_EXIT 1 "main's summaries at process exit"
# 2 x 4 rounds: 8 contended acquisitions, 16 in all.
eq_json summary "contended acquisitions" "$lock | .contended" 8
eq_json summary "after sleeping" "$lock | .after_sleep" 8
eq_json summary "acquisitions" "$lock | .acquisitions" 16
finish
