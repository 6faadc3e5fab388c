#!/usr/bin/env bash
# fork_traced.c's trace: an after-sleep acquisition from two processes.
set -u
n=$(babeltrace2 "$1" | grep 'synctrace_mutex:acquired:.*how = 2,' |
	sed -n 's/.*vpid = \([0-9]*\).*/\1/p' | sort -u | wc -l)
if [ "$n" -ne 2 ]; then
	echo "fork_traced: after-sleep acquisitions from $n processes, expected 2 (parent and child)" >&2
	exit 1
fi
echo "fork_traced: parent and child both traced"
