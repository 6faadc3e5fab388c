#!/usr/bin/env bash
# ABI: libsynctrace.so depends on nothing of LTTng, defines no symbol
# versions (so glibc-versioned references bind to its plain definitions),
# and an ordinary program's references are versioned glibc ones.
# usage: abi.sh LIBSYNCTRACE TEST_BINARY
set -eu
lib=$1 bin=$2
fail() { echo "abi: $*" >&2; exit 1; }
if ldd "$lib" | grep -q lttng; then fail "$lib links LTTng"; fi
if readelf -V "$lib" | grep -q 'Version definition'; then fail "$lib defines symbol versions"; fi
objdump -T "$bin" | grep -q 'pthread_mutex_lock' || fail "$bin does not reference pthread_mutex_lock"
objdump -T "$bin" | grep 'pthread_mutex_lock' | grep -q 'GLIBC_' || fail "$bin's reference is not versioned"
for s in pthread_mutex_lock pthread_mutex_unlock pthread_mutex_trylock pthread_mutex_timedlock \
	pthread_mutex_clocklock pthread_mutex_init pthread_mutex_destroy pthread_create; do
	nm -D --defined-only "$lib" | grep -qw "$s" || fail "$lib does not export $s"
done
# Nothing but the public names (and the probe registration, and _exit and
# _Exit: src/export/exit.c) is exported.
extra=$(nm -D --defined-only "$lib" | awk '{print $3}' |
	grep -vE '^(pthread_|sem_|mtx_|cnd_|thrd_|tss_|call_once|synctrace_|_exit$|_Exit$)' || true)
[ -z "$extra" ] || fail "unexpected exports: $extra"
echo "abi: ok"
