/* Spinlocks: exclusion, trylock, and the contended-lock event. */
#include <pthread.h>
#include <sched.h>
#include <unistd.h>

#include "check.h"

static pthread_spinlock_t l;
static long counter;
static int ready;

static void *worker(void *p)
{
	(void)p;
	__atomic_add_fetch(&ready, 1, __ATOMIC_ACQ_REL);
	while (__atomic_load_n(&ready, __ATOMIC_ACQUIRE) < 2)
		sched_yield();
	for (int i = 0; i < 200000; i++) {
		CHECK_EQ(pthread_spin_lock(&l), 0);
		counter++;
		for (volatile int k = 0; k < 20; k++)
			;
		CHECK_EQ(pthread_spin_unlock(&l), 0);
	}
	return 0;
}

int main(void)
{
	static const char *const names[] = { "pthread_spin_init", "pthread_spin_lock",
		"pthread_spin_trylock", "pthread_spin_unlock", "pthread_spin_destroy" };
	for (unsigned i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		st_check_interposed(names[i]);
	CHECK_EQ(pthread_spin_init(&l, PTHREAD_PROCESS_PRIVATE), 0);
	CHECK_EQ(pthread_spin_trylock(&l), 0);
	CHECK_EQ(pthread_spin_trylock(&l), EBUSY);
	CHECK_EQ(pthread_spin_unlock(&l), 0);
	CHECK_EQ(pthread_spin_lock(&l), 0);
	CHECK_EQ(pthread_spin_unlock(&l), 0);

	pthread_t t[2];
	/* Held while the workers start: their first lock certainly spins. */
	CHECK_EQ(pthread_spin_lock(&l), 0);
	for (int i = 0; i < 2; i++)
		CHECK_EQ(pthread_create(&t[i], 0, worker, 0), 0);
	while (__atomic_load_n(&ready, __ATOMIC_ACQUIRE) < 2)
		sched_yield();
	usleep(10000);
	CHECK_EQ(pthread_spin_unlock(&l), 0);
	for (int i = 0; i < 2; i++)
		CHECK_EQ(pthread_join(t[i], 0), 0);
	CHECK_EQ(counter, 400000);
	CHECK_EQ(pthread_spin_destroy(&l), 0);
	return 0;
}
