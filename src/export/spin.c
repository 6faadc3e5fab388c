/* The exported POSIX spinlock names. pshared needs nothing: no futex. */
#include <errno.h>

#include "spin/spinlock.h"

ST_EXPORT int pthread_spin_init(pthread_spinlock_t *l, int pshared)
{
	(void)pshared;
	st_store_release(l, 0);
	return 0;
}

ST_EXPORT int pthread_spin_destroy(pthread_spinlock_t *l)
{
	(void)l;
	return 0;
}

ST_EXPORT int pthread_spin_lock(pthread_spinlock_t *l)
{
	return st_spinlock_lock(l, ST_CALLER());
}

ST_EXPORT int pthread_spin_trylock(pthread_spinlock_t *l)
{
	return st_spinlock_trylock(l) ? 0 : EBUSY;
}

ST_EXPORT int pthread_spin_unlock(pthread_spinlock_t *l)
{
	st_store_release(l, 0);
	return 0;
}
