#!/usr/bin/env bash
# The exact events of mutex_exact.c (ROUNDS = 5) in trace $1.
set -u
trace=$1
events=$(${ST_EVENTS:?set by tests/run-mode.sh} "$trace") || { echo "mutex_exact: cannot read $trace" >&2; exit 1; }
fail=0
expect() { # expect NAME COUNT PATTERN
	local n
	n=$(grep -cE "$3" <<<"$events")
	if [ "$n" -ne "$2" ]; then
		echo "mutex_exact: $1: expected $2, found $n" >&2
		fail=1
	fi
}
expect "contended requests" 5 'synctrace_mutex:requested:'
expect "acquired after sleeping" 5 'synctrace_mutex:acquired:.*how = \( "SLEEP" : container = 2 \),'
expect "acquired, all" 5 'synctrace_mutex:acquired:'
expect "futex waits, woken" 5 'synctrace_futex:wait:.*result = 0,'
expect "futex waits, all" 5 'synctrace_futex:wait:'
expect "wakes that woke one" 5 'synctrace_futex:wake:.*woken = 1 }'
expect "wakes, all" 10 'synctrace_futex:wake:'
expect "wakes that woke nobody (the sleeper's own unlock: mutex.h)" 5 'synctrace_futex:wake:.*woken = 0 }'
expect "releases with a wake" 5 'synctrace_mutex:released:.*woken = 1,'
expect "releases with a wake that woke nobody" 5 'synctrace_mutex:released:.*woken = 0,'
expect "spin loops (SYNCTRACE_SPIN=none)" 0 'synctrace_spin:loop:'
expect "destroy with 10 acquisitions, 5 contended" 1 'synctrace_mutex:destroy:.*result = 0, acquisitions = 10, contended = 5 }'
[ $fail -eq 0 ] && echo "mutex_exact: all counts exact"
exit $fail
