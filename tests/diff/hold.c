/* Two global mutexes, each contended exactly K times: main takes the
 * lock, starts a waiter, and once the waiter sleeps on the lock keeps it
 * for the lock's hold time. queue_lock is held HOLD_US (the build's
 * -DHOLD_US), stats_lock STATS_US whatever the build; with -DNEW_LOCK,
 * audit_lock too, twice. So two builds that differ in HOLD_US differ in
 * queue_lock's waiting only, about K x the difference.
 * usage: hold [K]   (record with --spin none: waiters sleep at once) */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#ifndef HOLD_US
#define HOLD_US 20000
#endif
#define STATS_US 5000

pthread_mutex_t queue_lock = PTHREAD_MUTEX_INITIALIZER;
pthread_mutex_t stats_lock = PTHREAD_MUTEX_INITIALIZER;
#ifdef NEW_LOCK
pthread_mutex_t audit_lock = PTHREAD_MUTEX_INITIALIZER;
#endif

struct waiter {
	pthread_mutex_t *m;
	atomic_int tid, about_to_lock;
};

static int64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* Thread tid is asleep in the kernel (after about_to_lock, only the lock blocks). */
static int asleep(int tid)
{
	char path[64], buf[256];
	snprintf(path, sizeof(path), "/proc/self/task/%d/stat", tid);
	FILE *f = fopen(path, "r");
	if (!f)
		return 0;
	size_t n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = 0;
	const char *p = strrchr(buf, ')');
	return p && p[1] == ' ' && p[2] == 'S';
}

static void *waiter(void *arg)
{
	struct waiter *w = arg;
	atomic_store(&w->tid, (int)syscall(SYS_gettid));
	atomic_store(&w->about_to_lock, 1); /* nothing blocks from here to the lock */
	pthread_mutex_lock(w->m);
	pthread_mutex_unlock(w->m);
	return NULL;
}

static void contend(pthread_mutex_t *m, long hold_us, int rounds)
{
	for (int r = 0; r < rounds; r++) {
		struct waiter w = { .m = m };
		pthread_t t;
		pthread_mutex_lock(m);
		if (pthread_create(&t, NULL, waiter, &w)) {
			perror("pthread_create");
			exit(1);
		}
		while (!atomic_load(&w.about_to_lock) || !asleep(atomic_load(&w.tid)))
			usleep(50);
		int64_t until = now_ns() + hold_us * 1000;
		while (now_ns() < until)
			;
		pthread_mutex_unlock(m);
		pthread_join(t, NULL);
	}
}

int main(int argc, char **argv)
{
	int k = argc > 1 ? atoi(argv[1]) : 5;
	contend(&queue_lock, HOLD_US, k);
	contend(&stats_lock, STATS_US, k);
#ifdef NEW_LOCK
	contend(&audit_lock, 1000, 2);
#endif
	printf("hold: %d rounds, queue_lock held %d us\n", k, HOLD_US);
	return 0;
}
