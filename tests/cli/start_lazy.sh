#!/usr/bin/env bash
# A traced process starts before lttng-ust has registered it, and waits for
# the registration only at its first event (src/trace/ready.h): with the
# session daemon frozen (SIGSTOP) while start_lazy.c's driver runs, a
# process that records nothing still runs and ends, and one that records
# reaches main, then records all of its events once the daemon runs again;
# so does a forked child, which closes every descriptor during its
# registration (lttng-ust's tracker keeps its own) without waiting.
# The registration limit is 10 minutes: a process that waited for its
# registration before main would hang until the ctest timeout.
# Needs its own daemon to freeze: a mount namespace of its own (root).
# usage: start_lazy.sh SYNCTRACE PROGRAM
SYNCTRACE=$1 prog=$2
if [ "${ST_LAZY_INNER:-}" != 1 ]; then
	unshare -m true 2>/dev/null || { echo "start_lazy: cannot unshare a mount namespace (not root?)" >&2; exit 77; }
	ST_LAZY_INNER=1 exec unshare -m bash "$0" "$@"
fi
. "$(dirname "$0")/lib.sh"
mount -t tmpfs st-lazy /run/lttng && mount -t tmpfs st-lazy-shm /dev/shm || {
	echo "$name: cannot mount a private /run/lttng" >&2
	exit 77
}
export LTTNG_HOME=/run/lttng
lttng-sessiond --daemonize --no-kernel >/dev/null 2>&1 || { echo "$name: no lttng-sessiond" >&2; exit 1; }
daemon=$(cat /run/lttng/lttng-sessiond.pid)
stop_daemon() { kill -CONT "$daemon" 2>/dev/null; kill "$daemon" 2>/dev/null; rm -rf "$T"; }
trap stop_daemon EXIT

# wait_for FILE PATTERN: until FILE has a line matching PATTERN (2 minutes
# at most: the state comes in milliseconds on an idle machine).
wait_for() {
	for _ in $(seq 2400); do
		grep -qE "$2" "$1" 2>/dev/null && return 0
		sleep 0.05
	done
	return 1
}

LTTNG_UST_REGISTER_TIMEOUT=600000 "$SYNCTRACE" record -q -o "$T/t" -- "$prog" driver "$T" \
	>"$T/out" 2>"$T/err" &
rec=$!
if wait_for "$T/out" '^driver pid=[0-9]+ state=2$'; then
	pass "the command itself waited for its registration (state 2 at main)"
else
	fail "driver: $(cat "$T/out" "$T/err")"
fi
kill -STOP "$daemon"
touch "$T/frozen"
if wait_for "$T/out" '^contend pid=[0-9]+ state=1$'; then
	pass "a process that records starts before its registration (state 1 at main)"
else
	fail "contend did not start while the daemon was frozen: $(cat "$T/out")"
fi
grep -qE '^nothing pid=[0-9]+ state=1$' "$T/out" &&
	pass "a process that records nothing ran and ended, unregistered" ||
	fail "nothing: $(cat "$T/out")"
grep -qE '^forked pid=[0-9]+ state=1$' "$T/out" &&
	pass "a forked child that records nothing ran and ended, unregistered" ||
	fail "forked: $(cat "$T/out")"
grep -qE '^settle pid=[0-9]+ state=1$' "$T/out" &&
	pass "a forked child runs before its registration (state 1 after fork)" ||
	fail "settle: $(cat "$T/out")"
# settle closes every descriptor from 3 while its registration cannot
# complete: through lttng-ust's descriptor tracker, without waiting.
if wait_for "$T/out" '^settled pid=[0-9]+ state=1$'; then
	pass "a forked child closed its descriptors during its registration, without waiting"
else
	fail "settle's closes did not return while the daemon was frozen: $(cat "$T/out")"
fi
grep -qE '^kept [1-9][0-9]* of lttng-ust' "$T/out" &&
	pass "its registration's sockets outlived the closes ($(grep '^kept' "$T/out"))" ||
	fail "the closes took lttng-ust's sockets: $(grep '^kept' "$T/out")"
kill -CONT "$daemon"
wait $rec
rc=$?
[ $rc -eq 0 ] && pass "record: status 0" || { fail "record: status $rc"; cat "$T/err" >&2; }

trace_events "$T/t" >"$T/events"
cpid=$(sed -n 's/^contend pid=\([0-9]*\) .*/\1/p' "$T/out")
npid=$(sed -n 's/^nothing pid=\([0-9]*\) .*/\1/p' "$T/out")
n=$(grep 'synctrace_mutex:init:' "$T/events" | grep -c "vpid = $cpid,")
[ "$n" -eq 100 ] && pass "all 100 mutex:init of contend recorded" ||
	fail "$n mutex:init of contend ($cpid) recorded, want 100"
grep -q "vpid = $cpid,.*synctrace_meta:start\|synctrace_meta:start: { vpid = $cpid," "$T/events" &&
	pass "contend announced" || fail "no synctrace_meta:start of contend"
m=$(grep -c "vpid = $npid," "$T/events")
[ "$m" -eq 0 ] && pass "nothing left no event" || fail "nothing ($npid) left $m events"
fpid=$(sed -n 's/^forked pid=\([0-9]*\) .*/\1/p' "$T/out")
m=$(grep -c "vpid = $fpid," "$T/events")
[ "$m" -eq 0 ] && pass "forked left no event" || fail "forked ($fpid) left $m events"
spid=$(sed -n 's/^settle pid=\([0-9]*\) .*/\1/p' "$T/out")
n=$(grep 'synctrace_mutex:init:' "$T/events" | grep -c "vpid = $spid,")
[ "$n" -eq 10 ] && pass "all 10 mutex:init of the forked child recorded (its registration outlived its closes)" ||
	fail "$n mutex:init of settle ($spid) recorded, want 10"
finish
