# shellcheck shell=bash disable=SC2154
# Sourced by run.sh (its out, tmp, reps, scale and helpers are in scope).
# (b) The 2014 figures (seed 000): condvar signals completed in 2 s
# (ping-pong, and one signaler with several waiters), semaphore wait/post
# operations in 2 s.
exp_throughput() {
	local d
	d=$(dur 2)
	say ""
	say "== (b) 2014 throughput: condvar signals and semaphore operations in ${d} s =="
	measure throughput "glibc musl preload contention full" \
		"cond ping-pong (2 threads)|bench_cond_pingpong 2 $d" \
		"cond 1 signaler, 4 waiters|bench_cond_fanout 4 $d" \
		"sem ping-pong (wait/post)|bench_sem_pingpong $d"
	persec throughput
	table throughput persec "" "completed signals (cond) / waits (sem) per second"
	targets 7 ping-pong
	say ""
	say "  in 2 s (the seed's unit; medians): seed 2014, musl after the work: ~3.7M cond signals, ~12M sem operations"
	awk -F'\t' '{printf "  %-30s %-12s %12.0f\n", $1, $2, $4 * 2}' "$tmp/sum"
	awk -F'\t' '{print $1 "\t" $2 "\t" $4 * 2 "\t" $5 * 2 "\t" $6 * 2}' "$tmp/sum" |
		chart throughput bar "2014 throughput: operations completed in 2 s (median, min-max)" "" "operations in 2 s"
}
