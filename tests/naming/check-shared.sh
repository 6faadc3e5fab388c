#!/usr/bin/env bash
# `synctrace record` of shared_sem.c: each of its three process-shared
# semaphores is ONE object although both processes (parent and forked
# child) use it, at different addresses: the same process-shared key
# (meta:mapping's file and offset), one name, one klass; and every wait
# that slept in one process was released by a post from the other.
# usage: check-shared.sh SYNCTRACE NAMES PROGRAM SOURCE
. "$(dirname "$0")/lib.sh"
L_file=$(line file) L_anon=$(line anon)

run_st 0 "record" record --spin none -q -o "$T/t" -- "$prog"
trace_has "meta:mapping recorded" "$T/t" 'synctrace_meta:mapping:'
names "$T/t" "$T/n"
[ "$(wc -l <"$T/n")" -eq 3 ] && pass "3 objects (3 semaphores, each one object in 2 processes)" ||
	fail "$(wc -l <"$T/n") objects, want 3"
expect "$T/n" "shm file, init in the parent" 1 "sem|site|init in main ($s:$L_file)|main ($s:$L_file)"
expect "$T/n" "anonymous shared, init in the parent" 1 "sem|site|init in main ($s:$L_anon)|main ($s:$L_anon)"
[ "$(awk -F'\t' '$3 ~ /^shm [0-9a-f]+:[0-9]+\+0x0$/' "$T/n" | wc -l)" -eq 1 ] &&
	pass "sem_open'ed (glibc initialises it: no init): named by its file" ||
	fail "sem_open'ed semaphore names: $(cut -f3 "$T/n" | tr '\n' '|')"
# Per semaphore: a key; the waits that slept (most of them: a post on a
# loaded machine may come first) were all released by the other process.
while IFS=$'\t' read -r _type _how _name _site klass _vpid key waits released cross; do
	[ "$key" != "-" ] && pass "$klass: one key $key" || fail "$klass: no process-shared key"
	[ "$released" -eq "$waits" ] && [ "$cross" -eq "$waits" ] &&
		pass "$klass: $waits waits, each released by a post of the other process" ||
		fail "$klass: $waits waits, $released released, $cross by the other process"
done <"$T/n"
[ "$(cut -f5 "$T/n" | sort -u | wc -l)" -eq 3 ] && pass "3 classes" ||
	fail "$(cut -f5 "$T/n" | sort -u | wc -l) classes, want 3"
finish
