#!/usr/bin/env bash
# A traced process's lttng-ust sockets keep lttng-ust's timeouts: none is
# 10 ms or less (what LTTNG_UST_REGISTER_TIMEOUT=0 makes of the notify
# socket: src/trace/ready.h), in the command record runs and in its
# forked child; with the user's LTTNG_UST_REGISTER_TIMEOUT, that value.
# usage: sock_timeout.sh SYNCTRACE PROGRAM
SYNCTRACE=$1 prog=$2
. "$(dirname "$0")/lib.sh"
need_daemon
# check WHO WANT_MS: every line of WHO has both timeouts 0 (none) or WANT_MS
check() {
	local n bad
	n=$(grep -c "^$1 " "$T/out")
	bad=$(grep "^$1 " "$T/out" | grep -vE "rcv_ms=(0|$2) snd_ms=(0|$2)$")
	if [ "$n" -ge 2 ] && [ -z "$bad" ] && grep "^$1 " "$T/out" | grep -qE "rcv_ms=$2 "; then
		pass "$3: $n lttng-ust sockets, the notify socket's timeouts $2 ms"
	else
		fail "$3: want lttng-ust sockets with timeouts of 0 or $2 ms: $(cat "$T/out")"
	fi
}
run_st 0 "record, lttng-ust's default" record -q -o "$T/t1" -- "$prog"
check sock 3000 "the command"
check child 3000 "its forked child"
LTTNG_UST_REGISTER_TIMEOUT=7000 run_st 0 "record, LTTNG_UST_REGISTER_TIMEOUT=7000" record -q -o "$T/t2" -- "$prog"
check sock 7000 "the user's timeout"
finish
