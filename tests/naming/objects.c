/* Objects with the names a programmer knows them by: a global mutex
 * (queue_lock), a file-local one (stats_lock), one inside a global struct
 * (stats.lock), a stack one (scratch), and heap mutexes made by a wrapper
 * (mutex_new) called from two sites, queue_new (one mutex) and pool_new
 * (POOL of them). Each is locked and unlocked; the static ones are also
 * contended once (a worker sleeps on it while main holds it), so they
 * have events (uncontended locks of a static mutex have none).
 * The naming checks (check-names.sh) find the lines marked NAMESITE.
 * Built -g -O0 -fno-omit-frame-pointer (the wrapper stays a frame). */
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "check.h"

#define POOL 3

pthread_mutex_t queue_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t stats_lock = PTHREAD_MUTEX_INITIALIZER;
struct stats {
	uint64_t count[8];
	pthread_mutex_t lock;
} stats = { .lock = PTHREAD_MUTEX_INITIALIZER };

struct queue {
	pthread_mutex_t *lock;
	int items;
};
struct pool {
	pthread_mutex_t *locks[POOL];
};

__attribute__((noinline)) static pthread_mutex_t *mutex_new(void)
{
	pthread_mutex_t *m = malloc(sizeof(*m));
	CHECK(m);
	CHECK_EQ(pthread_mutex_init(m, NULL), 0); /* NAMESITE mutex_new */
	return m;
}

__attribute__((noinline)) static struct queue *queue_new(void)
{
	struct queue *q = calloc(1, sizeof(*q));
	CHECK(q);
	q->lock = mutex_new(); /* NAMESITE queue_new */
	return q;
}

__attribute__((noinline)) static struct pool *pool_new(void)
{
	struct pool *p = calloc(1, sizeof(*p));
	CHECK(p);
	for (int i = 0; i < POOL; i++)
		p->locks[i] = mutex_new(); /* NAMESITE pool_new */
	return p;
}

static void lock_unlock(pthread_mutex_t *m)
{
	CHECK_EQ(pthread_mutex_lock(m), 0);
	CHECK_EQ(pthread_mutex_unlock(m), 0);
}

static volatile int worker_tid;

static void *worker(void *arg)
{
	pthread_mutex_t *m = arg;
	__atomic_store_n(&worker_tid, (int)syscall(SYS_gettid), __ATOMIC_RELEASE);
	CHECK_EQ(pthread_mutex_lock(m), 0); /* NAMESITE worker */
	CHECK_EQ(pthread_mutex_unlock(m), 0);
	return NULL;
}

/* m contended once: held until a worker sleeps on it (or 2 s, on a
 * machine too loaded to tell: the names do not depend on it), so the
 * static mutexes, which have no init, have events. */
static void contend(pthread_mutex_t *m)
{
	pthread_t t;
	__atomic_store_n(&worker_tid, 0, __ATOMIC_RELEASE);
	CHECK_EQ(pthread_mutex_lock(m), 0);
	CHECK_EQ(pthread_create(&t, NULL, worker, m), 0);
	while (!__atomic_load_n(&worker_tid, __ATOMIC_ACQUIRE))
		usleep(100);
	for (int i = 0; i < 20000 && !st_thread_in_futex_wait(worker_tid); i++)
		usleep(100);
	CHECK_EQ(pthread_mutex_unlock(m), 0);
	CHECK_EQ(pthread_join(t, NULL), 0);
}

int main(void)
{
	struct queue *q = queue_new();
	struct pool *p = pool_new();
	pthread_mutex_t scratch;
	CHECK_EQ(pthread_mutex_init(&scratch, NULL), 0); /* NAMESITE scratch */
	lock_unlock(&scratch);
	lock_unlock(q->lock);
	for (int i = 0; i < POOL; i++)
		lock_unlock(p->locks[i]);
	st_check_interposed("pthread_mutex_lock");
	contend(&queue_lock);
	contend(&stats_lock);
	contend(&stats.lock);

	CHECK_EQ(pthread_mutex_destroy(&scratch), 0);
	/* The heap mutexes stay alive (and in use) until exit. */
	return 0;
}
