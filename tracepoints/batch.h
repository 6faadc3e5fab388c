/* Inside libsynctrace-tp.so: each thread's records, written out as
 * synctrace_batch:records events (tracepoints/batch.c). */
#ifndef ST_TP_BATCH_H
#define ST_TP_BATCH_H

#include <stdint.h>
#include <time.h>

#include "st_probes.h"
#include "st_rseq.h"


/* SYNCTRACE_BATCH: 1 (default) record events in per-thread buffers, 0 one
 * LTTng event per transition (format 2). Set by st_batch_init. */
extern int st_batch_on;
/* SYNCTRACE_THRESHOLD (meta:config), 0 off: a wait (mutex, semaphore,
 * rwlock, barrier, condvar) shorter than this is aggregated, not recorded
 * (st_batch_hold, st_batch_wait_end). */
extern int64_t st_batch_threshold_ns;

/* Once, from the probes' constructor: read the setting, hash the names. */
void st_batch_init(void);

#define ST_RING 2048u          /* words a ring holds (16 KiB) */
#define ST_FLUSH_WORDS 1024u   /* the owner writes its records out from this many, */
#define ST_FLUSH_HARD 1536u    /* at a record of st_batch_idle, or at this many */
#define ST_AGE_NS 10000000LL   /* or when the oldest pending one is 10 ms old */
#define ST_NAP_NS 1000000000LL /* the flusher's longest nap, no record pending */

/* A thread's ring; the protocol is in batch.c. */
struct st_batch {
	uint32_t head;
	uint32_t done;
	int lock;
	int tid;               /* the owner's (the record event's tid field) */
	int64_t since;         /* about when the oldest pending record happened */
	uint32_t hold;         /* while holding: where the open wait's records begin */
	int holding;           /* 1: [hold, head) is a wait not ended: not written out */
	uint64_t hold_obj;     /* the object it waits for (its records' first field) */
	int64_t hold_ns;       /* its first record's time (a writer releases a
			        * hold that has lasted the threshold) */
	struct st_batch *next; /* in batch.c's lists, under their lock */
	/* The owner's record clock (st_batch_clock): its anchor pair, the
	 * counts it is used for (0: read CLOCK_MONOTONIC), its last time. */
	uint64_t a_tsc, a_span;
	int64_t a_ns, last_ns;
	int a_cpu;             /* the anchor's CPU, read per CPU; else -1 */
	int64_t a_retry;       /* no scale yet: when to ask for it again */
	uint64_t w[ST_RING];
};

extern __thread struct st_batch *st_mine __attribute__((tls_model("initial-exec")));
extern int st_batch_slow_due; /* stopped, or a forked child's flusher is due */
extern const uint32_t *const st_ev_hash;

uint64_t *st_batch_reserve_slow(uint32_t need);
/* Writes records of thread tid as one synctrace_batch:records event
 * (probes.c). */
void st_batch_emit(int tid, const uint64_t *words, unsigned n);
void st_batch_write_out(struct st_batch *b);
/* 1 while the flusher naps with no ring holding a record (batch.c); the
 * record that makes a ring hold one wakes it (st_batch_wake). */
extern int st_flusher_napping;
void st_batch_wake(void);

/* The calling thread's ring, which held no record, holds one now (its
 * head just stored): a napping flusher is woken (Dekker's with its nap:
 * batch.c's head comment). */
static inline void st_batch_holds(void)
{
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	if (__builtin_expect(__atomic_load_n(&st_flusher_napping, __ATOMIC_RELAXED), 0))
		st_batch_wake();
}
/* A rotating recording (`record --keep-last`: SYNCTRACE_REANNOUNCE=MS):
 * the flusher has the process's announcement and loaded objects emitted
 * again (probes.c) every MS milliseconds. They go to a ring of their own
 * (tools/synctrace/session.c), which then always holds every live
 * process's latest, so the kept tail of the data still says whose events
 * it holds and names their objects. */
void st_batch_reannounce(void);
/* meta:clock if the durations' clock settled or changed since last said
 * (probes.c); final: the process stops, say it however it stands. */
void st_clock_tell(int final);
/* Whether st_clock_tell(0) has something to say now. */
int st_clock_due(void);

/* CLOCK_MONOTONIC, the clock LTTng stamps events with. */
static inline int64_t st_batch_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* The record clock: a record's time (its word 1) is CLOCK_MONOTONIC ns,
 * so that readers put records and LTTng's events on one time line; the
 * owner reads it from the time-stamp counter, ~10 ns against ~22-35 for
 * clock_gettime here (a traced hand-off writes four to six records):
 *
 *   ns = a_ns + (counter - a_tsc) * scale
 *
 * scale is the one libsynctrace.so measured for its durations
 * (src/internal/clock.h: where the counter is invariant and the kernel
 * keeps time with it, or reads it per CPU where the kernel distrusts it;
 * until measured, where it is not used, and once libsynctrace.so's clock
 * turned OFF, every record reads CLOCK_MONOTONIC). (a_tsc, a_ns) is the
 * thread's own anchor, a CLOCK_MONOTONIC read bracketed by two counter
 * reads (a_tsc their middle; a bracket much wider than usual is refused:
 * batch.c), taken again once it is ST_ANCHOR_NS old or when the counter
 * reads behind it (another CPU's, or reset). So a time is off the
 * kernel's by about one bracket at most (~30 ns here), two threads' by
 * ~10 ns, plus the scale's error over ST_ANCHOR_NS (< 1e-4 of 1 ms,
 * typically 5e-6: ~5 ns), and a thread's times never go back (clamped to
 * its last).
 *
 * Per CPU (a_cpu >= 0, where the kernel distrusts the counter: two CPUs'
 * may differ by an offset): the anchor is its CPU's, and a count is used
 * only if read on that CPU (st_rseq.h: the CPU read before and after it);
 * on another, the thread anchors anew there (a migration costs one anchor,
 * ~150 ns). No count of one CPU is ever compared with another's, so the
 * times are as good as above whatever the offsets. Only the owner reads or
 * writes these fields. */
#define ST_ANCHOR_NS 1000000ull
int64_t st_batch_anchor(struct st_batch *b);
/* The counts d since an anchor as a test's faulty counter would give them
 * (batch.c: SYNCTRACE_TEST_CPU_SKEW, SYNCTRACE_TEST_CPU_DRIFT); c: the CPU
 * read per CPU, else -1. Only called while st_rec_hooks is set. */
uint64_t st_rec_hooked(uint64_t d, int c);

static inline int64_t st_batch_clock(struct st_batch *b)
{
#if defined(__x86_64__) || defined(__i386__)
	extern uint64_t st_rec_scale;
	extern int st_rec_hooks;
	const int pc = b->a_cpu;
	const int c = pc >= 0 ? st_rseq_cpu() : pc;
	uint64_t d = __builtin_ia32_rdtsc() - b->a_tsc;
	if (__builtin_expect(st_rec_hooks, 0)) /* a test's counter faults (batch.c) */
		d = st_rec_hooked(d, c);
	if (__builtin_expect(d < b->a_span && c == pc && (pc < 0 || st_rseq_cpu() == pc), 1)) {
		int64_t t = b->a_ns + (int64_t)((d * __atomic_load_n(&st_rec_scale, __ATOMIC_RELAXED)) >> 32);
		if (__builtin_expect(t < b->last_ns, 0))
			t = b->last_ns;
		return b->last_ns = t;
	}
#endif
	return st_batch_anchor(b);
}

/* A record whose time t was read before it (ST_TRACE_AT: a late
 * `signaled`, a wait's end read for its duration, src/internal/clock.h
 * st_rec_at): never before the thread's last record (clamped), and the
 * records after it never before it. */
static inline int64_t st_batch_at(struct st_batch *b, int64_t t)
{
	if (__builtin_expect(t < b->last_ns, 0))
		t = b->last_ns;
	return b->last_ns = t;
}

/* Where the calling thread's next record of `need` words goes, or NULL
 * if it has no ring (the caller emits the event itself). */
static inline uint64_t *st_batch_reserve(uint32_t need)
{
	struct st_batch *b = st_mine;
	if (__builtin_expect((uintptr_t)b <= 1 || st_batch_slow_due, 0))
		return st_batch_reserve_slow(need);
	uint32_t h = b->head;
	if (__builtin_expect(ST_RING - h % ST_RING < need ||
			     h + need - __atomic_load_n(&b->done, __ATOMIC_ACQUIRE) > ST_RING, 0))
		return st_batch_reserve_slow(need);
	return &b->w[h % ST_RING];
}

/* Events after which the thread holds nothing it took through us and
 * begins to wait: sem:wait_begin, sem:sleep, barrier:arrival,
 * cond:enqueued (written after the mutex's release: src/cond/wait.c), a
 * spin:loop written (not folded: mostly one that gave up, a sleep next).
 * A write-out takes microseconds: there it overlaps the wait, which ends
 * by another thread's action. At another record it holds up a partner:
 * with a lock held (a mutex just acquired, a condvar's signal and enqueue
 * with the mutex held) a partner spinning for it on a budget shorter
 * than that, which then sleeps (a traced cond ping-pong slept once every
 * ~24 hand-offs, once per write-out); at the end of a wait (sem:acquired,
 * barrier:departure, cond:woke, futex:wait: the idle set until session
 * 20) the partner that waits for this thread's answer. */
extern unsigned char st_batch_idle[ST_EVI_N];

/* The record of `need` words of event evi at the reserved place is
 * complete: publish it, and write the ring out if it is due: from
 * ST_FLUSH_WORDS pending at an idle record (above), at ST_FLUSH_HARD at
 * any, or when the oldest pending is ST_AGE_NS old. */
static inline void st_batch_commit(uint32_t need, int64_t now, unsigned evi)
{
	struct st_batch *b = st_mine;
	uint32_t h = b->head, pending = h - __atomic_load_n(&b->done, __ATOMIC_ACQUIRE);
	if (pending == 0)
		__atomic_store_n(&b->since, now, __ATOMIC_RELAXED);
	__atomic_store_n(&b->head, h + need, __ATOMIC_RELEASE);
	if (__builtin_expect(pending == 0, 0))
		st_batch_holds();
	pending += need;
	int aged = now - __atomic_load_n(&b->since, __ATOMIC_RELAXED) >= ST_AGE_NS;
	if (__builtin_expect(pending >= ST_FLUSH_WORDS || aged, 0) &&
	    (aged || pending >= ST_FLUSH_HARD || st_batch_idle[evi]))
		st_batch_write_out(b);
}

/* SYNCTRACE_THRESHOLD: the record just reserved, at time now, begins a
 * wait on obj (st_batch_wait_begins): it and the thread's next records are
 * held until the wait ends. A wait on another object while one is held
 * (a condvar wait's relock of its mutex, a signal handler's wait) is part
 * of the held one: ended and judged with it. One on the same object means
 * the held one never ended (an error path): that one is recorded. */
static inline void st_batch_hold(uint64_t obj, int64_t now)
{
	struct st_batch *b = st_mine;
	if (b->holding && b->hold_obj != obj)
		return;
	b->hold = b->head;
	b->hold_obj = obj;
	__atomic_store_n(&b->hold_ns, now, __ATOMIC_RELAXED);
	/* With the fields above for a writer that sees it (write_out); the
	 * records themselves are published by commit's release of head. */
	__atomic_store_n(&b->holding, 1, __ATOMIC_RELEASE);
}
/* A wait on obj ended after wait_ns (an event of st_batch_wait_slot, just
 * committed). If it is the held wait: recorded if it lasted the threshold,
 * else its records go to the aggregator and out of the ring (recorded all
 * the same if one of them has no aggregator). */
void st_batch_wait_end(uint64_t obj, uint64_t wait_ns);
/* The events that begin a held wait (mutex:requested, sem:wait_begin,
 * rwlock:requested, barrier:arrival, cond:enqueued: 1), and those that end
 * one: their `wait_ns` field's slot + 1 (acquired, timeout, departure), or
 * ST_WAIT_SINCE_HOLD, the time since the wait's first record
 * (cond:relocked: a condvar wait lasts until its mutex is held again). */
extern unsigned char st_batch_wait_begins[ST_EVI_N];
extern unsigned char st_batch_wait_slot[ST_EVI_N];
#define ST_WAIT_SINCE_HOLD 255

/* The calling thread ends: its records are written out and its buffer
 * goes back to the pool (later events of the thread are emitted singly). */
void st_batch_retire(void);
/* synctrace_flush (st_probes.flush): every thread's records are written
 * out now, but for a held wait's (SYNCTRACE_THRESHOLD: it is not decided
 * yet). */
void st_batch_flush(void);
/* The process stops tracing: every buffer is written out, batching ends. */
void st_batch_stop(void);

#endif
