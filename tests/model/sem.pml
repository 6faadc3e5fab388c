/* The semaphore protocol of src/sem/ (sem.h, post.c, wait.c), checked
 * with spin: the 64-bit word data = nwaiters:value, one RMW per change.
 *
 * Threads: NW waiters (1..NW), each one sem_wait/sem_timedwait that may
 * time out (or return EINTR) or be cancelled, once; NP posters, one
 * sem_post each. The program destroys the semaphore as soon as every
 * waiter has returned and every token was taken (so every post's CAS is
 * done; its call may still be running: glibc 12674).
 *
 * Futex: sleep on `value` while it is 0; bounded spurious returns; a
 * cancel acts before, during or just after the sleep (wait.c:
 * sleep_cancellable: asynchronous cancellation around the system call).
 *
 * Properties:
 *  - no lost wakeup, asserted directly: when everything has stopped, no
 *    waiter sleeps while a token is there (with NP < NW some waiters
 *    legitimately sleep for good); other stuck states are invalid end
 *    states; tokens are conserved (value + taken == posted);
 *  - no access to the semaphore after it is destroyed (ghost `alive`,
 *    asserted on every access);
 * Seeded mutations (spin -DMUT_...), each must be caught:
 *  MUT_POST_RELOAD     the poster reads the waiter count from the object
 *                      after its increment (glibc 12674, musl 2011);
 *  MUT_CANCEL_NO_PASS  a cancelled sleeper drops its registration without
 *                      passing a post's wake on (wait.c:cancelled); seen
 *                      when the other waiter cannot leave on its own
 *                      (-DNP=1 -DABORTING=1 -DSPURIOUS=0);
 *  MUT_WAKE_GATE_LAX   the post wakes only when registered sleepers exceed
 *                      the tokens by 2 (one too few wakes).
 * MUT_WAKE_ANY_WAITER is the previous rule (wake whenever anybody is
 * registered): it must pass too, it only wakes more. */

#ifndef NW
#define NW 2
#endif
#ifndef NP
#define NP 2
#endif
#define NT (NW + NP + 1)
#ifndef SPURIOUS
#define SPURIOUS 1          /* spurious futex returns, all threads together */
#endif
#ifndef ABORTING
#define ABORTING NW         /* waiters 1..ABORTING may time out or be cancelled */
#endif
#define ETIMEDOUT 110
#define EAGAIN 11

byte value;                 /* data, low half: tokens */
byte nwaiters;              /* data, high half: registered sleepers */
bit alive = 1;              /* ghost: not destroyed */
bit asleep[NT];             /* queued on &value in the kernel */
byte spur = SPURIOUS;
byte taken, returned, posted;  /* ghosts */

/* futex_wait(&value, 0): compare and queue in one kernel step; leave the
 * queue when woken, spuriously, on a timeout or a cancel (aborts). */
inline futex_wait_value()
{
	atomic {
		if
		:: value == 0 -> asleep[me] = 1; r = 0
		:: else -> r = EAGAIN
		fi
	}
	if
	:: r == EAGAIN ->
		if
		:: aborts > 0 -> aborts--; cancelled = 1
		:: true -> skip
		fi
	:: else ->
		/* a waiter may sleep here for good only if no token is left
		 * (init checks that when everything stops) */
endsleep:
		if
		:: atomic { !asleep[me] -> skip }                          /* woken */
		:: atomic { aborts > 0 && !asleep[me] -> aborts--; cancelled = 1 }
		:: atomic { spur > 0 && asleep[me] -> asleep[me] = 0; spur-- }
		:: atomic { aborts > 0 && asleep[me] -> asleep[me] = 0; aborts--; r = ETIMEDOUT }
		:: atomic { aborts > 0 && asleep[me] -> asleep[me] = 0; aborts--; cancelled = 1 }
		fi
	fi
}

/* futex_wake(&value, 1) */
inline futex_wake_value()
{
	atomic {
		if
		:: asleep[1] -> asleep[1] = 0
		:: asleep[2] -> asleep[2] = 0
#if NW > 2
		:: asleep[3] -> asleep[3] = 0
#endif
		:: else -> skip
		fi
	}
}

inline destroy_if_done()
{
	if
	:: returned == NW && taken == NP -> alive = 0        /* sem_destroy (+ free) */
	:: else -> skip
	fi
}

proctype waiter(byte me)
{
	byte r, dv, dn, aborts = (me <= ABORTING -> 1 : 0);
	bit ok, cancelled;

	/* sem.h:st_sem_take (the fast path; the spin repeats it):
	 * d = load(data); while (tokens(d)) CAS d → d-1 */
	atomic { assert(alive); dv = value; dn = nwaiters };
	do
	:: dv > 0 ->
		atomic {
			assert(alive);
			if
			:: value == dv && nwaiters == dn -> value--; ok = 1
			:: else -> dv = value; dn = nwaiters          /* the CAS failure reloads d */
			fi
		}
		if
		:: ok -> break
		:: else -> skip
		fi
	:: else -> break
	od;
	if
	:: ok -> goto took
	:: else -> skip
	fi;

	/* wait.c: * → *+1 waiter: d = add_fetch(data, ONE_WAITER) */
	atomic { assert(alive); nwaiters++; dv = value; dn = nwaiters };
	do
	:: /* while (tokens(d)) CAS d → d-1-ONE_WAITER: token and registration */
		do
		:: dv > 0 ->
			atomic {
				assert(alive);
				if
				:: value == dv && nwaiters == dn -> value--; nwaiters--; ok = 1
				:: else -> dv = value; dn = nwaiters
				fi
			}
			if
			:: ok -> break
			:: else -> skip
			fi
		:: else -> break
		od;
		if
		:: ok -> goto took
		:: else -> skip
		fi;
		futex_wait_value();                             /* sleep_cancellable */
		if
		:: cancelled ->
			/* wait.c:cancelled (cleanup handler): drop the registration;
			 * pass a wake on if tokens are left and others registered */
			atomic { assert(alive); dv = value; dn = nwaiters; nwaiters-- };
#ifndef MUT_CANCEL_NO_PASS
			if
			:: dv > 0 && dn > 1 -> futex_wake_value()
			:: else -> skip
			fi;
#endif
			goto out
		:: r == ETIMEDOUT ->                             /* (or EINTR) */
			atomic { assert(alive); nwaiters-- };
			goto out
		:: else -> skip
		fi;
		atomic { assert(alive); dv = value; dn = nwaiters }   /* d = load(data) */
	od;
took:
	/* the token is ours; s is not touched again */
	atomic { taken++; returned++; destroy_if_done() };
	goto end;
out:
	atomic { returned++; destroy_if_done() };
end:
	skip
}

proctype poster(byte me)
{
	byte dv, dn;
	bit ok;

	/* post.c:st_sem_post: read `private`, d = load, CAS d → d+1 */
	atomic { assert(alive) };                           /* shared = s->private != 0 */
	atomic { assert(alive); dv = value; dn = nwaiters };
	do
	:: atomic {
			assert(alive);
			if
			:: value == dv && nwaiters == dn -> value++; posted++; ok = 1
			:: else -> dv = value; dn = nwaiters
			fi
		}
		if
		:: ok -> break
		:: else -> skip
		fi
	od;
#ifdef MUT_POST_RELOAD
	atomic { assert(alive); dn = nwaiters };            /* glibc 12674 */
#endif
	/* s may be gone: its address only. WAITED → HANDOVER: wake one, when
	 * more sleepers are registered than tokens were there before this
	 * post (each of those tokens has its wake already: post.c) */
	if
#if defined(MUT_WAKE_ANY_WAITER)
	:: dn > 0 -> futex_wake_value()                  /* the old rule: spare wakes */
#elif defined(MUT_WAKE_GATE_LAX)
	:: dn > dv + 1 -> futex_wake_value()
#else
	:: dn > dv -> futex_wake_value()
#endif
	:: else -> skip
	fi
}

init {
	byte i;
	atomic {
		i = 1;
		do
		:: i <= NW -> run waiter(i); i++
		:: i > NW && i <= NW + NP -> run poster(i); i++
		:: else -> break
		od
	}
	if
	:: returned == NW && _nr_pr == 1 -> skip
	:: timeout ->
		/* stuck waiters (fewer tokens than waiters): none of them may
		 * sleep while a token is there: that is a lost wakeup */
		assert(value == 0)
	fi;
	assert(value + taken == posted);
	assert(posted == NP)
}
