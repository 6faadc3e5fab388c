#!/usr/bin/env bash
# A relay daemon given to top: `top --relayd URL -- hot` streams there (no
# private one started; the trace lands in the given daemon's output as
# HOST/synctrace-top-...) and shows hot_lock's 8 waits; `top --session
# NAME` views a live session made with the lttng command (the program
# traced into it by preloading the libraries), ends with it and shows the
# same 8 waits; a session that is not live is refused (125).
# usage: given_relayd.sh SYNCTRACE PROGRAM LIBSYNCTRACE LIBSYNCTRACE_TP
SYNCTRACE=$1 prog=$2 lib=$3 tp=$4
. "$(dirname "$(readlink -f "$0")")/../cli/lib.sh"
. "$(dirname "$(readlink -f "$0")")/lib.sh"
need_daemon
relay_start "$T/relay" || { fail "no relay daemon started"; finish; }
trap 'relay_stop; lttng destroy "st-live-$$" >/dev/null 2>&1; lttng destroy "st-file-$$" >/dev/null 2>&1; rm -rf "$T"' EXIT
ours() { pgrep -f "lttng-relayd .*-o ${TMPDIR:-/tmp}/synctrace-top-" >/dev/null; }

run_st 0 "top --relayd URL -- hot" top --batch --interval 0.2 --spin none \
	--relayd "net://127.0.0.1:$base:$((base + 1))" -- "$prog"
[ "$(waits_of "$(final_table "$T/out")" hot_lock)" = 8 ] && pass "--relayd: hot_lock 8 waits" ||
	{ fail "--relayd: hot_lock waits '$(waits_of "$(final_table "$T/out")" hot_lock)'"; cat "$T/out" >&2; }
grep -q "^synctrace top (final): net://127.0.0.1:$((base + 2))/host/" "$T/out" &&
	pass "--relayd: read from its live port (control + 2)" || fail "--relayd: not its live port"
ls -d "$T/relay/$(hostname)"/synctrace-top-*/ust >/dev/null 2>&1 &&
	pass "--relayd: the trace is in the given daemon's output" || fail "no trace in $T/relay"
ours && fail "--relayd: a private relay daemon was started" || pass "--relayd: no private relay daemon"

# A live session made by hand, viewed with --session.
s=st-live-$$
lttng create "$s" --live=250000 --set-url="net://127.0.0.1:$base:$((base + 1))" >/dev/null &&
	lttng enable-channel -u -s "$s" --buffers-uid c >/dev/null &&
	lttng enable-event -u -s "$s" -c c 'synctrace_*' >/dev/null &&
	lttng enable-event -u -s "$s" -c c 'lttng_ust_statedump:*' >/dev/null &&
	lttng add-context -u -s "$s" -c c -t vpid -t vtid -t procname >/dev/null &&
	lttng start "$s" >/dev/null || fail "cannot make live session $s"
"$SYNCTRACE" top --session "$s" --batch --interval 0.2 >"$T/sess.out" 2>"$T/sess.err" &
viewer=$!
# The program starts once the relay daemon counts the viewer (it attaches
# at the newest data).
for _ in $(seq 200); do
	babeltrace2 -i lttng-live "net://127.0.0.1:$((base + 2))" 2>/dev/null |
		grep -q "/$s (.* 1 client(s) connected)" && break
	sleep 0.05
done
SYNCTRACE_SPIN=none LD_PRELOAD="$lib $tp" "$prog" >/dev/null || fail "the program failed"
lttng stop "$s" >/dev/null && lttng destroy "$s" >/dev/null
wait $viewer
rc=$?
[ $rc -eq 0 ] && pass "--session: ended with the session, status 0" || { fail "--session: status $rc"; cat "$T/sess.err" >&2; }
[ "$(waits_of "$(final_table "$T/sess.out")" hot_lock)" = 8 ] && pass "--session: hot_lock 8 waits" ||
	{ fail "--session: hot_lock waits '$(waits_of "$(final_table "$T/sess.out")" hot_lock)'"; cat "$T/sess.out" >&2; }

lttng create "st-file-$$" --output="$T/file" >/dev/null
run_st 125 "--session of a session that is not live" top --session "st-file-$$" --batch
err_says "--session, not live" "is not live"
run_st 125 "--session of no such session" top --session "st-none-$$" --batch
err_says "--session, none" "no session 'st-none-$$'"
finish
