# shellcheck shell=bash disable=SC2154
# Sourced by run.sh (its out, tmp, reps, scale and helpers are in scope).
# (e) Tracing overhead: each workload with synctrace preloaded (no session),
# traced at contention, full and summary level (batched records, the
# default), at the contention level with one LTTng event per transition (single:
# SYNCTRACE_BATCH=0) and with SYNCTRACE_THRESHOLD (threshold, 1 ms or
# ST_BENCH_THRESHOLD), and glibc under lttng-ust's own pthread wrapper
# (mutex lock/unlock events only); events and trace bytes written per
# second; then the start cost and the instructions per event (callgrind).
exp_overhead() {
	local d
	d=$(dur 0.5)
	say ""
	say "== (e) tracing overhead, ${d} s per run =="
	# label|figure key (higher is better)|program args
	local spec=(
		"mutex 1 thread|pairs_per_s|bench_mutex 1 0 $d"
		"mutex 4 threads, 200ns held|pairs_per_s|bench_mutex 4 200 $d"
		"cond ping-pong|handoffs_per_s|bench_cond_pingpong 2 $d"
		"cond 1 signaler, 4 waiters|signals_per_s|bench_cond_fanout 4 $d"
		"two-queue A, 2x300k|msgs_per_s|bench_cond_twoqueue cond 300000"
		"cond timed-wait race|ops_per_s|bench_cond_timedrace 4 2 $d"
		"sem ping-pong|ops_per_s|bench_sem_pingpong $d"
		"rwlock 95% reads, 4 thr|ops_per_s|bench_rwlock_readmostly 4 $d"
		"barrier, 2 threads|rounds_per_s|bench_barrier_roundtrip 2 $d"
		"LIFO malloc/free, 4 thr|ops_per_s|bench_lifo 4 $d"
		# the hand-offs with each thread on its own CPU (bench/pin.h):
		# unpinned, two threads share one CPU part of the time and a
		# run's rate says how often as much as what a hand-off costs
		"cond ping-pong, pinned|handoffs_per_s|ST_BENCH_PIN=1 bench_cond_pingpong 2 $d"
		"sem ping-pong, pinned|ops_per_s|ST_BENCH_PIN=1 bench_sem_pingpong $d"
		"barrier, 2 threads, pinned|rounds_per_s|ST_BENCH_PIN=1 bench_barrier_roundtrip 2 $d"
	)
	# ST_OVERHEAD_ROWS (a regex) keeps the rows whose label matches, and
	# skips the start cost and the callgrind counts; ST_OVERHEAD_START=only
	# measures the start cost alone, ST_OVERHEAD_INSTRUCTIONS=only the counts
	if [ "${ST_OVERHEAD_START:-}" = only ]; then
		say ""
		say "== (e) tracing overhead: the start cost only =="
		overhead_start
		return
	fi
	if [ "${ST_OVERHEAD_INSTRUCTIONS:-}" = only ]; then
		say ""
		say "== (e) tracing overhead: instructions per operation only =="
		overhead_instructions
		return
	fi
	local w=() s keep=() rows=${ST_OVERHEAD_ROWS:-}
	for s in "${spec[@]}"; do [[ ${s%%|*} =~ ${rows:-.} ]] && keep+=("$s"); done
	spec=("${keep[@]}")
	for s in "${spec[@]}"; do w+=("${s%%|*}|${s#*|*|}"); done
	# traced runs pay lttng-ust's start-up (about a second each): fewer repeats
	local reps_all=$reps
	reps=${ST_OVERHEAD_REPEATS:-$(( reps < 3 ? reps : 3 ))}
	COUNT_EVENTS=1 COUNT_SECONDS=$d measure overhead "glibc preload contention single threshold full summary wrapper" "${w[@]}"
	# one figure: the workload's own throughput key (two-queue: messages/s)
	printf '%s\n' "${spec[@]}" | awk -F'|' '{print $1 "\t" $2}' >"$tmp/keys"
	awk -F'\t' -v OFS='\t' 'FNR == NR {k[$1] = $2; next}
		{key = k[$1]; v = ""
		 if (key == "msgs_per_s") {s = " " $6 " "; m = s; sub(/.* seconds=/, "", s); sub(/ .*/, "", s); sub(/.* messages=/, "", m); sub(/ .*/, "", m); if (s > 0) v = m / s}
		 else if (match(" " $6 " ", " " key "=[0-9.e+]+")) v = substr(" " $6 " ", RSTART + length(key) + 2, RLENGTH - length(key) - 2)
		 $6 = $6 " fig=" v; print}' "$tmp/keys" "$out/raw/overhead.tsv" >"$tmp/oh.tsv" && mv "$tmp/oh.tsv" "$out/raw/overhead.tsv"
	table overhead fig "" "throughput (each workload's own figure, per second)"
	cp "$tmp/sum" "$tmp/oh.sum"
	slowdown overhead fig

	events_table overhead
	say "  (events/s: transitions in the trace, a batched record counted as one, over the workload's own run time; trace B/s: the trace's bytes on disk over the same time)"
	awk -F'\t' '$2 != "glibc" {print $1 "\t" $2 "\t" $7 "\t" $8 "\t" $9}' "$tmp/oh.sum" |
		REFLINE=1 chart overhead bar "Tracing overhead: throughput relative to glibc (paired median, min-max; 1 = glibc)" "" "ratio to glibc"
	if [ -z "$rows" ]; then
		overhead_floor
		overhead_start
		overhead_instructions
	fi
	reps=$reps_all
}

# The start cost, timed inside the recording (record's own set-up and stop
# left out): short processes (/bin/true) started three ways, traced against
# the same untraced, paired by repeat:
#   one      by posix_spawn, one at a time, 20 ms apart (bench_spawn: the
#            median from spawn to exit): a new image starts at once and
#            would wait for its registration only at its first event;
#   burst    by dash (vfork, then exec), back to back, as the slope from N
#            and 3N processes: the session daemon registers them one after
#            the other, and lttng-ust's exit waits for the command in flight;
#   forked   by bash (fork, then exec: the forked child starts at once, as a
#            new image does, src/trace/ready.h and tracepoints/probes.c);
#   script   by a bash script (its child closes the script's descriptor
#            before its exec, and redirects: /bin/true >/dev/null);
# and `synctrace record -- true` as a whole.
overhead_start() {
	[ "$have_session" = 1 ] || return 0
	local st=$build/tools/synctrace n=${ST_START_PROCESSES:-20} r u t w su sn
	local spawn=$build/bench/bench_spawn
	[ -x "$st" ] && [ -x "$spawn" ] || return 0
	# prints: spawned-slope forked script (microseconds a process)
	printf 'for ((k = 0; k < $1; k++)); do /bin/true >/dev/null; done\n' >"$tmp/script.sh"
	local probe='sl="i=0; while [ \$i -lt $1 ]; do /bin/true; i=\$((i + 1)); done"
		s3="i=0; while [ \$i -lt $(($1 * 3)) ]; do /bin/true; i=\$((i + 1)); done"
		a=${EPOCHREALTIME/./}; sh -c "$sl"; b=${EPOCHREALTIME/./}; sh -c "$s3"; c=${EPOCHREALTIME/./}
		for ((k = 0; k < $1; k++)); do /bin/true; done; d=${EPOCHREALTIME/./}
		bash "$2" "$1"; e=${EPOCHREALTIME/./}
		echo $((((c - b) - (b - a)) / (2 * $1))) $(((d - c) / $1)) $(((e - d) / $1))'
	: >"$tmp/start.tsv"
	for ((r = 0; r < reps; r++)); do
		su=$("$spawn" "$n" 20 /bin/true | sed -n 's/.*median_ms=\([0-9.]*\).*/\1/p')
		rm -rf "$tmp/st"; sn=$("$st" record -q -o "$tmp/st" -- "$spawn" "$n" 20 /bin/true 2>/dev/null |
			sed -n 's/.*median_ms=\([0-9.]*\).*/\1/p')
		u=$(bash -c "$probe" _ "$n" "$tmp/script.sh")
		rm -rf "$tmp/st"; t=$("$st" record -q -o "$tmp/st" -- bash -c "$probe" _ "$n" "$tmp/script.sh" 2>/dev/null)
		rm -rf "$tmp/st"; w=$(date +%s%N); "$st" record -q -o "$tmp/st" -- true >/dev/null 2>&1
		w=$((($(date +%s%N) - w) / 1000))
		printf '%s\t%s\t%s\t%s\t%s\n' "${u// /$'\t'}" "${t// /$'\t'}" "$w" "$su" "$sn" >>"$tmp/start.tsv"
	done
	rm -rf "$tmp/st"
	say ""
	say "  start cost: /bin/true traced vs untraced, timed inside the recording (median [min-max] of $reps):"
	awk -F'\t' -v n="$n" '{us[NR] = $1 / 1000; ts[NR] = $4 / 1000; ps[NR] = ($4 - $1) / 1000
			uf[NR] = $2 / 1000; tf[NR] = $5 / 1000; pf[NR] = ($5 - $2) / 1000; w[NR] = $7 / 1000
			uk[NR] = $3 / 1000; tk[NR] = $6 / 1000; pk[NR] = ($6 - $3) / 1000
			uo[NR] = $8; to[NR] = $9; po[NR] = $9 - $8}
		function med(a, k,   i, j, x) {for (i = 2; i <= k; i++) for (j = i; j > 1 && a[j - 1] > a[j]; j--) {x = a[j]; a[j] = a[j - 1]; a[j - 1] = x}
			return sprintf("%.1f [%.1f-%.1f]", a[int((k + 1) / 2)], a[1], a[k])}
		END {printf "    one (posix_spawn, median of %d): ms a process untraced %s, traced %s, added %s\n", n, med(uo, NR), med(to, NR), med(po, NR)
			printf "    burst (vfork+exec, slope of %d and %d): ms a process untraced %s, traced %s, added %s\n", n, 3 * n, med(us, NR), med(ts, NR), med(ps, NR)
			printf "    forked (fork+exec, %d): ms a process untraced %s, traced %s, added %s\n", n, med(uf, NR), med(tf, NR), med(pf, NR)
			printf "    script (a bash script'"'"'s commands, redirected, %d): ms a process untraced %s, traced %s, added %s\n", n, med(uk, NR), med(tk, NR), med(pk, NR)
			printf "    record -- true ms %s\n", med(w, NR)
			printf "{\"workload\": \"start cost\", \"processes\": %d, \"added_ms_one\": \"%s\", \"added_ms_burst\": \"%s\", \"added_ms_forked\": \"%s\", \"added_ms_script\": \"%s\", \"record_true_ms\": \"%s\"}\n", n, med(po, NR), med(ps, NR), med(pf, NR), med(pk, NR), med(w, NR) > "/dev/stderr"}' \
		"$tmp/start.tsv" 2>>"$tmp/overhead.extra" | tee -a "$out/raw/start.txt"
}

# Instructions per event (valgrind's callgrind, load-independent): a
# full-level lock/unlock pair (one mutex:released) batched and single,
# and per hand-off of the three hand-off workloads untraced, batched and
# single, counted in the workload's own threads only.
overhead_instructions() {
	[ "$have_session" = 1 ] && command -v valgrind >/dev/null || return 0
	local st=$build/tools/synctrace spec m n ir ops
	[ -x "$st" ] || return 0
	say ""
	say "  callgrind instructions per operation (the workload's threads; valgrind counts a rep movsb per iteration: write-outs are overstated):"
	for spec in "mutex pair, full|run|pairs|full|bench_mutex 1 0 0.2" \
		"cond ping-pong|player|handoffs|contention|bench_cond_pingpong 2 1" \
		"cond 1 signaler, 4 waiters|waiter signaler|signals|contention|bench_cond_fanout 4 1" \
		"sem ping-pong|player|ops|contention|bench_sem_pingpong 1"; do
		IFS='|' read -r label fns key level cmd <<<"$spec"
		local tog=() f
		for f in $fns; do tog+=(--toggle-collect="$f"); done
		for m in untraced batched single summary; do
			[ $m = summary ] && [ "$level" != contention ] && continue
			[ "$label" = "mutex pair, full" ] && [ $m = untraced ] && continue
			local vg=(valgrind --tool=callgrind --callgrind-out-file="$tmp/cg.out" "${tog[@]}")
			# shellcheck disable=SC2086
			case $m in
			untraced) ops=$(LD_PRELOAD=$lib "${vg[@]}" $B/$cmd 2>/dev/null) ;;
			*) rm -rf "$tmp/cgt"
			   ops=$(SYNCTRACE_BATCH=$([ $m = single ] && echo 0 || echo 1) "$st" record -q \
				-l "$([ $m = summary ] && echo summary || echo "$level")" -o "$tmp/cgt" -- "${vg[@]}" $B/$cmd 2>/dev/null) ;;
			esac
			if [ "$key" = pairs ]; then
				n=$(callgrind_annotate --inclusive=yes --tree=calling "$tmp/cg.out" 2>/dev/null | sed -n 's/.*pthread_mutex_lock (\([0-9,]*\)x).*/\1/p' | head -1 | tr -d ,)
			else
				n=$(sed -n "s/.* $key=\([0-9]*\).*/\1/p" <<<"$ops")
			fi
			ir=$(callgrind_annotate "$tmp/cg.out" 2>/dev/null | awk '/PROGRAM TOTALS/ {gsub(",", "", $1); print $1}')
			[ -n "$n" ] && [ "${n:-0}" -gt 0 ] && [ -n "$ir" ] || continue
			printf '    %-30s %-9s %8d instructions per %s\n' "$label" $m $((ir / n)) "${key%s}" | tee -a "$out/raw/instructions.txt"
			printf '{"workload": "%s", "mode": "%s", "instructions_per_op": %d}\n' "$label" $m $((ir / n)) >>"$tmp/overhead.extra"
		done
	done
	rm -rf "$tmp/cgt" "$tmp/cg.out"
}

# The uncontended pair in ns per mode, and the floor under the full level's
# figure: lttng-ust's own cost for one event shaped like
# synctrace_mutex:released (floor/tp_floor.c, built here with lttng-ust's
# header) and for an empty event, recorded with the contexts of
# session_setup (vpid, vtid, procname, as `synctrace record`). A
# full-level lock/unlock pair is one such event plus the lock's own work.
overhead_floor() {
	say ""
	say "  mutex 1 thread, ns per lock/unlock pair (median [min-max] of $reps):"
	awk -F'\t' '$1 == "mutex 1 thread" && match($6, /ns_per_pair=[0-9.]+/) {
		v = substr($6, RSTART + 12, RLENGTH - 12) + 0; n[$2]++; x[$2, n[$2]] = v}
		END {for (m in n) {k = n[m]; for (i = 1; i <= k; i++) a[i] = x[m, i]
			for (i = 2; i <= k; i++) for (j = i; j > 1 && a[j - 1] > a[j]; j--) {t = a[j]; a[j] = a[j - 1]; a[j - 1] = t}
			printf "    %-11s %7.1f [%.1f-%.1f]\n", m, a[int((k + 1) / 2)], a[1], a[k]}}' "$out/raw/overhead.tsv" | sort
	[ "$have_session" = 1 ] || return 0
	local bin=$out/tp_floor src=$here/floor/tp_floor.c s="bench-$$-floor" r v
	if [ "$src" -nt "$bin" ] || [ "$here/floor/tp_floor.h" -nt "$bin" ] || [ ! -x "$bin" ]; then
		cc -std=gnu11 -O2 -Wall -Wextra -I"$here/floor" -o "$bin" "$src" -llttng-ust -ldl \
			2>"$out/raw/tp_floor.log" || { say "  floor: cannot build $src (see $out/raw/tp_floor.log)"; return 0; }
	fi
	session_setup "$s" "$tmp/floor" 'st_floor:*' || { lttng destroy "$s" >/dev/null 2>&1; return 0; }
	: >"$tmp/floor.out"
	for ((r = 0; r < reps; r++)); do
		for v in released empty; do
			"$bin" 200000 "$v" | tail -1 >>"$tmp/floor.out"
		done
		# written out before the next repeat, as the traced runs above
		lttng stop "$s" >/dev/null 2>&1
		lttng start "$s" >/dev/null 2>&1
	done
	lttng destroy "$s" >/dev/null 2>&1
	rm -rf "$tmp/floor"
	say "  lttng-ust alone, one event with the session's contexts, ns (median [min-max] of $reps; cpu: thread CPU time):"
	awk '{for (i = 1; i <= NF; i++) {split($i, f, "="); v[f[1]] = f[2]}
		e = v["event"]; n[e]++; w[e, n[e]] = v["ns_per_event"] + 0; c[e, n[e]] = v["cpu_ns"] + 0}
		function med(arr, e, k,   i, j, t, a) {for (i = 1; i <= k; i++) a[i] = arr[e, i]
			for (i = 2; i <= k; i++) for (j = i; j > 1 && a[j - 1] > a[j]; j--) {t = a[j]; a[j] = a[j - 1]; a[j - 1] = t}
			return sprintf("%.1f [%.1f-%.1f]", a[int((k + 1) / 2)], a[1], a[k])}
		END {for (e in n) printf "    %-16s %s   cpu %s\n", (e == "released" ? "released-shaped" : e), med(w, e, n[e]), med(c, e, n[e])}' "$tmp/floor.out" |
		tee -a "$tmp/floor.say"
	awk '{printf "{\"workload\": \"lttng-ust floor\", \"event\": \"%s\", \"ns_per_event\": \"%s\"}\n", $1, $2 " " $3}' "$tmp/floor.say" >>"$tmp/overhead.extra"
}
