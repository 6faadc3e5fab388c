/* The cache shape of cond_cycle.c and slow_signaler.c: a writer marks the
 * cache dirty under table_lock and signals dirty_cv; the flusher waits for
 * it. Round 1 (hang_cache_round1, in the writer) makes the writer a known
 * signaler: it signals while the flusher sleeps on dirty_cv. */
#ifndef HANG_CACHE_H
#define HANG_CACHE_H

#include "hang_util.h"

static pthread_mutex_t table_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t dirty_mtx = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t dirty_cv = PTHREAD_COND_INITIALIZER;
static int dirty;
static _Atomic pid_t flusher_tid, writer_tid;
static _Atomic int phase;

static inline void mark_dirty(void)
{
	pthread_mutex_lock(&table_lock);
	pthread_mutex_lock(&dirty_mtx);
	dirty = 1;
	pthread_cond_signal(&dirty_cv);
	pthread_mutex_unlock(&dirty_mtx);
	pthread_mutex_unlock(&table_lock);
}

static inline void wait_dirty(void)
{
	pthread_mutex_lock(&dirty_mtx);
	while (!dirty)
		pthread_cond_wait(&dirty_cv, &dirty_mtx);
	dirty = 0;
	pthread_mutex_unlock(&dirty_mtx);
}

/* The flusher, then the writer, start so. */
static inline void hang_flusher_start(void)
{
	hang_name("flusher");
	atomic_store(&flusher_tid, hang_tid());
	wait_dirty();                   /* round 1: the writer signals it */
}

static inline void hang_writer_start(void)
{
	hang_name("writer");
	atomic_store(&writer_tid, hang_tid());
	hang_wait_asleep(&flusher_tid, HANG_FUTEX, "flusher (round 1)");
	mark_dirty();
}

#endif
