#!/usr/bin/env bash
# Without SYNCTRACE_STACKS: no synctrace_stack event at all.
set -u
n=$(${ST_EVENTS:?set by tests/run-mode.sh} "$1" | grep -c 'synctrace_stack:') || true
if [ "$n" -ne 0 ]; then
	echo "no_stacks: $n stack events with stacks off" >&2
	exit 1
fi
echo "no_stacks: none"
