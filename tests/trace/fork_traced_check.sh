#!/usr/bin/env bash
# fork_traced.c's trace: an after-sleep acquisition from two processes, and
# each process announced with a nonce of its own (the child's start may be
# repeated, with the same nonce: tracepoints/EVENTS.md, meta:start).
set -u
events=$(${ST_EVENTS:?set by tests/run-mode.sh} "$1") || { echo "fork_traced: cannot read $1" >&2; exit 1; }
n=$(grep 'synctrace_mutex:acquired:.*how = ( "SLEEP" : container = 2 ),' <<<"$events" |
	sed -n 's/.*vpid = \([0-9]*\).*/\1/p' | sort -u | wc -l)
if [ "$n" -ne 2 ]; then
	echo "fork_traced: after-sleep acquisitions from $n processes, expected 2 (parent and child)" >&2
	exit 1
fi
# "vpid nonce" per meta:start
starts=$(grep 'synctrace_meta:start:' <<<"$events" |
	sed -n 's/.*vpid = \([0-9]*\).*nonce = \(0x[0-9A-Fa-f]*\).*/\1 \2/p' | sort -u)
pids=$(cut -d' ' -f1 <<<"$starts" | sort -u | wc -l)
nonces=$(cut -d' ' -f2 <<<"$starts" | sort -u | wc -l)
pairs=$(wc -l <<<"$starts")
if [ "$pids" -ne 2 ] || [ "$nonces" -ne 2 ] || [ "$pairs" -ne 2 ]; then
	echo "fork_traced: meta:start (vpid nonce) pairs: $(tr '\n' ';' <<<"$starts"); expected 2 processes, one nonce each, distinct" >&2
	exit 1
fi
echo "fork_traced: parent and child both traced, each announced with its own nonce"
