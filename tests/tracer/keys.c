/* Keys the program never created are invalid, and its first key is 0, as
 * untraced: lttng-ust's two keys are given values just below 32
 * (tracepoints/tracer_keys.h). Traced, keys 30 and 31 are the tracer's:
 * that is what remains (README, Limitations when tracing). */
#include <pthread.h>
#include <threads.h>

#include "check.h"

#define ST_KEY_TOP 32

int main(void)
{
	int traced = !strcmp(st_test_mode(), "traced") || getenv("SYNCTRACE_TRACE");
	for (pthread_key_t k = 0; k < ST_KEY_TOP - 2; k++)
		CHECK_EQ(pthread_setspecific(k, &traced), EINVAL);
	for (pthread_key_t k = ST_KEY_TOP - 2; k < ST_KEY_TOP; k++)
		CHECK_EQ(pthread_setspecific(k, 0), traced ? 0 : EINVAL);
	CHECK(pthread_getspecific(0) == NULL);
	/* C11, as glibc's tst-tss-basic: an uncreated key cannot be set. */
	CHECK_EQ(tss_set(0, &traced), thrd_error);
	pthread_key_t a, b;
	CHECK_EQ(pthread_key_create(&a, 0), 0);
	CHECK_EQ(pthread_key_create(&b, 0), 0);
	CHECK_EQ(a, 0);
	CHECK_EQ(b, 1);
	CHECK_EQ(pthread_setspecific(a, &traced), 0);
	CHECK(pthread_getspecific(a) == &traced);
	CHECK_EQ(pthread_key_delete(a), 0);
	CHECK_EQ(pthread_key_delete(b), 0);
	tss_t t;
	CHECK_EQ(tss_create(&t, 0), thrd_success);
	CHECK_EQ((unsigned)t, 0);
	tss_delete(t);
	return 0;
}
