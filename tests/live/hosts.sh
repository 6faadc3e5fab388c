#!/usr/bin/env bash
# Streaming from two hosts to one relay daemon: two session daemons, each
# in its own mount and UTS namespace (hostnames a and b, own tmpfs on
# /run/lttng and /dev/shm, as synctrace.sh sets up its private daemon),
# run `synctrace record --relayd` of tests/live/hot.c at the same time,
# both to one lttng-relayd on 127.0.0.1. The report over the relay
# daemon's output folder shows hosts a and b (summary.hosts) and merges
# the lock class: one hot_lock row of exactly 16 waits (8 a host), 2
# objects.
# usage: hosts.sh SYNCTRACE PROGRAM   (inside: --host NAME OUTER_MNT_NS URL ...)
if [ "${1:-}" = --host ]; then
	h=$2 outer=$3 url=$4 SYNCTRACE=$5 prog=$6
	# Only ever in the new namespaces: never mount over the caller's.
	[ "$(readlink /proc/self/ns/mnt)" != "$outer" ] || { echo "hosts: not in a new mount namespace" >&2; exit 1; }
	hostname "$h" || exit 1
	mount -t tmpfs "st-live-$h" /run/lttng && mount -t tmpfs "st-live-shm-$h" /dev/shm || exit 1
	export LTTNG_HOME=/run/lttng
	lttng-sessiond --daemonize --no-kernel >/dev/null 2>&1 || { echo "hosts: $h: no sessiond" >&2; exit 1; }
	pid=$(cat /run/lttng/lttng-sessiond.pid)
	"$SYNCTRACE" record -q --spin none --relayd "$url" -- "$prog"
	rc=$?
	kill "$pid"
	for _ in $(seq 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.05; done
	exit $rc
fi
SYNCTRACE=$1 prog=$2
. "$(dirname "$(readlink -f "$0")")/../cli/lib.sh"
if ! unshare -m -u --propagation private true 2>/dev/null; then
	echo "hosts: cannot make mount and UTS namespaces here: skipped"
	exit 77
fi

. "$(dirname "$(readlink -f "$0")")/lib.sh"
relay_start "$T/relay" || { fail "no relay daemon started"; finish; }
trap 'relay_stop; rm -rf "$T"' EXIT
me=$(readlink /proc/self/ns/mnt)
for h in a b; do
	unshare -m -u --propagation private "$(readlink -f "$0")" --host $h "$me" \
		"net://127.0.0.1:$base:$((base + 1))" "$SYNCTRACE" "$prog" >"$T/$h.out" 2>"$T/$h.err" &
	eval "pid_$h=\$!"
done
for h in a b; do
	eval "wait \$pid_$h"
	rc=$?
	[ $rc -eq 0 ] && pass "host $h recorded to the relay daemon" || { fail "host $h: status $rc"; cat "$T/$h.err" >&2; }
done
[ "$(hostname)" != a ] && [ "$(hostname)" != b ] && pass "this namespace's hostname untouched" ||
	fail "hostname changed here"
relay_stop
for h in a b; do
	ls -d "$T/relay/$h"/*/ust >/dev/null 2>&1 && pass "relay output has $h/SESSION-DATE" ||
		fail "no $T/relay/$h/*/ust"
done

"$SYNCTRACE" report "$T/relay" >"$T/report" 2>"$T/err" || { fail "report failed"; cat "$T/err" >&2; }
hosts=$(sed -n '/^Hosts /,/^$/p' "$T/report")
for h in a b; do
	grep -qE "^$h +1 +1 +2 " <<<"$hosts" && pass "host $h: 1 trace, 1 process, 2 threads" ||
		fail "host $h not in the hosts table: $hosts"
done
top=$(sed -n '/^Where threads wait/,/^$/p' "$T/report")
# Two processes: a process column before the object's.
n=$(awk '$2 == "mutex" && $4 == "hot_lock"' <<<"$top" | wc -l)
[ "$n" -eq 1 ] && pass "hot_lock: one row for both hosts" || fail "hot_lock: $n rows"
w=$(waits_of "$top" hot_lock)
[ "$w" = 16 ] && pass "hot_lock: 16 waits (8 + 8)" || fail "hot_lock: '$w' waits"
# Each holder's site is named from its own process's objects (each host's
# program is loaded at its own address).
blame=$(sed -n '/^Who made them wait/,/^note/p' "$T/report" | grep -E '^[0-9]+ held ')
[ "$(grep -c 'round_on (hot.c:[0-9]*)' <<<"$blame")" -eq "$(grep -c . <<<"$blame")" ] &&
	[ -n "$blame" ] && pass "every holder's site named by function and line" ||
	fail "a holder's site is not named: $blame"
grep -q '^ 1\. mutex `hot_lock` (worker (hot.c:[0-9]*)) (2 objects): ' "$T/report" &&
	pass "hot_lock ranks first, its class holding 2 objects (one a host)" ||
	fail "the first finding is not hot_lock's class of 2 objects"
finish
