#!/bin/sh
# usage: has-events.sh EVENT... TRACE_DIR — every EVENT (provider:name)
# occurs at least once in the trace.
eval dir=\${$#}
out=$(babeltrace2 "$dir" 2>/dev/null) || exit 1
while [ $# -gt 1 ]; do
	echo "$out" | grep -q " $1: " || { echo "no $1 event in $dir" >&2; exit 1; }
	shift
done
