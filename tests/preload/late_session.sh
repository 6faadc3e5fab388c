#!/usr/bin/env bash
# A session that starts while the program runs (probes preloaded, as
# `synctrace record` does): the first synctrace events recorded must be
# synctrace_meta:start and then synctrace_meta:config, with the settings
# the program runs with (SYNCTRACE_SEM_MAX=init:7), before any event of
# the program's locks: the analyzers read the format, level and checks
# from them.
# usage: late_session.sh LIBSYNCTRACE LIBSYNCTRACE_TP PROGRAM(busy.c)
set -u
lib=$1 tp=$2 prog=$3
lttng list >/dev/null 2>&1 || { echo "late_session: no session daemon (run through ./synctrace.sh test)" >&2; exit 1; }
dir=$(mktemp -d)
name="st-late-$$"
trap 'lttng destroy "$name" >/dev/null 2>&1; rm -rf "$dir"' EXIT
lttng create "$name" --output="$dir/trace" >/dev/null
lttng enable-event -u -s "$name" 'synctrace_*' >/dev/null
export ST_TEST_MODE=traced
SYNCTRACE_SEM_MAX=init:7 LD_PRELOAD="$lib $tp" "$prog" 1.5 >"$dir/out" 2>&1 &
pid=$!
sleep 0.5
lttng start "$name" >/dev/null
wait $pid || { echo "late_session: the program failed: $(tail -3 "$dir/out")" >&2; exit 1; }
lttng stop "$name" >/dev/null
babeltrace2 "$dir/trace" 2>/dev/null | grep -o 'synctrace_[a-z_]*:[a-z_]*: .*' >"$dir/events"
first=$(sed -n 1p "$dir/events") second=$(sed -n 2p "$dir/events")
n=$(wc -l <"$dir/events")
fails=0
case $first in synctrace_meta:start:*) ;; *) echo "late_session: FAIL: first event is not meta:start: $first" >&2; fails=1 ;; esac
case $second in
synctrace_meta:config:*"sem_max_mode = 3, sem_max = 7 }"*) ;;
*) echo "late_session: FAIL: second event is not meta:config with sem_max_mode 3, sem_max 7: $second" >&2; fails=1 ;;
esac
[ "$(grep -c '^synctrace_meta:start:' "$dir/events")" -eq 1 ] || { echo "late_session: FAIL: meta:start not exactly once" >&2; fails=1; }
[ "$(grep -c '^synctrace_meta:config:' "$dir/events")" -eq 1 ] || { echo "late_session: FAIL: meta:config not exactly once" >&2; fails=1; }
[ "$n" -gt 10 ] || { echo "late_session: FAIL: only $n events recorded after the late start" >&2; fails=1; }
[ $fails -eq 0 ] && echo "late_session: start and config lead the $n events of a session started late"
exit $fails
