/* SHORT short and LONG long waits of one thread on one object of FAMILY
 * (mutex m, semaphore s, rwlock rw, barrier b or condvar cv), each a sure
 * wait: the worker blocks (mutex: m is held; sem: s is 0; rwlock: rw is
 * write-held; barrier: it arrives first; cond: it waits for a flag), main
 * waits until it sleeps in the futex call (its /proc syscall file says
 * so), then lets it through at once (short) or HOLD_MS later (long):
 * unlock, post, unlock, arrive, set the flag and signal under cm.
 * Meanwhile a third thread fails a sem_trywait on a semaphore of its own
 * every millisecond: records that keep coming while a long wait's are held
 * (a reader would take those late if they waited for the wait's end).
 * Prints "waits: FAMILY short=S long=L" on success.
 * usage: waits SHORT LONG HOLD_MS [mutex|sem|rwlock|barrier|cond] */
#include <pthread.h>
#include <semaphore.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static sem_t s;
static pthread_rwlock_t rw = PTHREAD_RWLOCK_INITIALIZER;
static pthread_barrier_t b;
static pthread_mutex_t cm = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
static int flag;
static enum { MUTEX, SEM, RWLOCK, BARRIER, COND } fam;
static int go[2], done[2];
static sem_t noise_sem;
static volatile int noise_stop;

static void *noise(void *arg)
{
	struct timespec ms = { 0, 1000000 };
	(void)arg;
	while (!noise_stop) {
		if (sem_trywait(&noise_sem) == 0)
			break;
		nanosleep(&ms, 0);
	}
	return 0;
}
static volatile pid_t worker_tid;

/* One wait of the worker's. */
static void wait_once(void)
{
	switch (fam) {
	case MUTEX:
		pthread_mutex_lock(&m);
		pthread_mutex_unlock(&m);
		break;
	case SEM:
		sem_wait(&s);
		break;
	case RWLOCK:
		pthread_rwlock_rdlock(&rw);
		pthread_rwlock_unlock(&rw);
		break;
	case BARRIER:
		pthread_barrier_wait(&b);
		break;
	case COND:
		pthread_mutex_lock(&cm);
		while (!flag)
			pthread_cond_wait(&cv, &cm);
		flag = 0;
		pthread_mutex_unlock(&cm);
		break;
	}
}

/* Main's side: make the worker's next wait block, then let it through. */
static void block(void)
{
	if (fam == MUTEX)
		pthread_mutex_lock(&m);
	else if (fam == RWLOCK)
		pthread_rwlock_wrlock(&rw);
}

static void let_through(void)
{
	switch (fam) {
	case MUTEX:
		pthread_mutex_unlock(&m);
		break;
	case SEM:
		sem_post(&s);
		break;
	case RWLOCK:
		pthread_rwlock_unlock(&rw);
		break;
	case BARRIER:
		pthread_barrier_wait(&b);
		break;
	case COND:
		pthread_mutex_lock(&cm);
		flag = 1;
		pthread_cond_signal(&cv);
		pthread_mutex_unlock(&cm);
		break;
	}
}

static void *worker(void *arg)
{
	char c;
	(void)arg;
	worker_tid = (pid_t)syscall(SYS_gettid);
	while (read(go[0], &c, 1) == 1 && c == 'g') {
		wait_once();
		if (write(done[1], "d", 1) != 1)
			break;
	}
	return 0;
}

/* Is the worker inside a futex system call (blocked)? */
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
	static const char *const names[] = { "mutex", "sem", "rwlock", "barrier", "cond" };
	const char *name = argc > 4 ? argv[4] : "mutex";
	pthread_t t, nt;
	char c;

	for (fam = MUTEX; fam <= COND && strcmp(name, names[fam]); fam++)
		;
	if (fam > COND) {
		fprintf(stderr, "waits: no family '%s' (mutex, sem, rwlock, barrier, cond)\n", name);
		return 2;
	}
	if (sem_init(&s, 0, 0) || sem_init(&noise_sem, 0, 0) || pthread_barrier_init(&b, 0, 2) ||
	    pthread_create(&nt, 0, noise, 0))
		return 2;
	if (pipe(go) || pipe(done) || pthread_create(&t, 0, worker, 0))
		return 2;
	while (!worker_tid)
		sched_yield();
	for (int i = 0; i < nshort + nlong; i++) {
		block();
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
		let_through();
		if (read(done[0], &c, 1) != 1)
			return 2;
	}
	noise_stop = 1;
	if (write(go[1], "q", 1) != 1 || pthread_join(t, 0) || pthread_join(nt, 0))
		return 2;
	printf("waits: %s short=%d long=%d\n", name, nshort, nlong);
	return 0;
}
