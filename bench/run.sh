#!/usr/bin/env bash
# Paired benchmark runs: each workload against glibc and synctrace.
#
# usage: run.sh BUILD_DIR [REPEATS] [FILTER]   (from `./synctrace.sh bench`, which
#        starts a private LTTng session daemon for the traced modes)
#
# Modes, alternated within every repeat so machine drift hits all alike:
#   glibc       the workload as built
#   preload     LD_PRELOAD=libsynctrace.so, no tracing
#   contention  preloaded with the probes, a session recording synctrace_*
#               at the default (contention) level
#   full        the same with SYNCTRACE_LEVEL=full
# A workload is "name|key|command": the command prints key=value pairs and
# `key` is the figure compared (higher is better; "-key" when lower is
# better, e.g. a time). Printed: glibc's median, and the median, min and
# max of the per-repeat ratios to glibc (>1: synctrace is better).
set -u
build=$1
reps=${2:-5}
lib=$build/libsynctrace.so
tp=$build/libsynctrace-tp.so
results=${ST_BENCH_RESULTS:-$build/bench-results}
mkdir -p "$results"

B=$build/bench
workloads=(
	"mutex 1 thread, empty|pairs_per_s|$B/bench_mutex 1 0 0.5"
	"mutex 1 thread, 200ns|pairs_per_s|$B/bench_mutex 1 200 0.5"
	"mutex 2 threads, empty|pairs_per_s|$B/bench_mutex 2 0 0.5"
	"mutex 2 threads, 200ns|pairs_per_s|$B/bench_mutex 2 200 0.5"
	"mutex 4 threads, empty|pairs_per_s|$B/bench_mutex 4 0 0.5"
	"mutex 4 threads, 200ns|pairs_per_s|$B/bench_mutex 4 200 0.5"
	"cond ping-pong|handoffs_per_s|$B/bench_cond_pingpong 2 0.5"
	"cond ping-pong, 4 threads|handoffs_per_s|$B/bench_cond_pingpong 4 0.5"
	"two-queue A (1 mutex+cond)|-seconds|$B/bench_cond_twoqueue cond 300000"
	"two-queue B (twomutex)|-seconds|$B/bench_cond_twoqueue twomutex 300000"
	"cond timed-wait race|ops_per_s|$B/bench_cond_timedrace 4 2 0.5"
	"sem ping-pong|ops_per_s|$B/bench_sem_pingpong 0.5"
	"sem channel 2x2|items_per_s|$B/bench_sem_channel 2 16 0.5"
	"rwlock 95% reads, 2 thr|ops_per_s|$B/bench_rwlock_readmostly 2 0.5"
	"rwlock 95% reads, 4 thr|ops_per_s|$B/bench_rwlock_readmostly 4 0.5"
	"barrier round trips, 2|rounds_per_s|$B/bench_barrier_roundtrip 2 0.5"
)
if [ $# -gt 2 ]; then # a filter: only workloads whose name contains it
	sel=()
	for w in "${workloads[@]}"; do [[ ${w%%|*} == *"$3"* ]] && sel+=("$w"); done
	workloads=("${sel[@]}")
fi
if [ -n "${ST_BENCH_EXTRA:-}" ]; then
	while IFS= read -r w; do [ -n "$w" ] && workloads+=("$w"); done <"$ST_BENCH_EXTRA"
fi

run_mode() { # mode key command... → the figure
	local mode=$1 key=${2#-}
	shift 2
	local out
	case $mode in
	glibc) out=$("$@") ;;
	preload) out=$(LD_PRELOAD=$lib "$@") ;;
	contention | full)
		local s="bench-$$-$RANDOM" dir
		dir=$(mktemp -d)
		lttng create "$s" --output="$dir" >/dev/null
		lttng enable-channel -u -s "$s" --subbuf-size=8M --num-subbuf=16 chan >/dev/null
		lttng enable-event -u -s "$s" -c chan 'synctrace_*' >/dev/null
		lttng start "$s" >/dev/null
		if [ "$mode" = full ]; then
			out=$(SYNCTRACE_LEVEL=full LD_PRELOAD="$lib $tp" "$@")
		else
			out=$(LD_PRELOAD="$lib $tp" "$@")
		fi
		lttng destroy "$s" >/dev/null
		rm -rf "$dir"
		;;
	esac
	tr ' ' '\n' <<<"$out" | sed -n "s/^$key=\([0-9.e+-]*\)$/\1/p" | head -1
}

median() { sort -g | awk '{a[NR]=$1} END {if (NR==0) print "nan"; else if (NR%2) print a[(NR+1)/2]; else print (a[NR/2]+a[NR/2+1])/2}'; }

modes=(glibc preload contention full)
printf '%-30s %12s %22s %22s %22s\n' workload glibc "preload/glibc" "contention/glibc" "full/glibc"
json="$results/results.json"
echo "[" >"$json"
first=1
for w in "${workloads[@]}"; do
	name=${w%%|*}
	rest=${w#*|}
	key=${rest%%|*}
	cmd=${rest#*|}
	declare -A vals=()
	for ((r = 0; r < reps; r++)); do
		for m in "${modes[@]}"; do
			# shellcheck disable=SC2086
			vals[$m]+="$(run_mode "$m" "$key" $cmd) "
		done
	done
	line=$(printf '%-30s' "$name")
	g_med=$(tr ' ' '\n' <<<"${vals[glibc]}" | grep . | median)
	line+=$(printf ' %12.0f' "$g_med")
	entry="{\"workload\": \"$name\", \"glibc_median\": $g_med"
	for m in preload contention full; do
		read -ra gs <<<"${vals[glibc]}"
		read -ra ms <<<"${vals[$m]}"
		ratios=$(for ((i = 0; i < ${#gs[@]}; i++)); do
			awk -v a="${ms[$i]}" -v b="${gs[$i]}" -v inv="${key:0:1}" \
				'BEGIN {if (inv == "-") {t = a; a = b; b = t} if (b > 0) printf "%.4f\n", a / b}'
		done)
		med=$(median <<<"$ratios")
		mn=$(sort -g <<<"$ratios" | head -1)
		mx=$(sort -g <<<"$ratios" | tail -1)
		line+=$(printf ' %8.2fx [%.2f-%.2f]' "$med" "$mn" "$mx")
		entry+=", \"${m}_ratio_median\": $med, \"${m}_ratio_min\": $mn, \"${m}_ratio_max\": $mx"
	done
	echo "$line"
	[ $first -eq 1 ] || echo "," >>"$json"
	first=0
	echo "$entry}" >>"$json"
	unset vals
done
echo "]" >>"$json"
echo "(ratios: synctrace's figure over glibc's from paired runs, median [min-max] of $reps; higher is faster)"
echo "results: $json"
