# shellcheck shell=bash disable=SC2154
# Sourced by run.sh (its out, tmp, reps, scale and helpers are in scope).
# (c) The 2015 spin-strategy curves (seed 002): the shared-LIFO stress by
# thread count for SYNCTRACE_SPIN=none|bail|full and glibc (and musl), also
# pinned to one CPU; then the spin report of traced runs.
exp_spin() {
	local d threads t w=()
	d=$(dur 0.4)
	read -ra threads <<<"${ST_SPIN_THREADS:-1 2 3 4 5 6 7 8}"
	say ""
	say "== (c) 2015 spin strategies: shared LIFO (malloc/free), ${d} s per point, threads ${threads[*]} =="
	for t in "${threads[@]}"; do w+=("$t|bench_lifo $t $d"); done
	measure spin "glibc musl spin:none spin:bail spin:full pinned_glibc pinned_spin:none pinned_spin:bail pinned_spin:full" "${w[@]}"
	table spin ops_per_s "" "nodes pushed+popped per second, by thread count"
	say ""
	say "  Mops/s (median) by threads; 'pinned': taskset -c 0"
	awk -F'\t' '{if (!($2 in s)) {s[$2] = ++n; m[n] = $2} if (!($1 in r)) {r[$1] = ++nr; th[nr] = $1} v[$1, $2] = $4}
		END {printf "  %-8s", "threads"; for (j = 1; j <= n; j++) printf " %13s", m[j]; printf "\n"
		for (i = 1; i <= nr; i++) {printf "  %-8s", th[i]; for (j = 1; j <= n; j++) printf " %13.2f", v[th[i], m[j]] / 1e6; printf "\n"}}' "$tmp/sum"
	say ""
	say "  fastest strategy by threads (median; glibc for reference), unpinned and pinned:"
	awk -F'\t' '{v[$1, $2] = $4; if (!($1 in r)) {r[$1] = ++nr; th[nr] = $1}}
		function best(p,   s, b, bv, k) {b = "-"; bv = -1; split("none bail full", s, " ")
			for (k = 1; k <= 3; k++) if ((th[i], p "spin:" s[k]) in v && v[th[i], p "spin:" s[k]] > bv) {bv = v[th[i], p "spin:" s[k]]; b = s[k]}
			return sprintf("%-5s (%.2fx glibc)", b, ((th[i], p "glibc") in v && v[th[i], p "glibc"] > 0) ? bv / v[th[i], p "glibc"] : 0)}
		END {for (i = 1; i <= nr; i++) {u = best(""); q = best("pinned "); wins[substr(u, 1, 5)]++; pw[substr(q, 1, 5)]++
			printf "  %-8s %s   pinned: %s\n", th[i], u, q}
			printf "  wins unpinned:"; for (s in wins) printf " %s%d", s, wins[s]; printf ";  pinned:"; for (s in pw) printf " %s%d", s, pw[s]; printf "\n"}' "$tmp/sum"
	awk -F'\t' '{print $2 "\t" $1 "\t" $4 "\t" $5 "\t" $6}' "$tmp/sum" |
		chart spin line "2015 spin strategies: shared LIFO stress (median, min-max; dashed: pinned to CPU 0)" threads "nodes per second"

	local tt=${ST_SPIN_TRACE_THREADS:-4}
	say ""
	say "  spin report of traced runs ($tt threads, contention level):"
	printf '  %-16s %8s %8s %8s %8s %8s %8s %10s %10s\n' strategy loops acquired gave_up saw_wait success iter_mean spin_ms sleep_ms
	local s dir
	for s in bail full "pinned full" "pinned bail"; do
		dir=$out/traces/spin-${s// /-}
		local mode=contention
		[[ $s == pinned* ]] && mode="pinned contention"
		SYNCTRACE_SPIN=${s#pinned } trace_run "$dir" "$mode" bench_lifo "$tt" "$(dur 0.5)" || { say "  $s: no traced run"; continue; }
		local ops
		ops=$(sed -n 's/.* ops_per_s=\([0-9]*\).*/\1/p' <<<"$RUN_OUT")
		if analyze "$dir"; then
			cells spin.objects loops acquired gave_up saw_waiters iterations_mean spin_ns sleep_ns <"$tmp/report.json" |
				awk -F'\t' -v s="$s" -v ops="$ops" -v ex="$tmp/spin.extra" '{l += $1; a += $2; g += $3; w += $4; im += $5 * $1; sp += $6; sl += $7}
				END {printf "  %-16s %8d %8d %8d %8d %7.1f%% %8.1f %10.1f %10.1f\n", s, l, a, g, w, l ? 100 * a / l : 0, l ? im / l : 0, sp / 1e6, sl / 1e6
				printf "{\"strategy\": \"%s\", \"ops_per_s\": %s, \"loops\": %d, \"acquired\": %d, \"gave_up\": %d, \"saw_waiters\": %d, \"success_rate\": %.4f, \"iterations_mean\": %.1f, \"spin_ns\": %d, \"sleep_ns\": %d}\n", s, ops + 0, l, a, g, w, l ? a / l : 0, l ? im / l : 0, sp, sl >>ex}'
			cells spin.objects notes <"$tmp/report.json" | sed 's/^/      report: /'
		else
			count_events "$dir" | awk -v s="$s" '$2 == "synctrace_spin:loop" {printf "  %-16s %8d   (babeltrace2 count; build synctrace-report for outcomes)\n", s, $1}'
		fi
	done
}
