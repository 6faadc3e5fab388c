#!/usr/bin/env bash
# Histograms that run out of room. With SYNCTRACE_SUMMARY_BUCKETS=1 each
# histogram of a thread's table keeps one distinct bucket: a value in
# another sends the object's aggregates out (a FULL flush) and starts them
# again, so every object's numbers reach the trace in many pieces, which
# the report adds up: every count still equals the contention level's.
# A value out of range is refused with a message, and the default kept.
# usage: split.sh SYNCTRACE [RECORD OPTIONS] -- PROGRAM ARGS...
SYNCTRACE=$1
shift
. "$(dirname "$0")/../cli/lib.sh"
. "$(dirname "$0")/lib.sh"
need_daemon
SYNCTRACE_SUMMARY_BUCKETS=1 record_levels "$@"
same_tables
no_transitions
# (of every thread of the program, whatever names they took)
n=$(babeltrace2 "$T/summary" | grep -c 'synctrace_summary:flushed: .*reason = ( "FULL"' || true)
if [ "$n" -ge 1 ]; then pass "the aggregates went out in pieces ($n FULL flushes)"; else
	fail "only $n FULL flushes with one bucket a histogram"; fi

prog=("$@")
while [ "${prog[0]}" != "--" ]; do prog=("${prog[@]:1}"); done
SYNCTRACE_SUMMARY_BUCKETS=65 run_st 0 "record with SYNCTRACE_SUMMARY_BUCKETS=65" \
	record -q --level summary -o "$T/bad" "${prog[@]}"
if grep -q "SYNCTRACE_SUMMARY_BUCKETS=65 is not 1 to 64; keeping 64" "$T/err"; then
	pass "a value out of range is refused with a message"
else
	fail "no message for SYNCTRACE_SUMMARY_BUCKETS=65: $(head -3 "$T/err")"
fi
finish
