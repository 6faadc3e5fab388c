#!/usr/bin/env bash
# `synctrace record` of objects.c (no --stacks: the statedump is recorded
# by default), twice, and once with --stacks; sa_object_name (the names
# driver) must give each object its exact name, and the same class keys
# in both runs without stacks (no absolute address in a klass).
# usage: check-names.sh SYNCTRACE NAMES PROGRAM SOURCE
. "$(dirname "$0")/lib.sh"
L_wrap=$(line mutex_new) L_queue=$(line queue_new) L_pool=$(line pool_new)
L_scratch=$(line scratch) L_worker=$(line worker)

for r in 1 2; do
	run_st 0 "record run $r" record --spin none -q -o "$T/t$r" -- "$prog"
	names "$T/t$r" "$T/n$r"
done
run_st 0 "record --stacks" record --stacks --spin none -q -o "$T/t3" -- "$prog"
names "$T/t3" "$T/n3"

for f in "$T/n1" "$T/n3"; do
	w=$([ "$f" = "$T/n1" ] && echo "no stacks" || echo "stacks")
	[ "$(wc -l <"$f")" -eq 8 ] && pass "$w: 8 objects" || fail "$w: $(wc -l <"$f") objects, want 8"
	expect "$f" "$w: a global" 1 "mutex|symbol|queue_lock|worker ($s:$L_worker)"
	expect "$f" "$w: a file-local static" 1 "mutex|symbol|stats_lock|worker ($s:$L_worker)"
	expect "$f" "$w: a member of a global struct" 1 "mutex|symbol|stats.lock|worker ($s:$L_worker)"
	expect "$f" "$w: on the stack" 1 "mutex|site|init in main ($s:$L_scratch)|main ($s:$L_scratch)"
done
# Without stacks the heap mutexes are named by the init's caller, the wrapper.
expect "$T/n1" "no stacks: heap, by the init's caller" 4 \
	"mutex|site|init in mutex_new ($s:$L_wrap)|mutex_new ($s:$L_wrap)"
# With stacks, past the wrapper (one site creating objects for two callers).
expect "$T/n3" "stacks: heap, the wrapper's caller" 1 \
	"mutex|site|init in queue_new ($s:$L_queue)|queue_new ($s:$L_queue)"
expect "$T/n3" "stacks: heap, the wrapper's other caller" 3 \
	"mutex|site|init in pool_new ($s:$L_pool)|pool_new ($s:$L_pool)"

# Class keys: module-relative, the same in both runs and in the stacks run
# for the objects named alike; the pool's three mutexes are one class.
mod=$(basename "$prog")
if cut -f5 "$T/n1" | grep -qvE "^mutex:(init@)?$mod\+0x[0-9a-f]+\$"; then
	fail "a klass is not TYPE:[init@]$mod+0xOFF: $(cut -f5 "$T/n1" | tr '\n' ' ')"
else pass "every klass is module-relative"; fi
if cmp -s <(cut -f5 "$T/n1") <(cut -f5 "$T/n2"); then pass "two runs: identical klass keys"
else fail "klass keys differ between runs: $(diff <(cut -f5 "$T/n1") <(cut -f5 "$T/n2") | tr '\n' ' ')"; fi
for v in queue_lock stats_lock stats.lock; do
	a=$(klass_of "$T/n1" "$v") b=$(klass_of "$T/n3" "$v")
	[ -n "$a" ] && [ "$a" = "$b" ] && pass "$v: one klass with and without stacks" ||
		fail "$v: klass '$a' without stacks, '$b' with"
done
[ "$(klass_of "$T/n3" "init in pool_new ($s:$L_pool)" | wc -l)" -eq 1 ] &&
	pass "the pool's mutexes: one klass" || fail "the pool's mutexes: several klasses"
[ "$(cut -f5 "$T/n3" | sort -u | wc -l)" -eq 6 ] && pass "stacks: 6 classes for 8 objects" ||
	fail "stacks: $(cut -f5 "$T/n3" | sort -u | wc -l) classes, want 6"

# Classes (the model folds objects at exit): without stacks the wrapper's
# four mutexes are one class; with stacks one per caller of the wrapper.
names -p "$T/t1" "$T/c1"
names -p "$T/t3" "$T/c3"
inst() { awk -F'\t' -v n="$2" '$3 == n { print $8 }' "$1" | tr '\n' ' '; }
[ "$(inst "$T/c1" "init in mutex_new ($s:$L_wrap)")" = "4 " ] && pass "no stacks: one class of 4" ||
	fail "no stacks: classes of mutex_new: '$(inst "$T/c1" "init in mutex_new ($s:$L_wrap)")'"
[ "$(inst "$T/c3" "init in pool_new ($s:$L_pool)")" = "3 " ] &&
	[ "$(inst "$T/c3" "init in queue_new ($s:$L_queue)")" = "1 " ] &&
	pass "stacks: a class of 3 (pool_new), one of 1 (queue_new)" ||
	fail "stacks: classes: $(cut -f3,8 "$T/c3" | tr '\n\t' ' =')"
finish
