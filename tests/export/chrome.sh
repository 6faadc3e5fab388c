#!/usr/bin/env bash
# --format chrome of contend.c, validated by chrome_check (the format's
# rules: nesting per track, flows with matching ids inside slices,
# required fields, thread names): the waiter's 4 waits "mutex queue_lock",
# main's 4 wakes, 4 flows from them into the waits, a waiters counter;
# signal.c: a flow from main's signal into each of the waiter's 4 cond
# waits. The checker is first shown to reject broken documents.
. "$(dirname "$0")/lib.sh"
check=${CHROME_CHECK:?}
bad() { # WHAT JSON: the checker must refuse it
	printf '%s' "$2" >"$T/bad.json"
	if "$check" "$T/bad.json" >/dev/null 2>"$T/cerr"; then fail "checker accepted $1"
	else pass "checker rejects $1: $(cat "$T/cerr")"; fi
}
M='{"ph":"M","name":"thread_name","pid":1,"tid":1,"args":{"name":"t"}}'
bad "crossing slices" "{\"traceEvents\":[$M,{\"ph\":\"X\",\"name\":\"a\",\"pid\":1,\"tid\":1,\"ts\":0,\"dur\":2},{\"ph\":\"X\",\"name\":\"b\",\"pid\":1,\"tid\":1,\"ts\":1,\"dur\":2}]}"
bad "a flow without its end" "{\"traceEvents\":[$M,{\"ph\":\"X\",\"name\":\"a\",\"pid\":1,\"tid\":1,\"ts\":0,\"dur\":2},{\"ph\":\"s\",\"cat\":\"w\",\"name\":\"w\",\"id\":1,\"pid\":1,\"tid\":1,\"ts\":1}]}"
bad "a slice without dur" "{\"traceEvents\":[$M,{\"ph\":\"X\",\"name\":\"a\",\"pid\":1,\"tid\":1,\"ts\":0}]}"
bad "truncated JSON" "{\"traceEvents\":[$M"

record_both
export_to "chrome" "$T/c.json" --format chrome "$T/plain"
if "$check" "$T/c.json" >"$T/sum" 2>"$T/cerr"; then pass "chrome_check: valid"; else
	fail "chrome_check: $(cat "$T/cerr")"; fi
has() { grep -qxF "$1" "$T/sum" && pass "$1" || { fail "no '$1' in:"; cat "$T/sum" >&2; }; }
has "slice waiter|mutex queue_lock 4"
has "slice $comm|wake queue_lock 4"
has "flows 4"
grep -qE '^counters [1-9]' "$T/sum" && pass "a waiters counter" || fail "no counter: $(cat "$T/sum")"
grep -q '"name": "waiters queue_lock"' "$T/c.json" && pass "counter named waiters queue_lock" ||
	fail "no 'waiters queue_lock' counter"
# Timestamps: microseconds with three decimals (ns precision).
grep -qE '"ts": [0-9]+\.[0-9]{3},' "$T/c.json" && pass "ts in µs with ns precision" ||
	fail "ts not µs.nnn"
has "flowin waiter|mutex queue_lock 4"

# signal.c: each of the waiter's 4 cond waits ended by main's signal, a
# flow into it.
sig=${SIGNAL_PROG:?}
run_st 0 "record signal" record --spin none -q -o "$T/signal" -- "$sig"
export_to "chrome signal" "$T/s.json" --format chrome "$T/signal"
if "$check" "$T/s.json" >"$T/sum" 2>"$T/cerr"; then pass "chrome_check: valid"; else
	fail "chrome_check: $(cat "$T/cerr")"; fi
has "slice waiter|cond ready 4"
has "flowin waiter|cond ready 4"
finish
