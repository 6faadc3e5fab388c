#!/usr/bin/env bash
# `synctrace record` of shared_sem.c: each of its three process-shared
# semaphores is seen in both processes (parent and forked child) with
# the same process-shared key (meta:mapping's file and offset), the same
# name and the same klass, whatever its address in each.
# usage: check-shared.sh SYNCTRACE NAMES PROGRAM SOURCE
. "$(dirname "$0")/lib.sh"
L_file=$(line file) L_anon=$(line anon)

run_st 0 "record" record --spin none -q -o "$T/t" -- "$prog"
trace_has "meta:mapping recorded" "$T/t" 'synctrace_meta:mapping:'
names "$T/t" "$T/n"
[ "$(wc -l <"$T/n")" -eq 6 ] && pass "6 objects (3 semaphores x 2 processes)" ||
	fail "$(wc -l <"$T/n") objects, want 6"
expect "$T/n" "shm file, init in the parent" 2 "sem|site|init in main ($s:$L_file)|main ($s:$L_file)"
expect "$T/n" "anonymous shared, init in the parent" 2 "sem|site|init in main ($s:$L_anon)|main ($s:$L_anon)"
[ "$(awk -F'\t' '$3 ~ /^shm [0-9a-f]+:[0-9]+\+0x0$/' "$T/n" | wc -l)" -eq 2 ] &&
	pass "sem_open'ed (glibc initialises it: no init): named by its file, twice" ||
	fail "sem_open'ed semaphore names: $(cut -f3 "$T/n" | tr '\n' '|')"
# Per semaphore (klass): two processes, one key, present in each.
for k in $(cut -f5 "$T/n" | sort -u | tr ' ' '#'); do
	rows=$(awk -F'\t' -v k="${k//#/ }" '$5 == k' "$T/n")
	np=$(cut -f6 <<<"$rows" | sort -u | wc -l)
	nk=$(cut -f7 <<<"$rows" | sort -u | wc -l)
	key=$(cut -f7 <<<"$rows" | head -1)
	[ "$np" -eq 2 ] && [ "$nk" -eq 1 ] && [ "$key" != "-" ] &&
		pass "${k//#/ }: 2 processes, one key $key" ||
		fail "${k//#/ }: $np processes, $nk keys ($key)"
done
[ "$(cut -f5 "$T/n" | sort -u | wc -l)" -eq 3 ] && pass "3 classes" ||
	fail "$(cut -f5 "$T/n" | sort -u | wc -l) classes, want 3"
finish
