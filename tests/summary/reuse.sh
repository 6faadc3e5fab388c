#!/usr/bin/env bash
# An object's memory used again as another kind without an init (reuse.c):
# every table the same at both levels, and each mutex has its numbers.
# usage: reuse.sh SYNCTRACE PROGRAM TRIES
SYNCTRACE=$1 prog=$2 tries=$3
. "$(dirname "$0")/../cli/lib.sh"
. "$(dirname "$0")/lib.sh"
need_daemon
record_levels --spin none -- "$prog" "$tries"
same_tables
for level in contention summary; do
	got=$(jq -c "[$lock | select(.type == \"mutex\" and .name != null) | {name, trylock_failed}] | sort_by(.name)" "$T/$level.json")
	want='[{"name":"a","trylock_failed":'"$tries"'},{"name":"b","trylock_failed":'"$tries"'}]'
	if [ "$got" = "$want" ]; then pass "$level: both mutexes have their own numbers"; else
		fail "$level: mutexes $got, want $want"; fi
	n=$(jq "[$lock | select(.type == \"sem\") | .instances] | add" "$T/$level.json")
	[ "$n" = 3 ] && pass "$level: 3 semaphores" || fail "$level: $n semaphores, not 3"
done
finish
