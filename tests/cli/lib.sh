# Shared by the tests/cli scripts: sourced, with SYNCTRACE (the command)
# set. Each test works in a temporary folder removed at exit.
set -u
T=$(mktemp -d "${TMPDIR:-/tmp}/st-cli.XXXXXX")
trap 'rm -rf "$T"' EXIT
fails=0
name=$(basename "$0" .sh)

fail() { echo "$name: FAIL: $*" >&2; fails=$((fails + 1)); }
pass() { echo "$name: ok: $*"; }
finish() { [ $fails -eq 0 ] && echo "$name: all passed"; exit $((fails > 0)); }

# need_daemon: the tests run under './synctrace.sh test' (a private one).
need_daemon() {
	if ! lttng list >/dev/null 2>&1; then
		echo "$name: no LTTng session daemon; run through './synctrace.sh test'" >&2
		exit 1
	fi
}

# run_st EXPECTED_STATUS DESCRIPTION ARGS...: runs synctrace in the
# background (its pid names its session: synctrace-PID-...), checks its
# status and that no session of it is left. Its stderr is in $T/err.
run_st() {
	local want=$1 what=$2 rc
	shift 2
	"$SYNCTRACE" "$@" >"$T/out" 2>"$T/err" &
	last_pid=$!
	wait $last_pid
	rc=$?
	if [ "$rc" -eq "$want" ]; then pass "$what: status $rc"; else
		fail "$what: status $rc, expected $want"; cat "$T/err" >&2; fi
	no_session_left "$what" $last_pid
}

no_session_left() { # WHAT PID
	if lttng list 2>/dev/null | grep -q "synctrace-$2-"; then
		fail "$1: session synctrace-$2-* left behind"
		lttng list >&2
	fi
}

# err_says WHAT PATTERN: synctrace's last stderr matches PATTERN.
err_says() {
	if grep -qE "$2" "$T/err"; then pass "$1: says '$2'"; else
		fail "$1: stderr lacks '$2':"; cat "$T/err" >&2; fi
}

# trace_events DIR: its events as babeltrace2 prints them, batched records
# as the events they are (synctrace report --events).
trace_events() { "$SYNCTRACE" report --events "$1" 2>/dev/null; }

# trace_has WHAT DIR PATTERN: the events of DIR match PATTERN.
trace_has() {
	if trace_events "$2" | grep -qE "$3"; then pass "$1"; else fail "$1: no '$3' in $2"; fi
}
