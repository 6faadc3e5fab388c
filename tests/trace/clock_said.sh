#!/usr/bin/env bash
# The trace says what each process timed its waits with (meta:clock,
# format x.12), and the report's Processes table shows it:
#   - record --clock counter, at the contention and the summary level: one
#     meta:clock, source COUNTER, why FORCED, the counter's rate the one
#     the program itself was told (where the processor has an invariant
#     counter; elsewhere MONOTONIC, NO_COUNTER); the report's processes
#     row says clock counter, clock_why forced, counter_hz
#   - record --clock monotonic: MONOTONIC, SETTING, counter_hz 0
#   - the default, at the contention and the summary level: whatever the
#     program was told, said once (where the kernel distrusts the counter:
#     PER_CPU at both levels); the report's note on a distrusted counter
#     there exactly when told DISTRUSTED
#   - without glibc's rseq (GLIBC_TUNABLES=glibc.pthread.rseq=0) no CPU is
#     told cheaply: where the default was PER_CPU it is DISTRUSTED, and the
#     note says why
#   - told the kernel distrusts the counter (SYNCTRACE_TEST_CLOCKSOURCE),
#     on any machine with an invariant counter: PER_CPU at both levels, and
#     without rseq DISTRUSTED with the note
#   - a process killed (SIGKILL, no meta:stop) after its clock settled and
#     a thread of it exited still says it
#   - a trace without meta:clock (tests/golden's, format 2.1) leaves the
#     column empty
# usage: clock_said.sh SYNCTRACE PROGRAM
SYNCTRACE=$1
prog=$2
. "$(dirname "$0")/../cli/lib.sh"
need_daemon
inv=0
grep -qw constant_tsc /proc/cpuinfo && grep -qw nonstop_tsc /proc/cpuinfo && inv=1

# check WHAT DIR WANT_SOURCE WANT_WHY: the program's told line ($T/out),
# the trace's meta:clock events and the report's processes row agree.
check() {
	local what=$1 dir=$2 src=$3 why=$4
	local told n ev rep
	told=$(grep -E '^source=' "$T/out")
	ev=$(trace_events "$dir" | grep 'synctrace_meta:clock:')
	n=$(grep -c . <<<"$ev")
	[ "$n" -eq 1 ] && pass "$what: one meta:clock" || fail "$what: $n meta:clock events: $ev"
	grep -q "source = ( \"$src\"" <<<"$ev" && grep -q "why = ( \"$why\"" <<<"$ev" &&
		pass "$what: meta:clock says $src, $why" || fail "$what: meta:clock is '$ev', want $src, $why"
	local hz=${told##*hz=} ehz
	ehz=$(sed -n 's/.*counter_hz = \([0-9]*\).*/\1/p' <<<"$ev")
	[ "$ehz" = "$hz" ] && pass "$what: counter_hz $ehz as the program was told" ||
		fail "$what: counter_hz '$ehz', the program was told '$told'"
	if [ "$src" = COUNTER ]; then
		[ "${ehz:-0}" -gt 1000000 ] && pass "$what: a counter rate ($ehz Hz)" ||
			fail "$what: counter_hz $ehz"
	else
		[ "$ehz" = 0 ] && pass "$what: no counter rate" || fail "$what: counter_hz $ehz"
	fi
	rep=$("$SYNCTRACE" report --format json "$dir" 2>"$T/rerr") || fail "$what: report: $(cat "$T/rerr")"
	local lsrc lwhy
	lsrc=$(tr 'A-Z' 'a-z' <<<"$src") lwhy=$(tr 'A-Z' 'a-z' <<<"$why")
	grep -qE "\"clock\": \"$lsrc\", \"clock_why\": \"$lwhy\", \"counter_hz\": $ehz\b" <<<"$rep" &&
		pass "$what: the report's processes row says $lsrc, $lwhy" ||
		fail "$what: the report's processes row lacks clock $lsrc, $lwhy, $ehz: $(grep -o '"clock":[^}]*' <<<"$rep")"
}

if [ $inv = 1 ]; then csrc=COUNTER cwhy=FORCED; else csrc=MONOTONIC cwhy=NO_COUNTER; fi
for level in contention summary; do
	run_st 0 "$level, --clock counter" record -q --level $level --clock counter -o "$T/c.$level" -- "$prog"
	check "$level, --clock counter" "$T/c.$level" $csrc $cwhy
done
run_st 0 "--clock monotonic" record -q --clock monotonic -o "$T/m" -- "$prog"
check "--clock monotonic" "$T/m" MONOTONIC SETTING

# The default: what this machine's kernel allows (the program was told);
# where the kernel distrusts the counter, every level reads it per CPU.
names=(_ KERNEL_USES KERNEL_LISTS FORCED SETTING NO_COUNTER DISTRUSTED UNMEASURED WENT_BACK
	UNCALIBRATED UNUSED PER_CPU DRIFTED)
distrust_note() { # WHAT TRACE WHY: the note there exactly when told DISTRUSTED
	"$SYNCTRACE" report --format json "$2" >"$T/n.json" 2>"$T/rerr" || fail "$1: report: $(cat "$T/rerr")"
	note=$(jq -r '.tables[] | select(.name == "summary.processes") | .notes[]?' "$T/n.json" |
		grep 'processes timed waits with CLOCK_MONOTONIC')
	if [ "$3" = DISTRUSTED ]; then
		grep -q '^1 of 1 processes timed waits with CLOCK_MONOTONIC' <<<"$note" &&
			grep -q 'record --clock counter' <<<"$note" && grep -q "glibc's rseq" <<<"$note" &&
			pass "$1: distrusted: the report's note says so, why not per CPU, and the cheaper way" ||
			fail "$1: distrusted: the report's note is '$note'"
	else
		[ -z "$note" ] && pass "$1: not distrusted ($3): no note about it" ||
			fail "$1: not distrusted ($3), yet the note '$note'"
	fi
}
for level in contention summary; do
	run_st 0 "default clock, $level" record -q --level $level -o "$T/d.$level" -- "$prog"
	read -r s w < <(sed -n 's/^source=\([0-9]*\) why=\([0-9]*\).*/\1 \2/p' "$T/out")
	[ "$s" = 1 ] && ds=COUNTER || ds=MONOTONIC
	check "default clock, $level (${names[$w]:-?})" "$T/d.$level" $ds "${names[$w]:-?}"
	echo "$name: this machine's default at the $level level: $ds, ${names[$w]:-?}"
	distrust_note "default clock, $level" "$T/d.$level" "${names[$w]:-?}"
	[ "$level" = contention ] && def=${names[$w]:-?}
done
# Without glibc's rseq a CPU cannot be told cheaply: a distrusted counter
# is not read then, and the report's note says why.
GLIBC_TUNABLES=glibc.pthread.rseq=0 run_st 0 "no rseq" record -q -o "$T/nr" -- "$prog"
read -r s w < <(sed -n 's/^source=\([0-9]*\) why=\([0-9]*\).*/\1 \2/p' "$T/out")
[ "$s" = 1 ] && ds=COUNTER || ds=MONOTONIC
check "no rseq (${names[$w]:-?})" "$T/nr" $ds "${names[$w]:-?}"
distrust_note "no rseq" "$T/nr" "${names[$w]:-?}"
if [ "$def" = PER_CPU ]; then
	[ "${names[$w]:-?}" = DISTRUSTED ] && pass "no rseq: DISTRUSTED where the default read per CPU" ||
		fail "no rseq: told ${names[$w]:-?}, want DISTRUSTED (the default read per CPU)"
fi

# Told the kernel distrusts the counter (SYNCTRACE_TEST_CLOCKSOURCE: a
# clocksource folder naming kvm-clock alone), whatever this machine's
# kernel does: an invariant counter is read per CPU at both levels, and
# without rseq not at all, with the note.
if [ $inv = 1 ]; then
	export SYNCTRACE_TEST_CLOCKSOURCE=$(cd "$(dirname "$0")" && pwd)/distrusted
	for level in contention summary; do
		run_st 0 "told distrusted, $level" record -q --level $level -o "$T/t.$level" -- "$prog"
		check "told distrusted, $level" "$T/t.$level" COUNTER PER_CPU
		distrust_note "told distrusted, $level" "$T/t.$level" PER_CPU
	done
	GLIBC_TUNABLES=glibc.pthread.rseq=0 run_st 0 "told distrusted, no rseq" record -q -o "$T/tn" -- "$prog"
	check "told distrusted, no rseq" "$T/tn" MONOTONIC DISTRUSTED
	distrust_note "told distrusted, no rseq" "$T/tn" DISTRUSTED
	unset SYNCTRACE_TEST_CLOCKSOURCE
fi

for level in contention summary; do
	run_st 137 "$level, killed" record -q --level $level --clock counter -o "$T/k.$level" -- "$prog" kill
	trace_events "$T/k.$level" | grep -q 'synctrace_meta:stop:' &&
		fail "$level, killed: a meta:stop in the trace" || pass "$level, killed: no meta:stop"
	check "$level, killed" "$T/k.$level" $csrc $cwhy
done

# A trace older than meta:clock: the column is empty (null in JSON).
old=$(dirname "$0")/../golden/traces/contended
rep=$("$SYNCTRACE" report --format json "$old" 2>/dev/null)
grep -q '"clock": null, "clock_why": null, "counter_hz": null' <<<"$rep" &&
	pass "a trace without meta:clock: clock null" || fail "a trace without meta:clock: $(grep -o '"clock":[^}]*' <<<"$rep")"
finish
