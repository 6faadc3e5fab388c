# shellcheck shell=bash disable=SC2154
# Sourced by run.sh (its out, tmp, reps, scale and helpers are in scope).
# (d) Timed-wait races (seed 000's open question): waiters with 10-100 us
# timeouts against signalers; then the race frequency and cost from a trace.
exp_timedrace() {
	local d
	d=$(dur 1)
	say ""
	say "== (d) timed-wait races: waiters with 10-100 us timeouts vs signalers, ${d} s =="
	measure timedrace "glibc musl preload contention full" \
		"4 waiters, 2 signalers|bench_cond_timedrace 4 2 $d" \
		"8 waiters, 1 signaler|bench_cond_timedrace 8 1 $d"
	table timedrace ops_per_s "" "waits+signals per second"
	local sum_ops
	sum_ops=$(cat "$tmp/sum")
	table timedrace timeouts "" "timed waits that returned ETIMEDOUT (per run)" "ratio: paired, to glibc"
	table timedrace empty_returns "" "returns without a token: spurious, or a token taken first by a timed-out waiter (per run)" "ratio: paired, to glibc"
	printf '%s\n' "$sum_ops" | awk -F'\t' '{print $1 "\t" $2 "\t" $4 "\t" $5 "\t" $6}' |
		chart timedrace bar "Timed-wait races: waits + signals per second (median, min-max)" "" "operations per second"
	say ""
	say "  races from traced runs (contention level, ${d} s):"
	printf '  %-24s %8s %8s %8s %8s %8s %8s %9s %10s %9s %8s\n' workload waits timed signals timeouts leaving races "/1k sig" "sigwait_us" "share" spurious
	local w dir args
	for w in "4 waiters, 2 signalers|4 2" "8 waiters, 1 signaler|8 1"; do
		args=${w#*|}
		dir=$out/traces/timedrace-${args// /-}
		# shellcheck disable=SC2086
		trace_run "$dir" contention bench_cond_timedrace $args "$d" || { say "  no traced run"; continue; }
		if analyze "$dir"; then
			cells races.condvars waits timed_waits signals timeouts leaving races races_per_1000_signals signaler_wait_ns race_share_of_wait spurious verdict <"$tmp/report.json" |
				awk -F'\t' -v w="${w%%|*}" -v ex="$tmp/timedrace.extra" '$1 > 0 {
				printf "  %-24s %8s %8s %8s %8s %8s %8s %9s %10.1f %8.4f%% %8s\n      report: %s\n", w, $1, $2, $3, $4, $5, $6, $7, $8 / 1e3, $9 * 100, $10, $11
				printf "{\"workload\": \"%s\", \"waits\": %s, \"timed_waits\": %s, \"signals\": %s, \"timeouts\": %s, \"leaving\": %s, \"races\": %s, \"races_per_1000_signals\": %s, \"signaler_wait_ns\": %s, \"race_share_of_wait\": %s, \"spurious\": %s, \"verdict\": \"%s\"}\n", w, $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11 >>ex}'
		else
			count_events "$dir" | awk -v w="${w%%|*}" '$2 ~ /synctrace_cond:(met_leaving|leaving|signal|ref_wait_end)$/ {printf "  %-24s %-28s %8d (babeltrace2 count)\n", w, $2, $1}'
		fi
	done
	say "  (races: signals that met a LEAVING waiter and had to wait for it; sigwait_us: total time signalers"
	say "   waited for such waiters; share: that time as a share of all waiting, relocking and race time)"
}
