/* SHORT short and LONG long waits of one thread on mutex m, each a sure
 * contended wait: main holds m until the worker sleeps in the futex call
 * (its /proc syscall file says so), then releases it at once (short) or
 * HOLD_MS later (long). Prints "waits: short=S long=L" on success.
 * usage: waits SHORT LONG HOLD_MS */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static int go[2], done[2];
static volatile pid_t worker_tid;

static void *worker(void *arg)
{
	char c;
	(void)arg;
	worker_tid = (pid_t)syscall(SYS_gettid);
	while (read(go[0], &c, 1) == 1 && c == 'g') {
		pthread_mutex_lock(&m);
		pthread_mutex_unlock(&m);
		if (write(done[1], "d", 1) != 1)
			break;
	}
	return 0;
}

/* Is the worker inside a futex system call (blocked on m)? */
static int worker_in_futex(void)
{
	char path[64];
	int nr = -1;
	snprintf(path, sizeof(path), "/proc/self/task/%d/syscall", (int)worker_tid);
	FILE *f = fopen(path, "r");
	if (!f)
		return -1;
	if (fscanf(f, "%d", &nr) != 1)
		nr = -1;
	fclose(f);
	return nr == SYS_futex;
}

int main(int argc, char **argv)
{
	int nshort = argc > 1 ? atoi(argv[1]) : 10, nlong = argc > 2 ? atoi(argv[2]) : 2;
	long hold_ms = argc > 3 ? atol(argv[3]) : 1000;
	pthread_t t;
	char c;

	if (pipe(go) || pipe(done) || pthread_create(&t, 0, worker, 0))
		return 2;
	while (!worker_tid)
		sched_yield();
	for (int i = 0; i < nshort + nlong; i++) {
		pthread_mutex_lock(&m);
		if (write(go[1], "g", 1) != 1)
			return 2;
		int in;
		while ((in = worker_in_futex()) == 0)
			sched_yield();
		if (in < 0) {
			fprintf(stderr, "waits: cannot read the worker's syscall file\n");
			return 77;
		}
		if (i >= nshort) { /* a long wait: the hold is what is measured */
			struct timespec d = { hold_ms / 1000, (hold_ms % 1000) * 1000000L };
			nanosleep(&d, 0);
		}
		pthread_mutex_unlock(&m);
		if (read(done[0], &c, 1) != 1)
			return 2;
	}
	if (write(go[1], "q", 1) != 1 || pthread_join(t, 0))
		return 2;
	printf("waits: short=%d long=%d\n", nshort, nlong);
	return 0;
}
