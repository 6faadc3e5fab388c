#!/usr/bin/env bash
# thread_events.c's trace: 3 thread starts and 3 thread exits.
set -u
events=$(${ST_EVENTS:?set by tests/run-mode.sh} "$1") || exit 1
s=$(grep -c 'synctrace_thread:start:' <<<"$events")
e=$(grep -c 'synctrace_thread:exit:' <<<"$events")
if [ "$s" -ne 3 ] || [ "$e" -ne 3 ]; then
	echo "thread_events: $s starts and $e exits, expected 3 and 3" >&2
	exit 1
fi
echo "thread_events: 3 starts, 3 exits"
