/* synctrace_futex: every futex system call, keyed by the object it serves.
 *
 * Per thread, the futex layer is a two-state machine for wake-then-block:
 *   IDLE   --wait returns 0 (woken) on O-->            WOKEN(O)
 *   WOKEN(O) --another wait on O that slept-->         WOKEN/IDLE, +1 wake-then-block
 *            (result 0 again → WOKEN(O); ETIMEDOUT/EINTR → IDLE)
 *   WOKEN(O) --any other event of this thread on O-->  IDLE (it got past O:
 *            mutex acquired, semaphore taken, ...; see sa_model_feed)
 * A wait returning EAGAIN never slept and changes nothing. */
#include "sa_model.h"

#define R_WOKEN 0
#define R_EINTR 4
#define R_EAGAIN 11
#define R_ETIMEDOUT 110

static void on_wait(struct sa_model *m, const struct sa_event *e, struct sa_object *o,
		    uint32_t oi)
{
	uint32_t ti;
	struct sa_thread *t = sa_model_thread(m, e, &ti);
	if (!t)
		return;
	int64_t r = e->f[SA_F_futex_wait_result].v, slept = e->f[SA_F_futex_wait_slept_ns].v;
	o->fx_waits++;
	o->fx_slept_ns += slept > 0 ? (uint64_t)slept : 0;
	t->futex_waits++;
	t->futex_slept_ns += slept > 0 ? (uint64_t)slept : 0;
	if (r != R_EAGAIN && t->woken_valid && t->woken_obj == oi) {
		o->wake_then_block++;
		t->wake_then_block++;
	}
	switch (r) {
	case R_WOKEN:
		o->fx_woken_ret++;
		t->fx_woken++;
		t->woken_valid = 1;
		t->woken_obj = oi;
		break;
	case R_EAGAIN:
		o->fx_eagain++;
		break;
	case R_ETIMEDOUT:
		o->fx_timedout++;
		t->woken_valid = 0;
		break;
	case R_EINTR:
		o->fx_eintr++;
		t->woken_valid = 0;
		break;
	default:
		break;
	}
}

static void futex_event(struct sa_model *m, const struct sa_event *e)
{
	uint64_t addr;
	uint32_t oi;
	if (!sa_ev_obj(e, &addr)) {
		m->malformed++;
		return;
	}
	struct sa_object *o = sa_model_object(m, e, addr, &oi);
	if (!o)
		return;
	if (e->id == SA_EV_futex_wait) {
		on_wait(m, e, o, oi);
	} else if (e->id == SA_EV_futex_wake) {
		int64_t req = e->f[SA_F_futex_wake_requested].v, woken = e->f[SA_F_futex_wake_woken].v;
		uint32_t ti;
		struct sa_thread *t = sa_model_thread(m, e, &ti);
		o->fx_wakes++;
		if (t)
			t->fx_wakes++;
		if (woken <= 0) {
			o->fx_wasted++;
			if (t)
				t->fx_wasted++;
		} else {
			o->fx_woken += (uint64_t)woken;
			if (t)
				t->fx_woke += (uint64_t)woken;
		}
		if (req > 1)
			sa_dist_add(&o->herd, woken > 0 ? (uint64_t)woken : 0);
	} else if (e->id == SA_EV_futex_requeue) {
		int64_t r = e->f[SA_F_futex_requeue_result].v;
		o->fx_requeues++;
		if (r > 0)
			o->fx_requeued += (uint64_t)r;
	}
}

const struct sa_family sa_family_futex = { .name = "futex", .event = futex_event };
