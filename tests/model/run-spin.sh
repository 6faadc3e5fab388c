#!/usr/bin/env bash
# Verify a Promela model with spin: safety (assertions, invalid end states).
# usage: run-spin.sh MODEL.pml expect-pass|expect-fail [spin -D options...]
# expect-fail is for seeded mutations: spin must find the violation.
set -u
model=$1 want=$2
shift 2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp "$model" "$work/model.pml"
cd "$work" || exit 1
spin -a "$@" model.pml >spin.log 2>&1 || { cat spin.log; echo "run-spin: spin -a failed"; exit 1; }
gcc -O2 -w -DSAFETY -DNOREDUCE_OFF -o pan pan.c || { echo "run-spin: cannot compile pan.c"; exit 1; }
./pan -m100000 >pan.log 2>&1
errors=$(sed -n 's/.*errors: \([0-9]*\).*/\1/p' pan.log | head -1)
states=$(sed -n 's/^ *\([0-9.e+]*\) states, stored.*/\1/p' pan.log | head -1)
depth_hit=$(grep -c 'max search depth too small' pan.log)
echo "run-spin: $(basename "$model") $*: errors=$errors states=$states"
[ -n "$errors" ] || { cat pan.log; echo "run-spin: no verdict"; exit 1; }
if [ "$want" = expect-pass ]; then
	[ "$errors" -eq 0 ] || { cat pan.log; ./pan -r model.pml.trail 2>/dev/null | tail -30; exit 1; }
	[ "$depth_hit" -eq 0 ] || { echo "run-spin: search depth too small: not exhaustive"; exit 1; }
else
	[ "$errors" -gt 0 ] || { echo "run-spin: the mutation was not caught"; exit 1; }
	grep -E 'assertion violated|invalid end state' pan.log | head -2
fi
