#!/usr/bin/env bash
# Two worker threads that exit before the process (thread_exit.c): each
# emits its aggregates as it exits (flushed, reason THREAD_EXIT), main at
# process exit, and the tables are those of the contention level.
# usage: thread_exit.sh SYNCTRACE PROGRAM
SYNCTRACE=$1 prog=$2
. "$(dirname "$0")/../cli/lib.sh"
. "$(dirname "$0")/lib.sh"
need_daemon
record_levels --spin none -- "$prog"
same_tables
no_transitions
n=$(count_flushed THREAD_EXIT)
if [ "$n" -eq 2 ]; then pass "each worker's summaries left with it"; else
	fail "$n thread-exit summaries, expected 2"; fi
n=$(count_flushed PROCESS_EXIT)
if [ "$n" -eq 1 ]; then pass "main's summaries at process exit"; else
	fail "$n process-exit summaries, expected 1"; fi
# 2 x 4 rounds: 8 contended acquisitions, 16 futex wakes.
eq_json() { # WHAT JQ WANT
	local got
	got=$(jq -r "$2" "$T/summary.json")
	if [ "$got" = "$3" ]; then pass "$1: $got"; else fail "$1: got '$got', want '$3'"; fi
}
lock='.tables[] | select(.name == "contention.locks") | .rows[] | select(.procname == "'"$comm"'")'
eq_json "contended acquisitions" "$lock | .contended" 8
eq_json "after sleeping" "$lock | .after_sleep" 8
eq_json "acquisitions" "$lock | .acquisitions" 16
finish
