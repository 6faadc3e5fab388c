#!/usr/bin/env bash
# fork_child.c's trace: one synctrace_mutex:init from each of its children
# (procname test_tracer_for), none lost to the child's registration.
set -u
children=8
events=$(${ST_EVENTS:?set by tests/run-mode.sh} "$1" 2>/dev/null) || { echo "fork_child: cannot read $1" >&2; exit 1; }
inits=$(grep 'synctrace_mutex:init:' <<<"$events" | grep -F 'procname = "test_tracer_for"' |
	sed -n 's/.*vpid = \([0-9]*\).*/\1/p')
n=$(grep -c . <<<"$inits")
pids=$(sort -u <<<"$inits" | grep -c .)
if [ "$n" -ne $children ] || [ "$pids" -ne $children ]; then
	echo "fork_child: $n mutex:init events from $pids processes, expected $children from $children children" >&2
	exit 1
fi
echo "fork_child: every child's first event recorded ($children children)"
