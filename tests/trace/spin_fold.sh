#!/usr/bin/env bash
# Spins folded into acquisitions (format 4, tracepoints/EVENTS.md): the
# waits of spin_fold.c that a spin ended, recorded batched (format 4: no
# spin:loop for them, their acquired, departure or woke event stands for
# it), one event per transition (format 2: the loop is written) and at the
# summary level (the aggregator takes the loop from those events). At
# every format the report counts one loop that acquired per acquisition by
# spin of the semaphore, the mutex and the rwlock, and the barrier's and
# the condvar's loops that acquired are as many as their departures and
# wakes that stand for one where the format folds them.
# usage: spin_fold.sh SYNCTRACE PROGRAM
SYNCTRACE=$1
prog=$2
. "$(dirname "$0")/../cli/lib.sh"
need_daemon
comm=$(basename "$prog" | cut -c1-15)

# rows TABLE TYPE FIELD: the sum of FIELD over the program's rows of TYPE
rows() {
	jq --arg t "$2" --arg c "$comm" '[.tables[] | select(.name == "'"$1"'") | .rows[] |
		select(.procname == $c and .type == $t) | .'"$3"' // 0] | add // 0' "$T/$mode.json"
}
count() { grep -cE "$1" "$T/$mode.events"; }

for mode in batched single summary; do
	case $mode in
	batched) env=() opts=() major=4 ;;
	single) env=(SYNCTRACE_BATCH=0) opts=() major=2 ;;
	summary) env=() opts=(--level summary) major=4 ;;
	esac
	env "${env[@]}" "$SYNCTRACE" record -q --spin full:2000000 "${opts[@]}" -o "$T/$mode" -- \
		"$prog" >"$T/out" 2>"$T/err" ||
		{ fail "$mode: record: $(cat "$T/err")"; continue; }
	"$SYNCTRACE" report --format json "$T/$mode" >"$T/$mode.json" 2>"$T/err" ||
		{ fail "$mode: report: $(cat "$T/err")"; continue; }
	trace_events "$T/$mode" >"$T/$mode.events"
	[ "$(count "synctrace_meta:start: .*format_major = $major,")" -ge 1 ] &&
		pass "$mode: format $major" || fail "$mode: no meta:start with format_major $major"
	spun_events=0
	for type in sem mutex rwlock; do
		spun=$(rows contention.locks "$type" after_spin)
		loops=$(rows spin.objects "$type" acquired)
		[ "$spun" -ge 1 ] && [ "$loops" = "$spun" ] &&
			pass "$mode: $type: $spun acquisitions by spin, as many loops that acquired" ||
			fail "$mode: $type: $spun acquisitions by spin, $loops loops that acquired"
		[ "$mode" = summary ] && continue
		n=$(count "synctrace_$type:acquired: .*how = \( \"SPIN\"")
		[ "$n" = "$spun" ] && pass "$mode: $type: $n acquired events with how SPIN" ||
			fail "$mode: $type: $n acquired events with how SPIN, report $spun"
		spun_events=$((spun_events + n))
	done
	# a barrier's and a condvar's waits: their loops that acquired are
	# those a spin ended (the round open, the waiter released), and from
	# format 4 the departure or woke with spins >= 0 stands for each
	others=0
	for t in "barrier departure" "cond woke"; do
		set -- $t
		n=$(rows spin.objects "$1" acquired)
		[ "$n" -ge 1 ] && pass "$mode: $1: $n loops that acquired" ||
			fail "$mode: $1: $n loops that acquired"
		others=$((others + n))
		[ "$mode" = summary ] && continue
		e=$(count "synctrace_$1:$2: .*spins = [0-9]")
		want=$([ $mode = batched ] && echo "$n" || echo 0)
		[ "$e" = "$want" ] && pass "$mode: $1: $e $2 events that stand for their loop" ||
			fail "$mode: $1: $e $2 events that stand for their loop, want $want"
	done
	[ "$mode" = summary ] && continue
	written=$(count 'synctrace_spin:loop: .*outcome = \( "ACQUIRED"')
	want=$([ $mode = batched ] && echo 0 || echo $((spun_events + others)))
	[ "$written" = "$want" ] && pass "$mode: $written spin:loop events that acquired" ||
		fail "$mode: $written spin:loop events that acquired, want $want"
done
finish
