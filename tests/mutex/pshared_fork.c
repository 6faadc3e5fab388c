/* A process-shared mutex in shared memory, contended by a parent and a
 * forked child (and a thread in each): the shared counter must be exact. */
#include <pthread.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"

#define ROUNDS 50000

struct shared {
	pthread_mutex_t m;
	long counter;
	int inside;
};

static struct shared *sh;

static void *hammer(void *arg)
{
	(void)arg;
	for (int i = 0; i < ROUNDS; i++) {
		CHECK_EQ(pthread_mutex_lock(&sh->m), 0);
		CHECK_EQ(sh->inside, 0);
		sh->inside = 1;
		sh->counter++;
		sh->inside = 0;
		CHECK_EQ(pthread_mutex_unlock(&sh->m), 0);
	}
	return 0;
}

static void two_threads(void)
{
	pthread_t t;
	CHECK_EQ(pthread_create(&t, 0, hammer, 0), 0);
	hammer(0);
	CHECK_EQ(pthread_join(t, 0), 0);
}

int main(void)
{
	pthread_mutexattr_t a;
	sh = mmap(0, sizeof(*sh), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	CHECK(sh != MAP_FAILED);
	CHECK_EQ(pthread_mutexattr_init(&a), 0);
	CHECK_EQ(pthread_mutexattr_setpshared(&a, PTHREAD_PROCESS_SHARED), 0);
	CHECK_EQ(pthread_mutexattr_settype(&a, PTHREAD_MUTEX_ERRORCHECK), 0);
	CHECK_EQ(pthread_mutex_init(&sh->m, &a), 0);

	pid_t child = fork();
	CHECK(child >= 0);
	if (child == 0) {
		two_threads();
		_exit(0);
	}
	two_threads();
	int status;
	CHECK_EQ(waitpid(child, &status, 0), child);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	CHECK_EQ(sh->counter, 4L * ROUNDS);
	/* An error-checking pshared mutex held by the other process is not ours. */
	child = fork();
	if (child == 0) {
		CHECK_EQ(pthread_mutex_lock(&sh->m), 0);
		_exit(0); /* dies holding it */
	}
	CHECK_EQ(waitpid(child, &status, 0), child);
	CHECK_EQ(pthread_mutex_unlock(&sh->m), EPERM);
	CHECK_EQ(pthread_mutex_trylock(&sh->m), EBUSY);
	printf("pshared across fork: %ld\n", sh->counter);
	return 0;
}
