#!/usr/bin/env bash
# The trace fuzzer's runs (trace-fuzz: fuzz_trace.c).
#   run-fuzz.sh replay FUZZER SRCDIR
#     every seed of SRCDIR/corpus must read completely (exit code 0, some
#     synctrace events, not partial); every SRCDIR/regressions/*.in (read
#     with its own .metadata beside it if there is one, else
#     SRCDIR/metadata) must run clean, except bt2-*.in (bt2-leak-*: run clean),
#     which make babeltrace2 itself die: synctrace-report (beside FUZZER)
#     must survive them, name the trace, and give a partial report (exit
#     1), or no report (exit 2) when it died in the first batch.
#   run-fuzz.sh run FUZZER SRCDIR WORKDIR SECONDS [SEED]
#     fuzz for SECONDS from the corpus (new inputs kept in WORKDIR/corpus,
#     findings in WORKDIR/artifacts), libFuzzer's fork mode: a job that
#     crashes or runs out of memory or time is set aside and fuzzing goes
#     on. Prints executions, executions per second and findings. Fails on
#     any leak and on any crash, sanitizer report, out-of-memory or timeout
#     input that babeltrace2 alone reads without dying (that one is ours),
#     but an out-of-memory input that runs clean alone within the limits.
set -u
mode=$1 fz=$2 src=$3
report=$(dirname "$fz")/synctrace-report
fail() { echo "run-fuzz: $*" >&2; exit 1; }
[ -x "$fz" ] || fail "$fz not built (cmake --build BUILD --target trace-fuzz)"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/run-fuzz.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

# Write the trace of input $1 (metadata $2) into $tmp/trace; what went
# wrong in $tmp/write.err. Only the writer runs (nothing is read), so
# its leak check is off: LeakSanitizer's stop-the-world can die on a
# loaded machine (a fresh CI clone failed here once, its stderr
# discarded), and the leaks that count are checked where inputs are read.
write_trace() {
	rm -rf "$tmp/trace"
	mkdir -p "$tmp/trace"
	ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 \
	SA_FUZZ_METADATA=$2 SA_FUZZ_DIR=$tmp/trace SA_FUZZ_KEEP=1 SA_FUZZ_WRITE_ONLY=1 \
		"$fz" "$1" >/dev/null 2>"$tmp/write.err" || return 1
	mv "$tmp"/trace/sa-fuzz-trace.*/* "$tmp/trace/" 2>>"$tmp/write.err" &&
		rmdir "$tmp"/trace/sa-fuzz-trace.* 2>>"$tmp/write.err"
}

# 0 if babeltrace2 alone, given 300 MB of address space (it reads the
# corpus in less than 200) and 10 s, dies on input $1: a crash, or a
# runaway allocation (a sequence length read from garbage).
bt2_dies() {
	write_trace "$1" "$2" || return 1
	(ulimit -v 300000; timeout 10 babeltrace2 "$tmp/trace" -o dummy >/dev/null 2>&1) 2>/dev/null
	local rc=$?
	[ $rc -ge 124 ]
}

# Whether out-of-memory input $1 runs clean alone, under the run's limits:
# a fork-mode job runs many inputs, and ASan's quarantine and the heap's
# growth over them can pass the RSS limit on an input that alone needs a
# fraction of it (seen: 447 MB alone, reported at 2 GB in a job).
oom_clean_alone() {
	SA_FUZZ_DIR=$tmp timeout 60 "$fz" -rss_limit_mb=2048 -malloc_limit_mb=512 "$1" \
		>"$tmp/alone.log" 2>&1
}

case $mode in
replay)
	# Leaks through GLib attributed (full unwinding): see fuzz_trace.c.
	export SA_FUZZ_STRICT_LEAKS=1 ASAN_OPTIONS=fast_unwind_on_malloc=0
	n=0
	for f in "$src"/corpus/*; do
		out=$(SA_FUZZ_VERBOSE=1 "$fz" "$f" 2>&1) || fail "seed $f: crashed: $out"
		line=$(printf '%s\n' "$out" | grep -m1 '^fuzz_trace: exit code')
		case $line in
		"fuzz_trace: exit code 0, "*" synctrace events, partial 0") ;;
		*) fail "seed $f does not read completely: ${line:-no outcome}" ;;
		esac
		[ "$(printf '%s\n' "$line" | sed 's/.*code 0, \([0-9]*\) synctrace.*/\1/')" -gt 0 ] ||
			fail "seed $f: no synctrace event"
		n=$((n + 1))
	done
	[ $n -gt 0 ] || fail "no seed in $src/corpus"
	r=0 b=0
	for f in "$src"/regressions/*.in; do
		[ -e "$f" ] || continue
		meta=${f%.in}.metadata
		[ -e "$meta" ] || meta=$src/metadata
		case $(basename "$f") in
		bt2-leak-*)
			# babeltrace2 leaks (its CTF plugin): must stay suppressed, and
			# nothing of ours may leak.
			"$fz" "$f" >"$tmp/log" 2>&1 || fail "regression $f: $(tail -20 "$tmp/log")"
			r=$((r + 1))
			;;
		bt2-*)
			write_trace "$f" "$meta" ||
				fail "$f: cannot write its trace: $(tail -5 "$tmp/write.err")"
			# A report built with ASan (ST_SANITIZE) would catch
			# babeltrace2's own crash and exit: let it die of it, as the
			# guard expects. Its memory limit (analysis/bt2/guard.c) at
			# 2 GB: a runaway allocation stops there, not at 8.
			ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}handle_segv=0:handle_sigbus=0:handle_abort=0 \
				SYNCTRACE_REPORT_MEMORY_MB=2048 timeout 120 "$report" --format json "$tmp/trace" >"$tmp/r.json" 2>"$tmp/r.err"
			rc=$?
			grep -q "reading $tmp/trace: the decoder died" "$tmp/r.err" ||
				fail "$f: no message naming the trace: $(cat "$tmp/r.err")"
			# Died in the first batch of messages: nothing to report (2);
			# else a partial report of what came before (1).
			if grep -q 'after 0 messages' "$tmp/r.err"; then
				[ $rc -eq 2 ] && [ ! -s "$tmp/r.json" ] ||
					fail "$f: exit $rc, want 2 and no report: $(cat "$tmp/r.err")"
			else
				[ $rc -eq 1 ] || fail "$f: exit $rc, want 1: $(cat "$tmp/r.err")"
				[ "$(jq -r .partial "$tmp/r.json")" = true ] || fail "$f: report not partial"
			fi
			b=$((b + 1))
			;;
		*)
			SA_FUZZ_METADATA=$meta "$fz" "$f" >"$tmp/log" 2>&1 ||
				fail "regression $f: $(tail -20 "$tmp/log")"
			r=$((r + 1))
			;;
		esac
	done
	echo "run-fuzz: $n seeds read completely; $r regression inputs clean; $b babeltrace2-killing inputs survived by synctrace-report"
	;;
run)
	work=$4 secs=$5 seed=${6:-0}
	# Jobs that crash leave their trace directory: keep them in $tmp.
	export SA_FUZZ_DIR=$tmp
	rm -rf "$work/artifacts" # findings are per run; the corpus grows
	mkdir -p "$work/corpus" "$work/artifacts"
	log=$work/fuzz.log
	start=$SECONDS
	timeout -k 10 $((secs + 120)) \
	"$fz" -fork=1 -ignore_ooms=1 -ignore_timeouts=1 -ignore_crashes=1 -seed="$seed" \
		-max_total_time="$secs" -max_len=24576 -timeout=30 -rss_limit_mb=2048 \
		-malloc_limit_mb=512 -artifact_prefix="$work/artifacts/" \
		"$work/corpus" "$src/corpus" >"$log" 2>&1
	rc=$?
	last=$(grep -E '^#[0-9]+: cov:' "$log" | tail -1)
	execs=$(printf '%s' "$last" | sed -n 's/^#\([0-9]*\):.*/\1/p')
	rate=$(( ${execs:-0} / (secs > 0 ? secs : 1) )) # fork mode's own is the last second's
	cov=$(printf '%s' "$last" | sed -n 's/.* cov: \([0-9]*\).*/\1/p')
	echo "run-fuzz: $((SECONDS - start)) s, ${execs:-0} executions (${rate:-0}/s), coverage ${cov:-0}, fuzzer exit $rc"
	# Every finding: a leak is ours (babeltrace2's are suppressed); a
	# crash, out-of-memory or timeout is babeltrace2's only if babeltrace2
	# alone dies on the same trace; an out-of-memory that runs clean alone
	# is the job's (oom_clean_alone).
	ours=0 theirs=0
	for f in "$work"/artifacts/*; do
		[ -e "$f" ] || continue
		b=$(basename "$f")
		if [ "${b#leak-}" = "$b" ] && bt2_dies "$f" "$src/metadata"; then
			echo "run-fuzz:   $b: babeltrace2 alone dies on it too (not ours)"
			theirs=$((theirs + 1))
		elif [ "${b#oom-}" != "$b" ] && oom_clean_alone "$f"; then
			echo "run-fuzz:   $b: runs clean alone within the limits (the job's memory, not this input's)"
		else
			echo "run-fuzz:   $b: OURS"
			ours=$((ours + 1))
		fi
	done
	echo "run-fuzz: findings: $ours ours, $theirs babeltrace2's (crash/out-of-memory/timeout in babeltrace2 itself)"
	# (In fork mode the exit code is the last job's; only our timeout's
	# says something: the fuzzer hung.)
	if [ $ours -gt 0 ] || [ $rc -eq 124 ] || [ $rc -eq 137 ]; then
		grep -E -A30 'ERROR|runtime error' "$log" | head -60 >&2
		fail "findings in $work/artifacts (log: $log; fuzzer exit $rc)"
	fi
	[ "${execs:-0}" -gt 0 ] || fail "no execution (log: $log)"
	;;
*) fail "unknown mode $mode" ;;
esac
