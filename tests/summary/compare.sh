#!/usr/bin/env bash
# The same deterministic program recorded at the contention level and at
# the summary level: every count of the report's tables is the same.
# usage: compare.sh SYNCTRACE [RECORD OPTIONS] -- PROGRAM ARGS...
SYNCTRACE=$1
shift
. "$(dirname "$0")/../cli/lib.sh"
. "$(dirname "$0")/lib.sh"
need_daemon
same_at_both_levels "$@"
finish
