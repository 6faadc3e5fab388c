/* rdlock / wrlock and their timed and clock variants past the first CAS.
 * The state machine, and the ordering argument for S, are in rwlock.h. */
#include <errno.h>
#include <limits.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "internal/futex.h"
#include "rwlock/rwlock.h"
#include "wait/wait.h"

struct try_ctx {
	struct st_rwlock *rw;
	int write;
};

static int can_take(struct st_rwlock *rw, int write, int v)
{
	return write ? !(v & ST_RW_COUNT) : st_rwlock_read_ok(rw, v);
}

/* Before the sleep loop: the fast-path CAS, which keeps S (it may stand
 * for sleepers). */
static int try_lock(void *p)
{
	struct try_ctx *c = p;
	return c->write ? st_rwlock_try_write(c->rw) : st_rwlock_try_read(c->rw);
}

/* From the sleep loop: * → WRITE or READ(n+1) without S, then S back if
 * a thread is about to sleep or asleep (counted in `sleepers`). Seq_cst
 * CAS, then a seq_cst load of `sleepers`: a sleeper that registers after
 * that load reads the word after our CAS and sets S itself (rwlock.h,
 * "Who wakes"). rw is valid: we hold it now. */
static int try_lock_sleeper(void *p)
{
	struct try_ctx *c = p;
	struct st_rwlock *rw = c->rw;
	int v = st_load_relaxed(&rw->lock);
	while (can_take(rw, c->write, v))
		if (__atomic_compare_exchange_n(&rw->lock, &v,
						c->write ? ST_RW_WRLOCKED : (v & ST_RW_COUNT) + 1,
						0, __ATOMIC_SEQ_CST, __ATOMIC_RELAXED)) {
			if (__atomic_load_n(&rw->sleepers, __ATOMIC_SEQ_CST))
				/* They may sleep on the value we replaced: S
				 * again before our release, which will see it. */
				__atomic_fetch_or(&rw->lock, ST_RW_SLEEPERS, __ATOMIC_RELAXED);
			if (c->write)
				st_store_relaxed(&rw->owner, st_tid());
			return 1;
		}
	return 0;
}

/* The last waiting writer of a writer-preferring lock gives up: readers
 * asleep behind it must look again. *+S → *, wake all. rw is valid: we
 * are still one of its waiters. */
static void writer_gives_up(struct st_rwlock *rw, int shared)
{
	if (__atomic_sub_fetch(&rw->wwait, 1, __ATOMIC_ACQ_REL) ||
	    rw->kind != PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP)
		return;
	int v = st_load_relaxed(&rw->lock);
	while (v & ST_RW_SLEEPERS)
		if (__atomic_compare_exchange_n(&rw->lock, &v, v & ~ST_RW_SLEEPERS, 1,
						__ATOMIC_ACQ_REL, __ATOMIC_RELAXED)) {
			st_futex_wake(&rw->lock, INT_MAX, shared, rw);
			break;
		}
}

/* A writer that spun in vain naps once, then tries again, before its
 * sleep loop (rwlock.h, "The writer's nap"). Its futex_wait there is
 * rarely a sleep: readers keep changing the word, the kernel finds it
 * changed (EAGAIN), and the writer stays on its CPU while readers and
 * writers on the others share the lock's line (doc/rwlock.md has the
 * throughput with and without the nap). Not on a writer-preferring lock: the napping writer, counted in `wwait`, would
 * keep readers out of a lock that may be free. Not with a timeout: the
 * nap is not bounded by it. The raw system call: glibc's nanosleep is a
 * cancellation point, rdlock/wrlock are not. A signal ends the nap
 * early, which does no harm. */
#define ST_RW_NAP_NS 20000 /* plus the timer slack (50 us by default) */

static int writer_naps(struct st_rwlock *rw, const struct timespec *abs)
{
	if (abs || rw->kind == PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP)
		return 0;
	struct timespec d = { 0, ST_RW_NAP_NS };
	syscall(SYS_nanosleep, &d, NULL);
	return 1;
}

static void acquired(struct st_rwlock *rw, int write, int how, int spins, int sleeps,
		     unsigned long long t0, const void *caller)
{
	if (write)
		st_dec(&rw->wwait); /* WRITE is ours: no longer a waiting writer */
	if (t0) {
		unsigned long long t1 = st_waited_end(how == ST_RWLOCK_HOW_SPIN, t0);
		st_rwlock_ev_acquired_at(st_rec_at(t1), rw, caller, write, how,
					 st_rwlock_readers_after(rw, write), spins, sleeps,
					 t1 - t0);
	}
}

int st_rwlock_lock_slow(struct st_rwlock *rw, int write, clockid_t clk,
			const struct timespec *abs, const void *caller)
{
	st_set_caller(caller);
	/* glibc's order: the time, then the deadlock, then the lock. */
	if (abs && (st_clock_check(clk) || st_timespec_check(abs)))
		return EINVAL;
	int self = st_tid(), v = st_load_relaxed(&rw->lock);
	if ((v & ST_RW_COUNT) == ST_RW_WRLOCKED && st_load_relaxed(&rw->owner) == self) {
		st_rwlock_ev_misuse(rw, caller, ST_RWLOCK_MISUSE_RELOCK_WRITER, self);
		return EDEADLK;
	}
	struct try_ctx c = { rw, write };
	if (try_lock(&c)) {
		if (st_tracing_full_from(caller))
			st_rwlock_ev_acquired(rw, caller, write, ST_RWLOCK_HOW_FAST,
					      st_rwlock_readers_after(rw, write), 0, 0,
					      (uint64_t)0);
		return 0;
	}
	if (!write && (st_load_relaxed(&rw->lock) & ST_RW_COUNT) == ST_RW_MAX_READERS)
		return EAGAIN;

	int shared = rw->shared != 0, spins, sleeps = 0;
	int tr = st_tracing();
	v = st_load_relaxed(&rw->lock);
	if (tr)
		st_rwlock_ev_requested(rw, caller, write,
				       st_rwlock_readers(v),
				       st_load_relaxed(&rw->owner), st_load_relaxed(&rw->wwait));
	unsigned long long t0 = tr ? st_now_ns() : 0;
	/* From here to its acquisition or timeout a writer counts as waiting:
	 * on a writer-preferring lock new readers stay out. */
	if (write)
		st_inc(&rw->wwait);
	/* No bail on `sleepers` (musl's strategy): it counts threads that
	 * are about to sleep, most of them behind a word that moves (readers
	 * come and go) and back in a moment; bailing on them fills the sleep
	 * loop, and every try there sets S (doc/rwlock.md). */
	st_spin_from_folded(t0);
	if (st_spin_lock(rw, NULL, try_lock, &c, st_spin_limit, &spins, 1) ==
	    ST_SPIN_OUTCOME_ACQUIRED) {
		acquired(rw, write, ST_RWLOCK_HOW_SPIN, spins, 0, t0, caller);
		return 0;
	}
	/* The fast-path CAS again, after the nap (it keeps S). rw is
	 * valid: we are one of its waiting writers. */
	if (write && writer_naps(rw, abs) && try_lock(&c)) {
		acquired(rw, write, ST_RWLOCK_HOW_SLEEP, spins, 0, t0, caller);
		return 0;
	}

	if (write && t0)
		st_rwlock_ev_writer_waiting(rw, caller,
					    st_rwlock_readers(st_load_relaxed(&rw->lock)),
					    st_load_relaxed(&rw->wwait));
	while (!try_lock_sleeper(&c)) {
		/* Counted in `sleepers` from before our look at the word to
		 * after the futex wait: seq_cst, the other half of the
		 * acquirer's CAS-then-load (rwlock.h). */
		__atomic_fetch_add(&rw->sleepers, 1, __ATOMIC_SEQ_CST);
		v = __atomic_load_n(&rw->lock, __ATOMIC_SEQ_CST);
		int r = EAGAIN;
		/* * → *+S on the value we sleep on. A reader behind a writer
		 * that left meanwhile must not sleep: wwait is read after our
		 * S is in (see rwlock.h). */
		if (!can_take(rw, write, v) &&
		    ((v & ST_RW_SLEEPERS) ||
		     __atomic_compare_exchange_n(&rw->lock, &v, v | ST_RW_SLEEPERS, 0,
						 __ATOMIC_SEQ_CST, __ATOMIC_RELAXED)) &&
		    !can_take(rw, write, v | ST_RW_SLEEPERS)) {
			r = st_futex_wait(&rw->lock, v | ST_RW_SLEEPERS, shared, clk, abs, rw);
			sleeps++;
		}
		if (r == ETIMEDOUT) {
			/* Never acquired: rw is valid because we still wait on it. */
			if (write)
				writer_gives_up(rw, shared);
			st_dec(&rw->sleepers);
			if (t0)
				st_rwlock_ev_timeout(rw, caller, write, sleeps,
						     st_now_ns() - t0);
			return ETIMEDOUT;
		}
		st_dec(&rw->sleepers);
		/* Woken (the lock was released), the word moved (its holders
		 * run) or could be taken: poll before sleeping again, whoever
		 * else sleeps. */
		int more;
		r = st_spin(rw, NULL, try_lock_sleeper, &c, &more);
		spins += more;
		if (r == ST_SPIN_OUTCOME_ACQUIRED)
			break;
	}
	acquired(rw, write, ST_RWLOCK_HOW_SLEEP, spins, sleeps, t0, caller);
	return 0;
}

int st_rwlock_trylock_failed(struct st_rwlock *rw, int write, const void *caller)
{
	int v = st_load_relaxed(&rw->lock), r = EBUSY;
	if (!write && (v & ST_RW_COUNT) == ST_RW_MAX_READERS)
		r = EAGAIN;
	st_set_caller(caller);
	if (st_tracing())
		st_rwlock_ev_trylock_failed(rw, caller, write, r,
					    st_rwlock_readers(v),
					    st_load_relaxed(&rw->owner));
	return r;
}
