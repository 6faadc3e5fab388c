#!/usr/bin/env bash
# bench/summarize.awk, the runner's medians and paired ratios, on made-up
# runs: a zero on the divided side of a pair (a consumer that never
# waited has 0 wakeups) gives that pair no ratio and loses no row, with
# mawk and gawk alike (gawk stops at a division by zero, mawk prints inf).
# usage: bench_summarize.sh REPO
SYNCTRACE=unused
. "$(dirname "$0")/lib.sh"
repo=$1
# label, mode, repeat, wall, discarded, output
printf '%s\t%s\t%s\t1\t0\t%s\n' \
	A glibc 0 "x v=2.0" A preload 0 "x v=4.0" A preload 1 "x v=6.0" A glibc 1 "x v=3.0" \
	B glibc 0 "x v=0.0" B preload 0 "x v=5.0" B musl 0 "x v=0.0" \
	C glibc 0 "x v=2.0" C preload 0 "x v=0.0" >"$T/raw.tsv"
# expected (label, mode, n, median, min, max[, ratio median, min, max]):
# higher is better, the ratio is mode/glibc: B has none (glibc 0), C's is 0
want_hi=$'A\tglibc\t2\t2.5\t2\t3\nA\tpreload\t2\t5\t4\t6\t2.000\t2.000\t2.000
B\tglibc\t1\t0\t0\t0\nB\tpreload\t1\t5\t5\t5\nB\tmusl\t1\t0\t0\t0
C\tglibc\t1\t2\t2\t2\nC\tpreload\t1\t0\t0\t0\t0.000\t0.000\t0.000'
# lower is better, glibc/mode: B's preload is 0/5, C's preload has none
want_lo=$'A\tglibc\t2\t2.5\t2\t3\nA\tpreload\t2\t5\t4\t6\t0.500\t0.500\t0.500
B\tglibc\t1\t0\t0\t0\nB\tpreload\t1\t5\t5\t5\t0.000\t0.000\t0.000\nB\tmusl\t1\t0\t0\t0
C\tglibc\t1\t2\t2\t2\nC\tpreload\t1\t0\t0\t0'
n=0
for a in mawk gawk; do # Debian's default awk, and the one most others have
	command -v $a >/dev/null || { echo "$name: note: no $a here"; continue; }
	n=$((n + 1))
	for inv in "" -; do
		want=$want_hi
		[ -z "$inv" ] || want=$want_lo
		if got=$($a -F'\t' -v key=v -v inv="$inv" -f "$repo/bench/summarize.awk" "$T/raw.tsv" 2>"$T/err"); then
			if [ "$got" = "$want" ]; then pass "$a, inv='$inv': every row, no ratio across a zero"; else
				fail "$a, inv='$inv': rows differ"; diff <(echo "$want") <(echo "$got") >&2; fi
		else fail "$a, inv='$inv': status $?"; cat "$T/err" >&2; fi
	done
done
[ $n -gt 0 ] || fail "no awk found (mawk, gawk)"
finish
