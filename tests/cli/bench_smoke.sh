#!/usr/bin/env bash
# The benchmark runner end to end, shortened: bench/run.sh runs the
# two-queue and families experiments (1 repeat, 5 % of the durations,
# 20,000 messages per supplier) in every mode, and each result file has
# the rows it promises: a figure for every workload and mode, a paired
# ratio to glibc for the others, the consumer-sleep column, the traced
# runs' analysis. Speeds are not asserted (bench/README.md says why).
# usage: bench_smoke.sh REPO BUILD_DIR
SYNCTRACE=unused
. "$(dirname "$0")/lib.sh"
repo=$1 build=$2
need_daemon

if ST_TWOQUEUE_N=20000 timeout 240 "$repo/bench/run.sh" "$build" twoqueue families -r 1 --scale 0.05 \
	-o "$T/res" >"$T/out" 2>"$T/err"; then pass "run.sh: status 0"; else
	fail "run.sh: status $?"; tail -20 "$T/out" "$T/err" >&2; fi

# rows KEY FILE: result rows with that key (one line each in the JSON)
rows() { grep -c "\"key\": \"$1\"" "$2"; }
fam=$T/res/families.json tq=$T/res/twoqueue.json
[ -s "$fam" ] && [ -s "$tq" ] || { fail "no families.json/twoqueue.json"; finish; }

musl=1
grep -q '"mode": "musl"' "$fam" || { musl=0; echo "$name: note: musl-gcc missing, no musl rows"; }
modes=$((3 + musl)) # glibc, preload, contention (+ musl)
n=$(rows persec "$fam")
[ "$n" -eq $((6 * modes)) ] && pass "families: 6 workloads x $modes modes" ||
	fail "families: $n rows, expected $((6 * modes))"
n=$(grep '"key": "persec"' "$fam" | grep -vc '"median": [1-9]')
[ "$n" -eq 0 ] && pass "families: every figure is positive" || fail "families: $n rows without a figure"
n=$(grep '"key": "persec"' "$fam" | grep -v '"mode": "glibc"' | grep -c '"ratio_median": [0-9]')
[ "$n" -eq $((6 * (modes - 1))) ] && pass "families: paired ratios to glibc" ||
	fail "families: $n ratios, expected $((6 * (modes - 1)))"
grep -q 'issue 4.s targets' "$T/out" && pass "families: targets reported" || fail "families: no target lines"

tq_modes=$((4 + musl)) # glibc, preload, contention, full (+ musl)
for key in seconds messages_per_wakeup messages_per_sleep; do
	n=$(rows $key "$tq")
	if [ "$n" -eq $((2 * tq_modes)) ]; then pass "twoqueue: $key for 2 variants x $tq_modes modes"; else
		fail "twoqueue: $n $key rows, expected $((2 * tq_modes)); the runs (label, mode, output):"
		cut -f1,2,6 "$T/res/raw/twoqueue.tsv" >&2
	fi
done
n=$(grep -c '"variant": "\(cond\|twomutex\)", "messages": 40000' "$tq")
[ "$n" -eq 2 ] && pass "twoqueue: both traced runs analysed" || fail "twoqueue: $n analysed traced runs, expected 2"
finish
