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
	persec families
	table families persec "" "operations completed per second"
	targets 4 "^sem ping-pong"
	awk -F'\t' '{print $1 "\t" $2 "\t" $4 "\t" $5 "\t" $6}' "$tmp/sum" |
		chart families bar "Semaphores, rwlocks, barriers: operations per second (median, min-max)" "" "operations per second"
}
