/* Read-write locks: the object, its state machine, and the fast paths.
 *
 * LAYOUT (56 bytes, glibc's pthread_rwlock_t; asserts in init.c)
 *   off  field     glibc's name      use
 *    0   lock      __readers         the lock word, below
 *    4   wwait     __writers         writers in the wait loop (spin or sleep)
 *    8   sleepers  __wrphase_futex   threads from their last look at the word
 *                                    to the end of their futex wait (below)
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
 *   …+SLEEPERS   the same, sleepers may be queued  | SLEEPERS (FREE+SLEEPERS:
 *                                                   with writers preferred,
 *                                                   readers wait for a writer;
 *                                                   or the last two readers
 *                                                   left together)
 *
 * TRANSITIONS
 *   from        to          by       atomic                        event
 *   FREE/READ   READ(n+1)   reader   CAS v → v+1 (acquire)         acquired (read;
 *                                    (not with writers waiting      fast: full level)
 *                                    on a kind-2 lock)
 *   FREE        WRITE       writer   CAS v → WRLOCKED|(v&S) (acq)  acquired (write;
 *                                    (also once after the writer's  after the nap:
 *                                    nap, below)                    how sleep)
 *   *           *+S         sleeper  sleepers++ (seq_cst), load    writer_waiting (writers)
 *                                    (seq_cst), CAS v → v|S
 *                                    (seq_cst), futex-wait on v|S,
 *                                    sleepers--
 *   FREE/READ   READ(n+1)   sleeper  CAS v → (v&COUNT)+1 (seq_cst), acquired (how: sleep)
 *   FREE        WRITE       sleeper  CAS v → WRLOCKED (seq_cst):
 *                                    S cleared; then S back
 *                                    (fetch_or) if `sleepers`
 *                                    (seq_cst load) > 0
 *   READ(n>1)   READ(n-1)   reader   fetch_sub 1 (release), keeps  released (full level)
 *   READ(1)     FREE                 S; wake all if it made FREE+S  (readers_drained
 *                                    (others left or S came         when S was set)
 *                                    since its load)
 *   READ(1)+S   FREE        reader   CAS v → 0 (release), wake     released; readers_drained
 *                                    all
 *   WRITE       FREE        writer   swap → 0 (release), wake all  released
 *                                    if S was set
 *   *+S         *           writer   CAS v|S → v, wake all: the    timeout
 *                           timing   last waiting writer of a
 *                           out      kind-2 lock gave up
 * Who wakes: a release to FREE whose releasing RMW saw S. It reads
 * nothing after that RMW (below), so S is the only gate. A sleeper counts
 * itself in `sleepers` before its look at the word and until its futex
 * wait returns, and sets S (or finds it) in the exact value it sleeps
 * on: the releasing RMW comes after that and sees S, or the sleeper's
 * futex_wait sees a changed word. S is cleared in three places:
 *  - a release to FREE, which wakes every sleeper;
 *  - the kind-2 give-up above, with the same wake;
 *  - an acquisition from the sleep loop, which replaces the value others
 *    may sleep on. A Dekker pair: the acquirer's seq_cst CAS, then its
 *    seq_cst load of `sleepers`; a sleeper's seq_cst increment, then its
 *    seq_cst load of the word. Either the acquirer sees the sleeper and
 *    puts S back before its own release, which wakes it (no release to
 *    FREE comes between: the acquirer holds the lock), or the sleeper
 *    reads the word after the CAS and sets S itself.
 * So S outlives its sleepers only after a timeout, or when fast-path
 * acquisitions keep it (it may stand for others); such an S costs one
 * wake that finds nobody, at the next release to FREE. (Before, a sleeper
 * whose futex_wait found the word changed took the lock keeping its own
 * S, and every release to FREE woke nobody.) Gating the wake on
 * `sleepers` instead would not do: read before the release, it misses a
 * sleeper that counts itself just after and sleeps on a word that has S
 * already; read after, the lock may be gone (tests/model/rwlock.pml,
 * MUT_GATE_BEFORE, MUT_GATE_AFTER).
 * Waking all is simple and never loses a writer behind a woken reader;
 * woken threads that lose the race set S again. A sleeper spins after
 * every futex return, without bailing on `sleepers`: woken, the lock was
 * released; EAGAIN, the word moved, so its holders run (going straight
 * back to the futex made every release to FREE a wake for nobody:
 * doc/rwlock.md). No spin bails on `sleepers` (musl's strategy, see
 * lock.c).
 * The writer's nap: a writer whose spin failed, on a lock that does not
 * prefer writers and without a timeout, naps (nanosleep; lock.c,
 * writer_naps) and tries the fast-path CAS once more before its sleep
 * loop. No transition of its own and no shared access but that CAS: it
 * is a pause between two tries, each of which keeps S. It frees the CPU
 * that the waiting writer would otherwise keep (its futex_wait on a word
 * that readers keep changing returns EAGAIN), so the others run alone
 * with a hot line meanwhile, as glibc's do through its write phases.
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

/* Codes (`how`, `what`): enum st_rwlock_how, st_rwlock_misuse in
 * tracepoints/events/rwlock.def. */

/* For events: the readers a lock word v shows (0 when write-held), and
 * the readers right after an acquisition of `write`'s side. */
static inline int st_rwlock_readers(int v)
{
	return (v & ST_RW_COUNT) == ST_RW_WRLOCKED ? 0 : v & ST_RW_COUNT;
}

static inline int st_rwlock_readers_after(struct st_rwlock *rw, int write)
{
	return write ? 0 : st_load_relaxed(&rw->lock) & ST_RW_COUNT;
}

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
		if (st_tracing_full_from(caller))
			st_rwlock_ev_acquired(rw, caller, write, ST_RWLOCK_HOW_FAST,
					      st_rwlock_readers_after(rw, write), 0, 0,
					      (uint64_t)0);
		return 0;
	}
	return st_rwlock_lock_slow(rw, write, clk, abs, caller);
}

/* Inlined into both public trylocks: the uncontended path has no call. */
static inline __attribute__((always_inline)) int
st_rwlock_trylock(struct st_rwlock *rw, int write, const void *caller)
{
	if (st_likely(write ? st_rwlock_try_write(rw) : st_rwlock_try_read(rw))) {
		if (st_tracing_full_from(caller))
			st_rwlock_ev_acquired(rw, caller, write, ST_RWLOCK_HOW_TRY,
					      st_rwlock_readers_after(rw, write), 0, 0,
					      (uint64_t)0);
		return 0;
	}
	return st_rwlock_trylock_failed(rw, write, caller);
}

#endif
