/* Destruction right after broadcast: (a) the broadcaster destroys and
 * frees the condvar as soon as broadcast returns, while its waiters (some
 * timing out at that very moment) still have to re-acquire the mutex;
 * (b) the last woken waiter destroys and frees condvar and mutex. Freed
 * memory is scribbled first, so a late touch shows without ASan too. */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cases.h"
#include "check.h"
#include "util.h"

#define WAITERS 3

struct obj {
	pthread_mutex_t m;
	pthread_cond_t *c;
	int go, waiting, left;
};

static void scribble_free(void *p, size_t n)
{
	memset(p, 0xa5, n);
	free(p);
}

static void *waiter_a(void *arg)
{
	struct obj *o = arg;
	pthread_mutex_lock(&o->m);
	o->waiting++;
	while (!o->go) {
		/* a short timeout on some: LEAVING races the broadcast */
		struct timespec ts = after_ns(CLOCK_REALTIME, 20000 + (o->waiting * 7919) % 200000);
		int r = pthread_cond_timedwait(o->c, &o->m, &ts);
		CHECK(r == 0 || r == ETIMEDOUT);
		if (r == ETIMEDOUT && !o->go)
			break; /* gone before the broadcast */
	}
	pthread_mutex_unlock(&o->m);
	return 0;
}

static void broadcaster_frees_condvar_after_broadcast(void)
{
	for (int i = 0; i < 300; i++) {
		struct obj o = { .m = PTHREAD_MUTEX_INITIALIZER };
		pthread_t t[WAITERS];
		o.c = malloc(sizeof(*o.c));
		CHECK_EQ(pthread_cond_init(o.c, 0), 0);
		for (int k = 0; k < WAITERS; k++)
			CHECK_EQ(pthread_create(&t[k], 0, waiter_a, &o), 0);
		usleep(i % 100);
		pthread_mutex_lock(&o.m);
		o.go = 1;
		pthread_mutex_unlock(&o.m);
		CHECK_EQ(pthread_cond_broadcast(o.c), 0);
		/* no thread is blocked on it any more: POSIX lets us destroy it */
		CHECK_EQ(pthread_cond_destroy(o.c), 0);
		scribble_free(o.c, sizeof(*o.c));
		for (int k = 0; k < WAITERS; k++)
			CHECK_EQ(pthread_join(t[k], 0), 0);
	}
}

static void *waiter_b(void *arg)
{
	struct obj *o = arg;
	pthread_mutex_lock(&o->m);
	o->waiting++;
	while (!o->go)
		pthread_cond_wait(o->c, &o->m);
	int last = ++o->left == WAITERS;
	pthread_mutex_unlock(&o->m);
	if (last) {
		CHECK_EQ(pthread_cond_destroy(o->c), 0);
		scribble_free(o->c, sizeof(*o->c));
		CHECK_EQ(pthread_mutex_destroy(&o->m), 0);
		scribble_free(o, sizeof(*o));
	}
	return 0;
}

static void last_waiter_frees_condvar_and_mutex(void)
{
	for (int i = 0; i < 300; i++) {
		struct obj *o = calloc(1, sizeof(*o));
		pthread_t t[WAITERS];
		pthread_mutex_init(&o->m, 0);
		o->c = malloc(sizeof(*o->c));
		CHECK_EQ(pthread_cond_init(o->c, 0), 0);
		for (int k = 0; k < WAITERS; k++)
			CHECK_EQ(pthread_create(&t[k], 0, waiter_b, o), 0);
		for (;;) {
			pthread_mutex_lock(&o->m);
			if (o->waiting == WAITERS)
				break;
			pthread_mutex_unlock(&o->m);
			usleep(50);
		}
		o->go = 1;
		pthread_cond_t *c = o->c;
		/* broadcast with the mutex held; after the unlock o may be gone */
		CHECK_EQ(pthread_cond_broadcast(c), 0);
		pthread_mutex_unlock(&o->m);
		for (int k = 0; k < WAITERS; k++)
			CHECK_EQ(pthread_join(t[k], 0), 0);
	}
}

static const struct st_case st_cases[] = {
	ST_CASE(broadcaster_frees_condvar_after_broadcast),
	ST_CASE(last_waiter_frees_condvar_and_mutex),
};

ST_MAIN(st_check_interposed("pthread_cond_broadcast"))
