# shellcheck shell=bash disable=SC2154
# Sourced by run.sh (its out, tmp, reps, scale and helpers are in scope).
# (a) The 2003 NPTL two-queue table (shared/SEEDS.md, seed 001): two
# suppliers x 1,000,000 messages, one consumer; A: one mutex + one condvar,
# B: a mutex per queue + the "twomutex" condvar. Then one traced run per
# variant, read by synctrace-report: why the table looks the way it does.
# per A B: A / B, 0 when B is 0 or empty
per() { awk -v a="$1" -v b="$2" 'BEGIN {print (b > 0 ? a / b : 0)}'; }

exp_twoqueue() {
	local n=${ST_TWOQUEUE_N:-1000000}
	say ""
	say "== (a) two-queue table, 2 suppliers x $n messages, 1 consumer =="
	measure twoqueue "glibc musl preload contention full" \
		"A cond|bench_cond_twoqueue cond $n" "B twomutex|bench_cond_twoqueue twomutex $n"
	table twoqueue seconds - "time to move all messages, seconds"
	cp "$tmp/sum" "$tmp/tq.time"
	table twoqueue messages_per_wakeup "" "messages per consumer wakeup" "ratio: paired, to glibc"
	cp "$tmp/sum" "$tmp/tq.rate"
	# A wakeup is a return from pthread_cond_wait; a sleep is a voluntary context
	# switch of the consumer (getrusage). A wait that ends while spinning is a
	# wakeup without a sleep: in 2003 every wakeup was a sleep.
	table twoqueue messages_per_sleep "" "messages per consumer sleep (voluntary context switch)" "ratio: paired, to glibc"
	say ""
	say "  the seed's table beside this machine's (rate: messages per consumer wakeup; time: s; medians)"
	printf '  %-30s %10s %10s %14s %14s\n' library "cond rate" "cond time" "twomutex rate" "twomutex time"
	printf '  %-30s %10s %10s %14s %14s\n' "nptl-0.59 (seed, 2003)" 3.5 1.8 6.2 1.8 \
		"nptl-0.60 (seed, 2003)" 1.5 19.48 13.2 2.2 "LinuxThreads (seed, 2003)" 1.6 18.9 13.6 2.2
	awk -F'\t' 'FNR == NR {t[$1, $2] = $4; next} {r[$1, $2] = $4; if (!($2 in s)) {s[$2] = ++n; m[n] = $2}}
		END {for (i = 1; i <= n; i++) {x = m[i]; printf "  %-30s %10.1f %10.3f %14.1f %14.3f\n", (x == "preload" ? "synctrace" : x == "contention" || x == "full" ? "synctrace, " x " traced" : x), r["A cond", x], t["A cond", x], r["B twomutex", x], t["B twomutex", x]}}' \
		"$tmp/tq.time" "$tmp/tq.rate"
	awk -F'\t' '{print $1 "\t" $2 "\t" $4 "\t" $5 "\t" $6}' "$tmp/tq.time" |
		chart twoqueue bar "2003 two-queue workload: time for 2 x $n messages (median, min-max)" "" "seconds"

	say ""
	say "  why, from one traced run per variant (contention level, $n messages per supplier):"
	printf '  %-12s %9s %9s %9s %9s %9s %9s %9s %9s %s\n' variant messages wakeups "wake/msg" "signals" "futexwake" wasted "w-t-block" contended source
	local v dir
	for v in cond twomutex; do
		dir=$out/traces/twoqueue-$v
		trace_run "$dir" contention bench_cond_twoqueue "$v" "$n" || { say "  $v: no traced run (no session daemon?)"; continue; }
		local msgs wk
		msgs=$(sed -n 's/.* messages=\([0-9]*\).*/\1/p' <<<"$RUN_OUT")
		wk=$(sed -n 's/.* wakeups=\([0-9]*\).*/\1/p' <<<"$RUN_OUT")
		if analyze "$dir"; then
			# condvar waits that returned = consumer wakeups; signals that found a waiter
			local cw sig fw wasted wtb cont
			read -r cw sig < <(cells races.condvars waits signals <"$tmp/report.json" | awk '{w += $1; s += $2} END {print w + 0, s + 0}')
			read -r fw wasted wtb < <(cells wakes.total futex_wakes wasted_wakes wake_then_block <"$tmp/report.json")
			cont=$(cells contention.locks contended <"$tmp/report.json" | awk '{c += $1} END {print c + 0}')
			local wpm
			wpm=$(per "$cw" "$msgs")
			printf '  %-12s %9s %9s %9.4f %9s %9s %9s %9s %9s %s\n' "$v" "$msgs" "$cw" "$wpm" "$sig" "$fw" "$wasted" "$wtb" "$cont" synctrace-report
			printf '{"variant": "%s", "messages": %s, "consumer_wakeups_workload": %s, "cond_waits": %s, "wakeups_per_message": %s, "signals_found_waiter": %s, "futex_wakes": %s, "wasted_wakes": %s, "wake_then_block": %s, "contended_acquisitions": %s, "trace": "%s"}\n' \
				"$v" "$msgs" "$wk" "$cw" "$wpm" "$sig" "$fw" "$wasted" "$wtb" "$cont" "$dir" >>"$tmp/twoqueue.extra"
		else
			count_events "$dir" >"$tmp/ev"
			local woke fwk
			woke=$(awk '$2 == "synctrace_cond:woke" {print $1}' "$tmp/ev")
			sig=$(awk '$2 == "synctrace_cond:signal" {print $1}' "$tmp/ev")
			fwk=$(awk '$2 == "synctrace_futex:wake" {print $1}' "$tmp/ev")
			cont=$(awk '$2 == "synctrace_mutex:acquired" {print $1}' "$tmp/ev")
			printf '  %-12s %9s %9s %9.4f %9s %9s %9s %9s %9s %s\n' "$v" "$msgs" "${woke:-0}" "$(per "${woke:-0}" "$msgs")" "${sig:-0}" "${fwk:-0}" n/a n/a "${cont:-0}" "babeltrace2 counts"
			printf '{"variant": "%s", "messages": %s, "consumer_wakeups_workload": %s, "cond_waits": %s, "signals_found_waiter": %s, "futex_wakes": %s, "contended_acquisitions": %s, "trace": "%s"}\n' \
				"$v" "$msgs" "$wk" "${woke:-0}" "${sig:-0}" "${fwk:-0}" "${cont:-0}" "$dir" >>"$tmp/twoqueue.extra"
		fi
	done
	say "  (wakeups: the consumer's condvar waits; signals: signals that found a waiter; futexwake: futex wake calls,"
	say "   wasted: those that woke nobody; w-t-block: a thread woken that slept again on the same object at once;"
	say "   contended: lock acquisitions that had to spin or sleep. Traces kept in $out/traces.)"
}
