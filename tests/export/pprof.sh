#!/usr/bin/env bash
# --format pprof of contend.c read by the real client, go tool pprof:
# -top lists take_queue with the exact total wait (the report's) and 4
# contentions; -tagfocus=lock=queue_lock keeps them, another lock none;
# -traces shows waiter_main → take_queue with --stacks; the labels.
. "$(dirname "$0")/lib.sh"
command -v go >/dev/null || { fail "go (golang-go) not installed"; finish; }
export HOME=$T GOCACHE=$T/gocache
pp() { go tool pprof "$@" 2>"$T/pperr" || { fail "go tool pprof $*: status $?"; cat "$T/pperr" >&2; }; }
record_both
read -r wns nw < <(report_wait "$T/plain")
export_to "pprof" "$T/plain.pb.gz" --format pprof "$T/plain"
[ "$(head -c2 "$T/plain.pb.gz" | od -An -tx1 | tr -d ' ')" = 1f8b ] && pass "gzip magic" || fail "not gzipped"

# flat of take_queue, in exact ns / count.
flat() { awk -v f="$1" '$NF == f { print $1 }'; }
got=$(pp -top -unit=ns -sample_index=delay "$T/plain.pb.gz" | flat take_queue)
[ -n "$wns" ] && [ "$got" = "${wns}ns" ] && pass "-top: take_queue waited ${wns}ns (the report's)" ||
	fail "-top delay: take_queue '$got', report '${wns}ns'"
got=$(pp -top -sample_index=contentions "$T/plain.pb.gz" | flat take_queue)
[ "$got" = 4 ] && pass "-top: take_queue 4 contentions" || fail "-top contentions: '$got', want 4"
[ "$nw" = 4 ] && pass "report: 4 waits" || fail "report: $nw waits"
got=$(pp -top -sample_index=contentions -tagfocus=lock=queue_lock "$T/plain.pb.gz" | flat take_queue)
[ "$got" = 4 ] && pass "-tagfocus=lock=queue_lock: 4" || fail "-tagfocus lock: '$got'"
got=$(pp -top -sample_index=contentions -tagfocus=kind=mutex -tagfocus=thread=waiter "$T/plain.pb.gz" | flat take_queue)
[ "$got" = 4 ] && pass "-tagfocus kind=mutex thread=waiter: 4" || fail "-tagfocus kind/thread: '$got'"
got=$(pp -top -sample_index=contentions -tagfocus=lock=no_such_lock "$T/plain.pb.gz" | flat take_queue)
[ -z "$got" ] && pass "-tagfocus=lock=no_such_lock: nothing" || fail "-tagfocus other lock: '$got'"
pp -tags "$T/plain.pb.gz" >"$T/tags"
for t in lock: queue_lock kind: mutex thread: waiter process: "$comm"; do
	grep -qF -- "$t" "$T/tags" || fail "-tags lacks '$t'"
done
pass "-tags: lock, kind, thread, process"

export_to "pprof --stacks" "$T/stacks.pb.gz" --format pprof "$T/stacks"
pp -traces -sample_index=contentions "$T/stacks.pb.gz" >"$T/traces"
if awk '/take_queue/ { t = NR } /waiter_main/ && t && NR == t + 1 { ok = 1 } END { exit !ok }' "$T/traces"; then
	pass "-traces: waiter_main calls take_queue"
else fail "-traces lack take_queue ← waiter_main:"; cat "$T/traces" >&2; fi
grep -q "contend.c:$take" <(pp -top -lines -sample_index=contentions "$T/stacks.pb.gz") &&
	pass "-lines: contend.c:$take" || fail "-lines: no contend.c:$take"

# Spinning and wasted wakes, summed over the profile, equal what the
# trace's own events say: spin:loop iterations, with those of the spins
# folded into a mutex's, semaphore's or rwlock's acquired event (how SPIN,
# format 4: EVENTS.md), and the futex wakes that woke nobody.
run_st 0 "record --spin full:200" record --spin full:200 -q -o "$T/spin" -- "$prog"
export_to "pprof spin" "$T/spin.pb.gz" --format pprof "$T/spin"
total() { go tool pprof -top -sample_index="$1" "$T/spin.pb.gz" 2>/dev/null |
	sed -n 's/^Showing nodes accounting for .* of \([0-9]*\)[a-z_]* total$/\1/p'; }
trace_events "$T/spin" >"$T/events"
iters=$({ grep 'synctrace_spin:loop:' "$T/events" | grep -o 'iterations = [0-9]*'
	grep -E 'synctrace_(mutex|sem|rwlock):acquired:.*how = \( "SPIN"' "$T/events" |
		grep -o 'spins = [0-9]*'; } | awk '{ s += $3 } END { print s + 0 }')
wasted=$(grep 'synctrace_futex:wake:' "$T/events" | grep -c 'woken = 0[ ,}]')
got=$(total spin)
[ "$iters" -gt 0 ] && [ "$got" = "$iters" ] && pass "spin: $got iterations, as the trace's spin:loop" ||
	fail "spin: pprof '$got', trace $iters iterations"
got=$(total wasted_wakes)
[ "${got:-0}" = "$wasted" ] && pass "wasted_wakes: ${got:-0}, as the trace's futex wakes of nobody" ||
	fail "wasted_wakes: pprof '$got', trace $wasted"
finish
