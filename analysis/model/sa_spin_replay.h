/* What-if spin replay: for each wait that ended, the moment its object
 * became free after the wait began (F), and what other SYNCTRACE_SPIN
 * settings would have done with it. The assumptions are in doc/spin.md
 * ("What-if replay"); in short:
 *
 *   F   a wait whose spin acquired (or that never slept): its own length.
 *       A wait that slept: the first futex wake (or requeue) issued on the
 *       object by another thread after its spin ended (after it began, if
 *       it did not spin). At the contention level that is the first traced
 *       release; a fast-path release in between (the object free for an
 *       instant, taken by a barger) is not in the trace, so F may be late.
 *   budget T of a setting: count x (SA_SR_HANDOFF for hand-off waits: a
 *       condvar, a semaphore, a barrier) pauses x the ns a pause took
 *       (running mean over the loops so far, SA_SR_PAUSE_NS before any);
 *       0 for `none`, and for `bail` when another thread was already
 *       waiting on the object as the wait began (or its loop saw sleepers).
 *   grace G the wait's own time outside spinning before it slept, or, if
 *       it never slept, before it had the object (setting up, the last
 *       checks: a release then is caught without any spin).
 *   F <= T + G  it acquires spinning: no futex wait, spin CPU F - G, wait F.
 *   F > T + G   it spins T, then sleeps: a wait that slept keeps its recorded
 *       sleeps and wait; one that did not sleeps once and waits F plus
 *       the wake latency L (the median of wait - F over the waits that
 *       slept once; SA_SR_WAKE_NS when none did). L is applied when the
 *       replay is evaluated (added: how many waits take it).
 * Each wait is replayed alone: the others keep their recorded timing. But
 * when most recorded spins that ran out (two at least, on the object or in
 * the whole trace) were followed by the release right after their end
 * (within 2 us or a quarter of the spin), spinners seem to hold their
 * releasers off (one CPU for both): from then on a spin never reaches the
 * release, it comes after the spin, F + T.
 * The runtime's adaptive budgets (hand-off waits per object, relocks per
 * thread: src/wait/wait.h) are replayed per setting.
 * Timed-out waits are counted, not replayed. Streaming: state per thread
 * and per object, never per wait. */
#ifndef SA_SPIN_REPLAY_H
#define SA_SPIN_REPLAY_H

#include <stdint.h>

#include "sa_dist.h"
#include "sa_waits.h"

struct sa_model;
struct sa_event;

/* The ladder of counts: SA_SR_COUNT0 << rung, rung < SA_SR_RUNGS
 * (25 ... 102400; 100, the default, is rung 2). */
#define SA_SR_RUNGS 13
#define SA_SR_COUNT0 25
/* The runtime's hand-off factor (ST_SPIN_HANDOFF in src/wait/wait.h) and
 * default count (config.c); the ns of one pause before any loop measured
 * one, and the wake latency when no wait slept (doc/spin.md). */
#define SA_SR_HANDOFF 10
#define SA_SR_DEFAULT_COUNT 100
#define SA_SR_PAUSE_NS 19
#define SA_SR_WAKE_NS 4000

/* The settings replayed: none, bail:<ladder>, full:<ladder>, and the
 * default (SYNCTRACE_SPIN unset: bail:100, and normal mutexes do not
 * spin, only adaptive ones). */
enum {
	SA_SR_NONE,
	SA_SR_BAIL0,
	SA_SR_FULL0 = SA_SR_BAIL0 + SA_SR_RUNGS,
	SA_SR_DEFAULT = SA_SR_FULL0 + SA_SR_RUNGS,
	SA_SR_N
};
/* Setting s: its st_spin_mode and count (the default: bail, 100); its
 * SYNCTRACE_SPIN value ("none", "bail:400", "full:100", "unset"). */
void sa_sr_setting(unsigned s, int *mode, int *count);
const char *sa_sr_name(unsigned s, char *buf, unsigned n);

/* What a setting does to the waits replayed (wait_ns without L x added). */
struct sa_sr_pred {
	uint64_t spun;    /* waits that acquire while spinning: no futex wait */
	uint64_t sleeps;  /* futex waits */
	uint64_t spin_ns; /* CPU spent spinning */
	uint64_t wait_ns; /* predicted waiting, L x added to come */
	uint64_t added;   /* waits that did not sleep and would (each waits L more) */
};

/* The counts of a set of waits, in an accumulator and in an evaluation:
 *   waits         replayed
 *   timeouts      timed out: not replayed
 *   no_wake       slept, no wake traced after its spin before its end: F = its end
 *   approx        slept, its first wake fell out of the ring: F late
 *   ran_out       recorded spins that ran out, then slept till a traced wake
 *   ran_out_near  ... that wake right after the spin (held the releaser off?)
 *   held_off      waits replayed as held off (see above)
 *   rec_*         as recorded: waits that did not sleep, futex waits, spin and wait ns */
#define SA_SR_COUNTERS(X) \
	X(waits) X(timeouts) X(no_wake) X(approx) X(ran_out) X(ran_out_near) X(held_off) \
	X(rec_spun) X(rec_sleeps) X(rec_spin_ns) X(rec_wait_ns)
#define SA_SR_FIELD(f) uint64_t f;

/* Per object and wait kind (a mutex's lock waits and its condvar relocks
 * apart); p[h]: the waits of even (h 0) and odd (h 1) rank, for a check
 * that the data agrees with itself. */
struct sa_sr_acc {
	struct sa_sr_acc *next;
	uint32_t oi;
	enum sa_wait_kind kind;
	SA_SR_COUNTERS(SA_SR_FIELD)
	struct sa_dist free_ns; /* F */
	struct sa_dist wake_ns; /* wait - F of the waits that slept once */
	struct sa_sr_pred p[2][SA_SR_N];
};

struct sa_spin_replay;
void sa_spin_replay_feed(struct sa_model *m, const struct sa_event *e, uint32_t ti);
void sa_spin_replay_free(struct sa_spin_replay *r);
/* Object oi folds into class ci: its accumulators go there. */
void sa_spin_replay_fold(struct sa_model *m, uint32_t ci, uint32_t oi);
/* The accumulators of object oi (a list), NULL if none. */
const struct sa_sr_acc *sa_spin_replay_accs(const struct sa_model *m, uint32_t oi);
/* ns per pause measured so far (0: no loop yet). */
double sa_spin_replay_pause_ns(const struct sa_model *m);

/* A set of accumulators evaluated: per setting, totals with L applied, and
 * the recommendation. score = wait + spin CPU (a spin is paid twice: the
 * waiter's time and a CPU another thread could have used). */
struct sa_sr_total {
	uint64_t spun, sleeps, spin_ns, wait_ns;
	double score;
};
struct sa_sr_eval {
	SA_SR_COUNTERS(SA_SR_FIELD)
	uint64_t free_max_ns;     /* the longest F: no budget beyond it helps */
	uint64_t wake_ns;         /* L of the set (its waits' median, else the trace's) */
	int wake_assumed;         /* no wait slept once: L is SA_SR_WAKE_NS */
	struct sa_sr_total s[SA_SR_N];
	unsigned best;            /* lowest score (ties: the first: less spinning) */
	unsigned second;          /* the best of the settings predicting otherwise */
	unsigned rec;             /* the default, unless the best beats it by SA_SR_MARGIN, or
	                             dominates it (no more wait, futex waits; half the spin) */
	unsigned best_half[2];    /* the same choice on each half of the waits */
	double gain;              /* 1 - score(rec) / score(default) */
	double gap;               /* score(second) / score(best) - 1 */
	int agree;                /* rec is within SA_SR_MARGIN of the best on both halves */
	int overloaded;           /* wake_ns > SA_SR_OVERLOAD_NS (measured, not assumed) */
	int recorded;             /* the setting the first process ran with, -1: off the ladder */
	int reproduces;           /* replayed at it, the futex waits are within 10 % (or 5) of
	                             those recorded (1 when recorded is -1) */
	const char *confidence;   /* "high" (agree, reproduces, 1000 waits), "medium" (agree,
	                             reproduces, 100), "low" (and whenever overloaded) */
	unsigned last_rung;       /* beyond it no setting predicts anything new */
};
#define SA_SR_MARGIN 0.02
/* A wake latency above this: woken threads waited for a CPU (a loaded
 * machine), where a spinner competes with the thread it waits for, which
 * the replay does not see: it then recommends no setting that spins more
 * than the default. */
#define SA_SR_OVERLOAD_NS 100000
/* want(acc, ctx) selects the accumulators (NULL: all). */
void sa_spin_replay_eval(const struct sa_model *m,
			 int (*want)(const struct sa_sr_acc *a, void *ctx), void *ctx,
			 struct sa_sr_eval *ev);

#endif
