/* A condvar hang: `flusher` waits on dirty_cv holding table_lock; its only
 * signaler `writer` (known: it signalled once while flusher waited) needs
 * table_lock first, so it sleeps on it for ever. usage: cond_cycle READY */
#include "hang_util.h"

static pthread_mutex_t table_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t dirty_mtx = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t dirty_cv = PTHREAD_COND_INITIALIZER;
static int dirty;
static _Atomic pid_t flusher_tid, writer_tid;
static _Atomic int phase;

static void mark_dirty(void)
{
	pthread_mutex_lock(&table_lock);
	pthread_mutex_lock(&dirty_mtx);
	dirty = 1;
	pthread_cond_signal(&dirty_cv);
	pthread_mutex_unlock(&dirty_mtx);
	pthread_mutex_unlock(&table_lock);
}

static void wait_dirty(void)
{
	pthread_mutex_lock(&dirty_mtx);
	while (!dirty)
		pthread_cond_wait(&dirty_cv, &dirty_mtx);
	dirty = 0;
	pthread_mutex_unlock(&dirty_mtx);
}

static void *flusher(void *arg)
{
	(void)arg;
	hang_name("flusher");
	atomic_store(&flusher_tid, hang_tid());
	wait_dirty();                   /* round 1: writer signals it */
	pthread_mutex_lock(&table_lock);
	atomic_store(&phase, 2);
	wait_dirty();                   /* round 2: never */
	return NULL;
}

static void *writer(void *arg)
{
	(void)arg;
	hang_name("writer");
	atomic_store(&writer_tid, hang_tid());
	hang_wait_asleep(&flusher_tid, HANG_FUTEX, "flusher (round 1)");
	mark_dirty();
	hang_wait_phase(&phase, 2);
	hang_wait_asleep(&flusher_tid, HANG_FUTEX, "flusher (round 2)");
	mark_dirty();                   /* sleeps on table_lock */
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t a, b;
	if (argc != 2)
		return 2;
	pthread_create(&a, NULL, flusher, NULL);
	pthread_create(&b, NULL, writer, NULL);
	hang_wait_phase(&phase, 2);
	hang_wait_asleep(&flusher_tid, HANG_FUTEX, "flusher");
	hang_wait_asleep(&writer_tid, HANG_FUTEX, "writer");
	hang_ready(argv[1]);
}
