#!/usr/bin/env bash
# The seed experiments and the tracing overhead, as paired benchmark runs.
#
# usage: run.sh BUILD_DIR [-r REPEATS] [-o DIR] [--scale F] [--long]
#               [--load KIND]... [NAMES...]
#        (normally through `./synctrace.sh bench [ARGS...]`, which builds and
#        starts a private LTTng session daemon for the traced modes)
#   NAMES      experiments, default all: twoqueue throughput spin timedrace overhead
#              families spinplan apps; not in all: parity (every row, glibc against
#              itself too)
#   -r N, N    repeats (default 5); a bare number is the repeat count
#   -o DIR     results folder (default BUILD_DIR/bench-results, or $ST_BENCH_RESULTS)
#   --scale F  multiply every timed workload's duration by F (--long: 5)
#   --load K   also run every workload beside a competitor K (bench_load):
#              spin:N (N busy loops), churn:N (N loops that fork/exec a short
#              program, pipe 64 KiB through it and sleep 0.5 ms), or a sum
#              (churn:3+spin:1); repeatable. The competitor is started before
#              each run and ended after it (by pid), the same for every mode.
#
# Modes (libraries), alternated inside every repeat so drift hits all alike:
#   glibc       the workload as built (glibc's primitives)
#   musl        the same source built with `musl-gcc -static` (skipped when it
#               does not build; said so)
#   preload     LD_PRELOAD=libsynctrace.so, no session
#   contention  preloaded with the probes, a session recording synctrace_*
#   full        the same with SYNCTRACE_LEVEL=full
#   summary     the same with SYNCTRACE_LEVEL=summary (per-thread aggregates)
#   wrapper     glibc with lttng-ust's liblttng-ust-pthread-wrapper.so and a
#               session recording lttng_ust_pthread:* (overhead experiment)
#   spin:S      preloaded, SYNCTRACE_SPIN=S;  pinned X: X under `taskset -c 0`
#   glibc-again glibc once more: its ratio to glibc is the run-to-run spread
#   crowd-off   preloaded, SYNCTRACE_SPIN_CROWD=off (spins on a crowded machine)
#   spin-adaptive  preloaded, SYNCTRACE_SPIN_MUTEXES=adaptive (only adaptive
#               mutexes spin, as in glibc; before 2026-12-01 the default)
#   base        preloaded with another build's library, $ST_BENCH_BASE/
#               libsynctrace.so (e.g. a worktree of main): a change against
#               the code it changes, paired in one run; base-contention,
#               base-full, base-threshold, base-summary: the same build's
#               libraries as in contention, full, threshold, summary
# Each workload prints key=value pairs. Printed per workload and mode: the
# median [min-max] of the figure, and the median [min-max] of the per-repeat
# ratios to glibc's run of the same repeat (>1: better than glibc; for times
# the ratio is glibc's time over the mode's), the CPU share the run got (CPU
# seconds of the process over its wall time) and its CPU seconds per
# operation, with the load average during the runs. Raw runs, per-experiment JSON
# and one SVG chart per experiment go to the results folder. Nothing here
# asserts a speed: the machine may be shared and noisy.
set -u
here=$(cd "$(dirname "$0")" && pwd)
case ${1:-} in -h | --help | "") sed -n '2,/^set -u$/{/^set -u$/!p}' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;; esac
build=$(cd "${1:?usage: run.sh BUILD_DIR [options] [NAMES...]}" && pwd)
shift
reps=5
scale=1
out=${ST_BENCH_RESULTS:-$build/bench-results}
all=(twoqueue throughput spin timedrace overhead families spinplan apps)
names=()
loads=()
while [ $# -gt 0 ]; do
	case $1 in
	-r | --repeats) reps=$2; shift ;;
	-o | --out) out=$2; shift ;;
	--scale) scale=$2; shift ;;
	--long) scale=5 ;;
	--load) loads+=("$2"); shift ;;
	-h | --help) sed -n '2,/^set -u$/{/^set -u$/!p}' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	all) names+=("${all[@]}") ;;
	parity) names+=(parity) ;;
	[0-9]*) reps=$1 ;;
	*)
		[[ " ${all[*]} " == *" $1 "* ]] || { echo "bench: unknown experiment '$1' (known: ${all[*]})" >&2; exit 2; }
		names+=("$1")
		;;
	esac
	shift
done
[ ${#names[@]} -gt 0 ] || names=("${all[@]}")
mkdir -p "$out/raw" "$out/traces"
out=$(cd "$out" && pwd)

lib=$build/libsynctrace.so
tp=$build/libsynctrace-tp.so
B=$build/bench
M=$out/musl
report=$build/analysis/synctrace-report
wrapper=$(ldconfig -p 2>/dev/null | awk '/liblttng-ust-pthread-wrapper.so.1 /{print $NF; exit}')
tmp=$(mktemp -d)
trap 'load_stop; [ -z "${SHARED:-}" ] || lttng destroy "$SHARED" >/dev/null 2>&1; rm -rf "$tmp"' EXIT
for f in "$lib" "$tp" "$B/bench_cond_twoqueue" "$B/bench_cputime" "$B/bench_load"; do
	[ -e "$f" ] || { echo "bench: $f is missing: build first (cmake --build $build)" >&2; exit 2; }
done
have_session=1
lttng list >/dev/null 2>&1 || { have_session=0; echo "bench: no LTTng session daemon: traced modes skipped (run through ./synctrace.sh bench)" >&2; }

say() { printf '%s\n' "$*"; }
dur() { awk -v d="$1" -v s="$scale" 'BEGIN {printf "%g", d * s}'; }

# ---- musl builds of the workloads ---------------------------------------
build_musl() {
	mkdir -p "$M"
	if ! command -v musl-gcc >/dev/null; then
		say "musl: musl-gcc not found (Debian package musl-tools): the musl column is skipped"
		return
	fi
	local src name
	for src in "$here"/*.c; do
		name=bench_$(basename "$src" .c)
		if [ "$src" -nt "$M/$name" ] || [ ! -x "$M/$name" ]; then
			musl-gcc -static -std=gnu11 -O2 -Wall -Wextra -o "$M/$name" "$src" 2>"$M/$name.log" ||
				{ rm -f "$M/$name"; say "musl: cannot build $(basename "$src") (see $M/$name.log): its musl column is skipped"; }
			[ -s "$M/$name.log" ] || rm -f "$M/$name.log"
		fi
	done
}

# ---- the competitor of --load -----------------------------------------------
# load_start KIND: bench_load KIND in the background (its own process group;
# it ends itself after 600 s whatever happens here), then 50 ms for its
# loops to run. load_stop: SIGTERM to that pid (it ends its group), wait.
LOAD_PID=""
load_start() {
	"$B/bench_load" "$1" 600 </dev/null &
	LOAD_PID=$!
	sleep 0.05
}
load_stop() {
	[ -n "$LOAD_PID" ] || return 0
	kill -TERM "$LOAD_PID" 2>/dev/null
	wait "$LOAD_PID" 2>/dev/null
	LOAD_PID=""
}
for l in "${loads[@]}"; do
	"$B/bench_load" "$l" 0.01 || { echo "bench: bad --load '$l' (spin:N, churn:N, or a sum: churn:3+spin:1)" >&2; exit 2; }
done

# ---- one run --------------------------------------------------------------
# run_one MODE [NAME=value]... PROGRAM ARGS... -> RUN_OUT (the workload's output, one line),
# RUN_WALL (seconds), RUN_DISCARDED (events the tracer discarded); RUN_OUT
# ends with bench_cputime's figures and loadavg= (the 1-minute load average
# after the run). With
# KEEP_TRACE set, the trace of a traced mode is kept in that directory.
run_one() {
	local mode=$1 prog=$2 pre=() env=() vars=() events="" exe
	shift 2
	# a workload's own settings (NAME=value before its program: ST_BENCH_PIN=1)
	while [[ $prog == [A-Z_]*=* ]]; do
		vars+=("$prog")
		prog=$1
		shift
	done
	exe=$B/$prog
	# a real program by its absolute path (exp_apps.sh): as installed
	[[ $prog != /* ]] || exe=$prog
	RUN_OUT="" RUN_WALL="" RUN_DISCARDED=""
	if [[ $mode == "pinned "* ]]; then
		pre=(taskset -c 0)
		mode=${mode#pinned }
	fi
	case $mode in
	glibc | glibc-again) ;;
	musl) [[ $prog != /* ]] || return 1; exe=$M/$prog ;;
	preload) env=(LD_PRELOAD="$lib") ;;
	contention) env=(LD_PRELOAD="$lib $tp") events='synctrace_*' ;;
	full) env=(SYNCTRACE_LEVEL=full LD_PRELOAD="$lib $tp") events='synctrace_*' ;;
	single) env=(SYNCTRACE_BATCH=0 LD_PRELOAD="$lib $tp") events='synctrace_*' ;;
	threshold) env=(SYNCTRACE_THRESHOLD="${ST_BENCH_THRESHOLD:-1ms}" LD_PRELOAD="$lib $tp") events='synctrace_*' ;;
	summary) env=(SYNCTRACE_LEVEL=summary LD_PRELOAD="$lib $tp") events='synctrace_*' ;;
	wrapper) env=(LD_PRELOAD="$wrapper") events='lttng_ust_pthread:*' ;;
	spin:*) env=(SYNCTRACE_SPIN="${mode#spin:}" LD_PRELOAD="$lib") ;;
	crowd-off) env=(SYNCTRACE_SPIN_CROWD=off LD_PRELOAD="$lib") ;;
	spin-adaptive) env=(SYNCTRACE_SPIN_MUTEXES=adaptive LD_PRELOAD="$lib") ;;
	base | base-contention | base-full | base-threshold | base-summary)
		[ -f "${ST_BENCH_BASE:-}/libsynctrace.so" ] || { echo "bench: mode $mode needs ST_BENCH_BASE=BUILD_DIR of another build" >&2; return 1; }
		env=(LD_PRELOAD="$ST_BENCH_BASE/libsynctrace.so")
		[ "$mode" = base ] || env=(LD_PRELOAD="$ST_BENCH_BASE/libsynctrace.so $ST_BENCH_BASE/libsynctrace-tp.so") events='synctrace_*'
		[ "$mode" != base-full ] || env=(SYNCTRACE_LEVEL=full "${env[@]}")
		[ "$mode" != base-summary ] || env=(SYNCTRACE_LEVEL=summary "${env[@]}")
		[ "$mode" != base-threshold ] || env=(SYNCTRACE_THRESHOLD="${ST_BENCH_THRESHOLD:-1ms}" "${env[@]}") ;;
	*) echo "bench: unknown mode $mode" >&2; return 1 ;;
	esac
	[ -x "$exe" ] || return 1
	[ -z "$events" ] || [ $have_session = 1 ] || return 1
	[ "$mode" != wrapper ] || [ -n "$wrapper" ] || return 1
	local s="" dir="" own=""
	if [ -n "$events" ] && [ -z "${KEEP_TRACE:-}" ]; then
		shared_session || return 1
	elif [ -n "$events" ]; then
		# a trace of its own: the shared session pauses meanwhile, so this
		# run's events are written once
		[ -z "$SHARED" ] || lttng stop "$SHARED" >/dev/null 2>&1
		own=1
		s="bench-$$-$RANDOM"
		dir=$KEEP_TRACE
		rm -rf "$dir"
		if ! session_setup "$s" "$dir" "$events"; then
			echo "bench: cannot set up an LTTng session" >&2
			lttng destroy "$s" >/dev/null 2>&1
			return 1
		fi
	fi
	local t0 t1
	t0=$(date +%s%N)
	rm -f "$tmp/cpu"
	RUN_OUT=$("$B/bench_cputime" "$tmp/cpu" env "${env[@]}" "${vars[@]}" "${pre[@]}" "$exe" "$@" 2>>"$out/raw/stderr.log" | tail -1)
	t1=$(date +%s%N)
	[ -z "$RUN_OUT" ] || [ ! -s "$tmp/cpu" ] || RUN_OUT="$RUN_OUT $(cat "$tmp/cpu") loadavg=$(cut -d' ' -f1 /proc/loadavg)"
	RUN_WALL=$(awk -v a="$t0" -v b="$t1" 'BEGIN {printf "%.4f", (b - a) / 1e9}')
	if [ -n "$own" ]; then
		local msg
		msg=$(lttng stop "$s" 2>&1; lttng destroy "$s" 2>&1)
		RUN_DISCARDED=$(sed -n 's/.*[^0-9]\([0-9][0-9]*\) events\{0,1\} were discarded.*/\1/p' <<<"$msg" | head -1)
		[ -z "$SHARED" ] || lttng start "$SHARED" >/dev/null 2>&1
	fi
	if [ -n "$events" ] && [ -z "$own" ]; then
		# wait until this run's events are on disk (as a session of its own
		# would): the consumer daemon must not steal CPU from the next run
		lttng stop "$SHARED" >/dev/null 2>&1
		lttng start "$SHARED" >/dev/null 2>&1
	fi
	[ -n "$RUN_OUT" ]
}

# session_setup NAME DIR EVENTS: a started session recording EVENTS (a
# comma-separated list) into DIR, with the contexts `synctrace record` adds.
session_setup() {
	{ lttng create "$1" --output="$2" &&
		lttng enable-channel -u -s "$1" --subbuf-size=8M --num-subbuf=16 chan &&
		lttng enable-event -u -s "$1" -c chan "$3" &&
		lttng add-context -u -s "$1" -c chan -t vpid -t vtid -t procname &&
		lttng start "$1"; } >/dev/null
}

# The timed traced runs share one session per experiment (both providers
# enabled; only the preloaded one has events): a session per run would add
# seven lttng commands and a buffer set-up to each traced run. Its trace is
# deleted when the experiment ends (end_shared_session).
SHARED=""
shared_session() {
	[ -z "$SHARED" ] || return 0
	SHARED="bench-$$-shared"
	session_setup "$SHARED" "$tmp/shared" 'synctrace_*,lttng_ust_pthread:*' ||
		{ echo "bench: cannot set up an LTTng session" >&2; lttng destroy "$SHARED" >/dev/null 2>&1; SHARED=""; return 1; }
}
end_shared_session() {
	[ -n "$SHARED" ] || return 0
	lttng destroy "$SHARED" >/dev/null 2>&1
	rm -rf "$tmp/shared"
	SHARED=""
}

# ---- paired repeats -------------------------------------------------------
# measure EXP "MODES" WORKLOAD... where a workload is "label|program args".
# Appends "label<TAB>mode<TAB>repeat<TAB>wall<TAB>discarded<TAB>output" rows
# to raw/EXP.tsv. With --load, every repeat runs quiet and then beside each
# competitor; a loaded run's label ends in " @KIND". Odd repeats run the
# modes in reverse order: of two traced runs in a row the first measured
# ~10 % faster on the hand-offs here, which a fixed order gives one mode.
measure() {
	local exp=$1 modes order w m r i label cmd ld
	read -ra modes <<<"$2"
	shift 2
	local raw=$out/raw/$exp.tsv
	for w in "$@"; do
		for ((r = 0; r < reps; r++)); do
		order=("${modes[@]}")
		if ((r % 2)); then
			order=()
			for ((i = ${#modes[@]} - 1; i >= 0; i--)); do order+=("${modes[i]}"); done
		fi
		for ld in quiet "${loads[@]}"; do
			label=${w%%|*}
			cmd=${w#*|}
			[ "$ld" = quiet ] || label="$label @$ld"
			for m in "${order[@]}"; do
				m=${m//_/ }
				local keep=""
				[ -n "${COUNT_EVENTS:-}" ] && [ $r -eq 0 ] && [[ $m == contention || $m == full || $m == wrapper || $m == single || $m == threshold || $m == summary || $m == base-?* ]] && keep=$tmp/evtrace
				[ "$ld" = quiet ] || load_start "$ld"
				# shellcheck disable=SC2086
				if KEEP_TRACE=$keep run_one "$m" $cmd; then
					printf '%s\t%s\t%d\t%s\t%s\t%s\n' "$label" "$m" "$r" "$RUN_WALL" "${RUN_DISCARDED:-0}" "$RUN_OUT" >>"$raw"
					[ -z "$keep" ] || count_into "$exp" "$label" "$m"
				fi
				load_stop
				[ -z "$keep" ] || rm -rf "$keep"
				printf '.' >&2
			done
		done
		done
	done
	printf '\n' >&2
}

# summarize EXP KEY [-] -> rows "label mode n median min max rmed rmin rmax"
# (tab-separated) of KEY's value in every run; "-": lower is better.
summarize() {
	awk -F'\t' -v key="$2" -v inv="${3:-}" -f "$here/summarize.awk" "$out/raw/$1.tsv"
}

# table EXP KEY [-] TITLE: print a summary as a table and as JSON rows.
# Beside each row: the median CPU share of its runs and, for a rate (or the
# two-queue time), the median CPU seconds per operation and its paired
# ratio to glibc (>1: less CPU than glibc per operation); above the table,
# the load average over its runs. With --load, then the same side by side.
table() {
	local exp=$1 key=$2 inv=${3:-} title=$4 legend=${5:-"ratio: paired, to glibc, >1 better"} opkey=""
	summarize "$exp" "$key" "$inv" >"$tmp/sum"
	case $key in persec | fig | *_per_s) opkey=cpu_per_op:$key ;; seconds) opkey=cpu_per_op/messages ;; esac
	summarize "$exp" cpu_share >"$tmp/sum.share"
	: >"$tmp/sum.op"
	[ -z "$opkey" ] || summarize "$exp" "$opkey" - >"$tmp/sum.op"
	# the summary's 9 columns, then label, mode, cpu share, cpu s/op, its
	# ratio (empty when unknown)
	awk -F'\t' -v OFS='\t' 'FILENAME == ARGV[1] {sh[$1, $2] = $4; next} FILENAME == ARGV[2] {op[$1, $2] = $4; opr[$1, $2] = $7; next}
		{print $1, $2, $3, $4, $5, $6, $7, $8, $9, $1, $2, sh[$1, $2], op[$1, $2], opr[$1, $2]}' "$tmp/sum.share" "$tmp/sum.op" "$tmp/sum" >"$tmp/sum.cpu"
	say ""
	say "$title   ($key: median [min-max] of $reps; $legend)"
	say "  load average during these runs: $(load_range "$exp")"
	awk -F'\t' 'function h(v) {return v >= 1e7 ? sprintf("%.2fM", v / 1e6) : v >= 1e5 ? sprintf("%.1fk", v / 1e3) : sprintf("%g", v)}
		{printf "  %-30s %-16s %10s [%s-%s]", $1, $2, h($4), h($5), h($6)
		printf $7 != "" ? "   %6.2fx [%.2f-%.2f]" : "   %6s %11s", $7, $8, $9
		if ($12 != "") printf "   cpu %.2f", $12
		if ($13 != "") printf "  %8.3g us/op", $13 * 1e6
		if ($14 != "") printf " %5.2fx", $14
		printf "\n"}' "$tmp/sum.cpu"
	awk -F'\t' -v xp="$exp" -v key="$key" '{
		printf "{\"experiment\": \"%s\", \"workload\": \"%s\", \"mode\": \"%s\", \"key\": \"%s\", \"repeats\": %d, \"median\": %s, \"min\": %s, \"max\": %s", xp, $1, $2, key, $3, $4, $5, $6
		if ($7 != "") printf ", \"ratio_median\": %s, \"ratio_min\": %s, \"ratio_max\": %s", $7, $8, $9
		if ($12 != "") printf ", \"cpu_share_median\": %s", $12
		if ($13 != "") printf ", \"cpu_s_per_op_median\": %s", $13
		if ($14 != "") printf ", \"cpu_per_op_ratio_median\": %s", $14
		printf "}\n"}' "$tmp/sum.cpu" >>"$tmp/$exp.jsonl"
	[ ${#loads[@]} -eq 0 ] || side_by_side
}

# load_range EXP: the 1-minute load average after the runs of EXP so far,
# median [min-max].
load_range() {
	awk -F'\t' '{o = " " $6 " "; if (match(o, / loadavg=[0-9.]+ /)) print substr(o, RSTART + 9, RLENGTH - 10)}' "$out/raw/$1.tsv" |
		sort -g | awk '{v[++n] = $1} END {if (n) printf "%.2f [%.2f-%.2f]\n", (n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2), v[1], v[n]; else print "unknown"}'
}

# side_by_side: the last table's paired ratios, quiet and under each --load,
# one line per workload and mode, with the CPU share of glibc's runs and of
# the mode's (median).
side_by_side() {
	say ""
	say "  quiet and loaded side by side: paired ratio to glibc (median), CPU share glibc/mode, CPU s/op ratio"
	awk -F'\t' -v kinds="quiet ${loads[*]}" '
		{base = $1; ld = "quiet"; if (match($1, / @[^ ]+$/)) {base = substr($1, 1, RSTART - 1); ld = substr($1, RSTART + 2)}
		 if (!(base in bi)) {bi[base] = ++nb; bn[nb] = base}
		 if (!((base, $2) in mi)) {mi[base, $2] = ++nm[base]; mn[base, nm[base]] = $2}
		 r[base, $2, ld] = $7; sh[base, $2, ld] = $12; opr[base, $2, ld] = $14}
		END {nk = split(kinds, k, " "); printf "  %-30s %-12s", "workload", "mode"
			for (j = 1; j <= nk; j++) printf " %-26s", k[j]; printf "\n"
			for (i = 1; i <= nb; i++) for (m = 1; m <= nm[bn[i]]; m++) {b = bn[i]; x = mn[b, m]; if (x == "glibc") continue
				printf "  %-30s %-12s", b, x
				for (j = 1; j <= nk; j++) {c = sprintf("%s  cpu %s/%s", r[b, x, k[j]] == "" ? "-" : sprintf("%.2fx", r[b, x, k[j]]),
						sh[b, "glibc", k[j]] == "" ? "-" : sprintf("%.2f", sh[b, "glibc", k[j]]), sh[b, x, k[j]] == "" ? "-" : sprintf("%.2f", sh[b, x, k[j]]))
					if (opr[b, x, k[j]] != "") c = c sprintf(" %.2fx", opr[b, x, k[j]])
					printf " %-26s", c}
				printf "\n"}}' "$tmp/sum.cpu"
}

# persec EXP: each workload's own per-second key (handoffs_per_s=,
# ops_per_s=, ...) becomes one figure, persec=, so one table holds them all.
persec() {
	awk -F'\t' -v OFS='\t' '{o = $6; sub(/[a-z]+_per_s=/, "persec=", o); $6 = o; print}' \
		"$out/raw/$1.tsv" >"$tmp/persec.tsv" && mv "$tmp/persec.tsv" "$out/raw/$1.tsv"
}

# targets ISSUE REGEX: the preload rows of the last table against the
# issue's bar: 2x glibc for workloads matching REGEX, 1x for the others.
targets() {
	say ""
	say "  issue $1's targets for synctrace (preload) against glibc in the same run (reported, never asserted):"
	awk -F'\t' -v two="$2" '$2 == "preload" {t = ($1 ~ two) ? 2 : 1
		printf "  %-30s target >= %dx: median %.2fx [%.2f-%.2f] %s\n", $1, t, $7, $8, $9, ($7 >= t ? "met" : "not met")}' "$tmp/sum"
}

# json EXP: results/EXP.json from the rows collected by `table`, plus extras.
write_json() {
	local exp=$1 f=$out/$1.json
	{
		printf '{"experiment": "%s", "date": "%s", "host": "%s", "cpus": %s, "load_before": "%s", "repeats": %d, "scale": %s,\n "results": [\n' \
			"$exp" "$(date -u +%Y-%m-%dT%H:%M:%SZ)" "$(hostname)" "$(nproc)" "$LOAD0" "$reps" "$scale"
		[ -s "$tmp/$exp.jsonl" ] && sed '$!s/$/,/; s/^/  /' "$tmp/$exp.jsonl"
		printf ' ],\n "trace_analysis": [\n'
		[ -s "$tmp/$exp.extra" ] && sed '$!s/$/,/; s/^/  /' "$tmp/$exp.extra"
		printf ' ]}\n'
	} >"$f"
	say "  json: $f"
}

# chart EXP TYPE TITLE XLABEL YLABEL < rows
chart() {
	awk -v type="$2" -v title="$3" -v xlabel="$4" -v ylabel="$5" -v refline="${REFLINE:-}" -f "$here/svg.awk" >"$out/$1.svg"
	say "  chart: $out/$1.svg"
}

# ---- trace analysis helpers ------------------------------------------------
# trace_run DIR MODE PROGRAM ARGS...: one traced run kept in DIR (settings
# such as SYNCTRACE_SPIN come from the caller's environment).
trace_run() {
	local dir=$1
	shift
	[ $have_session = 1 ] || return 1
	KEEP_TRACE=$dir run_one "$@" </dev/null
}

# cells TABLE KEYS... < report.json: one tab-separated line per row of TABLE.
cells() {
	local t=$1
	shift
	awk -v table="$t" -v keys="$*" -f "$here/cells.awk"
}

# analyze DIR -> $tmp/report.json (exit status: the report exists)
analyze() {
	[ -x "$report" ] || return 1
	"$report" --format json "$1" >"$tmp/report.json" 2>"$tmp/report.err"
	[ -s "$tmp/report.json" ]
}

# Events of a trace by name (the fallback without synctrace-report).
count_events() {
	babeltrace2 "$1" 2>/dev/null | awk '{for (i = 1; i <= NF; i++) if ($i ~ /^[a-z_0-9]+:[a-z_0-9]+:$/) {sub(/:$/, "", $i); n[$i]++; break}}
		END {for (e in n) print n[e], e}' | sort -k2
}

# Events in a trace (rep 0 traces of the overhead experiment).
# The events of a trace (every provider's), batched records counted one
# each (synctrace-report --events), else LTTng's events.
total_events() {
	local rep=$build/analysis/synctrace-report
	if [ -x "$rep" ]; then
		"$rep" --events "$1" 2>/dev/null | grep -c . || true
	else
		babeltrace2 "$1" -c sink.utils.counter -p step=+0 2>/dev/null | awk '$2 == "Event" {n = $1} END {print (n == "" ? "nan" : n)}'
	fi
}

# count_into EXP LABEL MODE: the events of the kept trace of the last run, per
# second of the workload (its seconds= figure, else $COUNT_SECONDS), to
# $tmp/EXP.events as "label mode events seconds events/s discarded bytes/s".
count_into() {
	local ev secs bytes
	ev=$(total_events "$tmp/evtrace")
	bytes=$(du -sb "$tmp/evtrace" 2>/dev/null | cut -f1)
	secs=$(sed -n 's/.* seconds=\([0-9.]*\).*/\1/p' <<<"$RUN_OUT")
	secs=${secs:-${COUNT_SECONDS:-$RUN_WALL}}
	awk -v l="$2" -v m="$3" -v e="$ev" -v s="$secs" -v d="${RUN_DISCARDED:-0}" -v b="${bytes:-0}" 'BEGIN {printf "%s\t%s\t%s\t%s\t%.0f\t%s\t%.0f\n", l, m, e, s, (s > 0 ? e / s : 0), d, (s > 0 ? b / s : 0)}' >>"$tmp/$1.events"
}

# slowdown EXP KEY: the slowdown of tracing itself, synctrace untraced
# (preload) over synctrace traced (contention, threshold, full, summary, and
# another build's, base-*: the modes EXP ran), of figure KEY, paired by
# repeat, median [min-max]; issue 3's bar is 1.3 at the contention level,
# issue 21's 1.05 at the summary level. Beside it, the traced run against
# glibc untraced (what the program ran at before synctrace).
slowdown() {
	local exp=$1 key=$2
	say ""
	say "  slowdown of tracing: synctrace untraced / traced, paired by repeat (median [min-max] of $reps; >1 slower when traced)"
	printf '  %-30s %-11s %22s %24s\n' workload mode "slowdown vs untraced" "traced vs glibc (>1 faster)"
	awk -F'\t' -v OFS='\t' -v key="$key" '{f = " " $6 " "; if (!match(f, " " key "=[0-9.e+]+")) next
		v[$1, $2, $3] = substr(f, RSTART + length(key) + 2, RLENGTH - length(key) - 2) + 0
		if (!($1 in seen)) {seen[$1] = ++nw; w[nw] = $1}; if ($3 + 1 > nr) nr = $3 + 1}
		function stat(a, k,   i, j, t) {for (i = 2; i <= k; i++) for (j = i; j > 1 && a[j - 1] > a[j]; j--) {t = a[j]; a[j] = a[j - 1]; a[j - 1] = t}
			return sprintf("%.2fx [%.2f-%.2f]", a[int((k + 1) / 2)], a[1], a[k])}
		END {nm = split("contention threshold full summary base-contention base-threshold base-full base-summary", ms, " ")
			for (i = 1; i <= nw; i++) for (m = 1; m <= nm; m++) {mode = ms[m]; k = 0; g = 0
			for (r = 0; r < nr; r++) {
				if (v[w[i], mode, r] > 0 && v[w[i], "preload", r] > 0) x[++k] = v[w[i], "preload", r] / v[w[i], mode, r]
				if (v[w[i], mode, r] > 0 && v[w[i], "glibc", r] > 0) y[++g] = v[w[i], mode, r] / v[w[i], "glibc", r]}
			if (k) print w[i], mode, stat(x, k), (g ? stat(y, g) : "-")}}' "$out/raw/$exp.tsv" >"$tmp/slowdown"
	awk -F'\t' '{printf "  %-30s %-11s %22s %24s\n", $1, $2, $3, $4}' "$tmp/slowdown"
	awk -F'\t' '{printf "{\"workload\": \"%s\", \"mode\": \"%s\", \"slowdown_vs_untraced\": \"%s\", \"traced_vs_glibc\": \"%s\"}\n", $1, $2, $3, $4}' \
		"$tmp/slowdown" >>"$tmp/$exp.extra"
}

# events_table EXP: the events and trace bytes the traced modes wrote
# (count_into's rows, measure with COUNT_EVENTS), printed and to the JSON.
events_table() {
	local exp=$1
	say ""
	say "  events written (the first repeat's trace of each traced mode, counted; discarded: events the ring buffer dropped)"
	printf '  %-30s %-11s %12s %10s %12s %10s %12s\n' workload mode events seconds events/s discarded "trace B/s"
	[ -s "$tmp/$exp.events" ] || return 0
	awk -F'\t' '{printf "  %-30s %-11s %12s %10s %12s %10s %12s\n", $1, $2, $3, $4, $5, $6, $7}' "$tmp/$exp.events"
	awk -F'\t' '{printf "{\"workload\": \"%s\", \"mode\": \"%s\", \"events\": %s, \"seconds\": %s, \"events_per_s\": %s, \"discarded\": %s, \"trace_bytes_per_s\": %s}\n", $1, $2, ($3 == "nan" ? "null" : $3), $4, ($3 == "nan" ? "null" : $5), $6, ($7 == "" ? "null" : $7)}' "$tmp/$exp.events" >>"$tmp/$exp.extra"
}

LOAD0=$(cut -d' ' -f1-3 /proc/loadavg)
say "synctrace bench: $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) CPUs, load average $LOAD0, repeats $reps, scale $scale"
say "results: $out"
build_musl
for n in "${names[@]}"; do
	rm -f "$out/raw/$n.tsv" "$tmp/$n.jsonl" "$tmp/$n.extra"
	# shellcheck source=/dev/null
	. "$here/exp_$n.sh"
	started=$SECONDS
	"exp_$n"
	end_shared_session
	write_json "$n"
	say "  ($n: $((SECONDS - started)) s)"
done
say ""
say "done: $(date -u '+%H:%M UTC'), load average $(cut -d' ' -f1-3 /proc/loadavg)"
