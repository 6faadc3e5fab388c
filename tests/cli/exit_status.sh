#!/usr/bin/env bash
# The command's exit status is synctrace's: exit 3 -> 3, killed by SIGTERM
# -> 143; a SIGTERM sent to synctrace reaches the command, and the trace
# is kept. usage: exit_status.sh SYNCTRACE
SYNCTRACE=$1
. "$(dirname "$0")/lib.sh"
need_daemon

run_st 3 "exit 3" record -q -o "$T/t3" -- sh -c 'exit 3'
trace_has "trace of the exit-3 run" "$T/t3" 'synctrace_meta:start'
run_st 143 "killed by SIGTERM" record -q -o "$T/t143" -- sh -c 'kill -TERM $$'

# SIGTERM to synctrace while the command runs: forwarded, trace kept.
# (sh says "ready" once its constructors, the tracer's registration
# included, have run.)
"$SYNCTRACE" record -q -o "$T/fwd" -- sh -c 'echo ready; exec sleep 30' >"$T/ready" 2>"$T/err" &
pid=$!
for _ in $(seq 100); do grep -q ready "$T/ready" && break; sleep 0.1; done
kill -TERM $pid
wait $pid
rc=$?
if [ $rc -eq 143 ]; then pass "SIGTERM forwarded: status 143"; else fail "SIGTERM forwarded: status $rc"; fi
no_session_left "SIGTERM forwarded" $pid
trace_has "trace kept after SIGTERM" "$T/fwd" 'synctrace_meta:start'
finish
