#!/usr/bin/env bash
# synctrace's entry point on a fresh Debian 12 machine.
#
#   ./synctrace.sh run [-- CMD ARGS...]   record a trace of CMD (default: the
#                                         built-in demo) and report it
#   ./synctrace.sh test                   install, build, run every test
#                                         (ST_TEST_LOAD=KIND: beside bench_load
#                                         KIND, e.g. spin:3, a busy machine)
#   ./synctrace.sh build                  install what is missing and build
#   ./synctrace.sh bench [NAMES] [-r N] [--load K]  the seed experiments, paired with glibc
#   ./synctrace.sh fuzz [SECONDS]         fuzz the analyzer's trace input (600 s)
#   ./synctrace.sh golden [--record]      rewrite the golden reports after an
#                                         intended change (--record: the traces too)
#
# Missing Debian packages (deps/debian-packages.txt, the one list) are
# installed with apt-get when run as root; otherwise the apt-get line to run
# is printed and nothing else happens. LTTng needs a session daemon: as root
# it always uses /run/lttng, so the tests and `run` start a private one in a
# private mount namespace (own tmpfs on /run/lttng and /dev/shm) and stop
# exactly that daemon afterwards.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
BUILD=${SYNCTRACE_BUILD:-$ROOT/build}
JOBS=${SYNCTRACE_JOBS:-2}

say() { printf 'synctrace: %s\n' "$*" >&2; }

ensure_packages() {
	local missing=() p
	while read -r p; do
		p=${p%%#*}
		p=${p//[[:space:]]/}
		[ -n "$p" ] || continue
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' ||
			missing+=("$p")
	done <"$ROOT/deps/debian-packages.txt"
	[ ${#missing[@]} -eq 0 ] && return 0
	if [ "$(id -u)" -ne 0 ]; then
		say "missing Debian packages; run:"
		echo "sudo apt-get install -y ${missing[*]}"
		exit 1
	fi
	say "installing ${missing[*]}"
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq
	apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}

build() {
	cmake -S "$ROOT" -B "$BUILD" -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
	cmake --build "$BUILD" -j"$JOBS"
}

# Run "$@" with a private lttng-sessiond (inside a private mount namespace).
with_sessiond() {
	mkdir -p /run/lttng 2>/dev/null || true
	local unshare_opts=(-m --propagation private)
	[ "$(id -u)" -eq 0 ] || unshare_opts=(-r "${unshare_opts[@]}")
	unshare "${unshare_opts[@]}" "$ROOT/synctrace.sh" __in-namespace "$@"
}

stop_sessiond() {
	local pid=${ST_SESSIOND_PID:-}
	[ -n "$pid" ] || return 0
	kill "$pid" 2>/dev/null || true
	for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
}

in_namespace() {
	mount -t tmpfs synctrace-run /run/lttng
	mount -t tmpfs synctrace-shm /dev/shm
	export LTTNG_HOME=/run/lttng
	lttng-sessiond --daemonize --no-kernel >/dev/null 2>&1 || { say "cannot start lttng-sessiond"; exit 1; }
	ST_SESSIOND_PID=$(cat /run/lttng/lttng-sessiond.pid)
	trap stop_sessiond EXIT
	export ST_TEST_SESSIOND=1
	"$@"
}

# The reliability builds beside the main one: fault injection compiled in
# (SYNCTRACE_FAULTS; tests/faults), the primitives under ThreadSanitizer
# (tests/tsan), and the analyzers under ASan and UBSan (ST_SANITIZE; their
# tests, labels analysis and summary: the summary level's traces take the
# analyzer's own path). Skipped when tests are selected by arguments.
build_reliability() {
	cmake -S "$ROOT" -B "$BUILD-faults" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DST_FAULTS=ON >/dev/null
	cmake --build "$BUILD-faults" -j"$JOBS" >/dev/null
	cmake -S "$ROOT" -B "$BUILD-tsan" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DST_TSAN=ON >/dev/null
	cmake --build "$BUILD-tsan" -j"$JOBS" >/dev/null
	cmake -S "$ROOT" -B "$BUILD-asan" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DST_SANITIZE=ON >/dev/null
	cmake --build "$BUILD-asan" -j"$JOBS" >/dev/null
}

# One ctest run; its counts are added to ST_PASSED / ST_FAILED.
ctest_counted() {
	local log
	log=$(mktemp)
	ctest --output-on-failure -j"$JOBS" --timeout 300 "$@" 2>&1 | tee "$log"
	local rc=${PIPESTATUS[0]} total failed
	total=$(sed -n 's/.*tests passed, \([0-9]*\) tests failed out of \([0-9]*\).*/\2/p' "$log" | tail -1)
	failed=$(sed -n 's/.*tests passed, \([0-9]*\) tests failed out of \([0-9]*\).*/\1/p' "$log" | tail -1)
	rm -f "$log"
	ST_PASSED=$((ST_PASSED + ${total:-0} - ${failed:-0}))
	ST_FAILED=$((ST_FAILED + ${failed:-0}))
	[ -n "$total" ] || ST_FAILED=$((ST_FAILED + 1)) # ctest itself failed
	return "$rc"
}

run_tests() {
	local rc=0 load_pid=
	ST_PASSED=0 ST_FAILED=0
	# ST_TEST_LOAD: the suite beside a competitor (bench/runner/load.c:
	# spin:N busy loops, churn:N fork/exec loops), as CI's shared cores
	# may be; stopped by its pid (it ends its own group, and itself
	# after 2 h whatever happens here).
	if [ -n "${ST_TEST_LOAD:-}" ]; then
		"$BUILD/bench/bench_load" "$ST_TEST_LOAD" 0.01 ||
			{ say "bad ST_TEST_LOAD '$ST_TEST_LOAD' (spin:N, churn:N, or a sum: churn:3+spin:1)"; return 2; }
		"$BUILD/bench/bench_load" "$ST_TEST_LOAD" 7200 </dev/null &
		load_pid=$!
		say "tests beside bench_load $ST_TEST_LOAD (pid $load_pid)"
	fi
	ctest_counted --test-dir "$BUILD" "$@" || rc=1
	if [ $# -eq 0 ]; then
		ctest_counted --test-dir "$BUILD-faults" -L faults || rc=1
		ctest_counted --test-dir "$BUILD-tsan" -L tsan || rc=1
		ctest_counted --test-dir "$BUILD-asan" -L 'analysis|summary' || rc=1
	fi
	if [ -n "$load_pid" ]; then
		kill -TERM "$load_pid" 2>/dev/null || true
		wait "$load_pid" 2>/dev/null || true
	fi
	echo
	echo "tests: $ST_PASSED passed, $ST_FAILED failed${ST_TEST_LOAD:+ (beside bench_load $ST_TEST_LOAD)}"
	return $rc
}

# `synctrace run`: record CMD (default: the built-in demo), then report.
# Arguments are `synctrace run`'s: record options, then `-- CMD ARGS...`;
# a bare `CMD ARGS...` (the leading `--` already taken off) is a command.
run_main() {
	if [ $# -gt 0 ] && [ "${1#-}" = "$1" ]; then
		set -- -- "$@"
	fi
	"$BUILD/tools/synctrace" run "$@"
}

cmd=${1:-help}
[ $# -gt 0 ] && shift
case $cmd in
build)
	ensure_packages
	build
	;;
test)
	ensure_packages
	build
	[ $# -gt 0 ] || build_reliability
	with_sessiond "$ROOT/synctrace.sh" __tests "$@"
	;;
run)
	[ "${1:-}" = "--" ] && shift
	ensure_packages
	build >/dev/null
	with_sessiond "$ROOT/synctrace.sh" __run "$@"
	;;
bench)
	# [NAMES...] [-r N] [--scale F] [-o DIR] [--load KIND]: bench/README.md
	ensure_packages
	if [ -z "${ST_BENCH_NO_BUILD:-}" ]; then
		# only what the benchmarks need; the analyzer if it builds (else the
		# traces are summarized with babeltrace2)
		cmake -S "$ROOT" -B "$BUILD" -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
		cmake --build "$BUILD" -j"$JOBS" --target bench-workloads >/dev/null
		cmake --build "$BUILD" -j"$JOBS" --target synctrace-report >/dev/null 2>&1 ||
			say "synctrace-report did not build: trace summaries come from babeltrace2"
	fi
	with_sessiond "$ROOT/bench/run.sh" "$BUILD" "$@"
	;;
soak)
	# ./synctrace.sh soak [MINUTES]: the stress tests (lost-wakeup
	# detectors with timeouts and cancellation, destroy-after-broadcast/
	# -unlock/-post loops, rwlock exclusion, barrier generations), preloaded,
	# round-robin until MINUTES (default 10) are up; SYNCTRACE_FAULTS is
	# passed through. Each run is an iteration; a run that fails or hangs
	# (120 s) is a violation. Exit status: 0 only with 0 violations.
	ensure_packages
	build >/dev/null
	minutes=${1:-10}
	soak_tests=(cond/test_cond_stress_timeouts cond/test_cond_cancel cond/test_cond_destroy
		cond/test_cond_cancel_destroy
		cond/test_cond_regressions sem/test_sem_stress sem/test_sem_last_waiter_frees
		mutex/test_mutex_stress mutex/test_mutex_destroy_after_unlock
		rwlock/test_rwlock_exclusion rwlock/test_rwlock_stall barrier/test_barrier_semantics)
	declare -A soak_runs=() soak_bad=()
	soak_end=$((SECONDS + minutes * 60)) soak_total=0 soak_viol=0
	soak_log=$(mktemp "${TMPDIR:-/tmp}/synctrace-soak.XXXXXX")
	say "soak: ${minutes} min, ${#soak_tests[@]} stress programs, preloaded${SYNCTRACE_FAULTS:+, faults $SYNCTRACE_FAULTS}"
	while [ $SECONDS -lt $soak_end ]; do
		for t in "${soak_tests[@]}"; do
			[ $SECONDS -lt $soak_end ] || break
			n=${t#*/test_}
			if ST_TEST_MODE=preload LD_PRELOAD="$BUILD/libsynctrace.so" \
				timeout 120 "$BUILD/tests/$t" >>"$soak_log" 2>&1; then
				soak_runs[$n]=$((${soak_runs[$n]:-0} + 1))
			else
				soak_bad[$n]=$((${soak_bad[$n]:-0} + 1))
				soak_viol=$((soak_viol + 1))
				say "soak: VIOLATION in $n (log: $soak_log)"
			fi
			soak_total=$((soak_total + 1))
		done
	done
	for t in "${soak_tests[@]}"; do
		n=${t#*/test_}
		printf '%-28s %6d runs %3d violations\n' "$n" "${soak_runs[$n]:-0}" "${soak_bad[$n]:-0}"
	done
	say "soak: $soak_total iterations in $minutes min, $soak_viol violations"
	[ "$soak_viol" -eq 0 ] && rm -f "$soak_log"
	[ "$soak_viol" -eq 0 ]
	;;
fuzz)
	# ./synctrace.sh fuzz [SECONDS]: the trace fuzzer (tests/fuzz/: libFuzzer,
	# ASan/UBSan, clang) from the checked-in corpus for SECONDS (default
	# 600); prints executions, executions per second and findings, keeps
	# new inputs and findings in BUILD/tests/fuzz/long. Exit status: 0 only
	# with no finding of ours (babeltrace2's own crashes are listed).
	ensure_packages
	cmake -S "$ROOT" -B "$BUILD" -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
	cmake --build "$BUILD" -j"$JOBS" --target trace-fuzz synctrace-report >/dev/null
	"$ROOT/tests/fuzz/run-fuzz.sh" run "$BUILD/analysis/trace-fuzz" "$ROOT/tests/fuzz" \
		"$BUILD/tests/fuzz/long" "${1:-600}" "${2:-0}"
	;;
golden)
	# ./synctrace.sh golden: build, then rewrite tests/golden/expected from
	# the checked-in traces (review the diff); --record records the traces
	# again first (tests/golden/record.sh, with a private session daemon).
	ensure_packages
	build
	if [ "${1:-}" = --record ]; then
		with_sessiond "$ROOT/tests/golden/record.sh" "$BUILD"
	else
		"$ROOT/tests/golden/golden.sh" "$BUILD" --update
	fi
	;;
__in-namespace) in_namespace "$@" ;;
__tests) run_tests "$@" ;;
__run) run_main "$@" ;;
*)
	sed -n '2,19p' "$0" | sed 's/^# \{0,1\}//'
	[ "$cmd" = help ] || exit 2
	;;
esac
