/* The HTML report's scenario: LOCKS mutexes, each contended by two
 * threads holding it ~1 ms per round; a condvar waited on with timeouts
 * then signaled; threads named with text that means something in HTML
 * (the report must show it as text, never as markup). */
#include <pthread.h>
#include <time.h>

#include "check.h"

#define LOCKS 3
#define ROUNDS 20

static pthread_mutex_t m[LOCKS] = { PTHREAD_MUTEX_INITIALIZER, PTHREAD_MUTEX_INITIALIZER,
				    PTHREAD_MUTEX_INITIALIZER };
static pthread_mutex_t cm = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
static int go;

/* At most 15 bytes each (the kernel's limit). */
static const char *const names[] = { "<script>alert1", "\"&'<b>x</b>", "</title><svg>",
				     "<img src=x>", "a&amp;b", "<!--" };

static void pause_ms(long ms)
{
	struct timespec d = { 0, ms * 1000 * 1000 };
	nanosleep(&d, NULL);
}

static void *worker(void *arg)
{
	long id = (long)arg;
	CHECK_EQ(pthread_setname_np(pthread_self(), names[id]), 0);
	pthread_mutex_t *l = &m[id % LOCKS];
	for (int i = 0; i < ROUNDS; i++) {
		CHECK_EQ(pthread_mutex_lock(l), 0);
		pause_ms(1);
		CHECK_EQ(pthread_mutex_unlock(l), 0);
	}
	return NULL;
}

static void *waiter(void *arg)
{
	(void)arg;
	CHECK_EQ(pthread_setname_np(pthread_self(), "cv <waiter>"), 0);
	CHECK_EQ(pthread_mutex_lock(&cm), 0);
	for (int i = 0; i < 3; i++) {
		struct timespec abs;
		clock_gettime(CLOCK_REALTIME, &abs);
		abs.tv_nsec += 5 * 1000 * 1000;
		if (abs.tv_nsec >= 1000000000) {
			abs.tv_sec++;
			abs.tv_nsec -= 1000000000;
		}
		CHECK_EQ(pthread_cond_timedwait(&cv, &cm, &abs), ETIMEDOUT);
	}
	while (!go)
		CHECK_EQ(pthread_cond_wait(&cv, &cm), 0);
	CHECK_EQ(pthread_mutex_unlock(&cm), 0);
	return NULL;
}

int main(void)
{
	pthread_t w[2 * LOCKS], cw;
	CHECK_EQ(pthread_create(&cw, NULL, waiter, NULL), 0);
	for (long i = 0; i < 2 * LOCKS; i++)
		CHECK_EQ(pthread_create(&w[i], NULL, worker, (void *)i), 0);
	for (int i = 0; i < 2 * LOCKS; i++)
		CHECK_EQ(pthread_join(w[i], NULL), 0);
	pause_ms(20);
	CHECK_EQ(pthread_mutex_lock(&cm), 0);
	go = 1;
	CHECK_EQ(pthread_cond_signal(&cv), 0);
	CHECK_EQ(pthread_mutex_unlock(&cm), 0);
	CHECK_EQ(pthread_join(cw, NULL), 0);
	return 0;
}
