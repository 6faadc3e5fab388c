/* POSIX/glibc semantics and error codes of every mutex type, identical
 * against glibc and synctrace. */
#include <pthread.h>
#include <stdint.h>
#include <time.h>
#include <unistd.h>

#include "cases.h"
#include "check.h"

static pthread_mutex_t held_elsewhere = PTHREAD_MUTEX_INITIALIZER;
static volatile int holding, release_now;

static void *holder(void *arg)
{
	pthread_mutex_t *m = arg;
	CHECK_EQ(pthread_mutex_lock(m), 0);
	__atomic_store_n(&holding, 1, __ATOMIC_RELEASE);
	while (!__atomic_load_n(&release_now, __ATOMIC_ACQUIRE))
		usleep(1000);
	CHECK_EQ(pthread_mutex_unlock(m), 0);
	return 0;
}

/* Run fn with m held by another thread for its whole duration. */
static void with_other_owner(pthread_mutex_t *m, void (*fn)(pthread_mutex_t *))
{
	pthread_t t;
	__atomic_store_n(&holding, 0, __ATOMIC_RELEASE);
	__atomic_store_n(&release_now, 0, __ATOMIC_RELEASE);
	CHECK_EQ(pthread_create(&t, 0, holder, m), 0);
	while (!__atomic_load_n(&holding, __ATOMIC_ACQUIRE))
		usleep(100);
	fn(m);
	__atomic_store_n(&release_now, 1, __ATOMIC_RELEASE);
	CHECK_EQ(pthread_join(t, 0), 0);
}

static void busy_checks(pthread_mutex_t *m)
{
	struct timespec bad = { 0, 1000000000L }, neg = { 0, -1 }, past = { -1, 0 };
	CHECK_EQ(pthread_mutex_trylock(m), EBUSY);
	/* An invalid time is reported once the call knows it must wait. */
	CHECK_EQ(pthread_mutex_timedlock(m, &bad), EINVAL);
	CHECK_EQ(pthread_mutex_timedlock(m, &neg), EINVAL);
	CHECK_EQ(pthread_mutex_timedlock(m, &past), ETIMEDOUT);
	struct timespec soon = st_in_ms(CLOCK_REALTIME, 20);
	CHECK_EQ(pthread_mutex_timedlock(m, &soon), ETIMEDOUT);
	soon = st_in_ms(CLOCK_MONOTONIC, 20);
	CHECK_EQ(pthread_mutex_clocklock(m, CLOCK_MONOTONIC, &soon), ETIMEDOUT);
	soon = st_in_ms(CLOCK_REALTIME, 20);
	CHECK_EQ(pthread_mutex_clocklock(m, CLOCK_REALTIME, &soon), ETIMEDOUT);
	CHECK_EQ(pthread_mutex_clocklock(m, CLOCK_PROCESS_CPUTIME_ID, &soon), EINVAL);
	/* Unlocking a mutex another thread holds. */
	int type;
	pthread_mutexattr_t a;
	(void)a;
	type = m->__data.__kind & 3;
	if (type == PTHREAD_MUTEX_ERRORCHECK || type == PTHREAD_MUTEX_RECURSIVE)
		CHECK_EQ(pthread_mutex_unlock(m), EPERM);
	CHECK_EQ(pthread_mutex_destroy(m), EBUSY);
}

static void init_type(pthread_mutex_t *m, int type, int pshared)
{
	pthread_mutexattr_t a;
	CHECK_EQ(pthread_mutexattr_init(&a), 0);
	CHECK_EQ(pthread_mutexattr_settype(&a, type), 0);
	CHECK_EQ(pthread_mutexattr_setpshared(&a, pshared), 0);
	CHECK_EQ(pthread_mutex_init(m, &a), 0);
	CHECK_EQ(pthread_mutexattr_destroy(&a), 0);
}

static void normal_type(int pshared)
{
	pthread_mutex_t m;
	init_type(&m, PTHREAD_MUTEX_NORMAL, pshared);
	CHECK_EQ(pthread_mutex_lock(&m), 0);
	CHECK_EQ(pthread_mutex_trylock(&m), EBUSY);
	CHECK_EQ(pthread_mutex_unlock(&m), 0);
	CHECK_EQ(pthread_mutex_trylock(&m), 0);
	CHECK_EQ(pthread_mutex_unlock(&m), 0);
	/* A free mutex is taken whatever the time says. */
	struct timespec bad = { 0, -5 };
	CHECK_EQ(pthread_mutex_timedlock(&m, &bad), 0);
	CHECK_EQ(pthread_mutex_unlock(&m), 0);
	with_other_owner(&m, busy_checks);
	CHECK_EQ(pthread_mutex_destroy(&m), 0);
}

static void errorcheck_type(pthread_mutex_t *m)
{
	CHECK_EQ(pthread_mutex_unlock(m), EPERM); /* never locked (musl 2011) */
	CHECK_EQ(pthread_mutex_lock(m), 0);
	CHECK_EQ(pthread_mutex_lock(m), EDEADLK);
	CHECK_EQ(pthread_mutex_trylock(m), EBUSY);
	struct timespec soon = st_in_ms(CLOCK_REALTIME, 10);
	CHECK_EQ(pthread_mutex_timedlock(m, &soon), EDEADLK);
	CHECK_EQ(pthread_mutex_unlock(m), 0);
	CHECK_EQ(pthread_mutex_unlock(m), EPERM);
	with_other_owner(m, busy_checks);
}

static void recursive_type(pthread_mutex_t *m)
{
	CHECK_EQ(pthread_mutex_unlock(m), EPERM);
	for (int i = 0; i < 5; i++)
		CHECK_EQ(pthread_mutex_lock(m), 0);
	CHECK_EQ(pthread_mutex_trylock(m), 0);
	struct timespec soon = st_in_ms(CLOCK_REALTIME, 10);
	CHECK_EQ(pthread_mutex_timedlock(m, &soon), 0);
	for (int i = 0; i < 7; i++)
		CHECK_EQ(pthread_mutex_unlock(m), 0);
	CHECK_EQ(pthread_mutex_unlock(m), EPERM);
	with_other_owner(m, busy_checks);
}

static pthread_mutex_t s_normal = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t s_recursive = PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP;
static pthread_mutex_t s_errorcheck = PTHREAD_ERRORCHECK_MUTEX_INITIALIZER_NP;
static pthread_mutex_t s_adaptive = PTHREAD_ADAPTIVE_MUTEX_INITIALIZER_NP;

static void normal_type_private_and_shared(void)
{
	normal_type(PTHREAD_PROCESS_PRIVATE);
	normal_type(PTHREAD_PROCESS_SHARED);
}

/* Errorcheck, recursive and adaptive, private and process-shared. */
static void checking_and_adaptive_types(void)
{
	pthread_mutex_t m;
	for (int ps = 0; ps < 2; ps++) {
		int pshared = ps ? PTHREAD_PROCESS_SHARED : PTHREAD_PROCESS_PRIVATE;
		init_type(&m, PTHREAD_MUTEX_ERRORCHECK, pshared);
		errorcheck_type(&m);
		CHECK_EQ(pthread_mutex_destroy(&m), 0);
		init_type(&m, PTHREAD_MUTEX_RECURSIVE, pshared);
		recursive_type(&m);
		CHECK_EQ(pthread_mutex_destroy(&m), 0);
		init_type(&m, PTHREAD_MUTEX_ADAPTIVE_NP, pshared);
		CHECK_EQ(pthread_mutex_lock(&m), 0);
		CHECK_EQ(pthread_mutex_trylock(&m), EBUSY);
		CHECK_EQ(pthread_mutex_unlock(&m), 0);
		with_other_owner(&m, busy_checks);
		CHECK_EQ(pthread_mutex_destroy(&m), 0);
	}
}

/* glibc's static initialisers: the type is where glibc puts it. */
static void static_initializers_give_each_type(void)
{
	CHECK_EQ(pthread_mutex_lock(&s_normal), 0);
	CHECK_EQ(pthread_mutex_unlock(&s_normal), 0);
	errorcheck_type(&s_errorcheck);
	recursive_type(&s_recursive);
	CHECK_EQ(pthread_mutex_lock(&s_adaptive), 0);
	CHECK_EQ(pthread_mutex_unlock(&s_adaptive), 0);
	with_other_owner(&s_adaptive, busy_checks);
}

/* NULL attributes: a normal mutex; after destroy glibc answers EINVAL,
 * and so must we. */
static void null_attributes_and_use_after_destroy(void)
{
	pthread_mutex_t m;
	CHECK_EQ(pthread_mutex_init(&m, 0), 0);
	CHECK_EQ(pthread_mutex_lock(&m), 0);
	CHECK_EQ(pthread_mutex_destroy(&m), EBUSY);
	CHECK_EQ(pthread_mutex_unlock(&m), 0);
	CHECK_EQ(pthread_mutex_destroy(&m), 0);
	CHECK_EQ(pthread_mutex_lock(&m), EINVAL);
	CHECK_EQ(pthread_mutex_trylock(&m), EINVAL);
	CHECK_EQ(pthread_mutex_unlock(&m), EINVAL);
}

static void setup(void)
{
	st_check_interposed("pthread_mutex_lock");
	st_check_interposed("pthread_mutex_unlock");
	st_check_interposed("pthread_mutex_timedlock");
	st_check_interposed("pthread_mutex_clocklock");
	(void)held_elsewhere;
}

static const struct st_case st_cases[] = {
	ST_CASE(normal_type_private_and_shared),
	ST_CASE(checking_and_adaptive_types),
	ST_CASE(static_initializers_give_each_type),
	ST_CASE(null_attributes_and_use_after_destroy),
};

ST_MAIN(setup())
