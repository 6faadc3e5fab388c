/* A condvar hang: `flusher` waits on dirty_cv holding table_lock; its only
 * signaler `writer` (known: it signalled once while flusher waited) needs
 * table_lock first, so it sleeps on it for ever. usage: cond_cycle READY */
#include "hang_cache.h"

static void *flusher(void *arg)
{
	(void)arg;
	hang_flusher_start();
	pthread_mutex_lock(&table_lock);
	atomic_store(&phase, 2);
	wait_dirty();                   /* round 2: never */
	return NULL;
}

static void *writer(void *arg)
{
	(void)arg;
	hang_writer_start();
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
