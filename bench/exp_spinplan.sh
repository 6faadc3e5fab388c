# shellcheck shell=bash disable=SC2154
# Sourced by run.sh (its out, tmp, reps, scale and helpers are in scope).
# (g) The what-if spin replay, validated (issue 20): per workload, record
# once with SYNCTRACE_SPIN unset, take the report's recommendation (the
# spin finding's `try`; when it says to leave the setting unset, the best
# other setting, to test the prediction that it is no better), then
#   - predicted against measured, from traces: one traced run with the
#     recommendation beside one with the default, per pair (futex waits,
#     spin CPU and wait per wait, and their ratios to the default's);
#   - throughput, untraced: the default and the recommendation alternated
#     in each repeat, the ratio of each pair.
# Workloads: the LIFO stress (4 threads) and both two-queue variants.
exp_spinplan() {
	local d n w label cmd rec dir mode key pairs
	d=$(dur 1)
	n=${ST_SPINPLAN_N:-400000}
	pairs=${ST_SPINPLAN_TRACE_PAIRS:-3}
	say ""
	say "== (g) what-if spin replay: record unset, run the recommendation, predicted vs measured =="
	say "  load average before: $(cut -d' ' -f1-3 /proc/loadavg) ($(nproc) CPUs, shared machine)"
	for w in "lifo|bench_lifo 4 $d|ops_per_s|" "twoqueue A cond|bench_cond_twoqueue cond $n|seconds|-" \
		"twoqueue B twomutex|bench_cond_twoqueue twomutex $n|seconds|-"; do
		label=${w%%|*}
		w=${w#*|}
		cmd=${w%%|*}
		w=${w#*|}
		key=${w%%|*}
		local inv=${w#*|}
		dir=$out/traces/spinplan-${label// /-}-unset
		# shellcheck disable=SC2086
		(unset SYNCTRACE_SPIN; trace_run "$dir" contention $cmd) ||
			{ say "  $label: no traced run (no session daemon?)"; continue; }
		analyze "$dir" || { say "  $label: no report"; continue; }
		cp "$tmp/report.json" "$tmp/plan.json"
		rec=$(cells findings kind try verdict <"$tmp/plan.json" | awk -F'\t' '$1 == "spin" {print $2}')
		rec=${rec#SYNCTRACE_SPIN=}
		local tested=$rec why="recommended"
		if [ -z "$rec" ] || [ "$rec" = - ] || [ "$rec" = null ]; then
			# unset recommended: test the best other setting instead
			tested=$(plan_best_other "$tmp/plan.json")
			why="best other (the recommendation: leave it unset)"
		fi
		say ""
		say "  $label: $(cells findings kind text <"$tmp/plan.json" | awk -F'\t' '$1 == "spin" {print $2}')"
		say "  testing SYNCTRACE_SPIN=$tested ($why)"
		# predicted, per wait: the default's row and the tested setting's
		local pu pt
		pu=$(plan_row "$tmp/plan.json" unset)
		pt=$(plan_row "$tmp/plan.json" "$tested")
		# measured: traced pairs
		local i mu mt
		: >"$tmp/spinplan.pairs"
		for ((i = 0; i < pairs; i++)); do
			for mode in unset "$tested"; do
				dir=$out/traces/spinplan-${label// /-}-$mode-$i
				if [ "$mode" = unset ]; then
					# shellcheck disable=SC2086
					(unset SYNCTRACE_SPIN; trace_run "$dir" contention $cmd)
				else
					# shellcheck disable=SC2086
					SYNCTRACE_SPIN=$mode trace_run "$dir" contention $cmd
				fi || continue
				analyze "$dir" || continue
				printf '%s\t%s\t%s\n' "$i" "$mode" "$(plan_row "$tmp/report.json" '(recorded)')" >>"$tmp/spinplan.pairs"
			done
		done
		mu=$(awk -F'\t' '$2 == "unset"' "$tmp/spinplan.pairs")
		mt=$(awk -F'\t' -v s="$tested" '$2 == s' "$tmp/spinplan.pairs")
		printf '  %-28s %12s %12s %12s %12s\n' "per wait" "futex waits" "spin CPU ns" "wait ns" "waits"
		printf '  %-28s %12s %12s %12s %12s\n' "predicted unset" $pu
		printf '  %-28s %12s %12s %12s %12s\n' "predicted $tested" $pt
		awk -F'\t' -v s="$tested" '{split($3, v, " "); k = $2; n[k]++; for (j = 1; j <= 4; j++) sum[k, j] += v[j]}
			END {for (x = 0; x < 2; x++) {k = x ? s : "unset"; if (!n[k]) continue
				printf "  %-28s %12.4f %12.1f %12.1f %12.0f\n", "measured " k " (mean of " n[k] ")", sum[k, 1] / n[k], sum[k, 2] / n[k], sum[k, 3] / n[k], sum[k, 4] / n[k]}}' "$tmp/spinplan.pairs"
		# ratios tested / unset: predicted, and measured per traced pair
		local ratio
		ratio=$(awk -F'\t' -v pu="$pu" -v pt="$pt" -v s="$tested" '
			function r(a, b) {return b > 0 ? a / b : (a > 0 ? "inf" : 1)}
			BEGIN {split(pu, u, " "); split(pt, t, " ")
				printf "predicted %s/unset: futex waits %.3f, spin CPU %s, wait %.3f", s, r(t[1], u[1]), r(t[2], u[2]), r(t[3], u[3])}
			{split($3, v, " "); m[$1, $2 == "unset" ? 0 : 1, 1] = v[1]; m[$1, $2 == "unset" ? 0 : 1, 3] = v[3]; if ($1 + 1 > np) np = $1 + 1}
			END {printf "; measured per pair: futex waits"
				for (i = 0; i < np; i++) if (((i, 0, 1) in m) && ((i, 1, 1) in m)) printf " %.3f", r(m[i, 1, 1], m[i, 0, 1])
				printf ", wait"
				for (i = 0; i < np; i++) if (((i, 0, 3) in m) && ((i, 1, 3) in m)) printf " %.3f", r(m[i, 1, 3], m[i, 0, 3])}' "$tmp/spinplan.pairs")
		say "  $ratio"
		# throughput, untraced, paired in each repeat
		local raw=$out/raw/spinplan.tsv
		# shellcheck disable=SC2086
		measure spinplan "preload spin:$tested" "$label|$cmd"
		local thr
		thr=$(awk -F'\t' -v l="$label" -v key="$key" -v inv="$inv" -v s="spin:$tested" '
			$1 == l {v = ""; if (match($6, key "=[0-9.e+-]+")) v = substr($6, RSTART + length(key) + 1, RLENGTH - length(key) - 1)
				if (v == "") next; x[$3, $2] = v; if ($3 + 1 > n) n = $3 + 1}
			END {k = 0; for (i = 0; i < n; i++) if (((i, "preload") in x) && ((i, s) in x) && x[i, "preload"] > 0 && x[i, s] > 0) {
					r = inv == "-" ? x[i, "preload"] / x[i, s] : x[i, s] / x[i, "preload"]; q[++k] = r; list = list sprintf(" %.3f", r)}
				if (!k) {print "no pairs"; exit}
				for (i = 2; i <= k; i++) for (j = i; j > 1 && q[j - 1] > q[j]; j--) {t = q[j]; q[j] = q[j - 1]; q[j - 1] = t}
				med = k % 2 ? q[(k + 1) / 2] : (q[k / 2] + q[k / 2 + 1]) / 2
				printf "throughput %s/unset (>1: faster), %d pairs: median %.3f, min %.3f, max %.3f (%s )", s, k, med, q[1], q[k], list}' "$raw")
		say "  $thr"
		say "  load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
		printf '{"workload": "%s", "tested": "%s", "why": "%s", "predicted_unset": "%s", "predicted_tested": "%s", "ratios": "%s", "throughput": "%s", "load": "%s"}\n' \
			"$label" "$tested" "$why" "$pu" "$pt" "$ratio" "$thr" "$(cut -d' ' -f1-3 /proc/loadavg)" >>"$tmp/spinplan.extra"
	done
}

# plan_row JSON SETTING: the whole-trace row of spin.plan for SETTING, per
# wait: futex waits, spin CPU ns, wait ns, then the waits.
plan_row() {
	cells spin.plan group setting waits futex_waits spin_ns wait_ns <"$1" |
		awk -F'\t' -v s="$2" '$1 == 0 && $2 == s && $3 > 0 {printf "%.4f %.1f %.1f %d", $4 / $3, $5 / $3, $6 / $3, $3; exit}'
}

# plan_best_other JSON: the setting other than unset with the lowest
# predicted wait + spin CPU over the whole trace.
plan_best_other() {
	cells spin.plan group setting spin_ns wait_ns <"$1" |
		awk -F'\t' '$1 == 0 && $2 != "unset" && $2 != "(recorded)" {s = $3 + $4; if (b == "" || s < bs) {b = $2; bs = s}} END {print b}'
}
