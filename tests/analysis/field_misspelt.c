/* Compiled by ctest (tests/analysis/CMakeLists.txt): with SPELT it must
 * compile, without it must not: a field id that is not in the event's
 * definition is a compile error, not a silent zero. */
#include "sa_event.h"

long how(const struct sa_event *e)
{
#ifdef SPELT
	return e->f[SA_F_mutex_acquired_how].v;
#else
	return e->f[SA_F_mutex_acquired_hwo].v;
#endif
}
