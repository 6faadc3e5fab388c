/* synctrace/flush.h: make what the program's threads recorded reach the
 * trace now, before the program is killed or aborts on purpose.
 *
 *   #include <synctrace/flush.h>
 *   ...
 *   synctrace_flush_now();   // then abort(), or tell a watchdog "ready"
 *
 * Each thread keeps its records in a buffer of its own and writes them to
 * LTTng's buffers when it has ~110 of them, when the oldest is 10 ms old,
 * at thread exit and at process exit; a flusher thread writes out those of
 * idle threads every 5 ms. A process killed by a signal loses what is not
 * written out yet (its last ~10-15 ms). synctrace_flush writes every
 * thread's out at once (a wait held by SYNCTRACE_THRESHOLD, not yet
 * decided, stays held); LTTng's buffers survive the process. It returns 0,
 * or -1 when the process is not traced at the contention or full level
 * (no synctrace, no session, or the summary level, whose aggregates go out
 * at thread exit, at process exit and once a second).
 *
 * As with synctrace/work.h, synctrace_flush is a weak reference resolved
 * when libsynctrace.so is loaded (LD_PRELOAD by `synctrace record`, or
 * linked); without it synctrace_flush_now() does nothing and returns -1. */
#ifndef SYNCTRACE_FLUSH_H
#define SYNCTRACE_FLUSH_H

#ifdef __cplusplus
extern "C" {
#endif

/* Exported by libsynctrace.so. */
extern int synctrace_flush(void) __attribute__((weak));

static inline int synctrace_flush_now(void)
{
	return synctrace_flush ? synctrace_flush() : -1;
}

#ifdef __cplusplus
}
#endif

#endif
