#!/usr/bin/env bash
# A forked child is traced (lttng-ust's fork helper is preloaded):
# tests/trace/fork_traced.c makes one contended acquisition in the parent
# and one in its child. Counted among this program's events only (by
# procname): other traced programs of the same user that run meanwhile
# (parallel tests) are recorded too, as in any per-UID LTTng session.
# usage: fork.sh SYNCTRACE PROGRAM
SYNCTRACE=$1 prog=$2
. "$(dirname "$0")/lib.sh"
need_daemon
comm=$(basename "$prog" | cut -c1-15)
run_st 0 "record a forking program" record -q --spin none -o "$T/trace" -- "$prog"
n=$(trace_events "$T/trace" | grep "procname = \"$comm\"" | grep 'synctrace_mutex:acquired:.*how = ( "SLEEP" : container = 2 ),' |
	sed -n 's/.*vpid = \([0-9]*\).*/\1/p' | sort -u | wc -l)
if [ "$n" -eq 2 ]; then pass "parent and child traced"; else
	fail "after-sleep acquisitions from $n processes, expected 2 (parent and child)"; fi
finish
