#!/usr/bin/env bash
# A pthread_once its callers wait for (once.c NTHREADS): both levels give
# the same tables, and they say one run, completed, NTHREADS - 1 callers
# that slept until it ended, woken by it.
# usage: once.sh SYNCTRACE PROGRAM NTHREADS
SYNCTRACE=$1 prog=$2 n=$3
. "$(dirname "$0")/../cli/lib.sh"
. "$(dirname "$0")/lib.sh"
need_daemon
same_at_both_levels --spin none -- "$prog" "$n"
once='.tables[] | select(.name == "once.objects") | .rows[]'
for level in contention summary; do
	eq_json $level "runs" "$once | .runs" 1
	eq_json $level "completed" "$once | .completed" 1
	eq_json $level "cancelled" "$once | .cancelled" 0
	eq_json $level "callers that waited" "$once | .waits" "$((n - 1))"
	eq_json $level "woken by the run's end" "$once | .woken" "$((n - 1))"
	eq_json $level "a runner" "$once | .runner > 0" true
	eq_json $level "not running at the end" "$once | .running_at_end" false
done
eq_json contention "asleep at once" "$once | .max_waiting" "$((n - 1))"
eq_json summary "asleep at once (the order of waits: not in a summary)" "$once | .max_waiting" null
finish
