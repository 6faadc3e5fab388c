/* C11 <threads.h>: semantics and thrd_* results against glibc and
 * synctrace, and the program's own (versioned) references bind to
 * synctrace when preloaded. */
#include <stdint.h>
#include <threads.h>
#include <time.h>

#include "cases.h"
#include "check.h"

/* The function the program itself calls (its GOT entry, bound with glibc's
 * symbol version) must be synctrace's in preload/traced mode. */
static void check_bound(void *fn, const char *name)
{
	Dl_info info;
	CHECK(dladdr(fn, &info) && info.dli_fname);
	int ours = strstr(info.dli_fname, "libsynctrace.so") != NULL;
	if (ours != st_test_preloaded()) {
		fprintf(stderr, "%s bound to %s in mode %s\n", name, info.dli_fname,
			st_test_mode());
		exit(1);
	}
}
#define CHECK_BOUND(f) check_bound((void *)(f), #f)

static struct timespec in_ms(long ms)
{
	struct timespec t;
	CHECK_EQ(timespec_get(&t, TIME_UTC), TIME_UTC);
	t.tv_nsec += ms * 1000000L;
	t.tv_sec += t.tv_nsec / 1000000000L;
	t.tv_nsec %= 1000000000L;
	return t;
}

static mtx_t m;
static cnd_t c;
static int flag;

static int try_other(void *p)
{
	return mtx_trylock(p);
}

static int timed_other(void *p)
{
	struct timespec t = in_ms(20);
	return mtx_timedlock(p, &t);
}

static void mutexes(void)
{
	thrd_t t;
	int r;
	CHECK_EQ(mtx_init(&m, mtx_plain), thrd_success);
	CHECK_EQ(mtx_lock(&m), thrd_success);
	CHECK_EQ(thrd_create(&t, try_other, &m), thrd_success);
	CHECK_EQ(thrd_join(t, &r), thrd_success);
	CHECK_EQ(r, thrd_busy);
	CHECK_EQ(mtx_unlock(&m), thrd_success);
	CHECK_EQ(mtx_trylock(&m), thrd_success);
	CHECK_EQ(mtx_unlock(&m), thrd_success);
	mtx_destroy(&m);

	mtx_t rec;
	CHECK_EQ(mtx_init(&rec, mtx_timed | mtx_recursive), thrd_success);
	CHECK_EQ(mtx_lock(&rec), thrd_success);
	CHECK_EQ(mtx_trylock(&rec), thrd_success);
	CHECK_EQ(thrd_create(&t, timed_other, &rec), thrd_success);
	CHECK_EQ(thrd_join(t, &r), thrd_success);
	CHECK_EQ(r, thrd_timedout);
	CHECK_EQ(mtx_unlock(&rec), thrd_success);
	CHECK_EQ(mtx_unlock(&rec), thrd_success);
	mtx_destroy(&rec);
}

static int signaller(void *p)
{
	(void)p;
	thrd_sleep(&(struct timespec){ 0, 10000000 }, 0);
	mtx_lock(&m);
	flag = 1;
	cnd_broadcast(&c);
	mtx_unlock(&m);
	return 7;
}

static void condvars(void)
{
	thrd_t t;
	int r;
	CHECK_EQ(mtx_init(&m, mtx_plain), thrd_success);
	CHECK_EQ(cnd_init(&c), thrd_success);
	CHECK_EQ(mtx_lock(&m), thrd_success);
	struct timespec ts = in_ms(10);
	CHECK_EQ(cnd_timedwait(&c, &m, &ts), thrd_timedout);
	CHECK_EQ(thrd_create(&t, signaller, 0), thrd_success);
	while (!flag)
		CHECK_EQ(cnd_wait(&c, &m), thrd_success);
	CHECK_EQ(mtx_unlock(&m), thrd_success);
	CHECK_EQ(thrd_join(t, &r), thrd_success);
	CHECK_EQ(r, 7);
	CHECK_EQ(cnd_signal(&c), thrd_success);
	cnd_destroy(&c);
	mtx_destroy(&m);
}

static once_flag once = ONCE_FLAG_INIT;
static int once_runs;
static void once_fn(void)
{
	once_runs++;
}

static tss_t key;
static int dtor_runs;
static void dtor(void *v)
{
	CHECK_EQ((intptr_t)v, 42);
	__atomic_fetch_add(&dtor_runs, 1, __ATOMIC_RELAXED);
}

static int exits_early(void *p)
{
	(void)p;
	call_once(&once, once_fn);
	CHECK_EQ(tss_set(key, (void *)42), thrd_success);
	CHECK_EQ((intptr_t)tss_get(key), 42);
	thrd_exit(5);
}

static int detached(void *p)
{
	(void)p;
	return 0;
}

static void threads_once_tss(void)
{
	thrd_t t[3];
	int r;
	CHECK_EQ(tss_create(&key, dtor), thrd_success);
	CHECK(tss_get(key) == 0);
	for (int i = 0; i < 3; i++)
		CHECK_EQ(thrd_create(&t[i], exits_early, 0), thrd_success);
	for (int i = 0; i < 3; i++) {
		CHECK(!thrd_equal(t[i], thrd_current()));
		CHECK_EQ(thrd_join(t[i], &r), thrd_success);
		CHECK_EQ(r, 5);
	}
	CHECK_EQ(once_runs, 1);
	CHECK_EQ(dtor_runs, 3);
	call_once(&once, once_fn);
	CHECK_EQ(once_runs, 1);
	tss_delete(key);
	CHECK(thrd_equal(thrd_current(), thrd_current()));
	CHECK_EQ(thrd_create(&t[0], detached, 0), thrd_success);
	CHECK_EQ(thrd_detach(t[0]), thrd_success);
	thrd_yield();
	CHECK_EQ(thrd_sleep(&(struct timespec){ 0, 1000000 }, 0), 0);
}

static void setup(void)
{
	CHECK_BOUND(mtx_init);
	CHECK_BOUND(mtx_lock);
	CHECK_BOUND(mtx_timedlock);
	CHECK_BOUND(mtx_trylock);
	CHECK_BOUND(mtx_unlock);
	CHECK_BOUND(mtx_destroy);
	CHECK_BOUND(cnd_init);
	CHECK_BOUND(cnd_wait);
	CHECK_BOUND(cnd_timedwait);
	CHECK_BOUND(cnd_signal);
	CHECK_BOUND(cnd_broadcast);
	CHECK_BOUND(cnd_destroy);
	CHECK_BOUND(call_once);
	CHECK_BOUND(thrd_create);
	CHECK_BOUND(thrd_join);
	CHECK_BOUND(tss_create);
}

static const struct st_case st_cases[] = {
	ST_CASE(mutexes),
	ST_CASE(condvars),
	ST_CASE(threads_once_tss),
};

ST_MAIN(setup())
