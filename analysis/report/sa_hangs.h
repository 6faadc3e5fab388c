/* The wait-for graph in words (hangs.c), for its tables and for the hang
 * findings (find_hang.c). Times are from the trace's first event, as
 * --window and --at count them. */
#ifndef SA_HANGS_H
#define SA_HANGS_H

#include <stddef.h>
#include <stdint.h>

#include "sa_model.h"
#include "sa_waitfor.h"

/* A growing sentence in a fixed buffer (cut, never overrun). */
struct sa_sb {
	char *b;
	size_t n, len;
};
void sa_sb_say(struct sa_sb *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* "condvar `dirty_cv`" (the object as the programmer knows it). */
void sa_hang_object(struct sa_sb *s, const struct sa_model *m, uint32_t oi);
/* Who can end thread ti's wait: "held by `flusher:12` since 1.20 s",
 * "signalers: `writer:13` from mark_dirty (cache.c:52)", "held by an
 * unknown thread", ... */
void sa_hang_wakers(struct sa_sb *s, const struct sa_model *m, const struct sa_waitfor *w,
		    uint32_t ti);
/* The chain from stuck thread ti, one sentence: "`flusher:12` waits on
 * condvar `dirty_cv` at flush (cache.c:30) since 1.20 s; its only signaler
 * `writer:13` (from mark_dirty (cache.c:52)) is blocked on mutex
 * `table_lock` at mark_dirty (cache.c:50), held by `flusher:12` since at
 * least 1.20 s". seen[] (one per model thread) marks the threads it names
 * as explained; returns 1 when the chain came back to a thread of its own
 * (a cycle). */
int sa_hang_explain(struct sa_sb *s, const struct sa_model *m, const struct sa_waitfor *w,
		    uint32_t ti, unsigned char *seen);
/* What thread ti's wait is, in one word: "stuck", "waker_runs" (a thread
 * that can end it still runs), "unknown" (who can end it is not known),
 * "timed" (it ends by its timeout). */
const char *sa_hang_state(const struct sa_model *m, const struct sa_waitfor *w, uint32_t ti);

#endif
