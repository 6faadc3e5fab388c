#!/usr/bin/env bash
# Run one test binary in one mode:
#   glibc    as built (glibc's primitives)
#   preload  with libsynctrace.so preloaded, no tracing
#   traced   preloaded with the probes, into a private LTTng session of its
#            own (with lttng-ust's fork helper, as `synctrace record`);
#            the trace must hold synctrace_meta:start (tracing really
#            happened). ST_TRACE_CHECK, if set, is run with the trace
#            directory as its last argument and must succeed too.
# usage: run-mode.sh MODE LIBSYNCTRACE LIBSYNCTRACE_TP -- PROGRAM ARGS...
set -u
mode=$1 lib=$2 tp=$3
shift 3
[ "${1:-}" = "--" ] && shift
export ST_TEST_MODE=$mode
case $mode in
glibc) exec "$@" ;;
preload) LD_PRELOAD=$lib exec "$@" ;;
traced) ;;
*) echo "run-mode.sh: unknown mode $mode" >&2; exit 2 ;;
esac

if ! lttng list >/dev/null 2>&1; then
	echo "run-mode.sh: no LTTng session daemon reachable; run the suite through './synctrace.sh test', which starts a private one" >&2
	exit 1
fi
name="st-$$-$RANDOM"
dir=$(mktemp -d "${TMPDIR:-/tmp}/st-trace.XXXXXX")
cleanup() { lttng destroy "$name" >/dev/null 2>&1; [ -n "${ST_KEEP_TRACE:-}" ] || rm -rf "$dir"; }
trap cleanup EXIT
lttng create "$name" --output="$dir/trace" >/dev/null &&
	lttng enable-channel -u -s "$name" --subbuf-size=4M --num-subbuf=8 chan >/dev/null &&
	lttng enable-event -u -s "$name" -c chan 'synctrace_*' >/dev/null &&
	lttng add-context -u -s "$name" -c chan -t vpid -t vtid -t procname >/dev/null &&
	lttng start "$name" >/dev/null || { echo "run-mode.sh: cannot set up session $name" >&2; exit 1; }
# As under `synctrace record`: the program waits in its constructor until it
# is registered with the session daemon (SYNCTRACE_TOP_PID), each process it
# starts starts at once and its first event waits for its own registration,
# at most SYNCTRACE_REGISTER_WAIT ms (src/trace/ready.h). The tests
# assert exact events, so on a loaded machine they wait longer for the
# state they need (below the smallest ctest timeout); the wait still ends
# as soon as the registration is done. lttng-ust's own wait, in its
# constructor, is skipped (src/trace/ready.h); LTTNG_UST_REGISTER_TIMEOUT is
# its sockets' timeout too. ST_REGISTER=ctor: lttng-ust's own wait instead.
wait_ms=${LTTNG_UST_REGISTER_TIMEOUT:-15000}
if [ "${ST_REGISTER:-}" = ctor ]; then
	export LTTNG_UST_REGISTER_TIMEOUT=$wait_ms
else
	export LTTNG_UST_REGISTER_TIMEOUT=$wait_ms SYNCTRACE_REGISTER_WAIT=$wait_ms
fi
(export SYNCTRACE_TOP_PID=$BASHPID; LD_PRELOAD="$lib $tp liblttng-ust-fork.so" exec "$@")
rc=$?
lttng stop "$name" >/dev/null 2>&1
if [ $rc -ne 0 ]; then
	exit $rc
fi
# The trace's events as text, batched records as the events they are
# (synctrace-report --events; babeltrace2's form): for ST_TRACE_CHECK too.
export ST_EVENTS="$(dirname "$lib")/analysis/synctrace-report --events"
if ! $ST_EVENTS "$dir/trace" 2>/dev/null | grep -q 'synctrace_meta:start'; then
	echo "run-mode.sh: traced run left no synctrace_meta:start in $dir/trace" >&2
	exit 1
fi
if [ -n "${ST_TRACE_CHECK:-}" ]; then
	$ST_TRACE_CHECK "$dir/trace" || exit 1
fi
exit 0
