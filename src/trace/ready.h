/* Tracing from a process's first event instead of from its start
 * (SYNCTRACE_REGISTER_WAIT=MS, set by `synctrace record`).
 *
 * lttng-ust's constructor holds every process, before main, until the
 * session daemon has registered it, set up and started its sessions and
 * taken the first statedump (at most LTTNG_UST_REGISTER_TIMEOUT ms): a few
 * round trips to the daemon, 5-10 ms a process here, paid by /bin/true and
 * by every `sh` a build forks, though they record nothing. `record` sets
 * SYNCTRACE_REGISTER_WAIT: that wait is skipped (below) and the probes
 * make a process's first event wait for that same moment,
 * at most MS ms (negative: no limit). A process that records nothing never
 * waits; one that does records everything, as before.
 *
 * The moment is lttng-ust's: it posts the semaphore its constructor would
 * wait on once it is registered with every daemon it reaches (or found
 * none) and its first statedump is done. libsynctrace implements sem_init
 * and sem_post, so it sees both: the semaphore lttng-ust initialises
 * (liblttng-ust.so's only sem_init, from its constructor) is noted while
 * watching, and its post ends the wait. A forked child with lttng-ust's
 * fork helper registers anew: the probes re-arm the watch in it before the
 * helper runs lttng-ust's constructor again, and its first event waits as
 * a new image's does (its close, dup2 and setrlimit too: the probes' fork).
 *
 * States (st_ready_mode, st_ready_sem, st_ready_done):
 *   mode UNKNOWN -> OFF | WATCH   decided once, from the environment, at
 *                                 the first sem_init or the probes' query
 *   sem NULL -> lttng-ust's       its sem_init, while WATCH (static storage
 *                                 in liblttng-ust.so: valid for the process)
 *   sem -> NULL, done 0 -> 1      its sem_post: waiters are woken
 *   done 1 -> 0, sem NULL         synctrace_ready_rearm, in a forked child
 * The cost on the primitives' paths: sem_post loads st_ready_sem (NULL but
 * while a registration is awaited), a semaphore wait that found no token
 * loads st_ready_ctor (NULL but between lttng-ust's sem_init and its
 * wait: the fast path is untouched), and sem_init tests st_ready_mode.
 *
 * lttng-ust's constructor waits on that semaphore right after its
 * sem_init. That wait is skipped, not shortened: the constructor's
 * sem_timedwait (or sem_wait) on it returns 0 at once while watching, and
 * while libsynctrace dlopens the probes (SYNCTRACE_TRACE=1: the wait
 * could only time out there, its listener thread needing the loader lock
 * dlopen holds). LTTNG_UST_REGISTER_TIMEOUT=0 would skip it too, but
 * lttng-ust also takes that value for its notify socket's timeout, raised
 * to 10 ms: on a loaded machine a registration whose channel the daemon
 * took longer to acknowledge failed, and the process ran untraced (a
 * trace with no stream declared, babeltrace2 unable to read it; seen in
 * the suite beside two busy loops, about 1 run in 12). So `record` leaves
 * LTTNG_UST_REGISTER_TIMEOUT as the user set it (lttng-ust's 3 s else).
 *   ctor NULL -> lttng-ust's      its sem_init, while watching or loading
 *   ctor -> NULL                  its wait, which returns 0 at once */
#ifndef ST_READY_H
#define ST_READY_H

#include "internal/atomic.h"

struct st_sem;

extern int st_ready_mode; /* -1 unknown, 0 off, 1 watching */
extern struct st_sem *st_ready_sem;
extern struct st_sem *st_ready_ctor; /* lttng-ust's, its constructor's wait next */
extern int st_ready_loading;         /* libsynctrace dlopens the probes */

void st_ready_sem_init(struct st_sem *s, const void *caller);
void st_ready_sem_post(struct st_sem *s);
int st_ready_ctor_wait(struct st_sem *s);

/* In sem_init: note lttng-ust's semaphore. */
static inline void st_ready_on_init(struct st_sem *s, const void *caller)
{
	if (st_unlikely(st_load_relaxed(&st_ready_mode) != 0 ||
			st_load_relaxed(&st_ready_loading)))
		st_ready_sem_init(s, caller);
}

/* In a semaphore wait that found no token (sem_wait, sem_timedwait,
 * sem_clockwait): 1 if this is lttng-ust's constructor waiting for its
 * registration, which returns 0 at once. A token there (the registration
 * posted first) is simply taken. */
static inline int st_ready_on_wait(struct st_sem *s)
{
	return st_unlikely(st_load_relaxed(&st_ready_ctor) == s) && st_ready_ctor_wait(s);
}

/* In sem_post: its post ends the wait. */
static inline void st_ready_on_post(struct st_sem *s)
{
	if (st_unlikely(st_load_relaxed(&st_ready_sem) != 0))
		st_ready_sem_post(s);
}

#endif
