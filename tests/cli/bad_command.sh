#!/usr/bin/env bash
# A bad command: a clear message, 127 (not found) or 126 (not executable)
# as a shell would, no session left, no trace folder made.
# usage: bad_command.sh SYNCTRACE
SYNCTRACE=$1
. "$(dirname "$0")/lib.sh"
need_daemon
mkdir "$T/cwd" && cd "$T/cwd" || exit 1
run_st 127 "command not found" record -- synctrace-no-such-command-here
err_says "command not found" 'synctrace-no-such-command-here: command not found'
touch "$T/plain"
run_st 126 "not executable" record -- "$T/plain"
err_says "not executable" 'cannot execute'
run_st 125 "no command" record --
err_says "no command" 'needs a command'
run_st 125 "bad option" record --level sometimes -- true
err_says "bad option" 'contention, full or summary'
if [ -z "$(ls -A "$T/cwd")" ]; then pass "no trace folder made"; else fail "left: $(ls "$T/cwd")"; fi
finish
