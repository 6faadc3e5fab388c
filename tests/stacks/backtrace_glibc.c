/* libunwind exports a weak `backtrace` (and _Unwind_*): loading it for
 * SYNCTRACE_STACKS=1 must not replace the program's. After a contended
 * lock (so a stack has been taken with libunwind), backtrace() as the
 * program binds it is glibc's, and works. */
#include <execinfo.h>
#include <link.h>
#include <pthread.h>
#include <string.h>
#include <unistd.h>

#include "check.h"

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

static void *contender(void *arg)
{
	(void)arg;
	CHECK_EQ(pthread_mutex_lock(&m), 0);
	CHECK_EQ(pthread_mutex_unlock(&m), 0);
	return NULL;
}

static const char *object_of(const char *symbol)
{
	void *p = dlsym(RTLD_DEFAULT, symbol);
	Dl_info info;
	if (!p || !dladdr(p, &info) || !info.dli_fname)
		return "(none)";
	return info.dli_fname;
}

static int has_libunwind(struct dl_phdr_info *info, size_t size, void *data)
{
	(void)size;
	(void)data;
	return info->dlpi_name && strstr(info->dlpi_name, "libunwind") != NULL;
}

int main(void)
{
	pthread_t t;
	CHECK_EQ(pthread_mutex_lock(&m), 0);
	CHECK_EQ(pthread_create(&t, NULL, contender, NULL), 0);
	usleep(20000);
	CHECK_EQ(pthread_mutex_unlock(&m), 0);
	CHECK_EQ(pthread_join(t, NULL), 0);

	if (!strcmp(st_test_mode(), "traced"))
		CHECK(dl_iterate_phdr(has_libunwind, NULL)); /* the case tested */
	const char *bt = object_of("backtrace");
	if (!strstr(bt, "libc.so")) {
		fprintf(stderr, "backtrace comes from %s, not glibc\n", bt);
		return 1;
	}
	const char *raise = object_of("_Unwind_RaiseException");
	CHECK(!strstr(raise, "libunwind"));
	void *frames[16];
	int n = backtrace(frames, 16);
	CHECK(n >= 2);
	return 0;
}
