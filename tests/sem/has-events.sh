#!/bin/sh
# usage: has-events.sh EVENT... TRACE_DIR — every EVENT (provider:name)
# occurs at least once in the trace. One babeltrace2 pass.
eval dir=\${$#}
names=$(${ST_EVENTS:?set by tests/run-mode.sh} "$dir" 2>/dev/null |
	sed -n 's/^\[[^]]*\] ([^)]*) [^ ]* \(synctrace_[a-z0-9_]*:[a-z0-9_]*\): .*/\1/p' | sort -u) || exit 1
while [ $# -gt 1 ]; do
	echo "$names" | grep -qx "$1" || { echo "no $1 event in $dir" >&2; exit 1; }
	shift
done
