# The report's numbers for one program (procname $comm; with $only, of its
# objects of that type alone: their numbers are exact where the program's
# other objects' are not: a mutex a condvar's waiters race for), as both levels
# must give them: counts, and the totals of histograms; not durations
# (they differ from run to run), addresses, ranks, event counts, or what
# a summary cannot give (blame by holder, hand-offs, the wake-outcome
# ledger, which links each wake to the threads it woke, and the what-if
# spin replay, which replays each wait, and the most callers asleep at
# once in a pthread_once: doc/performance.md), nor the durations' clock
# (the summary level may read the counter per CPU where the contention
# level may not: src/internal/clock.h). Thread ids (vtid, the
# barrier's most often last, the once routine's runner) and the routine's
# address differ from run to run: the tests check them apart.
def drop: test("^(wake_calls|woken|won|lost|futile|met_leaving|vpid|vtid|top_object|level|clock|clock_why|counter_hz|address|caller|first_ns|last_ns|events|rank|text|by_site|by_thread|by_tid|caused_ns|handoffs|instance|trace|top_serial_tid|runner|cancelled_runner|routine|max_waiting)$|_ns$|_mean|_p[0-9]+$|_share|_rate$|^latency|_max$")
	# (whether a condvar waiter found its mutex held when it took it back
	# depends on the run: the waiters race for it)
	or ($only == "cond" and . == "relock_contended");
def counts: with_entries(select(.key | drop | not)
	| if (.key | endswith("_hist")) then .value |= (. // [] | add) else . end);
[{level: ([.tables[] | select(.name == "summary.processes") | .rows[] | select(.procname == $comm) | .level] | first)}]
+ [.tables[] | select(.name | test("^(waits\\.blame|wakes\\.(outcomes|sites)|spin\\.plan|summary\\.(trace|providers))$") | not)
   | {name, rows: ([.rows[] | select((.procname // $comm) == $comm)
	| select($only == "" or (.type // .kind) == $only or .wait_kind == $only)
	# (which waits make a finding depends on their share of the time: their
	# counts are in waits.top)
	| select(.kind != "wait" or .wait_kind == null)
	| select(.kind != "futile_wakes" and .kind != "spin")
	| counts] | sort_by(tostring))}]
