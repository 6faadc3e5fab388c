#!/usr/bin/env bash
# SYNCTRACE_TRACE=1 with only libsynctrace.so preloaded: the library loads
# its probes itself and the program is traced: exactly one meta:start, and
# mutex events after it. Without it, the same run records nothing. (lttng-ust
# loaded from a constructor registers with the session daemon only after
# the constructor returns, so the program, busy.c, runs for 4 s.)
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
LD_PRELOAD=$lib "$prog" 0.5 >/dev/null || { echo "trace_env: untraced run failed" >&2; exit 1; }
SYNCTRACE_TRACE=1 LD_PRELOAD=$lib "$prog" 4 >/dev/null || { echo "trace_env: traced run failed" >&2; exit 1; }
lttng stop "$name" >/dev/null
n=$(count 'synctrace_meta:start')
if [ "$n" -ne 1 ]; then
	echo "trace_env: expected exactly one synctrace_meta:start (the SYNCTRACE_TRACE=1 run), found $n" >&2
	exit 1
fi
n=$(count 'synctrace_mutex:(requested|acquired)')
if [ "$n" -eq 0 ]; then
	echo "trace_env: no mutex events from the SYNCTRACE_TRACE=1 run" >&2
	exit 1
fi
first=$(babeltrace2 "$dir/trace" 2>/dev/null | grep -m1 -oE 'synctrace_[a-z]+:[a-z_]+')
if [ "$first" != "synctrace_meta:start" ]; then
	echo "trace_env: the first event is $first, not synctrace_meta:start" >&2
	exit 1
fi
echo "trace_env: SYNCTRACE_TRACE=1 traced the program ($n mutex events after meta:start); plain preload did not"
