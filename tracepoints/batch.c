/* Batched records: each thread writes its events into a ring of words of
 * its own, and they go to LTTng as one synctrace_batch:records event per
 * run of records (tracepoints/events/batch.def), so one event's fixed cost
 * (reserve, contexts, per-field writes, commit: ~1,500 instructions) is
 * paid once per ~50 records instead of per transition.
 *
 * A ring (struct st_batch) and who touches it:
 *   head   words written; only the owner thread advances it (release: the
 *          words before it are complete for whoever acquires it)
 *   done   words written out; only the writer holding `lock` advances it
 *          (release: the owner may reuse the words before it)
 *   lock   0, or 1 while one thread (the owner, or the flusher for an owner
 *          that went quiet) writes [done, head) out
 * The owner writes only in [head, done + ST_RING): never where a writer
 * reads. A record never wraps: one that does not fit before the ring's end
 * is preceded by a pad word (0: "no more records in this event") and
 * starts at the ring's beginning.
 *
 * When records go out: the owner writes them when ST_FLUSH_WORDS are
 * pending at a record that delays nobody else (batch.h, st_batch_idle),
 * ST_FLUSH_HARD at any record, or the oldest pending one is ST_AGE_NS old
 * (checked at each record: it reads the clock anyway), at thread exit (st_batch_retire) and
 * at process stop (st_batch_stop). A thread that goes quiet (asleep,
 * computing, deadlocked) is written out by the flusher, a thread of this
 * library that wakes every ST_AGE_NS / 2 and writes out every ring whose
 * oldest record is ST_AGE_NS old. So a record reaches the trace at most
 * about 2 * ST_AGE_NS after it happened (plus scheduling delays), which is
 * what readers merge by (analysis/model/merge.c holds events ST_MERGE_NS).
 * When two wakes in a row found no ring holding a record, the flusher
 * naps instead (st_flusher_napping, a futex word), until the record that
 * makes a ring hold one wakes it (st_batch_commit, st_batch_wake), or at
 * most ST_NAP_NS: a process whose threads sleep is not woken 200 times a
 * second for nothing. The nap and that record's check are Dekker's: each
 * side stores (napping = 1; head), fences, then loads the other's, so at
 * least one of them sees the other (the flusher that sees a record does
 * not nap; the record that sees the nap wakes it).
 *
 * The rings live in st_rings (a list under st_rings_lock, a spin lock of
 * ours: no primitive of the program's); a retired ring goes to st_pool for
 * the next thread. In a child of fork() only the forking thread exists: its
 * ring is emptied (the parent writes those records) and the others are
 * unmapped; the flusher is started again by the child's first record. */
#include "batch.h"

#include <dlfcn.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <linux/futex.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "st_batch.h"


int st_batch_on;
int64_t st_batch_threshold_ns;
static uint32_t st_ev_hashes[ST_EVI_N];
const uint32_t *const st_ev_hash = st_ev_hashes;
static const char *const st_ev_names[ST_EVI_N] = {
#define ST_EVENT(fam, name, args, fields) [ST_EVI_##fam##_##name] = #fam ":" #name,
#include "st_all_events.h"
#undef ST_EVENT
};

/* The thread's ring: NULL none yet, ST_GONE retired (the thread is ending). */
#define ST_GONE ((struct st_batch *)1)
__thread struct st_batch *st_mine __attribute__((tls_model("initial-exec")));

static int st_rings_lock, st_stopped, st_flusher_pid, st_flusher_due;
int st_flusher_napping;
/* SYNCTRACE_REANNOUNCE (batch.h): ns between two announcements, 0 off;
 * when the last was made (the flusher's alone). */
static int64_t st_reann_every, st_reann_ns;
int st_batch_slow_due;
static struct st_batch *st_rings, *st_pool;

static void rings_lock(void)
{
	while (__atomic_exchange_n(&st_rings_lock, 1, __ATOMIC_ACQUIRE))
		sched_yield();
}

static void rings_unlock(void)
{
	__atomic_store_n(&st_rings_lock, 0, __ATOMIC_RELEASE);
}


/* Write [done, head) out. The flusher (owner = 0) skips a ring whose owner
 * is writing it; the owner waits for the flusher (one event or two). */
static void write_out(struct st_batch *b, int owner)
{
	while (__atomic_exchange_n(&b->lock, 1, __ATOMIC_ACQUIRE)) {
		if (!owner)
			return;
		sched_yield();
	}
	uint32_t d = b->done, h = __atomic_load_n(&b->head, __ATOMIC_ACQUIRE);
	if (__atomic_load_n(&b->holding, __ATOMIC_ACQUIRE)) {
		/* An open wait's records wait for its end, unless it has lasted
		 * the threshold already: then it is recorded whatever its end,
		 * and its records go out now, not a whole long wait late (a
		 * reader holds events ST_MERGE_NS behind the newest). Under the
		 * lock: the owner's aggregation of a short wait takes it too. */
		if (st_batch_now() - __atomic_load_n(&b->hold_ns, __ATOMIC_RELAXED) >=
		    st_batch_threshold_ns)
			__atomic_store_n(&b->holding, 0, __ATOMIC_RELEASE);
		else
			h = b->hold;
	}
	while (d != h) { /* one event, or two when the records wrap */
		uint32_t at = d % ST_RING, k = h - d;
		if (k > ST_RING - at)
			k = ST_RING - at;
		st_batch_emit(b->tid, &b->w[at], k);
		d += k;
	}
	__atomic_store_n(&b->done, d, __ATOMIC_RELEASE);
	if (d != b->head)
		__atomic_store_n(&b->since, st_batch_now(), __ATOMIC_RELAXED);
	__atomic_store_n(&b->lock, 0, __ATOMIC_RELEASE);
}

/* Room is needed and a held wait fills the ring: it is recorded. */
static void make_room(struct st_batch *b)
{
	write_out(b, 1);
	if (b->holding && b->hold == b->done) {
		__atomic_store_n(&b->holding, 0, __ATOMIC_RELEASE);
		write_out(b, 1);
	}
}

/* Under st_rings_lock: whether a ring holds a record not written out. */
static int rings_pending(void)
{
	for (struct st_batch *b = st_rings; b; b = b->next)
		if (__atomic_load_n(&b->head, __ATOMIC_RELAXED) !=
		    __atomic_load_n(&b->done, __ATOMIC_RELAXED))
			return 1;
	return 0;
}

static int64_t st_nap_ns = ST_NAP_NS; /* SYNCTRACE_TEST_NAP_MS (flusher's start) */

/* The flusher with no record to write: nap until a record wakes it
 * (st_batch_wake), at most st_nap_ns, or until the next announcement of a
 * rotating recording. */
static void nap_long(void)
{
	int64_t ns = st_nap_ns;
	if (st_reann_every) {
		int64_t due = st_reann_ns + st_reann_every - st_batch_now();
		if (due < ns)
			ns = due;
	}
	if (ns <= 0)
		return;
	__atomic_store_n(&st_flusher_napping, 1, __ATOMIC_RELAXED);
	__atomic_thread_fence(__ATOMIC_SEQ_CST); /* (Dekker's: the file's head) */
	rings_lock();
	int pending = rings_pending();
	rings_unlock();
	if (!pending) {
		struct timespec t = { (time_t)(ns / 1000000000), (long)(ns % 1000000000) };
		syscall(SYS_futex, &st_flusher_napping, FUTEX_WAIT_PRIVATE, 1, &t, 0, 0);
	}
	__atomic_store_n(&st_flusher_napping, 0, __ATOMIC_RELAXED);
}

void st_batch_wake(void)
{
	if (__atomic_exchange_n(&st_flusher_napping, 0, __ATOMIC_RELAXED))
		syscall(SYS_futex, &st_flusher_napping, FUTEX_WAKE_PRIVATE, 1, 0, 0, 0);
}

static void *flusher(void *unused)
{
	(void)unused;
	struct timespec nap = { 0, ST_AGE_NS / 2 };
	int quiet = 0; /* wakes in a row that found no record */
	/* A test's longest nap (tests/trace/nap.sh: only a record ends it). */
	const char *test = getenv("SYNCTRACE_TEST_NAP_MS");
	if (test && *test)
		st_nap_ns = atoll(test) * 1000000;
	for (;;) {
		if (quiet >= 2) {
			nap_long();
			quiet = 0;
		} else {
			nanosleep(&nap, 0);
		}
		rings_lock();
		if (st_stopped || st_flusher_pid != getpid()) {
			rings_unlock();
			return 0;
		}
		int64_t now = st_batch_now();
		for (struct st_batch *b = st_rings; b; b = b->next)
			if (__atomic_load_n(&b->head, __ATOMIC_ACQUIRE) != b->done &&
			    now - __atomic_load_n(&b->since, __ATOMIC_RELAXED) >= ST_AGE_NS)
				write_out(b, 0);
		quiet = rings_pending() || st_clock_due() ? 0 : quiet + 1;
		rings_unlock();
		if (st_reann_every && now - st_reann_ns >= st_reann_every) {
			st_reann_ns = now;
			st_batch_reannounce();
		}
		st_clock_tell(0);
	}
}

/* Under st_rings_lock. With every signal blocked, so that none of the
 * program's is delivered to it. */
static void start_flusher(void)
{
	pthread_t t;
	pthread_attr_t a;
	sigset_t all, old;
	if (st_flusher_pid == getpid())
		return;
	st_flusher_pid = getpid();
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	pthread_attr_init(&a);
	pthread_attr_setdetachstate(&a, PTHREAD_CREATE_DETACHED);
	pthread_attr_setstacksize(&a, 64 * 1024);
	if (pthread_create(&t, &a, flusher, 0))
		st_flusher_pid = 0; /* the owners still write at their limits */
	pthread_attr_destroy(&a);
	pthread_sigmask(SIG_SETMASK, &old, 0);
}

static struct st_batch *ring_new(void)
{
	rings_lock();
	if (st_stopped) {
		rings_unlock();
		return 0;
	}
	struct st_batch *b = st_pool;
	if (b) {
		st_pool = b->next;
	} else {
		b = mmap(0, sizeof(*b), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (b == MAP_FAILED) {
			rings_unlock();
			return 0;
		}
	}
	b->head = b->done = 0;
	b->lock = 0;
	b->since = 0;
	b->holding = 0;
	b->a_span = 0; /* anchored at its first record */
	b->a_cpu = -1;
	b->a_retry = 0;
	b->last_ns = 0;
	b->tid = (int)gettid();
	b->next = st_rings;
	st_rings = b;
	start_flusher();
	rings_unlock();
	return st_mine = b;
}

/* The record clock's scale (batch.h): libsynctrace.so's, copied once
 * known (the same value whichever thread stores it), with whether it is
 * read per CPU; never: it uses no counter. Until it is known a thread
 * asks again at most once per ST_ANCHOR_NS (b->a_retry), each asking
 * driving libsynctrace.so's calibration on (a program whose waits read no
 * clock of their own, a single thread at the full level, still gets it),
 * and meanwhile reads CLOCK_MONOTONIC alone, as every record did before.
 * Once known, each new anchor asks again (about once a millisecond a
 * thread, and at a migration where read per CPU): libsynctrace.so's clock
 * turned OFF (the counter went back, or a CPU's left its anchor's line:
 * src/internal/clock.h) turns the records' off too, for good. */
uint64_t st_rec_scale;
/* A test's faults of the counter, where the records read it (tests/trace
 * record_clock, record_clock_drift); both 0 unless set, and st_rec_hooks
 * is then 0: the fast path (batch.h) tests it alone.
 * SYNCTRACE_TEST_CPU_SKEW=COUNTS: read per CPU, CPU c's counter reads
 * c * COUNTS ahead, as CPUs whose counters differ by an offset would.
 * SYNCTRACE_TEST_CPU_DRIFT=PPM: the counter runs PPM millionths slow
 * against the scale, as one whose rate changed would (per CPU or not):
 * counts since an anchor are that much fewer, so a record's time falls
 * behind by up to PPM millionths of its anchor's age (1 ms), and the next
 * anchor on the same CPU must find it (rec_drifted). */
static uint64_t st_rec_skew, st_rec_drift_ppm;
int st_rec_hooks;

static uint64_t drifted(uint64_t d)
{
	return d - (uint64_t)((unsigned __int128)d * st_rec_drift_ppm / 1000000);
}

uint64_t st_rec_hooked(uint64_t d, int c)
{
	if (c >= 0)
		d += (uint64_t)c * st_rec_skew;
	return st_rec_drift_ppm ? drifted(d) : d;
}

static int st_rec_never, st_rec_per_cpu;
static uint64_t st_rec_narrowest; /* counts: the narrowest anchor bracket seen */

/* The scale, or 0 with the records' clock turned off for good (sc < 0).
 * Off, the scale stays: another thread's anchor serves it until it is due
 * (at most ST_ANCHOR_NS, as it did before anything was found), then that
 * thread reads CLOCK_MONOTONIC too (st_rec_never, checked first). */
static uint64_t rec_scale(int64_t sc, int pc)
{
	if (sc < 0) {
		__atomic_store_n(&st_rec_never, 1, __ATOMIC_RELAXED);
		return 0;
	}
	/* stored once: every record's fast path reads the scale's line */
	if (sc > 0 && __atomic_load_n(&st_rec_scale, __ATOMIC_RELAXED) != (uint64_t)sc) {
		__atomic_store_n(&st_rec_per_cpu, pc, __ATOMIC_RELAXED);
		__atomic_store_n(&st_rec_scale, (uint64_t)sc, __ATOMIC_RELAXED);
	}
	return (uint64_t)sc;
}

#if defined(__x86_64__) || defined(__i386__)
/* Per CPU: a new anchor on the CPU of the thread's last one, at most
 * ST_REC_CHECK_NS after it, checks its prediction. libsynctrace.so's own
 * check (every 8 ms a CPU, 20 us: src/internal/clock.h) catches a counter
 * that jumped or changed rate by more than ~2.5e-3; the records, whose
 * order across threads is the point, want less: more than 1 us plus 1e-4
 * of the interval off (the brackets' error and the scale's are ~30 ns and
 * ~1e-5), and the records read CLOCK_MONOTONIC from then on. */
#define ST_REC_CHECK_NS (4 * (int64_t)ST_ANCHOR_NS)
static int rec_drifted(const struct st_batch *b, int cpu, uint64_t tsc, int64_t ns, uint64_t m)
{
	if (!b->a_ns || b->a_cpu != cpu || tsc < b->a_tsc)
		return 0;
	int64_t since = ns - b->a_ns;
	if (since <= 0 || since > ST_REC_CHECK_NS)
		return 0;
	int64_t want = b->a_ns + (int64_t)(((unsigned __int128)(tsc - b->a_tsc) * m) >> 32);
	int64_t off = want > ns ? want - ns : ns - want;
	return off > 1000 + since / 10000;
}
#endif

int64_t st_batch_anchor(struct st_batch *b)
{
	uint64_t m = __atomic_load_n(&st_rec_scale, __ATOMIC_RELAXED);
	int64_t ns = 0;
	int pc;
	b->a_span = 0;
	if (__atomic_load_n(&st_rec_never, __ATOMIC_RELAXED))
		goto mono;
	if (!m) {
		ns = st_batch_now();
		if (ns < b->a_retry)
			goto out;
		b->a_retry = ns + (int64_t)ST_ANCHOR_NS;
	}
	/* the call first: pc is its output (an argument beside it may be
	 * read before the call) */
	int64_t sc = synctrace_clock_scale_cpu(&pc);
	if (!(m = rec_scale(sc, pc)))
		goto mono;
#if defined(__x86_64__) || defined(__i386__)
	/* The tightest of three brackets; one over twice the narrowest seen
	 * in this process (an interrupt, a vDSO retry: here 64-96 counts are
	 * usual, one in ~10^4 over 1,000) is no anchor: the record reads
	 * CLOCK_MONOTONIC and the next one tries again. So an anchor is off
	 * by at most about one narrowest bracket (~30 ns here), and two
	 * threads' by the variation of the brackets' middles (~10 ns). Per
	 * CPU: all three on the CPU the thread is on before and after them,
	 * else no anchor either. */
	const int per_cpu = __atomic_load_n(&st_rec_per_cpu, __ATOMIC_RELAXED);
	const int c = per_cpu ? st_rseq_cpu() : -1;
	uint64_t w = UINT64_MAX, mid = 0;
	for (int i = 0; i < 3; i++) {
		uint64_t t0 = __builtin_ia32_rdtsc();
		int64_t n = st_batch_now();
		uint64_t t1 = __builtin_ia32_rdtsc();
		if (t1 - t0 < w) {
			w = t1 - t0;
			mid = t0 + w / 2;
			ns = n;
		}
	}
	if (per_cpu && c >= 0)
		mid += (uint64_t)c * st_rec_skew;
	uint64_t fl = __atomic_load_n(&st_rec_narrowest, __ATOMIC_RELAXED);
	if (!fl || w < fl)
		__atomic_store_n(&st_rec_narrowest, fl = w, __ATOMIC_RELAXED);
	if (w <= 2 * fl && (!per_cpu || (c >= 0 && st_rseq_cpu() == c))) {
		/* the count the old anchor would predict from: a test's slow
		 * counter counted fewer since it */
		uint64_t seen = mid;
		if (st_rec_drift_ppm && b->a_ns && mid > b->a_tsc)
			seen = b->a_tsc + drifted(mid - b->a_tsc);
		if (per_cpu && rec_drifted(b, c, seen, ns, m)) {
			rec_scale(-1, 0);
			goto out; /* ns: the kernel's clock, just read */
		}
		b->a_tsc = mid;
		b->a_ns = ns;
		b->a_cpu = c;
		b->a_span = (uint64_t)(((unsigned __int128)ST_ANCHOR_NS << 32) / m);
	}
	goto out;
#endif
mono:
	ns = st_batch_now();
out:
	if (ns < b->last_ns)
		ns = b->last_ns;
	return b->last_ns = ns;
}

/* Room for `need` more words at h: the writer is done with them. */
static int room(struct st_batch *b, uint32_t h, uint32_t need)
{
	return h + need - __atomic_load_n(&b->done, __ATOMIC_ACQUIRE) <= ST_RING;
}

uint64_t *st_batch_reserve_slow(uint32_t need)
{
	struct st_batch *b = st_mine;
	if (!b)
		b = ring_new();
	if (b == ST_GONE || !b || st_stopped)
		return 0;
	if (st_flusher_due) { /* a forked child's first record */
		rings_lock();
		st_flusher_due = 0;
		st_batch_slow_due = st_stopped;
		start_flusher();
		rings_unlock();
	}
	uint32_t h = b->head, tail = ST_RING - h % ST_RING;
	if (tail < need) {
		while (!room(b, h, tail))
			make_room(b);
		b->w[h % ST_RING] = 0; /* pad: the records resume at the ring's start */
		int empty = h == __atomic_load_n(&b->done, __ATOMIC_ACQUIRE);
		h += tail;
		__atomic_store_n(&b->head, h, __ATOMIC_RELEASE);
		if (empty) /* (the commit after it finds the ring holding the pad) */
			st_batch_holds();
	}
	while (!room(b, h, need))
		make_room(b);
	return &b->w[h % ST_RING];
}

void st_batch_write_out(struct st_batch *b)
{
	write_out(b, 1);
}

/* The event of a record's hash: an open-addressed table of evi + 1, built
 * by st_batch_init (a threshold reads every short wait's records back). */
#define ST_EV_SLOTS 1024u
_Static_assert(ST_EVI_N < ST_EV_SLOTS / 2, "the hash table keeps half its slots free");
static uint16_t st_ev_slot[ST_EV_SLOTS];

static unsigned ev_slot0(uint32_t hash)
{
	return (hash * 2654435761u) >> 22; /* 10 bits: ST_EV_SLOTS */
}

static enum st_evi evi_of(uint32_t hash)
{
	for (unsigned k = ev_slot0(hash);; k = (k + 1) % ST_EV_SLOTS) {
		unsigned e = st_ev_slot[k];
		if (!e)
			return ST_EVI_N;
		if (st_ev_hashes[e - 1] == hash)
			return (enum st_evi)(e - 1);
	}
}

/* Each record of [at, h) in turn: f(evi, its fields); stops at the first
 * that returns 0. The held records do not wrap but for pads. */
static int each_record(struct st_batch *b, uint32_t at, uint32_t h,
		       int (*f)(enum st_evi, const uint64_t *))
{
	while (at != h) {
		const uint64_t *r = &b->w[at % ST_RING];
		if (r[0] == 0) { /* pad: on at the ring's start */
			at += ST_RING - at % ST_RING;
			continue;
		}
		enum st_evi ev = evi_of(ST_BATCH_HASH_OF(r[0]));
		if (ev == ST_EVI_N || !f(ev, r + 2))
			return 0;
		at += 2 + ST_BATCH_N_OF(r[0]);
	}
	return 1;
}

static int takes(enum st_evi ev, const uint64_t *args)
{
	(void)args;
	return synctrace_summarize(ev, 0);
}

static int aggregate(enum st_evi ev, const uint64_t *args)
{
	return synctrace_summarize(ev, args);
}

void st_batch_wait_end(uint64_t obj, uint64_t wait_ns)
{
	struct st_batch *b = st_mine;
	if ((uintptr_t)b <= 1 || !b->holding || b->hold_obj != obj)
		return; /* not the held wait's end (a full level's fast acquire) */
	if (wait_ns >= (uint64_t)st_batch_threshold_ns) {
		__atomic_store_n(&b->holding, 0, __ATOMIC_RELEASE); /* recorded */
		return;
	}
	/* Under the lock: the flusher reads head and the hold together. */
	while (__atomic_exchange_n(&b->lock, 1, __ATOMIC_ACQUIRE))
		sched_yield();
	if (!b->holding) { /* a writer found it as long as the threshold: out already */
		__atomic_store_n(&b->lock, 0, __ATOMIC_RELEASE);
		return;
	}
	uint32_t at = b->hold, h = b->head;
	if (each_record(b, at, h, takes)) {
		/* The aggregators may emit (a full table): those events go out
		 * singly, not into this ring, whose lock is ours now. */
		st_mine = ST_GONE;
		each_record(b, at, h, aggregate);
		st_mine = b;
		__atomic_store_n(&b->head, at, __ATOMIC_RELEASE);
	}
	__atomic_store_n(&b->holding, 0, __ATOMIC_RELEASE);
	__atomic_store_n(&b->lock, 0, __ATOMIC_RELEASE);
}

void st_batch_retire(void)
{
	struct st_batch *b = st_mine;
	if (!b || b == ST_GONE)
		return;
	__atomic_store_n(&b->holding, 0, __ATOMIC_RELEASE); /* a wait never ended: recorded */
	write_out(b, 1);
	st_mine = ST_GONE;
	rings_lock();
	for (struct st_batch **pp = &st_rings; *pp; pp = &(*pp)->next)
		if (*pp == b) {
			*pp = b->next;
			b->next = st_pool;
			st_pool = b;
			break;
		}
	rings_unlock();
}

void st_batch_flush(void)
{
	rings_lock();
	for (struct st_batch *b = st_rings; b; b = b->next)
		write_out(b, 1); /* waits for a writer at work on it */
	rings_unlock();
}

void st_batch_stop(void)
{
	rings_lock();
	st_stopped = st_batch_slow_due = 1;
	for (struct st_batch *b = st_rings; b; b = b->next) {
		__atomic_store_n(&b->holding, 0, __ATOMIC_RELEASE);
		write_out(b, 1);
	}
	rings_unlock();
}

static void fork_prepare(void)
{
	rings_lock();
}

static void fork_parent(void)
{
	rings_unlock();
}

/* The only thread now; the others' rings are copies of the parent's. */
static void fork_child(void)
{
	struct st_batch *b = st_rings, *keep = st_mine;
	while (b) {
		struct st_batch *next = b->next;
		if (b != keep)
			munmap(b, sizeof(*b));
		b = next;
	}
	st_rings = 0;
	if (keep && keep != ST_GONE) {
		keep->head = keep->done = 0; /* the parent writes those out */
		keep->lock = 0;
		keep->holding = 0;
		keep->tid = (int)gettid();
		keep->next = 0;
		st_rings = keep;
	}
	st_flusher_pid = 0;
	st_flusher_napping = 0; /* (the parent's flusher's, maybe) */
	st_flusher_due = st_rings != 0; /* not from here: started by its first record */
	st_batch_slow_due = st_flusher_due || st_stopped;
	rings_unlock();
}

/* _exit and _Exit end the process without its destructors (a forked
 * child often does): the records still in the rings go out first. A
 * process killed by a signal loses them: the last ST_AGE_NS or so of each
 * thread's events (a thread asleep longer was written out by the flusher). */
typedef void (*exit_fn)(int);
static exit_fn real_exit, real_Exit;

static __attribute__((noreturn)) void flush_and(exit_fn *real, const char *name, int status)
{
	st_batch_stop();
	if (!*real)
		*real = (exit_fn)dlsym(RTLD_NEXT, name);
	(*real)(status);
	__builtin_unreachable();
}

__attribute__((visibility("default"), noreturn)) void _exit(int status)
{
	flush_and(&real_exit, "_exit", status);
}

__attribute__((visibility("default"), noreturn)) void _Exit(int status)
{
	flush_and(&real_Exit, "_Exit", status);
}

/* The waits a threshold holds (batch.h): their first record, and the
 * records that end them with their duration's field (the slot + 1 of
 * `wait_ns` in the event's fields, 0 for every other event). */
unsigned char st_batch_wait_begins[ST_EVI_N];
unsigned char st_batch_wait_slot[ST_EVI_N];
unsigned char st_batch_idle[ST_EVI_N];
static const char *const st_ev_args[ST_EVI_N] = {
#define ST_EVENT(fam, name, args, fields) [ST_EVI_##fam##_##name] = #args,
#include "st_all_events.h"
#undef ST_EVENT
};

/* The slot of field `name` in "(type, name, type, name...)", or -1. */
static int arg_slot(const char *args, const char *name)
{
	size_t len = strlen(name);
	int k = 0;
	for (const char *p = args; *p; k++) {
		while (*p == '(' || *p == ' ' || *p == '\t' || *p == '\n')
			p++;
		const char *e = p + strcspn(p, ",)");
		const char *t = e;
		while (t > p && (t[-1] == ' ' || t[-1] == '\t' || t[-1] == '\n'))
			t--;
		if (k % 2 == 1 && (size_t)(t - p) == len && !strncmp(p, name, len))
			return k / 2;
		if (!*e || *e == ')')
			break;
		p = e + 1;
	}
	return -1;
}

void st_batch_init(void)
{
	static const enum st_evi begins[] = { ST_EVI_mutex_requested, ST_EVI_sem_wait_begin,
					      ST_EVI_rwlock_requested, ST_EVI_barrier_arrival,
					      ST_EVI_cond_enqueued };
	static const enum st_evi ends[] = { ST_EVI_mutex_acquired, ST_EVI_mutex_timeout,
					    ST_EVI_sem_acquired,   ST_EVI_sem_timeout,
					    ST_EVI_rwlock_acquired, ST_EVI_rwlock_timeout,
					    ST_EVI_barrier_departure };
	static const enum st_evi idle[] = { ST_EVI_sem_wait_begin, ST_EVI_sem_sleep,
					    ST_EVI_barrier_arrival, ST_EVI_cond_enqueued,
					    ST_EVI_spin_loop };
	for (unsigned i = 0; i < sizeof(begins) / sizeof(begins[0]); i++)
		st_batch_wait_begins[begins[i]] = 1;
	for (unsigned i = 0; i < sizeof(idle) / sizeof(idle[0]); i++)
		st_batch_idle[idle[i]] = 1;
	for (unsigned i = 0; i < sizeof(ends) / sizeof(ends[0]); i++)
		st_batch_wait_slot[ends[i]] = (unsigned char)(arg_slot(st_ev_args[ends[i]], "wait_ns") + 1);
	st_batch_wait_slot[ST_EVI_cond_relocked] = ST_WAIT_SINCE_HOLD;
	real_exit = (exit_fn)dlsym(RTLD_NEXT, "_exit");
	real_Exit = (exit_fn)dlsym(RTLD_NEXT, "_Exit");
	const char *s = getenv("SYNCTRACE_BATCH");
	st_batch_on = !(s && !strcmp(s, "0"));
	if ((s = getenv("SYNCTRACE_REANNOUNCE")) && *s)
		st_reann_every = (int64_t)strtoull(s, 0, 10) * 1000000;
	if ((s = getenv("SYNCTRACE_TEST_CPU_SKEW")) && *s)
		st_rec_skew = strtoull(s, 0, 10);
	if ((s = getenv("SYNCTRACE_TEST_CPU_DRIFT")) && *s)
		st_rec_drift_ppm = strtoull(s, 0, 10);
	st_rec_hooks = st_rec_skew || st_rec_drift_ppm;
	st_reann_ns = st_batch_now();
	for (int i = 0; i < ST_EVI_N; i++) {
		st_ev_hashes[i] = st_batch_hash(st_ev_names[i]);
		unsigned k = ev_slot0(st_ev_hashes[i]);
		while (st_ev_slot[k])
			k = (k + 1) % ST_EV_SLOTS;
		st_ev_slot[k] = (uint16_t)(i + 1);
	}
	pthread_atfork(fork_prepare, fork_parent, fork_child);
}
