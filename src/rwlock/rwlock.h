/* Read-write locks: the object, its state machine, and the fast paths.
 *
 * LAYOUT (56 bytes, glibc's pthread_rwlock_t; asserts in init.c)
 *   off  field     glibc's name      use
 *    0   lock      __readers         the lock word, below
 *    4   wwait     __writers         writers in the wait loop (spin or sleep)
 *    8   sleepers  __wrphase_futex   threads in the futex sleep loop (either mode)
 *   12   spare     __writers_futex   unused (0)
 *   16   spare     __pad3, __pad4    unused (0)
 *   24   owner     __cur_writer      tid of the write owner, 0 otherwise
 *   28   shared    __shared          0 private, 128 process-shared (glibc's encoding)
 *   32   spare     __rwelision...    unused (0)
 *   48   kind      __flags           glibc's kind: 0 prefer readers, 1 prefer
 *                                    writers (glibc: as 0), 2 prefer writers,
 *                                    non-recursive readers; where glibc's
 *                                    PTHREAD_RWLOCK_WRITER_NONRECURSIVE_
 *                                    INITIALIZER_NP puts it. Zeros are
 *                                    PTHREAD_RWLOCK_INITIALIZER.
 *
 * THE LOCK WORD
 *   bits 0-30  readers holding it, or ST_RW_WRLOCKED (all ones): a writer
 *   bit 31     ST_RW_SLEEPERS: threads may be asleep on the word
 *
 * STATES                                         lock word
 *   FREE         nobody holds it                  0
 *   READ(n)      n readers                        n
 *   WRITE        one writer                       WRLOCKED
 *   …+SLEEPERS   the same, sleepers may be queued  | SLEEPERS (FREE+SLEEPERS
 *                                                   only with writers preferred:
 *                                                   readers wait for a writer)
 *
 * TRANSITIONS
 *   from        to          by       atomic                        event
 *   FREE/READ   READ(n+1)   reader   CAS v → v+1 (acquire)         acquired (read;
 *                                    (not with writers waiting      fast: full level)
 *                                    on a kind-2 lock)
 *   FREE        WRITE       writer   CAS v → WRLOCKED|(v&S) (acq)  acquired (write)
 *   *           *+S         sleeper  CAS v → v|S, then futex-wait  writer_waiting (writers)
 *                                    on v|S
 *   READ(n>1)   READ(n-1)   reader   CAS v → v-1 (release)         released (full level)
 *   READ(1)     FREE        reader   CAS v → 0 (release), wake     released; readers_drained
 *                                    all if S was set               when S was set
 *   WRITE       FREE        writer   swap → 0 (release), wake all  released
 *                                    if S was set
 *   *+S         *           writer   CAS v|S → v, wake all: the    timeout
 *                           timing   last waiting writer of a
 *                           out      kind-2 lock gave up
 * Who wakes: S is cleared only together with a wake of every sleeper
 * (release to FREE, or the timeout above), and every sleeper sets S before
 * each sleep on the exact value it sleeps on; so either the clearing CAS
 * comes after the sleeper's CAS and its wake finds it in the kernel, or the
 * sleeper's futex_wait sees a changed word. Acquisitions keep S (it may
 * still stand for others). Waking all is simple and never loses a writer
 * behind a woken reader; woken threads that lose the race set S again.
 * Writer preference (kind 2): a reader does not enter while `wwait` > 0; a
 * writer raises `wwait` before its CAS sets S, and a reader reads `wwait`
 * after its own CAS set S, so a writer's departure (dec, then the clearing
 * CAS) is seen by a reader that went to sleep behind it.
 * After the releasing CAS/swap the object may be destroyed by the next
 * owner: unlock reads everything it reports before it, only the address
 * after. A waiter keeps the lock alive (destroying a waited-on lock is
 * undefined). EDEADLK: `owner` is the write owner's tid, written by it
 * after its CAS and cleared before its release; a thread reading its own
 * tid there knows it holds the lock. */
#ifndef ST_RWLOCK_H
#define ST_RWLOCK_H

#include <pthread.h>
#include <stdint.h>
#include <time.h>

#include "internal/atomic.h"
#include "internal/tls.h"
#include "internal/trace.h"

struct st_rwlock {
	volatile int lock;
	volatile int wwait;
	volatile int sleepers;
	int spare;
	int spare2[2];
	volatile int owner;
	int shared;
	int spare3[4];
	int kind;
	int spare4;
};

#define ST_RW_SLEEPERS ((int)0x80000000u)
#define ST_RW_COUNT 0x7fffffff
#define ST_RW_WRLOCKED 0x7fffffff
#define ST_RW_MAX_READERS (ST_RW_WRLOCKED - 1)
#define ST_RW_SHARED 128

/* `how` of the acquired event. */
enum st_rwlock_how {
	ST_RW_FAST = 0,  /* uncontended CAS (full level) */
	ST_RW_SPIN = 1,  /* while spinning */
	ST_RW_SLEEP = 2, /* after one or more futex sleeps */
	ST_RW_TRY = 3,   /* tryrdlock/trywrlock (full level) */
};

/* `what` of the misuse event. */
enum st_rwlock_misuse {
	ST_RW_MISUSE_RELOCK_WRITER = 1,   /* rdlock/wrlock by the write owner (EDEADLK) */
	ST_RW_MISUSE_UNLOCK_UNLOCKED = 2, /* unlock of a free lock (EPERM) */
	ST_RW_MISUSE_DESTROY_HELD = 3,    /* destroy while held or waited on */
};

static inline struct st_rwlock *st_rwlock(pthread_rwlock_t *rw)
{
	return (struct st_rwlock *)rw;
}

/* Readers may enter: not write-held, not full, no writer waiting on a
 * writer-preferring lock. */
static inline int st_rwlock_read_ok(struct st_rwlock *rw, int v)
{
	return (v & ST_RW_COUNT) < ST_RW_MAX_READERS &&
	       !(rw->kind == PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP &&
		 st_load_relaxed(&rw->wwait));
}

/* FREE/READ(n) → READ(n+1). Acquire: the last writer's stores are ours. */
static inline int st_rwlock_try_read(struct st_rwlock *rw)
{
	int v = st_load_relaxed(&rw->lock);
	while (st_rwlock_read_ok(rw, v))
		if (__atomic_compare_exchange_n(&rw->lock, &v, v + 1, 1, __ATOMIC_ACQUIRE,
						__ATOMIC_RELAXED))
			return 1;
	return 0;
}

/* FREE → WRITE, keeping S. */
static inline int st_rwlock_try_write(struct st_rwlock *rw)
{
	int v = st_load_relaxed(&rw->lock);
	while (!(v & ST_RW_COUNT))
		if (__atomic_compare_exchange_n(&rw->lock, &v, ST_RW_WRLOCKED | v, 1,
						__ATOMIC_ACQUIRE, __ATOMIC_RELAXED)) {
			st_store_relaxed(&rw->owner, st_tid());
			return 1;
		}
	return 0;
}

/* Slow paths. write: 0 read, 1 write. abs NULL: no timeout. */
int st_rwlock_lock_slow(struct st_rwlock *rw, int write, clockid_t clk,
			const struct timespec *abs, const void *caller);
int st_rwlock_trylock_failed(struct st_rwlock *rw, int write, const void *caller);
int st_rwlock_unlock(struct st_rwlock *rw, const void *caller);
int st_rwlock_init(struct st_rwlock *rw, const pthread_rwlockattr_t *a, const void *caller);
int st_rwlock_destroy(struct st_rwlock *rw, const void *caller);

static inline int st_rwlock_lock(struct st_rwlock *rw, int write, clockid_t clk,
				 const struct timespec *abs, const void *caller)
{
	if (!abs && st_likely(write ? st_rwlock_try_write(rw) : st_rwlock_try_read(rw))) {
		ST_TRACE_FULL(caller, rwlock, acquired, rw, caller, write, ST_RW_FAST,
			      write ? 0 : st_load_relaxed(&rw->lock) & ST_RW_COUNT, 0, 0,
			      (uint64_t)0);
		return 0;
	}
	return st_rwlock_lock_slow(rw, write, clk, abs, caller);
}

static inline int st_rwlock_trylock(struct st_rwlock *rw, int write, const void *caller)
{
	if (st_likely(write ? st_rwlock_try_write(rw) : st_rwlock_try_read(rw))) {
		ST_TRACE_FULL(caller, rwlock, acquired, rw, caller, write, ST_RW_TRY,
			      write ? 0 : st_load_relaxed(&rw->lock) & ST_RW_COUNT, 0, 0,
			      (uint64_t)0);
		return 0;
	}
	return st_rwlock_trylock_failed(rw, write, caller);
}

#endif
