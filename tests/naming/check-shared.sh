#!/usr/bin/env bash
# `synctrace record` of shared_sem.c: each of its three process-shared
# semaphores has, in both processes (parent and forked child, at
# different addresses), the same process-shared key (meta:mapping's file
# and offset), name and klass; the model makes it ONE object, and every
# wait that slept in one process was released by a post from the other.
# usage: check-shared.sh SYNCTRACE NAMES PROGRAM SOURCE
. "$(dirname "$0")/lib.sh"
L_file=$(line file) L_anon=$(line anon) L_mutex=$(line mutex)

run_st 0 "record" record --spin none -q -o "$T/t" -- "$prog"
trace_has "meta:mapping recorded" "$T/t" 'synctrace_meta:mapping:'
# Each process's view (-k -p): every semaphore in both processes, with
# one key, one name and one klass.
names "$T/t" "$T/n"
[ "$(wc -l <"$T/n")" -eq 8 ] && pass "per process: 8 objects (3 semaphores, a mutex, x 2 processes)" ||
	fail "per process: $(wc -l <"$T/n") objects, want 8"
expect "$T/n" "per process: shared mutex, init in the parent" 2 "mutex|site|init in main ($s:$L_mutex)|main ($s:$L_mutex)"
expect "$T/n" "per process: shm file, init in the parent" 2 "sem|site|init in main ($s:$L_file)|main ($s:$L_file)"
expect "$T/n" "per process: anonymous shared, init in the parent" 2 "sem|site|init in main ($s:$L_anon)|main ($s:$L_anon)"
[ "$(awk -F'\t' '$3 ~ /^shm [0-9a-f]+:[0-9]+\+0x0$/' "$T/n" | wc -l)" -eq 2 ] &&
	pass "per process: sem_open'ed (glibc initialises it: no init): named by its file" ||
	fail "per process: sem_open'ed semaphore names: $(cut -f3 "$T/n" | tr '\n' '|')"
for k in $(cut -f5 "$T/n" | sort -u | tr ' ' '#'); do
	rows=$(awk -F'\t' -v k="${k//#/ }" '$5 == k' "$T/n")
	np=$(cut -f6 <<<"$rows" | sort -u | wc -l)
	nk=$(cut -f7 <<<"$rows" | sort -u | wc -l)
	key=$(cut -f7 <<<"$rows" | head -1)
	[ "$np" -eq 2 ] && [ "$nk" -eq 1 ] && [ "$key" != "-" ] &&
		pass "per process: ${k//#/ }: 2 processes, one key $key" ||
		fail "per process: ${k//#/ }: $np processes, $nk keys ($key)"
done

# The model's view (-k -s, hm's one object per key): one object per
# semaphore, named as each process named it; the waits that slept (most
# of them: a post on a loaded machine may come first) were all released
# by the other process.
names -k -s "$T/t" "$T/m"
[ "$(wc -l <"$T/m")" -eq 4 ] && pass "model: 4 objects" || fail "model: $(wc -l <"$T/m") objects, want 4"
cmp -s <(cut -f3,5 "$T/m" | sort) <(cut -f3,5 "$T/n" | sort -u) && pass "model: the same names and klasses" ||
	fail "model: names differ: $(cut -f3,5 "$T/m" | tr '\n\t' ' |')"
while IFS=$'\t' read -r _type _how _name _site klass _vpid key _inst waits released cross; do
	[[ $key == *"*" ]] && pass "$klass: one object of both processes, key $key" ||
		fail "$klass: not one object of both processes ($key)"
	[ "$_type" = mutex ] && continue # wakers: condvars and semaphores (blame is for mutexes)
	[ "$released" -eq "$waits" ] && [ "$cross" -eq "$waits" ] &&
		pass "$klass: $waits waits, each released by a post of the other process" ||
		fail "$klass: $waits waits, $released released, $cross by the other process"
done <"$T/m"
finish
