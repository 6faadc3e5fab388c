/* The private condvar protocol of src/cond/ (with the mutex hand-off of
 * src/mutex/cond_support.c), checked with spin. The state machine is in
 * src/cond/cond.h; each step below names the code it stands for.
 *
 * Threads: NW waiters (1..NW; 2 in CI, 3 nightly: -DNW=3) and one
 * signaler (NW+1). Each waiter: lock m; cond_wait (which may time out or
 * be cancelled, once); unlock m. The signaler: signal(1) with or without
 * m held; then, holding m, broadcast, and destroy the condvar at once if
 * every waiter had started waiting (legal: nobody is blocked on it after
 * the broadcast).
 *
 * Futexes are "sleep while the word holds the value": the compare and the
 * queueing are one kernel step; a sleeper leaves the queue when woken, on
 * a bounded number of spurious wakes, a timeout or a cancel (one of the
 * two, once per waiter). FUTEX_CMP_REQUEUE moves a barrier sleeper onto
 * the mutex word's queue. The condvar's internal lock (src/cond/lock.c)
 * is an atomic blocking lock: what it guards is one step.
 *
 * Each racy access of the C code (a load, a CAS, a store that another
 * thread reads without the condvar lock) is its own step here.
 *
 * Properties:
 *  - mutual exclusion on m (ghost `holders`);
 *  - no deadlock / lost wakeup: every thread finishes (a sleeper nobody
 *    wakes is an invalid end state), and, asserted directly:
 *      - a signal that finds a WAITING waiter marks one (signal walk);
 *      - a SIGNALED waiter returns 0 (never ETIMEDOUT: the signal is consumed);
 *      - a cancelled waiter that held a single signal does not swallow
 *        it (musl 2015): if others were WAITING when it found itself
 *        cancelled, its pass-on marks one, or none of them is WAITING
 *        any more;
 *      - at the end, every signal marked was consumed or passed on;
 *  - no access to a dead waiter node, a dead signaler `ref` (stack frames:
 *    ghost `alive` flags) or a destroyed condvar (`cv_alive`), asserted on
 *    every access from another thread.
 *
 * Knobs: -DNW=3 (nightly), -DDESTROY=0 (no destroy), -DCANCEL=0
 * (timeouts only), -DSPURIOUS=n, -DMUT_EMPTY_CHECK_NO_LOCK (finding A, as
 * it was before its fix), -DMUT_DESTROY_NO_REFWAIT (finding B, as it was:
 * destroy does not wait for the refs of signaled waiters).
 *
 * Seeded mutations (spin -DMUT_...), each must be caught:
 *  MUT_NO_REFWAIT     the signaler returns without waiting for the LEAVING
 *                     waiters it met (signal.c:signal_private);
 *  MUT_NO_BARRIER     a SIGNALED waiter does not wait for its barrier
 *                     (wait.c:leave_or_take);
 *  MUT_NO_HANDOFF_COUNT  the requeued waiter is not counted in m's waiters
 *                     and SLEEPERS is not set (cond_support.c:
 *                     st_mutex_cond_handoff; musl 2020);
 *  MUT_CANCEL_CONSUMES   a cancelled SIGNALED waiter does not pass its
 *                     signal on (wait.c:drop_ref; musl 2015);
 *  MUT_DESTROY_NO_REFWAIT  pthread_cond_destroy does not wait for refs
 *                     (init.c:st_cond_destroy; finding B). */

#ifndef NW
#define NW 2                /* waiters */
#endif
#define SIG (NW + 1)        /* the signaler's thread id */
#define NT (NW + 2)         /* array size: ids 1..SIG */
#ifndef SPURIOUS
#define SPURIOUS 1          /* spurious futex returns, all threads together */
#endif
#ifndef ABORTS
#define ABORTS 1            /* timeouts or cancels per waiter */
#endif
#ifndef DESTROY
#define DESTROY 1           /* the signaler destroys c after its broadcast */
#endif
#ifndef CANCEL
#define CANCEL 1            /* waiters may be cancelled (else only time out) */
#endif
#define ALL 9               /* broadcast (INT32_MAX) */

/* enum st_cond_state, plus NONE for a node not yet linked */
#define WAITING 0
#define SIGNALED 1
#define LEAVING 2
#define NONE 3

/* futex words a thread may sleep on (sleeping[t]) */
#define F_MUTEX 1                 /* m->lock */
#define F_BARRIER(i) (1 + (i))    /* node i's barrier: 2..NW+1 */
#define F_REF(t) (10 + (t))       /* thread t's `ref` (signal_private) */
#define F_REFS 9                  /* c->refs (private condvars) */

#define EAGAIN 11
#define ETIMEDOUT 110

/* st_cond_wait's reasons / woke `how` (enum st_cond_woke) */
#define R_SIGNALED 0
#define R_TIMEDOUT 1
#define R_CANCELLED 2
#define R_CANCELLED_SIGNALED 3

/* ---- the mutex (src/mutex/mutex.h): lock word = owner | SLEEPERS ---- */
byte m_owner;               /* bits 0-29: tid, 0 free */
bit m_sleepers;             /* bit 31 */
byte m_waiters;             /* m->waiters */
byte holders;               /* ghost: threads holding m */

/* ---- the condvar (src/cond/cond.h) ---- */
byte head, tail;            /* node ids, 0 = NULL */
byte cv_lock;               /* c->lock: 0 free, else the holder */
bit cv_alive = 1;           /* ghost: not destroyed */
byte refs;                  /* c->refs: signaled waiters holding a ref */
bit cv_destroying;          /* c->refs & ST_COND_DESTROYING */

/* ---- waiter nodes (struct st_cond_waiter on waiter i's stack) ---- */
byte n_prev[NT], n_next[NT];
byte n_state[NT];
byte n_barrier[NT];
byte n_notify[NT];          /* signaler's thread id, 0 = NULL */
byte n_notify_gen[NT];      /* ghost: which call of that signaler */
bit n_counted[NT];
bit n_ref[NT];              /* node->ref: counted in refs by its releaser */
bit n_alive[NT];            /* ghost: the waiter is inside cond_wait */

/* ---- each thread's `ref` in signal_private (its stack frame) ---- */
byte ref[NT];
bit ref_alive[NT];          /* ghost: signal_private has not returned */
byte ref_gen[NT];           /* ghost: which call */

/* ---- the kernel ---- */
byte sleeping[NT];          /* the futex word a thread is queued on, 0 none */
byte spur = SPURIOUS;       /* spurious returns left */

/* ---- ghosts for the lost-wakeup rules ---- */
byte started;               /* waiters that hold m and are about to wait */
byte marked;                /* WAITING → SIGNALED transitions */
byte consumed;              /* waits that returned 0 on a signal */
byte passed;                /* cancelled waiters that held a signal */
byte finished;              /* threads done */

/* ------------------------------------------------------------------ */
/* The kernel. Convention: each atomic block below holds one access to
 * shared memory (or one kernel operation) plus local bookkeeping;
 * scratch locals are cleared once dead, so they do not split states. */

/* futex_wait (internal/futex.c:st_futex_wait): sleep while `eq` holds.
 * r: 0 (woken, or a spurious return), EAGAIN, ETIMEDOUT. tmo: the wait
 * may time out; cnc: it is a cancellation point (wait.c:sleep_cancellable:
 * asynchronous cancellation around the whole system call, so the cancel
 * may act before the call, while asleep, or just after it returned; it
 * sets `cancelled`). Timeouts and cancels share the `aborts` budget. */
inline futex_wait(fid, eq, tmo, cnc)
{
	atomic {
		if
		:: eq -> sleeping[me] = fid; r = 0
		:: else -> r = EAGAIN
		fi
	}
	if
	:: r == EAGAIN ->
		if
		:: cnc && aborts > 0 -> aborts--; cancelled = 1
		:: true -> skip
		fi
	:: else ->
		if
		:: atomic { sleeping[me] == 0 -> skip }                       /* woken */
		:: atomic { cnc && aborts > 0 && sleeping[me] == 0 ->         /* woken, then */
				aborts--; cancelled = 1 }                             /* the cancel */
		:: atomic { spur > 0 && sleeping[me] != 0 -> sleeping[me] = 0; spur-- }
		:: atomic { tmo && aborts > 0 && sleeping[me] != 0 ->
				sleeping[me] = 0; aborts--; r = ETIMEDOUT }
		:: atomic { cnc && aborts > 0 && sleeping[me] != 0 ->
				sleeping[me] = 0; aborts--; cancelled = 1 }
		fi
	fi
}

/* futex_wake(fid, 1): one of the sleepers queued on fid, if any. */
inline futex_wake(fid)
{
	atomic {
		if
		:: sleeping[1] == fid -> sleeping[1] = 0
		:: sleeping[2] == fid -> sleeping[2] = 0
		:: sleeping[3] == fid -> sleeping[3] = 0
#if NW > 2
		:: sleeping[4] == fid -> sleeping[4] = 0
#endif
		:: else -> skip
		fi
	}
}

/* ------------------------------------------------------------------ */
/* The mutex (src/mutex/), normal private type. */

/* The CAS FREE → HELD/CONTENDED (bitv: SLEEPERS too), with the ghost
 * check of mutual exclusion. */
inline mutex_cas_take(bitv)
{
	atomic {
		if
		:: m_owner == 0 && m_sleepers == 0 ->
			m_owner = me; m_sleepers = bitv; ok = 1;
			holders++; assert(holders == 1)
		:: else -> ok = 0
		fi;
		w1 = 0
	}
}

/* One pass of the sleep loop of lock.c:st_mutex_lock_slow (counted = 0)
 * or cond_support.c:relock_counted (counted = 1: take_counted loads the
 * word again first). Sets ok when the lock is taken. */
inline mutex_sleep_loop(counted)
{
	do
	:: atomic { vo = m_owner; vs = m_sleepers };         /* v = load(lock) */
		if
		:: vo == 0 && vs == 0 ->
			if
			:: counted ->                                /* take_counted: load */
				atomic { ok = (m_owner == 0 && m_sleepers == 0); vo = 0; vs = 0 }
			:: else -> ok = 1; vo = 0; vs = 0
			fi;
			if
			:: ok ->
				atomic { w1 = (m_waiters > 1) };         /* load(waiters) > 1 */
				mutex_cas_take(w1);                      /* CAS 0 → tid [| S] */
				if
				:: ok -> break
				:: else -> skip
				fi
			:: else -> skip
			fi
		:: else ->
			if
			:: vs == 0 ->                                /* CAS v → v | S */
				atomic {
					if
					:: m_owner == vo && m_sleepers == 0 -> m_sleepers = 1; vs = 1
					:: else -> vo = 0
					fi
				}
			:: else -> skip
			fi;
			if
			:: vs ->
				futex_wait(F_MUTEX, m_owner == vo && m_sleepers == 1, 0, 0);
				r = 0
			:: else -> skip
			fi;
			vo = 0; vs = 0
		fi
	od;
	atomic { m_waiters--; ok = 0 }                       /* st_dec(&m->waiters) */
}

/* mutex.h:st_mutex_lock → lock.c:st_mutex_lock_slow. The first CAS
 * stands for the fast path's, the slow path's and the spin's attempts
 * (the same CAS at other times). */
inline mutex_lock()
{
	mutex_cas_take(0);
	if
	:: ok -> ok = 0
	:: else ->
		m_waiters++;                                     /* st_inc(&m->waiters) */
		mutex_sleep_loop(0)
	fi
}

/* mutex.h:st_mutex_unlock (fast path) + unlock.c: swap 0, then wake one
 * if SLEEPERS was set (only the address is used after the swap). */
inline mutex_unlock()
{
	atomic { holders--; vs = m_sleepers; m_owner = 0; m_sleepers = 0 };
	if
	:: vs -> futex_wake(F_MUTEX)
	:: else -> skip
	fi;
	vs = 0
}

/* ------------------------------------------------------------------ */
/* release.c:st_cond_release(c, node k, held, single): hld: the caller
 * holds m (st_mutex_cond_held / hand_off's `held`); sgl: a signal(1)
 * inside pthread_cond_signal (signal_private; hand_off passes 0). */
inline cond_release(k, hld, sgl)
{
	atomic {                                             /* CAS barrier 2 → 0 */
		assert(n_alive[k]);
		if
		:: n_barrier[k] == 2 -> n_barrier[k] = 0; ok = 1
		:: else -> ok = 0
		fi
	}
	if
	:: ok -> ok = 0                                      /* RUNNING: no system call */
	:: else ->
		/* 3: it may sleep. single: refs++, n->ref = 1, a wake. Else
		 * requeue = held && st_mutex_cond_handoff(m). */
		if
		:: sgl ->
			atomic { assert(cv_alive); refs++ };         /* fetch_add(&c->refs, 1) */
			requeue = 0
		:: else -> requeue = hld
		fi;
#ifndef MUT_NO_HANDOFF_COUNT
		if
		:: requeue ->
			m_waiters++;                                 /* st_inc(&m->waiters) */
			do                                           /* until SLEEPERS is set */
			:: atomic { vo = m_owner; vs = m_sleepers };
				if
				:: vs -> break
				:: else ->
					atomic {                             /* CAS v → v | S */
						if
						:: m_owner == vo && m_sleepers == 0 -> m_sleepers = 1; ok = 1
						:: else -> ok = 0
						fi
					}
					if
					:: ok -> break
					:: else -> skip
					fi
				fi
			od;
			vo = 0; vs = 0; ok = 0
		:: else -> skip
		fi;
		atomic { assert(n_alive[k]); n_ref[k] = sgl; n_counted[k] = requeue };
#else
		/* musl 2020: requeued, but not counted in m's waiters, no SLEEPERS */
		atomic { assert(n_alive[k]); n_ref[k] = sgl; n_counted[k] = 0 };
#endif
		atomic { assert(n_alive[k]); n_barrier[k] = 0 };         /* store-release 0 */
		/* from here on node k may be gone: its address only */
		if
		:: requeue ->                    /* FUTEX_CMP_REQUEUE(&barrier, 0, 0, 1, &m->lock) */
			atomic {
				if
				:: n_barrier[k] == 0 && sleeping[k] == F_BARRIER(k) -> sleeping[k] = F_MUTEX
				:: else -> skip
				fi;
				requeue = 0
			}
		:: else -> futex_wake(F_BARRIER(k))
		fi
	fi
}

/* ------------------------------------------------------------------ */
/* signal.c:signal_private(c, nsig) by thread me: the signaler, or a
 * cancelled waiter passing its signal on (wait.c:finish). */
inline signal_private()
{
	atomic { ref_gen[me]++; ref[me] = 0; ref_alive[me] = 1;    /* volatile int ref = 0 */
		 sgl = (nsig != ALL) };                            /* single = n != INT32_MAX */
	atomic { cv_lock == 0 -> assert(cv_alive); cv_lock = me; p = tail }  /* lock; p = tail */
	/* The walk, one step per node: a waiter may CAS its own state
	 * WAITING → LEAVING between them (it does not hold the lock). */
	do
	:: nsig > 0 && p != 0 ->
		atomic {
			assert(n_alive[p]);
			if
			:: n_state[p] == WAITING ->                  /* CAS → SIGNALED */
				n_state[p] = SIGNALED; marked++; gm++;
				if
				:: first == 0 -> first = p
				:: else -> skip
				fi;
				nsig--
			:: else ->                                   /* LEAVING: notify = &ref, ref++ */
				assert(n_state[p] == LEAVING);
				n_notify[p] = me; n_notify_gen[p] = ref_gen[me];
				leaving++; ref[me] = leaving
			fi;
			p = n_prev[p]
		}
	:: else -> break
	od;
	atomic {                         /* split the visited nodes off; unlock (swap) */
		/* the rule: a signal that met a WAITING waiter marked one */
		assert(nsig == 0 || p == 0);
		if
		:: p != 0 ->
			assert(n_alive[p]);
			if
			:: n_next[p] != 0 -> assert(n_alive[n_next[p]]); n_prev[n_next[p]] = 0
			:: else -> skip
			fi;
			n_next[p] = 0
		:: else -> head = 0
		fi;
		tail = p;
		assert(cv_alive); cv_lock = 0;
		p = 0; nsig = 0
	}
#ifndef MUT_NO_REFWAIT
	/* while ((cur = load(ref))) st_wait(&ref, cur, ...): each LEAVING
	 * waiter met unlinks itself, then decrements; the last one wakes us. */
	if
	:: leaving > 0 ->
		do
		:: atomic { cur = ref[me] };
			if
			:: cur == 0 -> break
			:: else -> futex_wait(F_REF(me), ref[me] == cur, 0, 0); r = 0
			fi
		od
	:: else -> skip
	fi;
#endif
	leaving = 0;
	/* Release the oldest signaled waiter (a broadcast's: requeued onto m
	 * if we hold it; a signal's: counted in refs if it may sleep). */
	if
	:: first != 0 ->
		atomic { assert(n_alive[first]); w1 = (m_owner == me) };  /* first->mutex; held? */
		cond_release(first, w1, sgl);
		w1 = 0; first = 0
	:: else -> skip
	fi;
	sgl = 0;
	ref_alive[me] = 0                                    /* signal_private returns */
}

/* cond.h:st_cond_signal: the no-waiter check (no lock), then the slow path. */
inline cond_signal()
{
	atomic { assert(cv_alive); p = tail };               /* load_acquire(&c->tail) */
#ifndef MUT_EMPTY_CHECK_NO_LOCK
	/* finding A's fix: the list counts as empty only if the condvar lock
	 * is free as well (a LEAVING waiter unlinks under it). */
	if
	:: p == 0 -> atomic { assert(cv_alive); p = cv_lock }
	:: else -> skip
	fi;
#endif
	if
	:: p != 0 -> signal_private()
	:: else -> nsig = 0
	fi
}

/* ------------------------------------------------------------------ */
proctype waiter(byte me)
{
	byte r, vo, p, first, leaving, nsig, cur, reason, k, gm, snap;
	bit vs, ok, w1, cancelled, requeue, sgl, rf;
	byte aborts = ABORTS;

	mutex_lock();                                        /* the program */

	/* wait.c:st_cond_wait → enqueue_private: the node (on our stack,
	 * nobody sees it before it is linked), then lock; link as head;
	 * waits++; unlock (one step: all of it under the condvar lock). */
	atomic {
		cv_lock == 0 -> assert(cv_alive); cv_lock = me;
		started++;                                       /* ghost: we hold m */
		n_alive[me] = 1; n_state[me] = WAITING; n_barrier[me] = 2;
		n_notify[me] = 0; n_counted[me] = 0; n_ref[me] = 0; n_prev[me] = 0;
		n_next[me] = head;
		if
		:: head != 0 -> assert(n_alive[head]); n_prev[head] = me
		:: else -> tail = me
		fi;
		head = me;
		cv_lock = 0
	}
	mutex_unlock();                                      /* st_mutex_unlock; unlocked = 1 */

	/* sleep_until_released: the spin (released?), then may_sleep and the
	 * cancellable sleep, until released (0), a timeout or a cancel. */
	/* (the spin's loads of the barrier are the same read as may_sleep's) */
	if
	:: true ->
		do
		:: atomic { k = n_barrier[me] };                 /* released? may_sleep: load */
			if
			:: k == 0 -> reason = R_SIGNALED; break
			:: k == 2 ->
				atomic {                                 /* CAS 2 → 3 */
					if
					:: n_barrier[me] == 2 -> n_barrier[me] = 3
					:: else -> k = 0
					fi
				}
			:: k == 3 -> skip
			fi;
			if
			:: k != 0 ->
				futex_wait(F_BARRIER(me), n_barrier[me] == 3, 1, CANCEL);
				if
				:: cancelled -> reason = R_CANCELLED; break           /* on_cancel */
				:: else -> skip
				fi;
				atomic {                                 /* released(); w->r */
					if
					:: n_barrier[me] == 0 -> reason = R_SIGNALED; k = 9
					:: else -> if
						:: r == ETIMEDOUT -> reason = R_TIMEDOUT; k = 9
						:: else -> skip                  /* spurious++ */
						fi
					fi;
					r = 0
				}
				if
				:: k == 9 -> break
				:: else -> skip
				fi
			:: else -> skip
			fi
		od
	fi;
	k = 0; cancelled = 0;

	/* finish → leave_or_take: CAS WAITING → LEAVING */
	atomic {
		if
		:: n_state[me] == WAITING -> n_state[me] = LEAVING; ok = 1
		:: else -> ok = 0
		fi
	}
	if
	:: ok ->
		ok = 0;
		atomic {                                         /* lock; unlink; notify = n->notify */
			cv_lock == 0 -> assert(cv_alive); cv_lock = me;
			if
			:: head == me -> head = n_next[me]
			:: head != me && n_prev[me] != 0 ->
				assert(n_alive[n_prev[me]]); n_next[n_prev[me]] = n_next[me]
			:: else -> skip
			fi;
			if
			:: tail == me -> tail = n_prev[me]
			:: tail != me && n_next[me] != 0 ->
				assert(n_alive[n_next[me]]); n_prev[n_next[me]] = n_prev[me]
			:: else -> skip
			fi;
			k = n_notify[me]
		}
		atomic { assert(cv_alive); cv_lock = 0 };        /* st_cond_unlock (swap) */
		if
		:: k != 0 ->
			atomic {                                     /* fetch_add(notify, -1) == 1 */
				assert(ref_alive[k] && ref_gen[k] == n_notify_gen[me]);
				ref[k]--;
				ok = (ref[k] == 0)
			}
			if
			:: ok -> futex_wake(F_REF(k))                /* its address only */
			:: else -> skip
			fi;
			ok = 0; k = 0
		:: else -> skip
		fi
	:: else ->
		/* SIGNALED: the signal is ours. wait_released: the spin, then
		 * may_sleep + futex_wait (no timeout, no cancel) until 0. */
		if
		:: reason == R_CANCELLED -> reason = R_CANCELLED_SIGNALED
		:: else -> reason = R_SIGNALED
		fi;
#ifndef MUT_NO_BARRIER
		do
		:: atomic { k = n_barrier[me] };
			if
			:: k == 0 -> break
			:: k == 2 ->
				atomic {
					if
					:: n_barrier[me] == 2 -> n_barrier[me] = 3
					:: else -> k = 0
					fi
				}
			:: k == 3 -> skip
			fi;
			if
			:: k != 0 -> futex_wait(F_BARRIER(me), n_barrier[me] == 3, 0, 0); r = 0
			:: else -> skip
			fi
		od
#endif
	fi;

	/* finish → drop_ref: with a ref (a single signal took us from our
	 * sleep), c is alive until we drop it: a cancelled waiter passes the
	 * signal on first. Both before the mutex re-acquire. */
	if
	:: reason == R_SIGNALED || reason == R_CANCELLED_SIGNALED ->
		atomic { rf = n_ref[me] }                        /* w->node.ref */
	:: else -> skip
	fi;
	if
	:: rf ->
		if
		:: reason == R_CANCELLED_SIGNALED ->
			/* ghost: who else is blocked on c as we act on the cancel */
			atomic {
				snap = (n_state[1] == WAITING && 1 != me) +
				       2 * (n_state[2] == WAITING && 2 != me)
#if NW > 2
				       + 4 * (n_state[3] == WAITING && 3 != me)
#endif
			}
#ifndef MUT_CANCEL_CONSUMES
			gm = 0; nsig = 1;
			cond_signal();                               /* st_cond_signal(c, 1) */
#endif
			/* the rule: we did not swallow the signal */
			atomic {
				assert(gm > 0 ||
				       ((snap & 1) == 0 || n_state[1] != WAITING) &&
				       ((snap & 2) == 0 || n_state[2] != WAITING)
#if NW > 2
				       && ((snap & 4) == 0 || n_state[3] != WAITING)
#endif
				);
				snap = 0; gm = 0
			}
		:: else -> skip
		fi;
		atomic {                                         /* fetch_add(&c->refs, -1) */
			assert(cv_alive); refs--;
			ok = (cv_destroying && refs == 0)            /* == DESTROYING | 1 */
		}
		if
		:: ok -> futex_wake(F_REFS)                      /* its address only */
		:: else -> skip
		fi;
		ok = 0; rf = 0
	:: else -> skip
	fi;

	/* finish: re-acquire m (st_mutex_cond_relock): counted if the
	 * releaser requeued us (node.counted, read after the barrier). */
	if
	:: reason == R_SIGNALED || reason == R_CANCELLED_SIGNALED ->
		atomic { w1 = n_counted[me] }
	:: else -> skip
	fi;
	if
	:: w1 -> w1 = 0; mutex_sleep_loop(1)                 /* relock_counted */
	:: else -> mutex_lock()
	fi;
	/* hand_off: release node->prev, requeued onto m (we hold it). */
	if
	:: reason == R_SIGNALED || reason == R_CANCELLED_SIGNALED ->
		atomic { k = n_prev[me]; assert(k == 0 || n_alive[k]) };  /* next; next->mutex */
		if
		:: k != 0 ->
			cond_release(k, 1, 0);
			k = 0
		:: else -> skip
		fi
	:: else -> skip
	fi;
	if
	:: reason == R_CANCELLED_SIGNALED -> passed++        /* cancelled holding a signal */
	:: reason == R_SIGNALED -> consumed++                /* returns 0 */
	:: else -> assert(n_state[me] == LEAVING)            /* ETIMEDOUT / cancelled: unsignaled */
	fi;
	atomic { n_alive[me] = 0; reason = 0 };              /* returns: the node is dead */

	mutex_unlock();                                      /* the program (or its cleanup) */
	atomic { finished++; r = 0 }
}

proctype signaler(byte me)
{
	byte r, vo, p, first, leaving, nsig, cur, gm;
	bit vs, ok, w1, cancelled, requeue, held, allin, sgl;
	byte aborts = 0;

	/* pthread_cond_signal, with or without m held */
	if
	:: held = 1; mutex_lock()
	:: held = 0
	fi;
	nsig = 1;
	cond_signal();
	if
	:: held -> held = 0; mutex_unlock()
	:: else -> skip
	fi;

	/* pthread_cond_broadcast with m held; then destroy c if every waiter
	 * had started (with m held at the broadcast, all of them were queued:
	 * nobody can be blocked on c after it). */
	mutex_lock();
	allin = (started == NW);
	nsig = ALL;
	cond_signal();
	if
	:: allin && DESTROY ->                               /* pthread_cond_destroy */
#ifndef MUT_DESTROY_NO_REFWAIT
		/* if (load(refs)) drain: set DESTROYING, sleep until 0 */
		atomic { cur = refs };
		if
		:: cur != 0 ->
			atomic { cv_destroying = 1 };                /* CAS v → v | DESTROYING */
			do
			:: atomic { cur = refs };
				if
				:: cur == 0 -> break
				:: else -> futex_wait(F_REFS, refs == cur, 0, 0); r = 0
				fi
			od
		:: else -> skip
		fi;
		cur = 0;
#endif
		cv_alive = 0
	:: else -> skip
	fi;
	allin = 0;
	mutex_unlock();
	finished++
}

init {
	byte i;
	atomic {
		i = 1;
		do
		:: i <= NW -> n_state[i] = NONE; run waiter(i); i++
		:: else -> break
		od;
		i = 0;
		run signaler(SIG)
	}
	/* every thread done: every signal was consumed or passed on */
	(finished == NW + 1);
	assert(marked == consumed + passed);
	assert(holders == 0)
}
