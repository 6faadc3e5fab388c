#!/usr/bin/env bash
# An output folder that cannot be used: a clear message, status 125, no
# session left, nothing recorded. usage: bad_output.sh SYNCTRACE
SYNCTRACE=$1
. "$(dirname "$0")/lib.sh"
need_daemon
touch "$T/file"
run_st 125 "output under a file" record -o "$T/file/trace" -- true
err_says "output under a file" 'cannot create output folder .*Not a directory'
mkdir -p "$T/full" && touch "$T/full/x"
run_st 125 "output folder not empty" record -o "$T/full" -- true
err_says "output folder not empty" 'not empty'
mkdir "$T/ro"
if [ "$(id -u)" -ne 0 ]; then
	chmod a-w "$T/ro"
	run_st 125 "read-only folder" record -o "$T/ro/trace" -- true
	err_says "read-only folder" 'cannot create output folder'
elif unshare -m --propagation private true 2>/dev/null; then
	# root ignores permissions: a read-only mount, in a mount namespace.
	unshare -m --propagation private sh -c \
		'mount -t tmpfs -o ro st-ro "$1" && exec "$2" record -o "$1/trace" -- true' \
		sh "$T/ro" "$SYNCTRACE" >"$T/out" 2>"$T/err"
	rc=$?
	if [ $rc -eq 125 ]; then pass "read-only mount: status 125"; else fail "read-only mount: status $rc"; fi
	err_says "read-only mount" 'cannot create output folder .*Read-only'
	lttng list 2>/dev/null | grep -q "synctrace-" && lttng list | grep "synctrace-" >&2
fi
finish
