#!/usr/bin/env bash
# `synctrace top --batch -- PROGRAM` through a private relay daemon, on
# tests/live/hot.c (exactly 8 waits on hot_lock, 2 on cold_lock with
# --spin none): every snapshot shows the interval and since-start tables
# and the findings; the final one ranks hot_lock first with 8 waits; the
# waits of every interval add up to exactly the totals; the final table
# is, line for line, the offline report's over the trace kept with -o; the
# private relay daemon is gone afterwards and no session is left.
# usage: top_batch.sh SYNCTRACE PROGRAM
SYNCTRACE=$1 prog=$2
. "$(dirname "$(readlink -f "$0")")/../cli/lib.sh"
. "$(dirname "$(readlink -f "$0")")/lib.sh"
need_daemon
# A relay daemon top started: its output folder is -o's or a temporary one.
ours() { pgrep -f "lttng-relayd .*-o ($T/trace|${TMPDIR:-/tmp}/synctrace-top-)" >/dev/null; }

run_st 0 "top --batch -- hot" top --batch --interval 0.1 --spin none -o "$T/trace" -- "$prog"
out=$T/out
n=$(grep -c '^synctrace top' "$out")
[ "$n" -ge 2 ] && pass "$n snapshots" || fail "only $n snapshots"
grep -q '^synctrace top (final): net://127.0.0.1:[0-9]*/host/' "$out" && pass "a final snapshot" ||
	fail "no final snapshot"
for part in '^Waits of the last [0-9.]+ s \(by class\)$' '^Where threads wait' '^Findings$'; do
	c=$(grep -cE "$part" "$out")
	[ "$c" -eq "$n" ] && pass "'$part' in each snapshot" || fail "'$part' in $c of $n snapshots"
done
grep -q 'hot: done' "$T/err" && pass "the program's output on stderr" || fail "program output lost"
if grep -q '^hot: done' "$out"; then fail "program output in the snapshots"; fi

# The since-start table of the final snapshot.
final=$(final_table "$out")
row1=$(sed -n 3p <<<"$final")
[ "$(awk '{ print $2, $3 }' <<<"$row1")" = "mutex hot_lock" ] && pass "hot_lock ranks first" ||
	fail "first row: $row1"
[ "$(waits_of "$final" hot_lock)" = 8 ] && pass "hot_lock: 8 waits" || fail "hot_lock: '$(waits_of "$final" hot_lock)' waits"
[ "$(waits_of "$final" cold_lock)" = 2 ] && pass "cold_lock: 2 waits" || fail "cold_lock: '$(waits_of "$final" cold_lock)' waits"

# The intervals add up: the sum of hot_lock's waits over every interval
# table (waits timeouts total(2) share mean(2): waits is $(NF-6)).
sum=$(awk '/^Waits of the last/ { t = 1; next } /^$/ { t = 0 }
	t && $2 == "mutex" && $3 == "hot_lock" { gsub(",", "", $(NF-6)); s += $(NF-6) }
	END { print s + 0 }' "$out")
[ "$sum" = 8 ] && pass "intervals add up to 8 hot_lock waits" || fail "intervals add up to $sum"
seen=$(awk '/^Waits of the last/ { t = 1; next } /^$/ { t = 0 }
	t && $3 == "hot_lock" { n++ } END { print n + 0 }' "$out")
[ "$seen" -ge 1 ] && pass "hot_lock in $seen interval tables" || fail "hot_lock in no interval"

# The offline report of the kept trace: the same table, line for line.
if "$SYNCTRACE" report "$T/trace" >"$T/report" 2>"$T/rerr"; then
	offline=$(sed -n '/^Where threads wait/,/^$/p' "$T/report")
	if [ "$offline" = "$final" ]; then pass "final snapshot = offline report"; else
		fail "final snapshot differs from the offline report"
		diff <(echo "$offline") <(echo "$final") >&2
	fi
else
	fail "report of the kept trace failed"; cat "$T/rerr" >&2
fi
ls "$T"/trace/*/*/ust >/dev/null 2>&1 && pass "trace kept as HOST/SESSION-DATE" || fail "no trace in $T/trace"
! ours && pass "private relay daemon stopped" ||
	fail "a relay daemon was left running"

# An idle stretch is not falling behind: the relay daemon's inactivity
# messages for quiet streams keep the view current, so 3 s of silence
# between two runs of hot skip nothing, and both runs are counted (one
# class: 16 waits).
run_st 0 "top -- hot; sleep 3; hot" top --batch --interval 0.2 --max-behind 2 --spin none \
	-- sh -c "'$prog' && sleep 3 && '$prog'"
grep -q 'skipped ahead' "$T/out" && fail "idle: skipped ahead" || pass "idle: no skip"
[ "$(waits_of "$(final_table "$T/out")" hot_lock)" = 16 ] && pass "idle: hot_lock 16 waits" ||
	fail "idle: hot_lock '$(waits_of "$(final_table "$T/out")" hot_lock)' waits"
late=$(sed -nE 's/^synctrace top: .*, ([0-9.]+) s behind$/\1/p' "$T/out" | sort -n | tail -1)
awk -v b="${late:-99}" 'BEGIN { exit !(b < 2) }' && pass "idle: at most $late s behind" ||
	fail "idle: $late s behind"

# Falling behind (forced: --max-behind 0.01 is less than the live timer's
# own delay): the view skips ahead, says so, marks lower bounds, and still
# ends with the session.
run_st 0 "top --max-behind 0.01 -- hot" top --batch --interval 0.2 --max-behind 0.01 -- "$prog"
grep -q 'skipped ahead [0-9]* times\?, about [0-9.]* s of events not analysed' "$T/out" &&
	pass "skip: said" || fail "skip: not said"
sed -n '/^synctrace top (final)/,$p' "$T/out" | grep -q '^LOWER BOUNDS' &&
	pass "skip: the final snapshot says lower bounds" || fail "skip: no lower bounds"
final=$(sed -n '/^synctrace top (final)/,$p' "$T/out" | tr -s ' \n' '  ')
case $final in *"live view fell behind and skipped ahead"*) said=1 ;; *) said=0 ;; esac
case $final in *"the tracer discarded"*) said=0 ;; esac
[ $said = 1 ] &&
	pass "skip: the finding blames the view, not the tracer" ||
	fail "skip: the finding does not say the view skipped"

# --count bounds a run: the program is interrupted when the view ends
# (SIGINT, ignored by this background job, then SIGTERM).
run_st 143 "top --count 2 -- sleep 30" top --batch --interval 0.1 --count 2 -- sleep 30
c=$(grep -c '^synctrace top' "$T/out")
[ "$c" -eq 2 ] && pass "--count 2: 2 snapshots" || fail "--count 2: $c snapshots"
! ours && pass "relay daemon stopped after --count" ||
	fail "a relay daemon was left running after --count"
finish
