# shellcheck shell=bash disable=SC2154
# Sourced by run.sh (its out, tmp, reps, scale and helpers are in scope).
# (h) Real programs, as installed (Debian's, built against glibc, not
# rebuilt): what tracing costs them, beside the workloads of (e) written to
# stress one primitive. Each at glibc, preloaded untraced, and traced at the
# summary and contention levels, paired by repeat; the first repeat's trace
# of each traced mode is counted (events and bytes per second of the run).
#   python3 queue ping-pong  CPython's threading (bench/apps/py_queue.py):
#                            queue.Queue hand-offs; every wait makes and
#                            frees a lock (a semaphore's whole life per
#                            hand-off), every switch passes the GIL
#   python3 thread pool      concurrent.futures (bench/apps/py_pool.py):
#                            a Future's lock per task, tens alive at once
#   C per-job mutex, condvar bench/apps/c_jobs.c: the same jobs in C, their
#                            mutex and condvar made by pthread_*_init and
#                            destroyed with the job
#   C++ per-job condvars     bench/apps/cxx_jobs.cc (built here: g++ and
#                            libstdc++ as any C++ program): a
#                            std::condition_variable per job, made with no
#                            init call and destroyed by its destructor
#   sort --parallel=2        coreutils' threaded merge (mutexes, a condvar)
#   zstd -T2, xz -T2         compressors' worker pools
# A program not installed is left out (said so). Inputs are generated
# (deterministic) into the run's temporary folder. ST_APPS_MODES replaces
# the modes (e.g. "preload summary base-summary" with ST_BENCH_BASE: a
# change against the build before it).
exp_apps() {
	local py=/usr/bin/python3 n
	n=$(awk -v s="$scale" 'BEGIN {printf "%d", 20000 * s}')
	say ""
	say "== (h) real programs: each run's own figure (python: hand-offs/s, tasks/s; C, C++: jobs/s; the others: runs/s, 1 / wall time) =="
	awk -v n="$(awk -v s="$scale" 'BEGIN {printf "%d", 3000000 * s}')" \
		'BEGIN {srand(7); for (i = 0; i < n; i++) printf "%08x%08x\n", int(rand() * 4294967295), i}' >"$tmp/lines"
	local spec=() p
	[ -x "$py" ] && spec+=("python3 queue ping-pong|$py $here/apps/py_queue.py $n")
	[ -x "$py" ] && spec+=("python3 thread pool, futures|$py $here/apps/py_pool.py $n")
	# (200,000 jobs: 20,000 take ~40 ms untraced)
	spec+=("C per-job mutex and condvar|bench_c_jobs $((n * 10))")
	spec+=("C++ per-job condvars|bench_cxx_jobs $((n * 10))")
	p=$(command -v sort) && spec+=("sort --parallel=2, 3M lines|bench_timed $p --parallel=2 -S 400M -o /dev/null $tmp/lines")
	p=$(command -v zstd) && spec+=("zstd -T2 -6, 51 MB|bench_timed $p -q -T2 -6 -c $tmp/lines")
	p=$(command -v xz) && spec+=("xz -T2 -0, 51 MB|bench_timed $p -T2 -0 -c $tmp/lines")
	for p in "$py" sort zstd xz; do
		command -v "$p" >/dev/null || say "  ($p is not installed: its row is left out)"
	done
	[ ${#spec[@]} -gt 0 ] || return 0
	COUNT_EVENTS=1 measure apps "${ST_APPS_MODES:-glibc preload summary contention}" "${spec[@]}"
	persec apps
	table apps persec "" "real programs (python: hand-offs or tasks per second; C, C++: jobs per second; the others: runs per second)"
	slowdown apps persec
	events_table apps
	awk -F'\t' '$2 != "glibc" {print $1 "\t" $2 "\t" $7 "\t" $8 "\t" $9}' "$tmp/sum" |
		REFLINE=1 chart apps bar "Real programs: throughput relative to glibc (paired median, min-max; 1 = glibc)" "" "ratio to glibc"
}
