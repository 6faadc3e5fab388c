/* The rwlock protocol of src/rwlock/ (rwlock.h, lock.c, unlock.c),
 * checked with spin. The state machine and the ordering argument are in
 * src/rwlock/rwlock.h; each step below names the code it stands for.
 *
 * The lock word is cnt (0 FREE, 1..NR readers, WL a writer) and S (bit
 * 31, "sleepers may be queued"); wwait counts waiting writers, sleepers
 * the threads counted around their futex sleep. Threads: readers 1..NR,
 * writers NR+1..NT; each takes and releases the lock ROUNDS times. Thread
 * TIMED (the first writer; 0: none) may time out once (a timed wrlock);
 * the others never time out, so a thread nobody wakes stays asleep and
 * is an invalid end state. The program destroys the lock as soon as every
 * thread is done with it (the last releasing RMW, or the return of a
 * timed-out call): any later access of the object is an assertion
 * failure; futex_wake takes the address only and is not an access.
 *
 * Each racy access of the C code (a load, a CAS, an RMW) is its own step;
 * a CAS is a test-and-set on the value loaded before it, and its failure
 * goes back to the load. Spinning is one more try; so is a writer's nap
 * (lock.c:writer_naps; not the timed writer's, not with KIND=2). The
 * futex is "sleep while the word holds the value": compare and queue are
 * one kernel step; a sleeper leaves the queue when woken, on a spurious
 * return (bounded, all threads together) or a timeout. The model is sequentially
 * consistent: it checks the protocol; rwlock.h says which C orderings
 * give the two Dekker pairs it relies on.
 *
 * Protocols: default, the current one (sleep-loop acquisitions clear S and
 * put it back if `sleepers` > 0; `sleepers` counted around the futex wait
 * only; a reader's release is a fetch_sub, which keeps S, unless it saw
 * READ(1)+S: then a CAS to FREE);
 * -DORIG, the one before (acquisitions keep S; `sleepers` counted over
 * the whole sleep loop; a reader's release is a CAS, clearing S on
 * READ(1) → FREE).
 * -DKIND=2: a writer-preferring lock (readers stay out while wwait > 0;
 * the timed writer's give-up clears S and wakes all).
 *
 * Properties:
 *  - mutual exclusion: a writer alone, never with readers (ghosts);
 *  - no lost wakeup: every thread finishes (a sleeper nobody wakes is an
 *    invalid end state), and when everything stops no thread is queued;
 *  - no access to the lock after its destruction (ghost `alive`).
 * Writer preference (kind 2) is not asserted: a reader's wwait check and
 * its CAS are two steps, so a reader may enter just after a writer
 * counted itself; -DKIND=2 checks the protocol stays free of lost
 * wakeups with the reader gate and the give-up.
 *
 * Seeded mutations (spin -DMUT_...), each must be caught:
 *  MUT_NO_WAKE         a release to FREE that saw S does not wake;
 *  MUT_NO_RESET        a sleep-loop acquisition clears S and does not put
 *                      it back although others are counted;
 *  MUT_LOAD_FIRST      ... reads `sleepers` before its CAS, not after
 *                      (the Dekker pair in the wrong order);
 *  MUT_GATE_BEFORE     the release wakes only if S and `sleepers` read
 *                      before the release is > 0 (unsafe: a sleeper may
 *                      register after that read, on a word with S);
 *  MUT_GATE_AFTER      ... `sleepers` read after the release (an access
 *                      of a lock the program may have destroyed). */

#ifndef NR
#define NR 2
#endif
#ifndef NW
#define NW 2
#endif
#define NT (NR + NW)
#ifndef ROUNDS
#define ROUNDS 1
#endif
#ifndef KIND
#define KIND 0
#endif
#ifndef TIMED
#define TIMED (NR + 1)
#endif
#ifndef SPURIOUS
#define SPURIOUS 1
#endif
#define WL 7                /* ST_RW_WRLOCKED */

byte cnt;                   /* lock word, bits 0-30 */
bit S;                      /* lock word, bit 31: ST_RW_SLEEPERS */
byte wwait;                 /* writers between requested and acquired/timeout */
byte sleepers;
bit asleep[NT + 1];         /* queued on &lock in the kernel */
byte spur = SPURIOUS;
byte rin, win;              /* ghosts: readers, writers inside */
byte done;                  /* ghost: threads done with the lock */
bit alive = 1;              /* ghost: not destroyed */

#define CAN_TAKE(w, c, ww) ((w) -> ((c) == 0) : ((c) != WL && (KIND != 2 || (ww) == 0)))
#define ACQ(w, c) ((w) -> WL : (c) + 1)

/* kind 2: read_ok reads wwait, a step of its own */
inline read_wwait()
{
	if
	:: KIND == 2 && !wr -> atomic { assert(alive); ww = wwait }
	:: else -> ww = 0
	fi
}

inline load_word()
{
	atomic { assert(alive); vc = cnt; vs = S }
}

/* futex_wake(&lock, INT_MAX): the address only */
inline wake_all()
{
	atomic {
		i = 1;
		do
		:: i <= NT -> asleep[i] = 0; i++
		:: else -> break
		od;
		i = 0
	}
}

/* st_futex_wait(&lock, vc|S, ...) */
inline futex_wait()
{
	atomic {
		assert(alive);
		if
		:: cnt == vc && S == 1 -> asleep[me] = 1
		:: else -> skip                          /* EAGAIN */
		fi
	}
	if
	:: atomic { !asleep[me] -> skip }            /* woken, or never queued */
	:: atomic { spur > 0 && asleep[me] -> asleep[me] = 0; spur-- }
	:: atomic { me == TIMED && tmo && asleep[me] -> asleep[me] = 0; tmo = 0; timedout = 1 }
	fi
}

/* the ghost checks that go with every acquisition */
inline enter()
{
	if
	:: wr -> win++; assert(win == 1 && rin == 0)
	:: else -> rin++; assert(win == 0)
	fi
}

/* lock.c:writer_gives_up (the timed writer, kind 2 only clears S) */
inline writer_gives_up()
{
	atomic { assert(alive); wwait--; ok = (wwait == 0) };
	if
	:: ok && KIND == 2 ->
		do
		:: load_word();
			if
			:: vs ->
				atomic { assert(alive); if :: cnt == vc && S -> S = 0; ok = 1 :: else -> ok = 0 fi };
				if
				:: ok -> wake_all(); break
				:: else -> skip
				fi
			:: else -> break
			fi
		od
	:: else -> skip
	fi
}

proctype T(byte me; bit wr)
{
	byte r, vc, oc, n, sl, i, ww;
	bit vs, os, ok, tmo = 1, timedout;

	do
	:: r == ROUNDS -> break
	:: else ->
		timedout = 0;
		/* rwlock.h:st_rwlock_try_read/try_write: keeps S */
		read_wwait();
		load_word();
		if
		:: CAN_TAKE(wr, vc, ww) ->
			atomic { assert(alive); if :: cnt == vc && S == vs -> cnt = ACQ(wr, vc); enter(); ok = 1 :: else -> ok = 0 fi }
		:: else -> ok = 0
		fi;
		if
		:: ok -> goto locked
		:: else -> skip
		fi;
		/* lock_slow: a writer counts as waiting */
		if
		:: wr -> atomic { assert(alive); wwait++ }
		:: else -> skip
		fi;
		/* the spin: one more try, keeping S */
		read_wwait();
		load_word();
		if
		:: CAN_TAKE(wr, vc, ww) ->
			atomic { assert(alive); if :: cnt == vc && S == vs -> cnt = ACQ(wr, vc); enter(); ok = 1 :: else -> ok = 0 fi }
		:: else -> ok = 0
		fi;
		if
		:: ok -> goto acquired
		:: else -> skip
		fi;
		/* lock.c:writer_naps: a writer without a timeout, on a lock
		 * that prefers readers, naps and tries once more, keeping S */
		if
		:: wr && KIND != 2 && me != TIMED ->
			load_word();
			if
			:: CAN_TAKE(wr, vc, 0) ->
				atomic { assert(alive); if :: cnt == vc && S == vs -> cnt = ACQ(wr, vc); enter(); ok = 1 :: else -> ok = 0 fi }
			:: else -> ok = 0
			fi;
			if
			:: ok -> goto acquired
			:: else -> skip
			fi
		:: else -> skip
		fi;
#ifdef ORIG
		atomic { assert(alive); sleepers++ };
sleep_loop:
		/* try_lock: keeps S */
		read_wwait();
		load_word();
		if
		:: CAN_TAKE(wr, vc, ww) ->
			atomic { assert(alive); if :: cnt == vc && S == vs -> cnt = ACQ(wr, vc); enter(); ok = 1 :: else -> ok = 0 fi };
			if
			:: ok -> atomic { assert(alive); sleepers-- }; goto acquired
			:: else -> goto sleep_loop
			fi
		:: else -> skip
		fi;
		/* * → *+S on the value we sleep on */
		if
		:: !vs ->
			atomic { assert(alive); if :: cnt == vc && S == 0 -> S = 1; ok = 1 :: else -> ok = 0 fi };
			if
			:: !ok -> goto sleep_loop
			:: else -> skip
			fi
		:: else -> skip
		fi;
		read_wwait();
		if
		:: CAN_TAKE(wr, vc, ww) -> goto sleep_loop
		:: else -> skip
		fi;
		futex_wait();
		if
		:: timedout ->
			if
			:: wr -> writer_gives_up()
			:: else -> skip
			fi;
			atomic { assert(alive); sleepers--; };
			goto timed_out
		:: else -> goto sleep_loop
		fi;
#else
sleep_loop:
		/* lock.c:try_lock_sleeper: CAS to the acquired value without S,
		 * then S back if sleepers > 0 (we hold the lock) */
		read_wwait();
		load_word();
		if
		:: CAN_TAKE(wr, vc, ww) ->
#ifdef MUT_LOAD_FIRST
			atomic { assert(alive); sl = sleepers };
#endif
			atomic { assert(alive); if :: cnt == vc && S == vs -> cnt = ACQ(wr, vc); S = 0; enter(); ok = 1 :: else -> ok = 0 fi };
			if
			:: ok ->
#ifndef MUT_LOAD_FIRST
				atomic { assert(alive); sl = sleepers };
#endif
#ifndef MUT_NO_RESET
				if
				:: sl > 0 -> atomic { assert(alive); S = 1 }
				:: else -> skip
				fi;
#endif
				goto acquired
			:: else -> goto sleep_loop
			fi
		:: else -> skip
		fi;
		/* counted before our look at the word */
		atomic { assert(alive); sleepers++ };
		load_word();
		read_wwait();
		if
		:: CAN_TAKE(wr, vc, ww) -> goto unsleep
		:: else -> skip
		fi;
		if
		:: !vs ->
			atomic { assert(alive); if :: cnt == vc && S == 0 -> S = 1; ok = 1 :: else -> ok = 0 fi };
			if
			:: !ok -> goto unsleep
			:: else -> skip
			fi
		:: else -> skip
		fi;
		read_wwait();
		if
		:: CAN_TAKE(wr, vc, ww) -> goto unsleep
		:: else -> skip
		fi;
		futex_wait();
		if
		:: timedout ->
			if
			:: wr -> writer_gives_up()
			:: else -> skip
			fi;
			atomic { assert(alive); sleepers-- };
			goto timed_out
		:: else -> skip
		fi;
unsleep:
		atomic { assert(alive); sleepers-- };
		goto sleep_loop;
#endif
acquired:
		if
		:: wr -> atomic { assert(alive); wwait-- }
		:: else -> skip
		fi;
locked:
		/* unlock.c: shared, the word and sleepers read before the release */
		load_word();
#ifdef MUT_GATE_BEFORE
		atomic { assert(alive); sl = sleepers };
#endif
		if
		:: wr ->
			/* WRITE → FREE: swap 0 */
			atomic {
				assert(alive); os = S; cnt = 0; S = 0; win--;
				if :: r + 1 == ROUNDS -> done++; alive = (done < NT) :: else -> skip fi
			};
			n = 0
		:: else ->
#ifndef ORIG
			if
			:: vc > 1 || !vs ->
				/* READ(n) → READ(n-1), READ(1) → FREE without S:
				 * fetch_sub, keeps S */
				atomic {
					assert(alive); oc = cnt; os = S; cnt--; rin--;
					if :: r + 1 == ROUNDS -> done++; alive = (done < NT) :: else -> skip fi
				};
				n = oc - 1
			:: else ->
#endif
				/* READ(1) → FREE clears S; READ(n) → READ(n-1) keeps it */
				do
				:: atomic {
					assert(alive);
					if
					:: cnt == vc && S == vs ->
						os = vs;
						if
						:: vc == 1 -> cnt = 0; S = 0; n = 0
						:: else -> cnt--; n = vc - 1
						fi;
						rin--;
						if :: r + 1 == ROUNDS -> done++; alive = (done < NT) :: else -> skip fi;
						ok = 1
					:: else -> vc = cnt; vs = S; ok = 0
					fi
				   };
					if
					:: ok -> break
					:: else -> skip
					fi
				od
#ifndef ORIG
			fi
#endif
		fi;
		/* after the release: the address only */
#ifdef MUT_GATE_AFTER
		atomic { assert(alive); sl = sleepers };
#endif
#if defined(MUT_GATE_BEFORE) || defined(MUT_GATE_AFTER)
		if
		:: n == 0 && os && sl > 0 -> wake_all()
		:: else -> skip
		fi;
#elif !defined(MUT_NO_WAKE)
		if
		:: n == 0 && os -> wake_all()
		:: else -> skip
		fi;
#endif
		r++;
		goto next;
timed_out:
		atomic { r++; if :: r == ROUNDS -> done++; alive = (done < NT) :: else -> skip fi };
next:
		skip
	od
}

init {
	byte k;
	atomic {
		k = 1;
		do
		:: k <= NR -> run T(k, 0); k++
		:: k > NR && k <= NT -> run T(k, 1); k++
		:: else -> break
		od
	}
	(_nr_pr == 1);
	/* everybody finished: nobody is left in the queue */
	k = 1;
	do
	:: k <= NT -> assert(!asleep[k]); k++
	:: else -> break
	od;
	assert(rin == 0 && win == 0 && wwait == 0 && sleepers == 0)
}
