#!/usr/bin/env bash
# A session that starts while the program runs (probes preloaded, as
# `synctrace record` does) records the process's synctrace_meta:start and
# synctrace_meta:config, with the settings the program runs with
# (SYNCTRACE_SEM_MAX=init:7): the analyzers read the format, level and
# checks from them.
# The probes announce such a process lazily, at its first event once the
# session is there; lttng-ust enables a starting session's tracepoints
# before it marks the session active, and a pair emitted in between is
# dropped (about one run in four here). So a lazy announcement is repeated
# (repeat = 1, same nonce) 100 ms later or at exit (tracepoints/probes.c).
# Every run must hold, from the program's pid:
#  - the four workers' thread:exit and the process's meta:stop;
#  - the repeat, exactly once, and at most one first announcement
#    (repeat = 0) which, when recorded, is the first event of the trace;
#  - one nonce in all its starts, and after each start, in the same
#    thread, the config (sem_max_mode 3, sem_max 7);
#  - in synctrace-report's JSON, one instance of the process, start seen,
#    format 4.18 (batched records), level contention;
#  - with the announcements, a meta:base for main and for each worker,
#    which had all run before the session (CPU time > 0), and each
#    worker's CPU time in the report is its thread:exit's less one of its
#    bases (the first's, or the repeat's when the first was dropped or the
#    worker's first event came after it): what it used in the trace
#    (format minor 18), and the text report's threads table says lives
#    begin at the announcement.
# The program runs until the session has started in it (busy.c usr1:),
# so a loaded machine cannot end it first. RUNS runs (default 3; no
# retry: each must pass).
# usage: late_session.sh LIBSYNCTRACE LIBSYNCTRACE_TP PROGRAM(busy.c) REPORT
set -u
lib=$1 tp=$2 prog=$3 report=$4
runs=${RUNS:-3}
lttng list >/dev/null 2>&1 || { echo "late_session: no session daemon (run through ./synctrace.sh test)" >&2; exit 1; }
dir=$(mktemp -d)
name="st-late-$$"
trap 'lttng destroy "$name" >/dev/null 2>&1; rm -rf "$dir"' EXIT
dropped=0
attempt() {
	local fails=0
	rm -rf "$dir/trace"
	lttng create "$name" --output="$dir/trace" >/dev/null
	lttng enable-event -u -s "$name" 'synctrace_*' >/dev/null
	lttng add-context -u -s "$name" -t vpid -t vtid -t procname >/dev/null
	export ST_TEST_MODE=traced
	SYNCTRACE_SEM_MAX=init:7 LD_PRELOAD="$lib $tp" "$prog" usr1:0.5 20000 >"$dir/out" 2>&1 &
	pid=$!
	# The program is registered (lttng-ust's constructor waited for that)
	# and its threads run; `lttng start` returns once the session daemon
	# has started the session in it; then it works 0.5 s more.
	for _ in $(seq 600); do
		grep -q '^busy: running' "$dir/out" && break
		kill -0 $pid 2>/dev/null || break
		sleep 0.05
	done
	grep -q '^busy: running' "$dir/out" ||
		{ echo "late_session: the program did not start: $(tail -3 "$dir/out")" >&2; kill $pid 2>/dev/null; return 1; }
	lttng start "$name" >/dev/null
	kill -USR1 $pid
	wait $pid || { echo "late_session: the program failed: $(tail -3 "$dir/out")" >&2; return 1; }
	lttng stop "$name" >/dev/null
	lttng destroy "$name" >/dev/null
	# "NAME VTID PAYLOAD" per event of the program
	"$report" --events "$dir/trace" 2>/dev/null | grep "vpid = $pid, " |
		sed -n 's/.*\(synctrace_[a-z_]*:[a-z_]*\): .*vtid = \([0-9]*\).*}, { \(.*\) }$/\1 \2 \3/p' >"$dir/events"
	n=$(wc -l <"$dir/events")
	# Load-proof events after the start: the four workers' exits and the
	# process's stop (contention events depend on the scheduling).
	exits=$(grep -c '^synctrace_thread:exit ' "$dir/events")
	stops=$(grep -c '^synctrace_meta:stop ' "$dir/events")
	[ "$exits" -eq 4 ] && [ "$stops" -eq 1 ] || {
		echo "late_session: FAIL: $exits thread:exit and $stops meta:stop after the late start, want 4 and 1: $(cut -d" " -f1 "$dir/events" | sort | uniq -c | tr -s " \n" " ")" >&2
		return 1
	}
	first=$(grep -c '^synctrace_meta:start .*repeat = 0$' "$dir/events")
	repeats=$(grep -c '^synctrace_meta:start .*repeat = 1$' "$dir/events")
	starts=$(grep -c '^synctrace_meta:start ' "$dir/events")
	configs=$(grep -c '^synctrace_meta:config ' "$dir/events")
	nonces=$(sed -n 's/^synctrace_meta:start .*nonce = \(0x[0-9A-Fa-f]*\),.*/\1/p' "$dir/events" | sort -u | wc -l)
	[ "$repeats" -eq 1 ] || { echo "late_session: FAIL: $repeats repeated meta:start, expected 1" >&2; fails=1; }
	[ "$first" -le 1 ] || { echo "late_session: FAIL: $first first meta:start" >&2; fails=1; }
	[ "$starts" -eq $((first + repeats)) ] || { echo "late_session: FAIL: a meta:start without repeat field" >&2; fails=1; }
	[ "$configs" -eq "$starts" ] || { echo "late_session: FAIL: $configs meta:config for $starts meta:start" >&2; fails=1; }
	[ "$nonces" -eq 1 ] || { echo "late_session: FAIL: $nonces nonces in one process's starts" >&2; fails=1; }
	if [ "$first" -eq 1 ]; then
		grep -q '^synctrace_meta:start .*repeat = 0$' <(head -1 "$dir/events") ||
			{ echo "late_session: FAIL: first event is not meta:start: $(head -1 "$dir/events")" >&2; fails=1; }
	else
		dropped=$((dropped + 1))
	fi
	# After each start, that thread's next event: the config.
	bad=$(awk '$1 == "synctrace_meta:start" { want[$2] = 1; next }
		want[$2] { if ($0 !~ /^synctrace_meta:config [0-9]+ sem_max_mode = 3, sem_max = 7, all_mutexes_spin = 1, threshold_ns = 0$/) print; want[$2] = 0 }
		END { for (t in want) if (want[t]) print "thread " t ": no event after meta:start" }' "$dir/events")
	[ -z "$bad" ] || { echo "late_session: FAIL: meta:start not followed by meta:config (3, 7): $bad" >&2; fails=1; }
	"$report" --format json "$dir/trace" >"$dir/r.json" 2>"$dir/r.err" ||
		{ echo "late_session: FAIL: report: $(cat "$dir/r.err")" >&2; return 1; }
	got=$(jq -r --argjson p "$pid" '[.tables[] | select(.name == "summary.processes") | .rows[] |
		select(.vpid == $p) | "\(.instance) \(.started_in_trace) \(.format) \(.level)"] | join(";")' "$dir/r.json")
	[ "$got" = "0 true 4.18 contention" ] ||
		{ echo "late_session: FAIL: report's process rows: '$got', want one '0 true 4.18 contention'" >&2; fails=1; }
	# "TID CPU" of every meta:base (the first announcement's, the repeat's)
	sed -n 's/^synctrace_meta:base .* tid = \([0-9]*\), cpu_ns = \([0-9]*\), runq_ns = .*/\1 \2/p' \
		"$dir/events" >"$dir/bases"
	workers=$(sed -n 's/^synctrace_thread:exit \([0-9]*\) .*cpu_ns = \([0-9]*\),.*/\1 \2/p' "$dir/events")
	grep -q "^$pid [1-9]" "$dir/bases" ||
		{ echo "late_session: FAIL: no meta:base for main ($pid) with CPU time: $(tr '\n' ';' <"$dir/bases")" >&2; fails=1; }
	while read -r tid exit_cpu; do
		bases=$(awk -v t="$tid" '$1 == t && $2 > 0 { print $2 }' "$dir/bases")
		[ -n "$bases" ] ||
			{ echo "late_session: FAIL: worker $tid: no meta:base with CPU time (it ran before the session)" >&2; fails=1; continue; }
		shown=$(jq -r --argjson p "$pid" --argjson t "$tid" '[.tables[] | select(.name == "waits.threads") |
			.rows[] | select(.vpid == $p and .vtid == $t) | .cpu_ns] | first // "none"' "$dir/r.json")
		ok=0
		for base in $bases; do [ "$shown" = $((exit_cpu - base)) ] && ok=1; done
		[ $ok -eq 1 ] ||
			{ echo "late_session: FAIL: worker $tid: report's cpu_ns '$shown', want its exit's $exit_cpu less a base of its ($(echo $bases))" >&2; fails=1; }
	done <<<"$workers"
	"$report" "$dir/trace" 2>/dev/null | tr -s ' \n' ' ' | grep -q "life: its first to its last event (from its process's announcement, if alive then)" ||
		{ echo "late_session: FAIL: the threads table's note does not say lives begin at the announcement" >&2; fails=1; }
	[ $fails -eq 0 ] && echo "late_session: run $try: $n events; first announcement $([ "$first" -eq 1 ] && echo recorded || echo dropped), repeat recorded, one process in the report"
	return $fails
}
for try in $(seq "$runs"); do
	attempt || exit 1
done
echo "late_session: $runs runs passed; the first announcement was dropped in $dropped"
