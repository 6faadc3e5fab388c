#!/usr/bin/env bash
# synctrace's entry point on a fresh Debian 12 machine.
#
#   ./synctrace.sh run [-- CMD ARGS...]   record a trace of CMD (default: the
#                                         built-in demo) and report it
#   ./synctrace.sh test                   install, build, run every test
#   ./synctrace.sh build                  install what is missing and build
#   ./synctrace.sh bench [REPEATS]        paired benchmarks against glibc
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

run_tests() {
	ctest --test-dir "$BUILD" --output-on-failure -j"$JOBS" --timeout 300 "$@"
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
	with_sessiond "$ROOT/synctrace.sh" __tests "$@"
	;;
run)
	[ "${1:-}" = "--" ] && shift
	ensure_packages
	build >/dev/null
	with_sessiond "$ROOT/synctrace.sh" __run "$@"
	;;
bench)
	ensure_packages
	build >/dev/null
	with_sessiond "$ROOT/bench/run.sh" "$BUILD" "$@"
	;;
__in-namespace) in_namespace "$@" ;;
__tests) run_tests "$@" ;;
__run) run_main "$@" ;;
*)
	sed -n '2,17p' "$0" | sed 's/^# \{0,1\}//'
	[ "$cmd" = help ] || exit 2
	;;
esac
