#!/usr/bin/env bash
# Contended spinlock acquisitions (spinlock.c): 5 at both levels, the
# same tables; the uncontended ones are no event at either.
# usage: spinlock.sh SYNCTRACE PROGRAM
SYNCTRACE=$1 prog=$2
. "$(dirname "$0")/../cli/lib.sh"
. "$(dirname "$0")/lib.sh"
need_daemon
same_at_both_levels -- "$prog"
for level in contention summary; do
	eq_json $level "contended acquisitions" "$lock | select(.type == \"spinlock\") | .contended" 5
done
finish
