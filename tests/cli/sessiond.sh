#!/usr/bin/env bash
# With no session daemon reachable (a fresh /run/lttng in a new mount
# namespace): lttng-sessiond missing from PATH gives a clear message and
# 125; with it, synctrace starts a private daemon, records, and stops
# exactly that daemon. usage: sessiond.sh SYNCTRACE  (or, inside: --in ...)
if [ "${1:-}" = --in ]; then
	SYNCTRACE=$2
	. "$(dirname "$0")/lib.sh"
	mount -t tmpfs st-cli-run /run/lttng && mount -t tmpfs st-cli-shm /dev/shm || exit 1
	if lttng list >/dev/null 2>&1; then echo "sessiond: a daemon is still reachable" >&2; exit 1; fi
	mkdir "$T/empty"
	printf '#!/bin/sh\nPATH=%s exec %s "$@"\n' "$T/empty" "$SYNCTRACE" >"$T/st-nopath"
	chmod +x "$T/st-nopath"
	real=$SYNCTRACE SYNCTRACE=$T/st-nopath
	run_st 125 "lttng-sessiond not in PATH" record -o "$T/none" -- /bin/true
	SYNCTRACE=$real
	err_says "lttng-sessiond not in PATH" 'lttng-sessiond is not in PATH'
	[ -e "$T/none" ] && fail "trace folder $T/none made anyway"
	run_st 5 "record with a private daemon" record -o "$T/trace" -- sh -c 'exit 5'
	err_says "private daemon" 'starting a private one'
	trace_has "private daemon recorded" "$T/trace" 'synctrace_meta:start'
	me=$(readlink /proc/self/ns/mnt)
	for p in $(pgrep -x lttng-sessiond); do
		[ "$(readlink /proc/$p/ns/mnt 2>/dev/null)" = "$me" ] && fail "daemon $p left running"
	done
	if lttng list >/dev/null 2>&1; then fail "a daemon is still reachable"; else pass "daemon stopped"; fi
	finish
fi
opts=(-m --propagation private)
[ "$(id -u)" -eq 0 ] || opts=(-r "${opts[@]}")
if ! unshare "${opts[@]}" true 2>/dev/null; then
	echo "sessiond: cannot make a mount namespace here: skipped"
	exit 77
fi
exec unshare "${opts[@]}" "$0" --in "$1"
