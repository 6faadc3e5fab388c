/* Condition variables: the object, the waiter protocol, its state machine.
 *
 * LAYOUT (48 bytes, glibc's pthread_cond_t; asserts in init.c). All zero is
 * PTHREAD_COND_INITIALIZER: private, CLOCK_REALTIME, no waiters.
 *   off  field    use
 *    0   head     private: newest waiter node (NULL: none)
 *    8   tail     private: oldest waiter node (signals start here)
 *   16   lock     private: the condvar lock guarding head/tail/links:
 *                 0 free, 1 held, 2 held and a thread may sleep on it
 *   20   attr     clock id (bits 0-7) | ST_COND_PSHARED | ST_COND_INITED;
 *                 set by init only (so 0 in a life that began with the
 *                 static initializer, C++'s std::condition_variable)
 *   24   seq      shared: sequence counter, the futex word of waiters;
 *                 private: the waiters' hand-off spin hint (wait.h:
 *                 failed spins in a row), read by a waiter at enqueue
 *                 and updated by a signaler before it releases the first
 *                 of its batch, both while c is surely alive
 *   28   waiters  shared: waiters counted in (| ST_COND_DESTROYING)
 *        refs     private (same word): signaled waiters that may still
 *                 pass their signal on (| ST_COND_DESTROYING), below
 *   32   mutex    private: the mutex the queued waiters use (misuse check)
 *   40   waits    private: waiters ever enqueued (under lock)
 *   44   signals  private: waiters ever signaled (under lock)
 *
 * PRIVATE CONDVARS: WAITER NODES (struct st_cond_waiter, on the waiter's
 * stack). The list runs head (newest) --next--> ... --next--> tail (oldest);
 * prev points the other way. Links change only under `lock`, except in a
 * batch split off by a signaler (below), which only its members read.
 *   state    WAITING/SIGNALED/LEAVING, below; changed by CAS only
 *   barrier  2 held back, waiter running; 3 held back, waiter may be
 *            asleep (it CASes 2→3 before each sleep); 0 released (by the
 *            signaler for the first of a batch, by the previous member for
 *            the others: release.c). The waiter's one futex word.
 *   notify   set (under lock) by a signaler that met this node LEAVING:
 *            the signaler's reference count, decremented when unlinked
 *   counted  written by whoever releases the barrier, before the release:
 *            1 if it counted us in the mutex's waiters and requeued us
 *   ref      written the same way: 1 if the releaser counted us in the
 *            condvar's `refs` (we may pass the signal on; we drop it)
 *   mutex    the waiter's mutex (set before linking; read by the signaler)
 *   spin     the waiter's hand-off spin, a hint for the signaler that keeps
 *            the spin hint in `seq`: 0 none this wait (its budget was 0),
 *            1 spinning or about to, 2 over (it will sleep). Set under
 *            lock at enqueue, then by the waiter alone (relaxed)
 *
 * NODE STATES
 *   WAITING   linked on the condvar, not yet signaled
 *   SIGNALED  a signaler took it off the condvar into its batch; the
 *             waiter owns a signal and returns 0
 *   LEAVING   the waiter timed out or was cancelled before any signal and
 *             unlinks itself
 *
 * TRANSITIONS
 *  from      to        by        atomic                       event
 *  -         WAITING   waiter    link under lock              enqueued
 *  WAITING   SIGNALED  signaler  CAS, under lock              signaled (its time;
 *                                                             a single signal's
 *                                                             record is written
 *                                                             after the release:
 *                                                             signal.c)
 *  WAITING   LEAVING   waiter    CAS (timeout, cancel)        leaving
 *  LEAVING   (gone)    waiter    unlink under lock; if notify:
 *                                fetch_add(notify,-1), wake
 *                                the signaler at 0
 *  (LEAVING met by a signaler: notify = &ref, ref++)          met_leaving
 *  signaler waits while ref != 0                              ref_wait_begin,
 *                                                             ref_wait_end
 *  barrier   2 → 3     waiter    CAS, before each sleep       (none; the sleep's
 *                                                             futex:wait only
 *                                                             outside the cancel
 *                                                             window, see below)
 *  barrier   2 → 0     signaler  CAS (waiter running: no      signal
 *                                system call), for the        (first_how 2)
 *                                batch's first (oldest)
 *  barrier   3 → 0     signaler  signal(1): refs++, ref = 1,  signal
 *                                store-release, wake.         (first_how 0)
 *                                broadcast: store-release,    (first_how 1/0)
 *                                then requeue onto the mutex
 *                                (signaler holds it) or wake
 *  (SIGNALED, ref = 1)  waiter   cancelled: signal(1) again   woke (how 3),
 *                                (pass on); then refs--, wake signal
 *                                a destroyer at 0
 *  (waiter's wait ends: signaled/timeout/cancel)              woke
 *  (waiter holds the mutex again)                             relocked
 *  barrier   2/3 → 0   member    as above, for node->prev:    handoff
 *                                requeue onto the mutex it
 *                                holds (FUTEX_CMP_REQUEUE)
 *
 * A signal walks from the tail: WAITING nodes become SIGNALED until n are;
 * LEAVING nodes are counted in `ref` (on the signaler's stack). The visited
 * nodes are split off the condvar as one batch. The signaler waits until
 * every LEAVING node it met has unlinked itself (so none of them can touch
 * the condvar after the signaler returned and the program destroyed it, nor
 * the signaler's dead `ref`), then releases the batch's oldest barrier. Each
 * member, once it holds the mutex again, releases the next one (node->prev)
 * by requeueing it onto the mutex word: the batch enters the mutex one by
 * one, woken by mutex unlocks, and never wakes only to block.
 * When a broadcaster itself holds the waiters' mutex, it requeues the first
 * one onto it the same way, instead of a wake that would block at once.
 * A single signal wakes its waiter instead (it must drop its `ref` before
 * it may block on the mutex: see CANCELLED AND SIGNALED).
 *
 * MUTEX HAND-OFF (doc/cond.md). A requeued member sleeps on
 * the mutex word without having counted itself in the mutex's `waiters`,
 * and the mutex wakes only when SLEEPERS is set; a counted thread that
 * takes the word while spinning sets SLEEPERS again only if `waiters` > 1
 * (from the sleep loop it always does). So the member that requeues
 * counts the next one in `waiters` and sets SLEEPERS while it holds the
 * mutex (st_mutex_cond_handoff); the next one re-acquires through the sleep
 * loop as an already counted waiter (st_mutex_cond_relock, counted = 1),
 * which drops that count once it holds the lock. The releasing member
 * says so in the node (`counted`, written before the barrier's
 * store-release, read after the waiter sees the barrier at 0).
 *
 * NODE LIFETIME. A node lives until its waiter returns. Others touch it:
 *  - signalers, under the condvar lock, while it is linked (state CAS, its
 *    links, notify): the waiter unlinks itself under the same lock before
 *    leaving, or is SIGNALED and then waits for its barrier;
 *  - the previous batch member, which stores 0 to its barrier: the waiter
 *    cannot return before that store. The futex call that follows may hit
 *    a dead node (only its address is used: a spurious wake at worst).
 * A SIGNALED waiter touches the condvar again only while it holds a ref
 * (below); a LEAVING one until it has unlinked itself and dropped the
 * signaler's reference.
 *
 * CANCELLED AND SIGNALED (doc/cond.md: how the model found it). A waiter
 * cancelled in its sleep just as a signal(1) took it must not swallow
 * that signal (POSIX): it signals once more. But for the program a
 * signaled waiter is no longer blocked, so it may already have destroyed
 * (and freed) the condvar. So the condvar counts such waiters,
 * glibc-style: when a single signal releases a waiter that may be asleep
 * in its cancellable sleep (barrier 3; a waiter seen running, barrier 2,
 * never enters it), the signaler adds 1 to `refs` and sets node->ref,
 * both before the release and while the condvar is certainly alive (we
 * are inside pthread_cond_signal). The waiter passes the signal on if it
 * was cancelled, then drops the ref, before it re-acquires the mutex;
 * pthread_cond_destroy sets ST_COND_DESTROYING and waits for refs to
 * drain. As no ref holder needs the mutex to drop it, a destroyer holding
 * the mutex cannot deadlock: that is why single signals never requeue.
 * A broadcast's waiters need no ref: a broadcast reached every waiter
 * blocked at the time, so a cancelled one has nothing to pass on. Cost:
 * two atomics, only when the waiter really slept (a system call each way
 * anyway); none in the spinning hand-off.
 *
 * SPIN HINT (`seq`, private). A waiter spins before it sleeps (a hand-off
 * wait, wait.h) unless the hint says that recent spins missed. The
 * signaler that releases a batch's first judges that waiter's spin: caught
 * spinning is a success; spin over, or asleep, a miss. A catch counts as a
 * success only if the signal is a reply: the signaling thread waited on a
 * private condvar within its last ST_COND_REPLY_SIGNALS signals
 * (st_tls.cond_signals_left). A ping-pong replies, and so does a producer
 * that waits for room: its CPU is about to go idle, and the spin saves
 * both sides a system call. A signaler that never waits streams: a waiter
 * caught spinning takes one item per wait, each item costs a slow-path
 * signal, and the spinner keeps a CPU from the producers; asleep, it
 * wakes to a batch (doc/cond.md).
 *
 * DESTROY (private). Nodes still queued mean threads blocked on c: destroy
 * returns EBUSY and changes nothing (a misuse event says so; glibc's would
 * sleep until they left). Else it drains `refs` as above; signalers have
 * already waited for the LEAVING waiters they met.
 *
 * PROCESS-SHARED CONDVARS: no nodes (they would be in another process's
 * address space). A waiter reads `seq`, counts itself in `waiters`, releases
 * the mutex and sleeps while seq is unchanged; a signal with waiters counted
 * increments seq and wakes 1 (broadcast: all). Returns after any seq change
 * are allowed spurious wakes. destroy sets ST_COND_DESTROYING and waits for
 * `waiters` to drain; the last leaving waiter wakes it.
 *
 * CANCELLATION (glibc's pthread_cancel, deferred type). glibc's own
 * cancellation points are its syscall wrappers; our futex call is not one.
 * So the sleep itself is made one: around each futex wait the waiter
 * switches to asynchronous cancellation (pthread_setcanceltype; a cancel
 * already pending acts right there), inside a pthread_cleanup_push frame.
 * The window holds only the system call (st_futex_wait_cancel in
 * src/internal/futex.c), whose futex:wait event is emitted after the
 * window closes, so the async unwind never interrupts a probe. glibc's
 * SIGCANCEL handler unwinds to our cleanup handler, which runs the LEAVING
 * path (or, if already SIGNALED, the barrier path, and with a ref passes
 * the signal on: CANCELLED AND SIGNALED), re-acquires the mutex, and lets
 * the unwind continue into the program's handlers, mutex held, as POSIX
 * says. Spinning before the sleep is not a cancellation point. */
#ifndef ST_COND_H
#define ST_COND_H

/* SPIN HINT: signals after a condvar wait that still count as replies. */
#define ST_COND_REPLY_SIGNALS 64

#include <pthread.h>
#include <stdint.h>
#include <time.h>

#include "internal/atomic.h"
#include "internal/futex.h"
#include "internal/trace.h"

enum st_cond_state {
	ST_COND_WAITING = 0,  /* linked, not signaled */
	ST_COND_SIGNALED = 1, /* taken into a signaler's batch: owns a signal */
	ST_COND_LEAVING = 2,  /* timed out / cancelled first: unlinking itself */
};

struct st_cond_waiter {
	struct st_cond_waiter *prev; /* newer neighbour (toward head) */
	struct st_cond_waiter *next; /* older neighbour (toward tail) */
	volatile int state;          /* enum st_cond_state */
	volatile int barrier;        /* 2 held back, 0 released */
	volatile int *notify;        /* a signaler's ref count, or NULL */
	int counted;                 /* set by whoever released us: it counted
	                              * us in the mutex's waiters (requeue) */
	int ref;                     /* set by whoever released us: it counted
	                              * us in the condvar's refs */
	pthread_mutex_t *mutex;      /* the mutex this waiter re-acquires */
	volatile int spin;           /* its hand-off spin: 0 none this wait,
	                              * 1 spinning (or about to), 2 over */
};

struct st_cond {
	struct st_cond_waiter *volatile head;
	struct st_cond_waiter *volatile tail;
	volatile int lock;
	int attr;
	volatile int seq;
	union {
		volatile int waiters; /* shared condvars */
		volatile int refs;    /* private condvars */
	};
	void *mutex;
	uint32_t waits;
	uint32_t signals;
};

#define ST_COND_CLOCK_MASK 0xff
#define ST_COND_PSHARED 0x100
#define ST_COND_DESTROYING 0x40000000
/* attr: the life began with pthread_cond_init (or cnd_init). A private
 * condvar's first wait in a life without it (waits 1, read under the
 * condvar lock) begins that life for the summary level as an init would
 * (src/cond/wait.c, st_summary_saw's FIRST_USE). */
#define ST_COND_INITED 0x20000000

/* Codes (woke `how`, misuse `what`, handoff `how`): enum st_cond_woke,
 * st_cond_misuse, st_cond_release in tracepoints/events/cond.def. */

static inline struct st_cond *st_cond(pthread_cond_t *c)
{
	return (struct st_cond *)c;
}

static inline clockid_t st_cond_clock(const struct st_cond *c)
{
	return c->attr & ST_COND_CLOCK_MASK;
}

/* The condvar lock (private condvars): 0 free, 1 held, 2 held + sleepers. */
void st_cond_lock_slow(struct st_cond *c);

static inline void st_cond_lock(struct st_cond *c)
{
	if (!st_cas_acquire(&c->lock, 0, 1))
		st_cond_lock_slow(c);
}

/* After the swap the condvar may be gone (a LEAVING waiter that nobody
 * met): only its address is used for the wake. */
static inline void st_cond_unlock(struct st_cond *c)
{
	if (st_swap_release(&c->lock, 0) == 2)
		st_futex_wake(&c->lock, 1, 0, c);
}

int st_cond_init(pthread_cond_t *c, const pthread_condattr_t *a, const void *caller);
int st_cond_destroy(pthread_cond_t *c, const void *caller);

/* Wait on c with m held; abs NULL: no timeout, else absolute on clk. */
int st_cond_wait(struct st_cond *c, pthread_mutex_t *m, clockid_t clk,
		 const struct timespec *abs, const void *caller);

/* Release n's barrier (release.c); held: a mutex the caller holds that n
 * re-acquires, or NULL; single: a signal(1) inside pthread_cond_signal
 * (the condvar is alive), which counts n in refs if n may be asleep.
 * Returns an st_cond_release code; *result gets the futex result. */
int st_cond_release(struct st_cond *c, struct st_cond_waiter *n, pthread_mutex_t *held,
		    int single, int *result);
/* Its two steps, for a caller with work between them (signal.c): a
 * running n released by one CAS (1), else (barrier 3: only the releaser
 * changes it now) the rest, for an n that may sleep. */
static inline int st_cond_release_running(struct st_cond_waiter *n)
{
	/* n is alive: its waiter cannot return before the barrier is 0. */
	return st_cas_release(&n->barrier, 2, 0);
}
int st_cond_release_sleeper(struct st_cond *c, struct st_cond_waiter *n, pthread_mutex_t *held,
			    int single, int *result);

/* Signal n waiters (INT32_MAX: broadcast): the slow path (signal.c), and
 * its process-shared body (shared.c: returns how many the wake woke). */
int st_cond_signal_slow(struct st_cond *c, int n, const void *caller);
int st_cond_signal_shared(struct st_cond *c, int n);

/* The misuse event's one call site (init.c). */
void st_cond_misuse(struct st_cond *c, const void *caller, int what, const void *mutex,
		    const void *other);

/* Signal / broadcast: with nobody waiting, two loads. A waiter is on the
 * list (or counted) before it releases the mutex, so a signaler holding
 * the mutex always sees it. The list is empty only if the condvar lock is
 * free too: a LEAVING waiter unlinks itself under that lock, and a signaler
 * that returned while it still held it would let the program destroy the
 * condvar under the leaver's unlock (found by tests/model/cond.pml). */
static inline int st_cond_signal(struct st_cond *c, int n, const void *caller)
{
	if (st_likely(!(c->attr & ST_COND_PSHARED))) {
		if (!st_load_acquire(&c->tail) && !st_load_acquire(&c->lock))
			return 0;
		return st_cond_signal_slow(c, n, caller);
	}
	if (!(st_load_acquire(&c->waiters) & ~ST_COND_DESTROYING))
		return 0;
	return st_cond_signal_slow(c, n, caller);
}

#endif
