/* The barrier model: one struct sa_barrier per barrier (sa_object.ext).
 * Events (tracepoints/events/barrier.def) tie a round together by its
 * number: arrival×(count-1) by the waiters, released by the last arriver
 * (the serial thread), departure×(count-1).
 *
 * Per waiter, three times:
 *   wait       departure.wait_ns: its whole time in pthread_barrier_wait
 *   wait_last  release - its arrival.ts: waiting for the last arriver (the
 *              load imbalance the straggler caused)
 *   wakeup     departure.ts - release: from the release to leaving
 * The release is the round's released event, or its first departure if
 * earlier: the last arriver emits `released` after its wake system call,
 * by when the woken waiters may have left and emitted their departures.
 * So a departure may come before its round's release; the waiter's times
 * are then settled when the release comes (its entry below keeps that
 * arrival and departure, apart from the wait it may begin meanwhile).
 * The rounds in flight are a ring of the last SA_BAR_RING (rounds overlap:
 * a slow waiter may depart after the next round began). Per round, spread
 * = release - its first arrival.ts: how long the round took to gather.
 *
 * Per thread of a barrier (struct sa_bar_thread): rounds it passed, waited
 * in, was the serial thread of (it arrived last and released count-1
 * others), its time waiting for the last arrivers, and the time others
 * waited for it when it was last (the sum of their wait_last): who made
 * whom wait. */
#ifndef SA_BARRIER_H
#define SA_BARRIER_H

#include <stdint.h>

#include "sa_dist.h"
#include "sa_map.h"

#define SA_BAR_RING 8

struct sa_bar_round {
	int used, released;
	int32_t round;
	int64_t first_arrival;
	int64_t first_departure; /* INT64_MAX: none yet */
	int64_t release;      /* min(released.ts, first departure), once released */
	uint32_t serial_ti;   /* model thread index of the releaser */
	uint64_t arrivals;    /* arrival events of the round seen */
	uint64_t pending;     /* departures waiting for the release */
};

struct sa_bar_thread {
	uint32_t ti;          /* model thread index */
	uint64_t passes;      /* rounds it took part in (waits + serial) */
	uint64_t waits;       /* arrival events */
	uint64_t serial;      /* released events: it was the last arriver */
	uint64_t released_others; /* waiters its releases let go (count - 1 each) */
	uint64_t wait_ns;     /* departure.wait_ns */
	uint64_t wait_last_ns;    /* waiting for the last arriver */
	uint64_t made_wait_ns;    /* others' wait_last in rounds it released */
	/* The wait in progress: arrival seen, no departure yet. */
	int arrived;
	int32_t round;
	int64_t arrival;
	/* A wait that departed before its round's release was seen (the
	 * thread may arrive in the next round meanwhile). */
	int pending;
	int32_t pend_round;
	int64_t pend_arrival, pend_departure;
};

struct sa_barrier {
	int init_seen, count, pshared;
	uint64_t rounds;      /* released events */
	uint64_t waits;       /* arrival events */
	uint64_t departures;
	uint64_t woken;       /* released.woken: threads the kernel woke */
	uint64_t destroy_busy; /* destroy returned EBUSY (threads still in a round) */
	uint64_t summarized;  /* departures known from summaries (no times per round) */
	struct sa_dist wait, wait_last, wakeup, spread;
	struct sa_bar_round ring[SA_BAR_RING];
	struct sa_bar_thread *th;
	uint32_t nth, capth;
	struct sa_map th_map; /* (thread index, 0) → th[] */
};

struct sa_model;
/* The barrier's entry for model thread ti (created); NULL on out of memory. */
struct sa_bar_thread *sa_barrier_thread(struct sa_model *m, struct sa_barrier *b, uint32_t ti);

#endif
