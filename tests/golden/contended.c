/* A global mutex contended exactly K times: thread "holder" takes
 * queue_lock in flush_queue and keeps it HOLD_MS once "popper" is asleep
 * on it in pop_item; popper then gets it after sleeping. Both meet on
 * plain atomics only, so queue_lock is the one contended object.
 * usage: contended [K]   (SYNCTRACE_SPIN=none: the popper sleeps at once)
 * The report must say: queue_lock, K contended waits in pop_item by
 * "popper", held by "holder" in flush_queue, about HOLD_MS per hold. */

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define HOLD_MS 2

pthread_mutex_t queue_lock = PTHREAD_MUTEX_INITIALIZER;
static atomic_int round_ready, about_to_lock, popped, popper_tid;
static int K = 5;

static int64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* The popper is asleep in the kernel (its only blocking call is the lock). */
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

__attribute__((noinline)) static void pop_item(int r)
{
	atomic_store(&about_to_lock, r); /* nothing blocks from here to the lock */
	pthread_mutex_lock(&queue_lock);
	atomic_fetch_add(&popped, 1);
	pthread_mutex_unlock(&queue_lock);
}

static void *popper(void *arg)
{
	(void)arg;
	pthread_setname_np(pthread_self(), "popper");
	atomic_store(&popper_tid, (int)syscall(SYS_gettid));
	for (int r = 1; r <= K; r++) {
		while (atomic_load(&round_ready) < r) /* holder holds the lock now */
			usleep(50);
		pop_item(r);
	}
	return NULL;
}

__attribute__((noinline)) static void flush_queue(int r)
{
	pthread_mutex_lock(&queue_lock);
	atomic_store(&round_ready, r);
	while (atomic_load(&about_to_lock) < r || !asleep(atomic_load(&popper_tid)))
		usleep(50);
	int64_t until = now_ns() + HOLD_MS * 1000000LL;
	while (now_ns() < until)
		;
	pthread_mutex_unlock(&queue_lock);
}

static void *holder(void *arg)
{
	(void)arg;
	pthread_setname_np(pthread_self(), "holder");
	while (!atomic_load(&popper_tid))
		usleep(50);
	for (int r = 1; r <= K; r++) {
		flush_queue(r);
		while (atomic_load(&popped) < r)
			usleep(50);
	}
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t a, b;
	if (argc > 1)
		K = atoi(argv[1]);
	if (pthread_create(&a, NULL, popper, NULL) || pthread_create(&b, NULL, holder, NULL))
		return 1;
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	if (atomic_load(&popped) != K) {
		fprintf(stderr, "contended: popped %d, want %d\n", atomic_load(&popped), K);
		return 1;
	}
	printf("contended: %d rounds\n", K);
	return 0;
}
