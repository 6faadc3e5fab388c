/* The 2015 seed's spin-strategy stress: threads share a list used as a
 * LIFO, guarded by one mutex. Each thread draws a random count and pushes
 * (malloc) or pops (free) that many nodes, one lock hold per node, so most
 * nodes are freed by another thread than the one that allocated them.
 * Pushes are drawn with probability 1/2 while the list is below LIMIT
 * nodes, so it stays small on expectation.
 * usage: lifo [threads=4] [seconds=1]
 * prints: lifo threads=N ops=K seconds=T ops_per_s=R  (one op = one node) */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define MAXDRAW 16
#define LIMIT 4096

struct node {
	struct node *next;
	unsigned payload[3];
};

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static struct node *top;
static long length;
static volatile int stop;

static void *worker(void *arg)
{
	unsigned seed = (unsigned)(long)arg * 2654435761u + 17;
	long ops = 0;
	while (!stop) {
		int k = 1 + rand_r(&seed) % MAXDRAW;
		int push = rand_r(&seed) & 1;
		for (int i = 0; i < k; i++) {
			if (push) {
				struct node *n = malloc(sizeof *n + rand_r(&seed) % 64);
				if (!n)
					abort();
				n->payload[0] = seed;
				pthread_mutex_lock(&m);
				if (length >= LIMIT) {
					pthread_mutex_unlock(&m);
					free(n);
					break;
				}
				n->next = top;
				top = n;
				length++;
				pthread_mutex_unlock(&m);
			} else {
				pthread_mutex_lock(&m);
				struct node *n = top;
				if (n) {
					top = n->next;
					length--;
				}
				pthread_mutex_unlock(&m);
				if (!n)
					break;
				free(n);
			}
			ops++;
		}
	}
	return (void *)ops;
}

static double now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	int nt = argc > 1 ? atoi(argv[1]) : 4;
	double secs = argc > 2 ? atof(argv[2]) : 1.0;
	pthread_t t[64];
	if (nt < 1 || nt > 64)
		return 2;
	double t0 = now();
	for (long i = 0; i < nt; i++)
		pthread_create(&t[i], 0, worker, (void *)(i + 1));
	struct timespec d = { (time_t)secs, (long)((secs - (time_t)secs) * 1e9) };
	nanosleep(&d, 0);
	stop = 1;
	long ops = 0;
	for (int i = 0; i < nt; i++) {
		void *r;
		pthread_join(t[i], &r);
		ops += (long)r;
	}
	double el = now() - t0;
	while (top) {
		struct node *n = top;
		top = n->next;
		free(n);
	}
	printf("lifo threads=%d ops=%ld seconds=%.3f ops_per_s=%.0f\n", nt, ops, el, ops / el);
	return 0;
}
