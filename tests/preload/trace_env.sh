#!/usr/bin/env bash
# SYNCTRACE_TRACE=1 with only libsynctrace.so preloaded: the library loads
# its probes itself and the program is traced (meta:start and the mutex
# events of exit_from_main.c's program are in the trace). Without it, the
# same run under the same session records nothing.
# usage: trace_env.sh LIBSYNCTRACE PROGRAM
set -u
lib=$1 prog=$2
lttng list >/dev/null 2>&1 || { echo "trace_env: no session daemon (run through ./synctrace.sh test)" >&2; exit 1; }
dir=$(mktemp -d)
name="st-env-$$"
trap 'lttng destroy "$name" >/dev/null 2>&1; rm -rf "$dir"' EXIT
count() { # count EVENT-REGEX: events in the trace now
	babeltrace2 "$dir/trace" 2>/dev/null | grep -cE "$1"
}
lttng create "$name" --output="$dir/trace" >/dev/null
lttng enable-event -u -s "$name" 'synctrace_*' >/dev/null
lttng add-context -u -s "$name" -t procname >/dev/null
lttng start "$name" >/dev/null
export ST_TEST_MODE=preload
LD_PRELOAD=$lib "$prog" >/dev/null || { echo "trace_env: untraced run failed" >&2; exit 1; }
SYNCTRACE_TRACE=1 LD_PRELOAD=$lib "$prog" >/dev/null || { echo "trace_env: traced run failed" >&2; exit 1; }
lttng stop "$name" >/dev/null
n=$(count 'synctrace_meta:start')
if [ "$n" -ne 1 ]; then
	echo "trace_env: expected exactly one synctrace_meta:start (the SYNCTRACE_TRACE=1 run), found $n" >&2
	exit 1
fi
echo "trace_env: SYNCTRACE_TRACE=1 traced the program; plain preload did not"
