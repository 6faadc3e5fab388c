# shellcheck shell=bash disable=SC2154
# Sourced by run.sh (its out, tmp, reps, scale and helpers are in scope).
# (g) Parity with glibc (issue 22): every row of the other experiments,
# short, in three modes: glibc, synctrace preloaded, and glibc once more
# (glibc-again). glibc-again's paired ratio to glibc is the run-to-run
# spread of glibc against itself: a row whose synctrace ratio is below 1
# but not below the lowest glibc-again ratio is at parity within that
# spread. Meant to be run with --load (bench/README.md). Not in `all`.
# ST_PARITY_MODES replaces the modes (e.g. add crowd-off); ST_PARITY_ROWS
# (a regex) keeps the rows whose label matches.
exp_parity() {
	local d n
	d=$(dur 0.3)
	n=${ST_PARITY_TWOQUEUE_N:-100000}
	say ""
	say "== (g) parity with glibc: every row, ${d} s per run, glibc / synctrace / glibc again =="
	local rows=(
		"cond ping-pong|bench_cond_pingpong 2 $d"
		"cond 1 signaler, 4 waiters|bench_cond_fanout 4 $d"
		"cond timed-wait race 4w 2s|bench_cond_timedrace 4 2 $d"
		"two-queue A, 2x${n}|bench_cond_twoqueue cond $n"
		"two-queue B, 2x${n}|bench_cond_twoqueue twomutex $n"
		"sem ping-pong|bench_sem_pingpong $d"
		"sem channel 2x2, capacity 16|bench_sem_channel 2 16 $d"
		"rwlock 95% reads, 2 threads|bench_rwlock_readmostly 2 $d"
		"rwlock 95% reads, 4 threads|bench_rwlock_readmostly 4 $d"
		"rwlock 95% r, 4 thr, 1us out|bench_rwlock_readmostly 4 $d 95 1000"
		"rwlock 95% reads, 8 threads|bench_rwlock_readmostly 8 $d"
		"mutex 1 thread, empty|bench_mutex 1 0 $d"
		"mutex 2 threads, empty|bench_mutex 2 0 $d"
		"mutex 2 threads, 200 ns|bench_mutex 2 200 $d"
		"mutex 4 threads, 200 ns|bench_mutex 4 200 $d"
		"barrier, 2 threads|bench_barrier_roundtrip 2 $d"
		"barrier, 4 threads|bench_barrier_roundtrip 4 $d"
		"LIFO malloc/free, 4 threads|bench_lifo 4 $d"
	) w=() r
	for r in "${rows[@]}"; do [[ ${r%%|*} =~ ${ST_PARITY_ROWS:-.} ]] && w+=("$r"); done
	measure parity "${ST_PARITY_MODES:-glibc preload glibc-again}" "${w[@]}"
	# one figure: each workload's per-second key; two-queue: messages/s
	awk -F'\t' -v OFS='\t' '{o = " " $6 " "
		if (match(o, / [a-z]+_per_s=/)) sub(/ [a-z]+_per_s=/, " persec=", o)
		else if (match(o, / messages=[0-9]+ /) && (m = substr(o, RSTART + 10, RLENGTH - 11)) > 0 && match(o, / seconds=[0-9.]+ /) && (t = substr(o, RSTART + 9, RLENGTH - 10)) > 0)
			o = o sprintf("persec=%.0f ", m / t)
		sub(/^ /, "", o); sub(/ $/, "", o); $6 = o; print}' "$out/raw/parity.tsv" >"$tmp/parity.tsv" && mv "$tmp/parity.tsv" "$out/raw/parity.tsv"
	table parity persec "" "operations per second"
	parity_verdict
}

# parity_verdict: issue 22's target per row of the last table: synctrace
# >= 1.0x glibc ("met"), or below but not below glibc-again's lowest
# ratio of that row ("parity": within glibc's own spread), else "not met".
parity_verdict() {
	say ""
	say "  issue 22's target: synctrace >= 1.0x glibc, or within glibc's spread against itself (glibc-again's [min-max]):"
	awk -F'\t' '$2 == "glibc-again" {lo[$1] = $8; hi[$1] = $9; md[$1] = $7} $2 == "preload" {p[$1] = $7; pl[$1] = $8; ph[$1] = $9; o[++n] = $1}
		END {for (i = 1; i <= n; i++) {l = o[i]; v = p[l] >= 1 ? "met" : (l in lo && p[l] >= lo[l]) ? "parity" : "not met"; c[v]++
			printf "  %-40s synctrace %6.2fx [%.2f-%.2f]  glibc-again %s  %s\n", l, p[l], pl[l], ph[l],
				(l in lo) ? sprintf("%5.2fx [%.2f-%.2f]", md[l], lo[l], hi[l]) : "-", v}
			printf "  rows: %d met, %d at parity, %d not met\n", c["met"], c["parity"], c["not met"]}' "$tmp/sum"
}
