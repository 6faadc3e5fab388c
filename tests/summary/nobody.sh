#!/usr/bin/env bash
# Wakes that woke nobody at the summary level: woke_nobody K (tests/wakes)
# makes K mutex unlocks that wake the sleeping worker and K that find
# nobody asleep. The finding says so at both levels: by the waking call
# site at the contention level, by the object at the summary level (its
# futex wakes, as each thread counted them: wakes.objects).
# usage: nobody.sh SYNCTRACE PROGRAM K
SYNCTRACE=$1 prog=$2 k=$3
. "$(dirname "$0")/../cli/lib.sh"
. "$(dirname "$0")/lib.sh"
need_daemon
record_levels --spin none -- "$prog" "$k"
same_tables
nobody='[.tables[] | select(.name == "findings") | .rows[] | select(.kind == "futile_wakes" and .verdict == "woke_nobody")]'
mx='.tables[] | select(.name == "wakes.objects") | .rows[] | select(.type == "mutex")'
for level in contention summary; do
	eq_json $level "the mutex's futex wakes" "$mx | .futex_wakes" $((2 * k))
	eq_json $level "that woke nobody" "$mx | .wasted_wakes" "$k"
	eq_json $level "the finding" "$nobody | length" 1
	eq_json $level "its count" "$nobody[0].count" "$k"
done
eq_json contention "of the worker's unlock site" "$nobody[0].of" "$k"
eq_json summary "of the mutex's futex wakes" "$nobody[0].of" $((2 * k))
eq_json summary "its text" "$nobody[0].text | test(\"$k of $((2 * k)) wake calls [(]futex:wake[)] woke nobody.*; the summary level records no call sites[.]\")" true
finish
