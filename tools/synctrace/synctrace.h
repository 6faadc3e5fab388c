/* The synctrace command: shared declarations. One idea per file:
 *   main.c      subcommand dispatch, top-level help
 *   options.c   the record options (shared by record and run)
 *   paths.c     where the libraries, the analyzer and the demo are
 *   outdir.c    the output folder (created here, never reused)
 *   sessiond.c  the session daemon: the user's, or a private one
 *   session.c   the tracing session through liblttng-ctl
 *   relayd.c    the relay daemon: one given (--relayd URL), or a private one
 *   child.c     running the command: environment, signals, status
 *   progress.c  the elapsed-time indicator (only on a terminal)
 *   record.c, report.c, run.c, top.c   the subcommands */
#ifndef SYNCTRACE_CLI_H
#define SYNCTRACE_CLI_H

#include <stdint.h>
#include <sys/types.h>

#define PROG "synctrace"

/* Exit statuses of synctrace itself (the command's own status otherwise). */
enum {
	ST_EXIT_FAILURE = 125,   /* synctrace could not do its job (usage, LTTng, folder) */
	ST_EXIT_NOEXEC = 126,    /* the command exists but cannot be executed */
	ST_EXIT_NOTFOUND = 127,  /* the command was not found */
};

/* The channel's bytes per CPU by default (--buffer-size): doc/design.md
 * has the start cost and loss figures behind it. */
#define ST_BUFFER_DEFAULT (8ull << 20)

/* By default a full buffer makes the program wait for the consumer daemon
 * up to this long per event (then the event is discarded, and counted):
 * small buffers then lose nothing in a burst (doc/design.md). */
#define ST_BLOCKING_US_DEFAULT 100000

/* --warn-rate's default: a trace growing faster fills a disk within minutes. */
#define ST_WARN_RATE_DEFAULT (64ull << 20)

struct record_opts {
	const char *output;      /* -o DIR, or NULL: a new timestamped folder */
	const char *level;       /* --level: SYNCTRACE_LEVEL, or NULL */
	const char *threshold;   /* --threshold: SYNCTRACE_THRESHOLD, or NULL */
	const char *clock;       /* --clock: SYNCTRACE_CLOCK, or NULL */
	const char *spin;        /* --spin: SYNCTRACE_SPIN, or NULL */
	int blocking;            /* wait for buffer space (default; --no-blocking: discard) */
	int64_t blocking_us;     /* its channel timeout (-1: forever; --blocking=USEC) */
	int quiet;               /* --quiet: no messages but errors */
	int stacks;              /* --stacks: SYNCTRACE_STACKS=1 (call stacks) */
	uint64_t buffer_size;    /* --buffer-size: channel bytes per CPU (0: the default) */
	uint64_t max_size;       /* --max-size: stop recording at this many bytes (0: none) */
	int64_t duration_ms;     /* --duration: stop recording after this long (0: none) */
	uint64_t keep_last;      /* --keep-last: rotate, keeping about this many bytes */
	uint64_t warn_rate;      /* --warn-rate: bytes/s above which to warn (0: never) */
	char *report_args[12];   /* run: --format/--sort/--top/--by/--all/--wide for the report */
	int nreport;
	const char *report_format; /* run: its --format, or NULL (text) */
	const char *relayd;      /* --relayd URL: stream to this relay daemon */
	/* top only (the live reader's own options, checked by it) */
	const char *session;     /* --session NAME: view this live session */
	const char *interval, *count, *max_behind;
	int batch;               /* --batch: snapshots one after the other */
	char **argv;             /* the command, NULL-terminated; NULL: none */
};

/* A relay daemon: its host and its control, data and live ports. */
struct relay_addr {
	char host[256];
	int ctrl, data, live;
};

/* A live session's timer: how often the consumer sends what it has to the
 * relay daemon (so how fresh `top` is; doc/live.md). */
#define ST_LIVE_TIMER_US 250000u

/* options.c: parse record options from argv (after the subcommand name);
 * for_run 1 (run): also the report's --format, --sort, --top...; 2 (top):
 * --top, --wide and top's own. Returns 0, 1 when --help was printed, or -1
 * (message printed). */
int record_parse(int argc, char **argv, struct record_opts *o, void (*help)(void), int for_run);

/* paths.c */
const char *self_dir(void);                 /* the directory of this binary */
int find_libraries(char *lib, char *tp, size_t size);
int find_analyzer(char *path, size_t size);
int find_demo(char *path, size_t size);
const char *ust_fork_helper(void); /* lttng-ust's fork helper */

/* outdir.c: make the trace folder; its absolute path into dir; *created
 * tells whether it is new (removed again if nothing is recorded). */
int outdir_make(const char *requested, char *dir, size_t size, int *created);

/* sessiond.c */
int sessiond_ensure(int quiet);   /* 0: a daemon is alive (ours or the user's) */
void sessiond_stop(void);         /* stop the private one, if we started it */

/* session.c */
int session_setup(const char *name, const char *dir, const struct record_opts *o);
/* A live session streaming to the relay daemon r. */
int session_setup_live(const char *name, const struct relay_addr *r, const struct record_opts *o);

/* relayd.c: "net://HOST[:CTRL[:DATA]]" (lttng's defaults 5342, 5343; the
 * live port is CTRL + 2, 5344 by default). 0, or -1 (said). */
int relay_parse(const char *url, struct relay_addr *r);
/* A private lttng-relayd on 127.0.0.1, free ports, writing under outdir;
 * stopped (exactly that process) by relayd_stop. 0, or -1 (said). */
int relayd_start(const char *outdir, struct relay_addr *r);
void relayd_stop(void);
void session_stop(const char *name);
void session_destroy(const char *name);

/* child.c: run the command with the tracing environment; returns its exit
 * status as a shell reports it (128+N when killed by signal N). */
int path_lookup(const char *cmd, char *out, size_t size); /* 0, or an errno */
pid_t child_fork(void); /* fork after flushing stdio; -1 said */
int child_check(const char *cmd);
int child_run(char **argv, const struct record_opts *o, const char *lib, const char *tp);
extern volatile int child_interrupted;   /* a SIGINT/SIGTERM/SIGHUP arrived */
/* While child_run waits: if process pid (top's viewer) ends first, the
 * command gets SIGINT, as from Ctrl-C (SIGTERM 2 s later if it still runs:
 * a background job ignores SIGINT); the viewer's status is kept for
 * child_watched (1 when it was reaped there, *status set). */
void child_watch(pid_t pid);
int child_watched(int *status);
void signals_install(void);

/* The note a recording leaves in its folder ("KEY: TEXT" lines, read by
 * analysis/bt2 as report messages): a cut (--max-size, --duration) or a
 * rotating recording (--keep-last). */
#define ST_RECORD_NOTE "synctrace-record.txt"

/* limits.c: --max-size, --duration, --warn-rate (watched from the wait
 * loop), the --keep-last note. */
int limits_active(const struct record_opts *o);
void limits_start(const struct record_opts *o, const char *session, const char *dir);
void limits_tick(void);
int limits_stopped(void);

/* options.c: "64M", "1.5G", "4096" (k, M, G: powers of 1024); "30s",
 * "500ms", "2m", "1h" (a bare number: seconds). 0, or -1. */
int parse_size(const char *s, uint64_t *out);
int parse_duration_ms(const char *s, int64_t *out);

/* progress.c */
void progress_start(const char *what);
void progress_tick(void);
void progress_end(void);

/* record.c, report.c, run.c */
int record_traced(const struct record_opts *o, char *dir, size_t size, int *status);
int cmd_record(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_run(int argc, char **argv);
int cmd_merge(int argc, char **argv); /* merge.c */
int cmd_diff(int argc, char **argv);
int cmd_top(int argc, char **argv);
int report_exec(char **args, int wait_for_it);

void say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
