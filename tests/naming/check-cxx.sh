#!/usr/bin/env bash
# `synctrace record` of objects_cxx.cpp with and without --stacks: C++
# names demangled, a member of a namespace's global by its DWARF member
# name, a heap object's first use past std::mutex's header code (stacks).
# usage: check-cxx.sh SYNCTRACE NAMES PROGRAM SOURCE
. "$(dirname "$0")/lib.sh"
L_jobs=$(line jobs) L_run=$(line worker-run)
gthr="__gthread_mutex_lock(pthread_mutex_t*) (gthr-default.h:"

run_st 0 "record" record --spin none -q -o "$T/t1" -- "$prog"
names "$T/t1" "$T/n1"
run_st 0 "record --stacks" record --stacks --spin none -q -o "$T/t2" -- "$prog"
names "$T/t2" "$T/n2"

# Without stacks the only caller is libstdc++'s inline code (the header's
# line is the library's, not checked).
g=$(grep -F "$gthr" "$T/n1" | head -1 | sed 's/.*gthr-default.h:\([0-9]*\)).*/\1/')
expect "$T/n1" "no stacks: namespace global member, demangled" 1 \
	"mutex|symbol|app::jobs.mtx|$gthr$g)"
expect "$T/n1" "no stacks: heap member, first use" 1 \
	"mutex|site|first use in $gthr$g)|$gthr$g)"
expect "$T/n2" "stacks: namespace global member" 1 \
	"mutex|symbol|app::jobs.mtx|contend_jobs()::{lambda()#1}::operator()() const ($s:$L_jobs)"
expect "$T/n2" "stacks: heap member, first use in the program's code" 1 \
	"mutex|site|first use in Worker::run()::{lambda()#1}::operator()() const ($s:$L_run)|Worker::run()::{lambda()#1}::operator()() const ($s:$L_run)"
[ "$(klass_of "$T/n1" app::jobs.mtx)" = "$(klass_of "$T/n2" app::jobs.mtx)" ] &&
	pass "app::jobs.mtx: one klass with and without stacks" || fail "app::jobs.mtx: klasses differ"
finish
