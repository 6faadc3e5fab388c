/* Looks like cond_cycle but does not hang: `flusher` waits on dirty_cv
 * (holding nothing); its signaler `writer` sleeps on table_lock, held by
 * `slowpoke`, which is merely slow (asleep in nanosleep, not in a wait:
 * it will release the lock). No thread is stuck. usage: slow_signaler READY */
#include "hang_cache.h"

static _Atomic pid_t slow_tid;

static void *flusher(void *arg)
{
	(void)arg;
	hang_flusher_start();
	atomic_store(&phase, 2);
	wait_dirty();                   /* round 2: the writer will, once slowpoke is done */
	return NULL;
}

static void *slowpoke(void *arg)
{
	(void)arg;
	hang_name("slowpoke");
	atomic_store(&slow_tid, hang_tid());
	hang_wait_phase(&phase, 2);
	pthread_mutex_lock(&table_lock);
	atomic_store(&phase, 3);
	sleep(3600);                    /* slow, not stuck */
	pthread_mutex_unlock(&table_lock);
	return NULL;
}

static void *writer(void *arg)
{
	(void)arg;
	hang_writer_start();
	hang_wait_phase(&phase, 3);
	hang_wait_asleep(&slow_tid, HANG_NANOSLEEP, "slowpoke");
	mark_dirty();                   /* sleeps on table_lock until slowpoke is done */
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t a, b, c;
	if (argc != 2)
		return 2;
	pthread_create(&a, NULL, flusher, NULL);
	pthread_create(&b, NULL, writer, NULL);
	pthread_create(&c, NULL, slowpoke, NULL);
	hang_wait_phase(&phase, 3);
	hang_wait_asleep(&flusher_tid, HANG_FUTEX, "flusher");
	hang_wait_asleep(&writer_tid, HANG_FUTEX, "writer");
	hang_wait_asleep(&slow_tid, HANG_NANOSLEEP, "slowpoke");
	hang_ready(argv[1]);
}
