# shellcheck shell=bash disable=SC2154
# Sourced by run.sh (its out, tmp, reps, scale and helpers are in scope).
# (f) The other families (issue 4): semaphore ping-pong and an N-by-N
# bounded channel on two semaphores, the read-mostly rwlock (95 % reads)
# with 2 and 4 threads, barrier round trips with 2 and 4 threads. One
# figure per workload: operations completed per second.
exp_families() {
	local d
	d=$(dur 1)
	say ""
	say "== (f) semaphores, rwlocks, barriers: operations per second, ${d} s per run =="
	measure families "glibc musl preload contention" \
		"sem ping-pong (wait/post)|bench_sem_pingpong $d" \
		"sem channel 2x2, capacity 16|bench_sem_channel 2 16 $d" \
		"rwlock 95% reads, 2 threads|bench_rwlock_readmostly 2 $d" \
		"rwlock 95% reads, 4 threads|bench_rwlock_readmostly 4 $d" \
		"barrier, 2 threads|bench_barrier_roundtrip 2 $d" \
		"barrier, 4 threads|bench_barrier_roundtrip 4 $d"
	# one figure for all: ops_per_s, items_per_s, rounds_per_s
	awk -F'\t' -v OFS='\t' '{o = $6; sub(/ops_per_s=|items_per_s=|rounds_per_s=/, "persec=", o); $6 = o; print}' \
		"$out/raw/families.tsv" >"$tmp/fam.tsv" && mv "$tmp/fam.tsv" "$out/raw/families.tsv"
	table families persec "" "operations completed per second"
	say ""
	say "  issue 4's targets for synctrace (preload) against glibc in the same run (reported, never asserted):"
	awk -F'\t' '$2 == "preload" {t = ($1 ~ /^sem ping-pong/) ? 2 : 1
		printf "  %-30s target >= %dx: median %.2fx [%.2f-%.2f] %s\n", $1, t, $7, $8, $9, ($7 >= t ? "met" : "not met")}' "$tmp/sum"
	awk -F'\t' '{print $1 "\t" $2 "\t" $4 "\t" $5 "\t" $6}' "$tmp/sum" |
		chart families bar "Semaphores, rwlocks, barriers: operations per second (median, min-max)" "" "operations per second"
}
