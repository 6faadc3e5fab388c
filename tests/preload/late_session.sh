#!/usr/bin/env bash
# A session that starts while the program runs (probes preloaded, as
# `synctrace record` does): the first synctrace events recorded must be
# synctrace_meta:start and then synctrace_meta:config, with the settings
# the program runs with (SYNCTRACE_SEM_MAX=init:7), before any event of
# the program's locks: the analyzers read the format, level and checks
# from them.
# lttng-ust enables a session's tracepoints and only then marks the
# session active: the first event fired in that window emits meta:start
# and meta:config into the still inactive session, where they are lost
# (README, Limitations; about every other run here). Such a run has
# neither event: it is run again, up to 8 runs. Any other outcome decides
# at once: start first and config right after it passes; config without
# start, start not first, or either one twice fails.
# usage: late_session.sh LIBSYNCTRACE LIBSYNCTRACE_TP PROGRAM(busy.c)
set -u
lib=$1 tp=$2 prog=$3
lttng list >/dev/null 2>&1 || { echo "late_session: no session daemon (run through ./synctrace.sh test)" >&2; exit 1; }
dir=$(mktemp -d)
name="st-late-$$"
trap 'lttng destroy "$name" >/dev/null 2>&1; rm -rf "$dir"' EXIT
attempt() {
	rm -rf "$dir/trace"
	lttng create "$name" --output="$dir/trace" >/dev/null
	lttng enable-event -u -s "$name" 'synctrace_*' >/dev/null
	export ST_TEST_MODE=traced
	SYNCTRACE_SEM_MAX=init:7 LD_PRELOAD="$lib $tp" "$prog" 1.5 >"$dir/out" 2>&1 &
	pid=$!
	sleep 0.5
	lttng start "$name" >/dev/null
	wait $pid || { echo "late_session: the program failed: $(tail -3 "$dir/out")" >&2; return 1; }
	lttng stop "$name" >/dev/null
	babeltrace2 "$dir/trace" 2>/dev/null | grep -o 'synctrace_[a-z_]*:[a-z_]*: .*' >"$dir/events"
	first=$(sed -n 1p "$dir/events") second=$(sed -n 2p "$dir/events")
	n=$(wc -l <"$dir/events")
	starts=$(grep -c '^synctrace_meta:start:' "$dir/events")
	configs=$(grep -c '^synctrace_meta:config:' "$dir/events")
	[ "$n" -gt 10 ] || { echo "late_session: FAIL: only $n events recorded after the late start" >&2; return 1; }
	if [ "$starts" -eq 0 ] && [ "$configs" -eq 0 ]; then
		echo "late_session: run lost meta:start and meta:config together (lttng-ust's activation window)"
		return 2
	fi
	fails=0
	case $first in synctrace_meta:start:*) ;; *) echo "late_session: FAIL: first event is not meta:start: $first" >&2; fails=1 ;; esac
	case $second in
	synctrace_meta:config:*"sem_max_mode = 3, sem_max = 7 }"*) ;;
	*) echo "late_session: FAIL: second event is not meta:config with sem_max_mode 3, sem_max 7: $second" >&2; fails=1 ;;
	esac
	[ "$starts" -eq 1 ] || { echo "late_session: FAIL: meta:start $starts times" >&2; fails=1; }
	[ "$configs" -eq 1 ] || { echo "late_session: FAIL: meta:config $configs times" >&2; fails=1; }
	[ $fails -eq 0 ] && echo "late_session: start and config lead the $n events of a session started late"
	return $fails
}
for try in 1 2 3 4 5 6 7 8; do
	attempt
	r=$?
	[ $r -eq 2 ] || exit $r
	lttng destroy "$name" >/dev/null 2>&1
done
echo "late_session: FAIL: 8 runs in a row lost meta:start and meta:config" >&2
exit 1
