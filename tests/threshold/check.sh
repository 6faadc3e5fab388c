#!/usr/bin/env bash
# --threshold: of waits.c's SHORT short and LONG long waits on mutex m
# (each surely contended), the long ones are recorded event by event and
# the short ones only counted (summaries), exactly; without a threshold
# every wait is recorded. The report says which waits were sampled. The
# same for a semaphore's, a rwlock's, a barrier's and a condvar's waits.
# Then many short waits of 4 threads (hot.c) under a threshold: the run
# ends, and every acquisition is counted (the object's own counter).
# usage: check.sh SYNCTRACE WAITS_PROGRAM HOT_PROGRAM
SYNCTRACE=$1 prog=$2 hot=$3
. "$(dirname "$0")/../cli/lib.sh"
need_daemon
short=12 long=2 hold_ms=1200 thr=400ms
m='select(.name == "m")'
count() { grep -c "$1" "$T/events.$2" || true; }
for mode in threshold none; do
	args=(record -q -o "$T/$mode")
	[ $mode = threshold ] && args+=(--threshold $thr)
	run_st 0 "record ($mode)" "${args[@]}" -- "$prog" $short $long $hold_ms
	grep -q "^waits: mutex short=$short long=$long" "$T/out" || { fail "$mode: program: $(cat "$T/out" "$T/err")"; continue; }
	trace_events "$T/$mode" >"$T/events.$mode"
	"$SYNCTRACE" report --format json "$T/$mode" >"$T/r.$mode.json" 2>"$T/rerr" ||
		fail "$mode: report failed: $(cat "$T/rerr")"
done
# Events: the worker's contended requests, futex sleeps and acquisitions.
want=$long
for mode in threshold none; do
	for ev in synctrace_mutex:requested synctrace_mutex:acquired synctrace_futex:wait; do
		n=$(count "$ev:" $mode)
		[ "$n" -eq "$want" ] && pass "$mode: $n $ev events" || fail "$mode: $n $ev events, want $want"
	done
	want=$((short + long))
done
# The short waits are in the summaries (tracepoints/events/summary.def:
# kv pairs, key COUNT << 56 | slot; slots MUTEX_REQUESTED 1, ACQUIRED 2).
summed() { # summed SLOT: the summaries' total for a COUNT slot
	grep 'synctrace_summary:object:' "$T/events.threshold" | sed 's/.*kv = \[//' |
		grep -oE '\] = [0-9]+' | awk -v k=$(( (1 << 56) | $1 )) '{v[NR] = $3}
			END {for (i = 1; i < NR; i += 2) if ((v[i] "") == (k "")) s += v[i + 1]; print s + 0}'
}
for slot in 1:requested 2:acquired; do
	n=$(summed "${slot%%:*}")
	[ "$n" -eq "$short" ] && pass "threshold: summaries count $n short waits ${slot#*:}" ||
		fail "threshold: summaries count $n ${slot#*:}, want $short"
done
# The objects' own counters are the same either way. (The waits' tables
# add the summaries once the analyzer reads them: the summary level's.)
for key in acquisitions contended; do
	a=$(jq -r ".tables[] | select(.name == \"contention.locks\") | .rows[] | $m | .$key" "$T/r.threshold.json")
	b=$(jq -r ".tables[] | select(.name == \"contention.locks\") | .rows[] | $m | .$key" "$T/r.none.json")
	case $key in acquisitions) w=$((2 * (short + long))) ;; *) w=$((short + long)) ;; esac
	[ "$a" = "$w" ] && [ "$b" = "$w" ] && pass "$key: $a with the threshold, $b without" ||
		fail "$key: $a with the threshold, $b without, want $w"
done
n=$(count 'synctrace_summary:object:' threshold)
[ "$n" -ge 1 ] && pass "threshold: the short waits came as summaries ($n)" || fail "threshold: no summary event"
[ "$(count 'synctrace_summary:object:' none)" -eq 0 ] && pass "none: no summaries" || fail "none: summaries"
jq -r '.tables[] | select(.name == "summary.processes") | .notes[]?' "$T/r.threshold.json" |
	grep -q "SYNCTRACE_THRESHOLD=400000000ns" && pass "the report says which waits were sampled" ||
	fail "the report does not name the threshold: $(jq -c '.tables[] | select(.name == "summary.processes")' "$T/r.threshold.json" | cut -c1-400)"
# The report's head says the trace is sampled; and the long waits' records,
# written once a wait has lasted the threshold (not when it ends), came in
# time order (a reader holds events the threshold + 100 ms behind).
"$SYNCTRACE" report "$T/threshold" 2>/dev/null | head -5 | grep -q '^SAMPLED: waits shorter than 400 ms' &&
	pass "the report's head says the short waits are only counted" ||
	fail "the report's head does not say the trace is sampled"
for mode in threshold none; do
	jq -r '.messages[]' "$T/r.$mode.json" | grep -q 'out of time order' &&
		fail "$mode: $(jq -r '.messages[]' "$T/r.$mode.json")" || pass "$mode: every record in time order"
done
# The recorded long waits are the long ones.
grep 'synctrace_mutex:acquired:' "$T/events.threshold" | sed -n 's/.*wait_ns = \([0-9]*\).*/\1/p' |
	while read -r ns; do [ "$ns" -ge 400000000 ] || echo short; done | grep -q short &&
	fail "threshold: a recorded wait is shorter than 400 ms" || pass "threshold: every recorded wait lasted 400 ms or more"
# The other families: the wait's first and last events are the long
# waits' only, and "where threads wait" counts every wait either way.
waited() { # waited JSON KIND: the waits of that row of waits.top in the report JSON
	jq -r ".tables[] | select(.name == \"waits.top\") | .rows[] | select(.kind == \"$2\") | .waits" "$1"
}
# FAMILY:FIRST:LAST:KIND:DURATION (the event whose wait_ns is the wait's)
for fam in sem:wait_begin:acquired:sem:acquired rwlock:requested:acquired:rwlock-read:acquired \
	barrier:arrival:departure:barrier:departure cond:enqueued:relocked:cond:woke; do
	IFS=: read -r f begin end kind durev <<<"$fam"
	for mode in threshold none; do
		args=(record -q -o "$T/$f.$mode")
		[ $mode = threshold ] && args+=(--threshold $thr)
		run_st 0 "$f: record ($mode)" "${args[@]}" -- "$prog" $short $long $hold_ms $f
		grep -q "^waits: $f short=$short long=$long" "$T/out" ||
			{ fail "$f $mode: program: $(cat "$T/out" "$T/err")"; continue; }
		trace_events "$T/$f.$mode" >"$T/events.$f.$mode"
		"$SYNCTRACE" report --format json "$T/$f.$mode" >"$T/r.$f.$mode.json" 2>"$T/rerr" ||
			fail "$f $mode: report failed: $(cat "$T/rerr")"
		jq -r '.messages[]' "$T/r.$f.$mode.json" | grep -q 'out of time order' &&
			fail "$f $mode: $(jq -r '.messages[]' "$T/r.$f.$mode.json")"
		want=$((short + long))
		[ $mode = threshold ] && want=$long
		for ev in $begin $end; do
			n=$(count "synctrace_$f:$ev:" $f.$mode)
			[ "$n" -eq "$want" ] && pass "$f $mode: $n $f:$ev events" ||
				fail "$f $mode: $n $f:$ev events, want $want"
		done
		n=$(waited "$T/r.$f.$mode.json" $kind)
		[ "$n" = $((short + long)) ] && pass "$f $mode: the report counts $n waits" ||
			fail "$f $mode: the report counts '$n' waits, want $((short + long))"
	done
	n=$(count 'synctrace_summary:object:' $f.threshold)
	[ "$n" -ge 1 ] && pass "$f threshold: the short waits came as summaries ($n)" ||
		fail "$f threshold: no summary event"
	grep "synctrace_$f:$durev:" "$T/events.$f.threshold" | sed -n 's/.*wait_ns = \([0-9]*\).*/\1/p' |
		while read -r ns; do [ "$ns" -ge 400000000 ] || echo short; done | grep -q short &&
		fail "$f threshold: a recorded wait is shorter than 400 ms" ||
		pass "$f threshold: every recorded wait lasted 400 ms or more"
	jq -r '.tables[] | select(.name == "summary.processes") | .notes[]?' "$T/r.$f.threshold.json" |
		grep -q "mutex, semaphore, rwlock, barrier and condvar waits shorter" &&
		pass "$f threshold: the report names the waits sampled" ||
		fail "$f threshold: the report does not name the waits sampled"
done
run_st 0 "record --threshold 1ms, 4 threads hot" record -q --threshold 1ms -o "$T/hot" -- "$hot" 4 20000
grep -q '^hot: acquisitions=80000$' "$T/out" && pass "hot: 80000 acquisitions" || fail "hot: $(cat "$T/out")"
read -r n c < <("$SYNCTRACE" report --format json "$T/hot" 2>/dev/null |
	jq -r '.tables[] | select(.name == "contention.locks") | .rows[] | select(.name == "hot") | "\(.acquisitions) \(.contended)"')
[ "$n" = 80000 ] && [ "${c:-0}" -ge 1 ] && pass "hot: the report counts 80000 acquisitions, $c contended" ||
	fail "hot: the report counts '$n' acquisitions, '$c' contended"
finish
