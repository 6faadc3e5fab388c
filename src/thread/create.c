/* pthread_create: thread lifecycle events, and the tracer's threads.
 *
 * Without tracing and for ordinary callers this is glibc's pthread_create,
 * untouched. While tracing, a new application thread runs through
 * st_thread_start, which emits synctrace_thread:start/exit.
 *
 * THE TRACER'S THREADS AND pthread_exit FROM main. liblttng-ust starts
 * listener threads that live until the process ends. glibc ends a process
 * whose main returned through pthread_exit when its thread count
 * (__nptl_nthreads, exported GLIBC_PRIVATE for libthread_db) drops to 0,
 * and the tracer's threads would keep it above 0 forever. So a thread whose
 * creator is the tracer's code is taken out of that count once created,
 * and put back just before it ends (unless the count is already 0: the
 * process is then exiting, and putting it back would make glibc call exit a
 * second time). The program's own threads are counted exactly as before,
 * so main's pthread_exit, or the last thread's end, exits the process with
 * status 0 when the program's last thread ends, as without tracing. */
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "internal/thread_times.h"
#include "internal/trace.h"

typedef int (*create_fn)(pthread_t *, const pthread_attr_t *, void *(*)(void *), void *);

struct start {
	void *(*fn)(void *);
	void *arg;
	int creator;
	int tracer;
};

static void *volatile real_create;
static int *volatile nptl_nthreads; /* (int *)-1 when glibc lacks it */

static int *thread_count(void)
{
	int *p = st_load_acquire(&nptl_nthreads);
	if (!p) {
		p = dlvsym(RTLD_DEFAULT, "__nptl_nthreads", "GLIBC_PRIVATE");
		st_store_release(&nptl_nthreads, p ? p : (int *)-1);
	}
	return p == (int *)-1 ? 0 : p;
}

/* Is this return address in liblttng-ust's code, or in the probes' (their
 * flusher, tracepoints/batch.c)? (Ranges are registered only after
 * lttng-ust's constructor has started its threads, so ask the loader.) */
static int created_by_tracer(const void *caller)
{
	Dl_info info;
	return dladdr(caller, &info) && info.dli_fname &&
	       (strstr(info.dli_fname, "liblttng-ust") || strstr(info.dli_fname, "libsynctrace-tp"));
}

static void tracer_thread_end(void *unused)
{
	(void)unused;
	int *n = thread_count(), c;
	if (!n)
		return;
	do {
		c = st_load_acquire(n);
		if (c <= 0)
			return;
	} while (!st_cas_acq_rel(n, c, c + 1));
}

static void app_thread_end(void *unwound)
{
	uint64_t cpu = 0;
	int64_t runq = -1;
	if (st_tracing())
		st_thread_times(&cpu, &runq);
	st_thread_ev_exit(unwound != 0, cpu, runq);
	st_summary_thread_exit();
}

static void *run_tracer_thread(struct start s)
{
	void *ret;
	pthread_cleanup_push(tracer_thread_end, 0);
	ret = s.fn(s.arg);
	pthread_cleanup_pop(1);
	return ret;
}

static void unwound_quietly(void *unused)
{
	(void)unused;
	st_tls.guard = 0;
}

static void *run_app_thread(struct start s)
{
	void *ret;
	st_set_caller(0);
	st_thread_ev_start(s.creator, (const void *)s.fn);
	pthread_cleanup_push(app_thread_end, (void *)1);
	ret = s.fn(s.arg);
	pthread_cleanup_pop(0);
	app_thread_end(0);
	/* The thread returned: a cancel still pending must not act in the
	 * exit path, where lttng-ust's thread-exit destructors make system
	 * calls that are cancellation points. And it ends by pthread_exit, not
	 * by returning: a pthread_cancel that found the thread inside a
	 * cancellable futex wait (asynchronous type, futex.c) sends glibc's
	 * cancellation signal, and glibc's handler stores PTHREAD_CANCELED as
	 * the thread's result even when it no longer acts (the type is deferred
	 * again). Handled after start_thread stored our return value, while the
	 * tracer's thread-exit destructors run, it replaced that value: 0 to 75
	 * of 400 threads per run of tests/cond/cancel_destroy.c, traced, were
	 * joined as PTHREAD_CANCELED though their wait had returned. pthread_exit
	 * marks the thread as exiting before any destructor runs, and glibc's
	 * handler leaves an exiting thread alone: 0 in 4,000 rounds. */
	pthread_setcancelstate(PTHREAD_CANCEL_DISABLE, 0);
	/* The unwind of pthread_exit loads and initialises libgcc's unwinder
	 * (its own pthread_once and mutex calls): our doing, not the
	 * program's, so not traced. The guard is lifted as the unwind leaves
	 * this frame, so the program's thread-specific data destructors,
	 * which glibc runs after it, are traced as before. */
	pthread_cleanup_push(unwound_quietly, 0);
	st_tls.guard = 1;
	pthread_exit(ret);
	pthread_cleanup_pop(0);
}

static void *st_thread_start(void *p)
{
	struct start s = *(struct start *)p;
	free(p);
	return s.tracer ? run_tracer_thread(s) : run_app_thread(s);
}

ST_EXPORT int pthread_create(pthread_t *t, const pthread_attr_t *a,
			     void *(*fn)(void *), void *arg)
{
	create_fn real = st_load_acquire(&real_create);
	const void *caller = ST_CALLER();

	if (!real) {
		real = (create_fn)dlsym(RTLD_NEXT, "pthread_create");
		st_store_release(&real_create, (void *)real);
	}
	int tracer = created_by_tracer(caller);
	if (!tracer && !st_tracing())
		return real(t, a, fn, arg);

	struct start *s = malloc(sizeof(*s));
	if (!s)
		return EAGAIN;
	*s = (struct start){ fn, arg, st_tid(), tracer };
	int r = real(t, a, st_thread_start, s);
	if (r) {
		free(s);
		return r;
	}
	int *n;
	if (tracer && (n = thread_count()))
		st_fetch_add(n, -1);
	return 0;
}
