#!/usr/bin/env bash
# Verify a Promela model with spin: safety (assertions, invalid end states).
# usage: run-spin.sh MODEL.pml expect-pass|expect-fail [OPTION...]
#   -DNAME[=V]   passed to spin -a (the model's knobs, seeded mutations)
#   --cc=FLAG    passed to the compiler of pan.c (e.g. --cc=-DCOLLAPSE:
#                lossless state compression, still exhaustive)
#   --pan=FLAG   passed to pan (e.g. --pan=-w26)
# expect-fail is for seeded mutations: spin must find the violation.
set -u
model=$1 want=$2
shift 2
spin_opts=() cc_opts=() pan_opts=()
for o in "$@"; do
	case $o in
	--cc=*) cc_opts+=("${o#--cc=}") ;;
	--pan=*) pan_opts+=("${o#--pan=}") ;;
	*) spin_opts+=("$o") ;;
	esac
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp "$model" "$work/model.pml"
cd "$work" || exit 1
spin -a "${spin_opts[@]}" model.pml >spin.log 2>&1 || { cat spin.log; echo "run-spin: spin -a failed"; exit 1; }
gcc -O2 -w -DSAFETY -DNOREDUCE_OFF -DMEMLIM=4096 "${cc_opts[@]}" -o pan pan.c ||
	{ echo "run-spin: cannot compile pan.c"; exit 1; }
./pan -m100000 "${pan_opts[@]}" >pan.log 2>&1
errors=$(sed -n 's/.*errors: \([0-9]*\).*/\1/p' pan.log | head -1)
states=$(sed -n 's/^ *\([0-9.e+]*\) states, stored.*/\1/p' pan.log | head -1)
secs=$(sed -n 's/^pan: elapsed time \([0-9.e+]*\).*/\1/p' pan.log | head -1)
depth_hit=$(grep -c 'max search depth too small' pan.log)
memlim_hit=$(grep -c 'out of memory' pan.log)
echo "run-spin: $(basename "$model") $*: errors=$errors states=$states time=${secs}s"
[ -n "$errors" ] || { cat pan.log; echo "run-spin: no verdict"; exit 1; }
if [ "$want" = expect-pass ]; then
	[ "$errors" -eq 0 ] || { cat pan.log; spin -t -p "${spin_opts[@]}" model.pml 2>/dev/null | tail -40; exit 1; }
	[ "$depth_hit" -eq 0 ] || { echo "run-spin: search depth too small: not exhaustive"; exit 1; }
	[ "$memlim_hit" -eq 0 ] || { echo "run-spin: out of memory: not exhaustive"; exit 1; }
else
	[ "$errors" -gt 0 ] || { echo "run-spin: the mutation was not caught"; exit 1; }
	grep -E 'assertion violated|invalid end state' pan.log | head -2
fi
