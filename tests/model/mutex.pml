/* The mutex lock-word protocol of src/mutex/{mutex.h,lock.c,unlock.c},
 * checked with spin. Each racy access of the C code is its own step here;
 * the futex is "sleep while the word holds the value", with a bounded
 * number of spurious wakeups and timeouts per thread.
 *
 * Properties:
 *  - mutual exclusion: at most one thread between lock and unlock;
 *  - no lost wakeup: every thread finishes its rounds (a thread asleep on
 *    the word forever is an invalid end state);
 * Mutations (spin -DMUT_...) that the model must catch:
 *  - MUT_NO_RESET: a thread of the sleep loop takes the lock without
 *    re-setting SLEEPERS (others may be asleep);
 *  - MUT_NO_MARK: a sleeper sleeps without setting SLEEPERS first. */

#ifndef N
#define N 3            /* threads */
#endif
#ifndef ROUNDS
#define ROUNDS 2       /* lock/unlock pairs per thread */
#endif
#define SPURIOUS 1     /* spurious wakeups allowed per thread */
#define TIMEOUTS 1     /* timed locks that may time out, per thread */

byte owner = 0;        /* lock word bits 0-29: owner tid (1..N), 0 free */
bit sleepers = 0;      /* lock word bit 31 */
byte waiters = 0;      /* threads in the sleep loop */
bit asleep[N + 1];     /* in the kernel's futex queue */
byte in_cs = 0;

/* futex_wait(&lock, expected): the kernel compares and queues atomically. */
inline futex_wait(eo, es, spur, timed)
{
	atomic {
		if
		:: owner == eo && sleepers == es -> asleep[me] = 1
		:: else -> skip            /* EAGAIN */
		fi
	}
	if
	:: !asleep[me] -> skip         /* woken (or never slept) */
	:: spur > 0 -> atomic { asleep[me] = 0; spur-- }   /* spurious */
	:: timed > 0 -> atomic { if :: asleep[me] -> asleep[me] = 0; timed--; timedout = 1 :: else -> skip fi }
	fi
}

/* futex_wake(&lock, 1): wakes one queued thread, if any. */
inline futex_wake()
{
	atomic {
		if
		:: asleep[1] -> asleep[1] = 0
		:: asleep[2] -> asleep[2] = 0
#if N > 2
		:: asleep[3] -> asleep[3] = 0
#endif
		:: else -> skip
		fi
	}
}

proctype thread(byte me)
{
	byte r = 0, vo, spur = SPURIOUS, timed = TIMEOUTS;
	bit vs, timedout, ok, bitmine;

	do
	:: r == ROUNDS -> break
	:: r < ROUNDS ->
		timedout = 0;
		/* lock fast path: CAS 0 → me */
		atomic { if :: owner == 0 && sleepers == 0 -> owner = me; ok = 1 :: else -> ok = 0 fi }
		if
		:: ok -> goto locked
		:: else -> skip
		fi
		/* spinning: one more try (the spin loop, abstracted) */
		atomic { if :: owner == 0 && sleepers == 0 -> owner = me; ok = 1 :: else -> ok = 0 fi }
		if
		:: ok -> goto locked
		:: else -> skip
		fi
		waiters++;
sleep_loop:
		atomic { vo = owner; vs = sleepers }          /* v = load(lock) */
		if
		:: vo == 0 && vs == 0 ->
			/* FREE → CONTENDED when others are in the loop, else → HELD */
#ifdef MUT_NO_RESET
			bitmine = 0;
#else
			bitmine = 1;        /* always, as glibc (mutex.h says why) */
#endif
			atomic { if :: owner == 0 && sleepers == 0 -> owner = me; sleepers = bitmine; ok = 1 :: else -> ok = 0 fi }
			if
			:: ok -> waiters--; goto locked
			:: else -> goto sleep_loop
			fi
		:: else -> skip
		fi
#ifndef MUT_NO_MARK
		if
		:: vs == 0 ->
			/* HELD → CONTENDED */
			atomic { if :: owner == vo && sleepers == 0 -> sleepers = 1; ok = 1 :: else -> ok = 0 fi }
			if
			:: ok -> vs = 1
			:: else -> goto sleep_loop
			fi
		:: else -> skip
		fi
#endif
		futex_wait(vo, vs, spur, timed);
		if
		:: timedout -> waiters--; r++; goto next   /* ETIMEDOUT: this round gives up */
		:: else -> goto sleep_loop
		fi
locked:
		in_cs++;
		assert(in_cs == 1);
		in_cs--;
		/* unlock: swap → 0, wake one if SLEEPERS was set */
		atomic { vs = sleepers; owner = 0; sleepers = 0 }
		if
		:: vs -> futex_wake()
		:: else -> skip
		fi
		r++;
next:		skip
	od
}

init {
	atomic {
		byte i = 1;
		do
		:: i <= N -> run thread(i); i++
		:: else -> break
		od
	}
}
