#!/usr/bin/env bash
# One clock read for two uses (doc/performance.md, session 20): where the
# durations' clock is CLOCK_MONOTONIC (forced here: SYNCTRACE_CLOCK=
# monotonic), a batched record that begins or ends a wait carries the very
# read its duration begins or ends with, and a condvar waiter that takes
# its mutex back at the first CAS reads no clock for it (relock_ns 0, its
# woke's time). On the waits of spin_fold.c (every family; the condvar's
# signaler unlocks before it signals, so the relocks do not wait):
#   - every cond woke is exactly wait_ns after its node's enqueued
#   - every relocked that took the mutex at once says relock_ns 0 and has
#     its woke's time
#   - a relock that waited in the mutex's lock (`spin_fold relock`, its
#     own recording without spinning: the signaler keeps the mutex until
#     the woken waiter sleeps in its lock) shares that wait's reads: its
#     relocked has the time and says the relock_ns of the mutex's
#     acquired record just before it (two reads, not four: mutex.h,
#     st_mutex_cond_relock)
#   - an acquired (sem, mutex, rwlock) or departure began (its time minus
#     wait_ns) no earlier than the thread's record that opened the wait
#     (wait_begin, requested, arrival): the end is a read of the same clock
#   - the trace is format 4.11 or later
# usage: shared_reads.sh SYNCTRACE PROGRAM
SYNCTRACE=$1
prog=$2
. "$(dirname "$0")/../cli/lib.sh"
need_daemon

SYNCTRACE_CLOCK=monotonic "$SYNCTRACE" record -q --spin full:2000000 -o "$T/t" -- \
	"$prog" >"$T/out" 2>"$T/err" || { fail "record: $(cat "$T/err")"; finish; }
trace_events "$T/t" >"$T/events"
grep -qE 'synctrace_meta:start: .*format_major = 4, format_minor = (1[1-9]|[2-9][0-9])' \
	"$T/events" && pass "format 4.11 or later" || fail "no meta:start of format 4.11 or later"

# One line per event of trace events file $1: kind ns tid key=value...,
# ns from the timestamp.
lines_of() {
awk '
function ns(s,   a, b) { s = substr(s, 2, length(s) - 2); split(s, a, ":"); split(a[3], b, ".");
	return ((a[1] * 60 + a[2]) * 60 + b[1]) * 1000000000 + b[2] }
/synctrace_(cond:(enqueued|woke|relocked)|sem:(wait_begin|acquired)|mutex:(requested|acquired)|rwlock:(requested|acquired)|barrier:(arrival|departure)):/ {
	kind = $4; sub(/:$/, "", kind); sub(/^synctrace_/, "", kind)
	line = $0; out = kind " " sprintf("%.0f", ns($1))
	if (match(line, /vtid = [0-9]+/)) out = out " tid=" substr(line, RSTART + 7, RLENGTH - 7)
	n = split("node obj cond mutex wait_ns relock_ns contended", keys, " ")
	for (i = 1; i <= n; i++)
		if (match(line, keys[i] " = [0-9A-Fa-fx]+"))
			out = out " " keys[i] "=" substr(line, RSTART + length(keys[i]) + 3,
						     RLENGTH - length(keys[i]) - 3)
	print out
}' "$1"
}

# The counts (see END) of lines file $1; the first few misses on stderr.
counts_of() {
awk '
function val(k,   i) { for (i = 3; i <= NF; i++) if (index($i, k "=") == 1) return substr($i, length(k) + 2); return "" }
{ tid = val("tid") }
$1 == "cond:enqueued" { enq[tid, val("node")] = $2 }
$1 == "cond:woke" {
	woke[tid] = $2; k = tid SUBSEP val("node")
	if (!(k in enq)) { nomatch++; next }
	if ($2 - enq[k] == val("wait_ns") + 0) exact++; else { off++; if (off <= 3) print "off: " $0 " enqueued at " enq[k] > "/dev/stderr" }
	delete enq[k]
}
$1 == "mutex:acquired" { acq_t[tid] = $2; acq_obj[tid] = val("obj"); acq_ns[tid] = val("wait_ns") }
$1 == "cond:relocked" {
	if (val("contended") + 0 == 0) {
		if (val("relock_ns") + 0 == 0 && $2 == woke[tid]) at_once++; else { bad_once++; if (bad_once <= 3) print "at once: " $0 " woke at " woke[tid] > "/dev/stderr" }
	} else if ((tid in acq_t) && acq_t[tid] >= woke[tid] && acq_obj[tid] == val("mutex")) {
		if ($2 == acq_t[tid] && val("relock_ns") == acq_ns[tid] && acq_ns[tid] + 0 > 0) waited++
		else { bad_waited++; if (bad_waited <= 3) print "waited: " $0 " acquired at " acq_t[tid] " wait_ns=" acq_ns[tid] > "/dev/stderr" }
	}
}
$1 ~ /:(wait_begin|requested|arrival)$/ { open_[tid, val("obj")] = $2 }
$1 ~ /:(acquired|departure)$/ && $1 != "cond:relocked" {
	k = tid SUBSEP val("obj")
	if (!(k in open_)) next
	if ($2 - val("wait_ns") >= open_[k]) ends_ok++; else { ends_bad++; if (ends_bad <= 3) print "end: " $0 " opened at " open_[k] > "/dev/stderr" }
	delete open_[k]
}
END { printf "%d %d %d %d %d %d %d %d %d\n", exact, off, nomatch, at_once, bad_once, waited, bad_waited, ends_ok, ends_bad }
' "$1"
}

lines_of "$T/events" >"$T/lines"
counts_of "$T/lines" >"$T/counts" 2>"$T/why"
read -r exact off nomatch at_once bad_once waited bad_waited ends_ok ends_bad <"$T/counts"
# The relocks that wait, by state (spin_fold.c: relock).
SYNCTRACE_CLOCK=monotonic "$SYNCTRACE" record -q --spin none -o "$T/r" -- \
	"$prog" relock >"$T/rout" 2>"$T/rerr" || { fail "record relock: $(cat "$T/rerr")"; finish; }
trace_events "$T/r" >"$T/revents"
lines_of "$T/revents" >"$T/rlines"
counts_of "$T/rlines" >"$T/rcounts" 2>>"$T/why"
read -r _ _ _ _ _ waited bad_waited _ _ <"$T/rcounts"
[ "${exact:-0}" -ge 40 ] && [ "$off" = 0 ] && [ "$nomatch" = 0 ] &&
	pass "$exact cond woke records exactly wait_ns after their enqueued" ||
	fail "cond woke: $exact exact, $off not, $nomatch without an enqueued: $(cat "$T/why")"
[ "${at_once:-0}" -ge 20 ] && [ "$bad_once" = 0 ] &&
	pass "$at_once relocks at once: relock_ns 0, at their woke's time" ||
	fail "relocks at once: $at_once as they should be, $bad_once not: $(cat "$T/why")"
[ "${waited:-0}" -ge 40 ] && [ "$bad_waited" = 0 ] &&
	pass "$waited relocks that waited in the mutex's lock share its acquired's reads" ||
	fail "relocks that waited in the lock: $waited share its reads, $bad_waited not: $(cat "$T/why")"
[ "${ends_ok:-0}" -ge 40 ] && [ "$ends_bad" = 0 ] &&
	pass "$ends_ok acquired/departure records begin after the record that opened their wait" ||
	fail "acquired/departure: $ends_ok consistent, $ends_bad not: $(cat "$T/why")"
finish
