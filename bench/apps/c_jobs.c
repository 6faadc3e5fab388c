/* A C program's threads as C programs are often written: each job is a
 * struct with its own mutex and condvar, made with pthread_mutex_init and
 * pthread_cond_init and destroyed with the job; a worker completes it
 * (under its mutex), the submitter waits for it and frees it: a mutex's
 * and a condvar's whole life per job, at one address when the allocator
 * hands the same memory back (bench/README.md, "(h) apps").
 * usage: c_jobs [JOBS=20000]
 * prints: c_jobs jobs=N seconds=S jobs_per_s=R */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

struct job {
	pthread_mutex_t m;
	pthread_cond_t done_cv;
	int done;
	long value;
	struct job *next;
};

static pthread_mutex_t qm = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t qcv = PTHREAD_COND_INITIALIZER;
static struct job *head, *tail;
static int stop;

static void *work(void *arg)
{
	(void)arg;
	for (;;) {
		pthread_mutex_lock(&qm);
		while (!head && !stop)
			pthread_cond_wait(&qcv, &qm);
		struct job *j = head;
		if (!j) {
			pthread_mutex_unlock(&qm);
			return NULL;
		}
		head = j->next;
		if (!head)
			tail = NULL;
		pthread_mutex_unlock(&qm);
		/* Signalled with the job's mutex held: once it is released the
		 * submitter may free the job, so nothing here touches it after. */
		pthread_mutex_lock(&j->m);
		j->value = 42;
		j->done = 1;
		pthread_cond_signal(&j->done_cv);
		pthread_mutex_unlock(&j->m);
	}
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 20000, sum = 0;
	pthread_t worker;
	struct timespec t0, t1;
	if (pthread_create(&worker, NULL, work, NULL))
		return 1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (long i = 0; i < n; i++) {
		struct job *j = calloc(1, sizeof(*j));
		if (!j)
			return 1;
		pthread_mutex_init(&j->m, NULL);
		pthread_cond_init(&j->done_cv, NULL);
		pthread_mutex_lock(&qm);
		if (tail)
			tail->next = j;
		else
			head = j;
		tail = j;
		pthread_cond_signal(&qcv);
		pthread_mutex_unlock(&qm);
		pthread_mutex_lock(&j->m);
		while (!j->done)
			pthread_cond_wait(&j->done_cv, &j->m);
		sum += j->value;
		pthread_mutex_unlock(&j->m);
		pthread_cond_destroy(&j->done_cv);
		pthread_mutex_destroy(&j->m);
		free(j);
	}
	pthread_mutex_lock(&qm);
	stop = 1;
	pthread_cond_signal(&qcv);
	pthread_mutex_unlock(&qm);
	pthread_join(worker, NULL);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	double s = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
	if (sum != 42 * n) {
		fprintf(stderr, "c_jobs: sum %ld, want %ld\n", sum, 42 * n);
		return 1;
	}
	printf("c_jobs jobs=%ld seconds=%.3f jobs_per_s=%.0f\n", n, s, (double)n / s);
	return 0;
}
