#!/usr/bin/env bash
# The live view against a steady stream (bench/README.md "## Live top").
# usage: run.sh BUILD [RATE [SECONDS [THREADS]]]   (default 1000000 60 2)
#   Runs `synctrace top --batch --level full -- rate THREADS RATE SECONDS`
#   (bench/live/rate.c: RATE lock/unlock pairs a second, one event each at
#   the full level) with a private session daemon and relay daemon in a
#   private mount namespace (root: own tmpfs on /run/lttng and /dev/shm),
#   and samples the viewer (synctrace-report --live) every second: its RSS and
#   CPU time. Prints per snapshot the events read a second and how far
#   behind the view is, then the viewer's RSS over time, its CPU seconds per
#   million events, the skips (--max-behind) and the rate the program did.
set -eu
build=$(cd "$1" && pwd)
rate=${2:-1000000} secs=${3:-60} threads=${4:-2}
here=$(cd "$(dirname "$0")" && pwd)
out=${TMPDIR:-/tmp}/st-live-bench
rm -rf "$out"; mkdir -p "$out"
cc -O2 -pthread -o "$out/rate" "$here/rate.c"
mkdir -p /run/lttng
unshare -m --propagation private bash -c '
	set -e
	mount -t tmpfs none /run/lttng; mount -t tmpfs none /dev/shm
	export LTTNG_HOME=/run/lttng
	lttng-sessiond --daemonize --no-kernel >/dev/null 2>&1
	out=$1 build=$2
	"$build/tools/synctrace" top --batch --level full --buffer-size 16M -- \
		"$out/rate" "$5" "$3" "$4" >"$out/top.out" 2>"$out/top.err" &
	top=$!
	: >"$out/samples"
	while kill -0 $top 2>/dev/null; do
		v=$(pgrep -P $top -x synctrace-repor || true)
		if [ -n "$v" ]; then
			rss=$(awk "/^VmRSS/ { print \$2 }" /proc/$v/status 2>/dev/null || echo 0)
			cpu=$(awk "{ print \$14 + \$15 }" /proc/$v/stat 2>/dev/null || echo 0)
			echo "$SECONDS $rss $cpu" >>"$out/samples"
		fi
		sleep 1
	done
	wait $top || true
	kill "$(cat /run/lttng/lttng-sessiond.pid)"' sh "$out" "$build" "$rate" "$secs" "$threads"
tck=$(getconf CLK_TCK)
echo "snapshots (events read/s, behind):"
grep '^synctrace top' "$out/top.out" | sed -E 's/.*, ([0-9,]+) events \(([0-9,]+)\/s\).*after ([0-9.]+ [a-z]+)(, ([0-9.]+) s behind)?/  at \3: \1 events, \2\/s, \5 s behind/' |
	awk 'NR % 5 == 1 || /final/'
grep -o 'skipped ahead [0-9]* times\?, about [0-9.]* s' "$out/top.out" | tail -1 || echo "  no skips"
echo "viewer RSS (kB) and CPU (s) over time:"
awk -v t="$tck" 'NR == 1 { s0 = $1 } { printf "  %4d s  %7d kB  %6.1f s CPU\n", $1 - s0, $2, $3 / t }' "$out/samples" |
	awk 'NR % 10 == 1'
tail -1 "$out/samples" | awk -v t="$tck" '{ printf "  last: %d kB, %.1f s CPU\n", $2, $3 / t }'
ev=$(grep '^synctrace top (final)' "$out/top.out" | sed -E 's/.*, ([0-9,]+) events.*/\1/' | tr -d ,)
cpu=$(tail -1 "$out/samples" | awk -v t="$tck" '{ print $3 / t }')
echo "events read: $ev; viewer CPU per million events: $(echo "$cpu / ($ev / 1000000)" | bc -l | cut -c1-5) s"
grep '^rate:' "$out/top.err" || true
