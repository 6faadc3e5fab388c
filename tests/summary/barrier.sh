#!/usr/bin/env bash
# Barrier rounds (barrier.c NTHREADS ROUNDS MODE), each round's last
# arriver chosen: the tables of both levels are the same, count for count,
# and they are the rounds the program made: ROUNDS releases, each by the
# chosen thread (the serial thread), each waking the NTHREADS - 1 others.
# usage: barrier.sh SYNCTRACE PROGRAM NTHREADS ROUNDS fixed|rotate
SYNCTRACE=$1 prog=$2 n=$3 r=$4 mode=$5
. "$(dirname "$0")/../cli/lib.sh"
. "$(dirname "$0")/lib.sh"
need_daemon
same_at_both_levels --spin none -- "$prog" "$n" "$r" "$mode"
bar='.tables[] | select(.name == "barriers.objects") | .rows[]'
th='[.tables[] | select(.name == "barriers.threads") | .rows[]]'
if [ "$mode" = fixed ]; then last="$((n - 1)) x 0 1 x $r"; else last="$n x $((r / n))"; fi
for level in contention summary; do
	eq_json $level "rounds" "$bar | .rounds" "$r"
	eq_json $level "waits" "$bar | .waits" "$((r * (n - 1)))"
	eq_json $level "departures" "$bar | .departures" "$((r * (n - 1)))"
	eq_json $level "woken" "$bar | .woken" "$((r * (n - 1)))"
	eq_json $level "last arrivers" "$bar | .serial_threads" "$([ "$mode" = fixed ] && echo 1 || echo "$n")"
	eq_json $level "the most often last's rounds" "$bar | .top_serial_rounds" \
		"$([ "$mode" = fixed ] && echo "$r" || echo $((r / n)))"
	# Per thread: rounds it was last in (released), rounds it waited in.
	eq_json $level "rounds last in, per thread" \
		"$th | map(.serial) | group_by(.) | map(\"\(length) x \(.[0])\") | join(\" \")" \
		"$last"
	eq_json $level "released others, per thread" "$th | map(.released_others) | add" "$((r * (n - 1)))"
	[ "$mode" = fixed ] && eq_json $level "the most often last is the thread always last" \
		"($bar | .top_serial_tid) == ($th | max_by(.serial) | .vtid)" true
	eq_json $level "passes, per thread" "$th | map(.passes) | unique | join(\" \")" "$r"
done
finish
