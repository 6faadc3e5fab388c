# Shared by the tests/live scripts (after tests/cli/lib.sh): a relay
# daemon on 127.0.0.1 for the test, on ports tried until a set is free.
# relay_start OUTDIR: sets relay (its pid) and base (its control port;
# data base + 1, live base + 2); relay_stop stops exactly it.
relay_start() {
	relay=
	for _ in 1 2 3 4 5; do
		base=$((20000 + RANDOM % 40000))
		lttng-relayd -C tcp://127.0.0.1:$base -D tcp://127.0.0.1:$((base + 1)) \
			-L tcp://127.0.0.1:$((base + 2)) -o "$1" >"$T/relayd.log" 2>&1 &
		relay=$!
		for _ in $(seq 200); do
			kill -0 $relay 2>/dev/null || break
			(exec 3<>/dev/tcp/127.0.0.1/$((base + 2))) 2>/dev/null && return 0
			sleep 0.05
		done
		kill $relay 2>/dev/null; wait $relay 2>/dev/null; relay=
	done
	return 1
}
relay_stop() {
	[ -n "${relay:-}" ] || return 0
	kill $relay 2>/dev/null; wait $relay 2>/dev/null; relay=
}
# waits_of TABLE_TEXT OBJECT: the waits of the mutex row of OBJECT in a
# "Where threads wait" table (columns from the right: waits timeouts
# total(2) share mean(2) max(2); a process column when there are several).
waits_of() {
	awk -v o="$2" '$2 == "mutex" && ($3 == o || $4 == o) { gsub(",", "", $(NF-8)); print $(NF-8) }' <<<"$1"
}
# final_table FILE: the since-start table of top's final snapshot.
final_table() {
	sed -n '/^synctrace top (final)/,$p' "$1" | sed -n '/^Where threads wait/,/^$/p'
}
