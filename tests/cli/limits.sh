#!/usr/bin/env bash
# Bounded recordings: --max-size and --duration stop recording (the command
# runs on to its end, untraced) and keep a readable trace whose report says
# it was cut; --keep-last keeps a readable tail of a bounded size; a trace
# growing faster than --warn-rate is warned about; bad values are refused.
# usage: limits.sh SYNCTRACE REPORT PROGRAM
SYNCTRACE=$1 report=$2 prog=$3
. "$(dirname "$0")/lib.sh"
need_daemon

bytes() { du -sb "$1" | cut -f1; }
report_says() { # WHAT DIR PATTERN
	local rc=0
	"$report" "$2" >"$T/report.txt" 2>"$T/report.err" || rc=$?
	if [ $rc -le 1 ]; then pass "$1: report status $rc"; else
		fail "$1: report status $rc"; cat "$T/report.err" >&2; fi
	if grep -qE "$3" "$T/report.txt"; then pass "$1: report says '$3'"; else
		fail "$1: report lacks '$3'"; head -20 "$T/report.txt" >&2; fi
}

# --max-size: 4M pairs at the full level write ~250 MB; the recording stops
# near 2 MiB (plus what the buffers held then: at most 2 x 32 MiB a CPU).
run_st 0 "--max-size 2M" record -q --max-size 2M --level full -o "$T/cut" -- "$prog" 2 2000000
grep -q '^cut: .*--max-size 2097152 bytes reached' "$T/cut/synctrace-record.txt" 2>/dev/null &&
	pass "--max-size: the note says the recording was cut" ||
	fail "--max-size: no cut note in $T/cut"
limit=$((2 * 1048576 + 4 * 2 * 32 * 1048576))
size=$(bytes "$T/cut")
[ "$size" -le "$limit" ] && pass "--max-size: $size bytes (<= $limit)" ||
	fail "--max-size: $size bytes, more than $limit"
report_says "--max-size" "$T/cut" 'recording stopped .*--max-size'
rm -rf "$T/cut"

# --duration: the command outlives the recording (a traced burst, then a
# second of sleep in the same shell) and still ends normally.
run_st 0 "--duration 300ms" record -q --duration 300ms -o "$T/dur" -- \
	sh -c "\"$prog\" 1 1000 && sleep 1"
grep -q '^cut: .*--duration 300 ms reached' "$T/dur/synctrace-record.txt" 2>/dev/null &&
	pass "--duration: the note says the recording was cut" ||
	fail "--duration: no cut note in $T/dur"
report_says "--duration" "$T/dur" 'recording stopped .*--duration'
rm -rf "$T/dur"

# --keep-last: a ring of 4 files per stream; the folder stays near 4 MiB
# (files are whole sub-buffers, and the metadata) and its tail is readable.
# Each process repeats its announcement every SYNCTRACE_REANNOUNCE ms (1000
# unless set): 20 here, so that this short run repeats it.
SYNCTRACE_REANNOUNCE=20 run_st 0 "--keep-last 4M" record -q --keep-last 4M --level full -o "$T/ring" -- "$prog" 2 1000000
size=$(bytes "$T/ring")
limit=$((3 * 4 * 1048576))
[ "$size" -le "$limit" ] && pass "--keep-last: $size bytes (<= $limit)" ||
	fail "--keep-last: $size bytes, more than $limit"
report_says "--keep-last" "$T/ring" 'rotating recording'
# The tail still says whose events it holds and where their objects are:
# the announcements have a ring of their own, which the data's rotation
# does not touch (tools/synctrace/session.c), and they are repeated there
# (tracepoints/batch.h).
find "$T/ring" -name 'synctrace_meta_*' -size +0 | grep -q . &&
	pass "--keep-last: the announcements have their own ring" ||
	fail "--keep-last: no synctrace_meta stream in $(find "$T/ring" -type f | tr '\n' ' ')"
trace_events "$T/ring" >"$T/ring.events"
grep -q 'synctrace_meta:start: .*repeat = 0' "$T/ring.events" &&
	pass "--keep-last: the tail has the process's announcement" ||
	fail "--keep-last: no synctrace_meta:start in the tail"
grep -q 'synctrace_meta:start: .*repeat = 1' "$T/ring.events" &&
	pass "--keep-last: the announcement was repeated" ||
	fail "--keep-last: no synctrace_meta:start repeat in the tail"
grep -q 'synctrace_meta:module: .*cli_prog_burst' "$T/ring.events" &&
	pass "--keep-last: the tail lists the loaded objects" ||
	fail "--keep-last: no synctrace_meta:module of the program in the tail"
"$report" --wide "$T/ring" >"$T/ring.wide" 2>/dev/null
# Each CPU's stream kept its last files, from a different time on: the
# report reads transitions only from where every rotated stream has its
# data (analysis/bt2/sink.c, "rotated streams"), and says so.
grep -qE "^message: the trace's CPUs kept their data from different times \(rotation\): its transitions are read from [0-9.]+ [a-zµ]*s into the trace on, .*\([0-9,]+ events before it left out\)" "$T/ring.wide" &&
	pass "--keep-last: the report starts where every CPU's data is there" ||
	fail "--keep-last: no rotation cut in the report: $(grep '^message' "$T/ring.wide")"
grep -qE 'mutex:use@cli_prog_burst\+0x[0-9a-f]+ .*burst\.c:[0-9]+' "$T/ring.wide" &&
	pass "--keep-last: the report names the locks by program and source line" ||
	fail "--keep-last: locks not named by program and line: $(grep -m2 '^[0-9]* mutex' "$T/ring.wide")"
rm -rf "$T/ring"

# --warn-rate: 1M pairs at the full level grow the trace faster than 1 MB/s.
run_st 0 "--warn-rate 1M" record --warn-rate 1M --level full -o "$T/rate" -- sh -c "\"$prog\" 2 1000000 && sleep 1.5"
err_says "--warn-rate" 'warning: the trace grows at [0-9]+ MB/s'
err_says "--warn-rate: what to do" 'bound it, --threshold 1ms .*or --level summary'
# A report read by `head` ends quietly when head is done (SIGPIPE), not as
# a decoder that died and is run again.
"$SYNCTRACE" report --events "$T/rate" 2>"$T/pipe.err" | head -1 >/dev/null
[ ! -s "$T/pipe.err" ] && pass "report | head: nothing on stderr" ||
	fail "report | head: $(head -c 300 "$T/pipe.err")"
rm -rf "$T/rate"

# Bad values are refused before anything is recorded.
for bad in "--max-size 12Q" "--duration 5parsecs" "--buffer-size 100" "--keep-last 1k"; do
	# shellcheck disable=SC2086
	run_st 125 "refused: $bad" record -q $bad -o "$T/bad" -- true
	[ -e "$T/bad" ] && fail "$bad: a trace folder was made" && rm -rf "$T/bad"
done
finish
