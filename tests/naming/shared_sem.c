/* Process-shared semaphores in two processes. file: in a shm_open file
 * the parent maps and initialises (sem_init pshared); the forked child
 * maps the file again, at another address, and waits there ROUNDS times,
 * each wait released by a post of the parent once the child sleeps.
 * anon: in an anonymous MAP_SHARED mapping inherited by the child (the
 * same address in both); the parent waits, the child only posts. named:
 * sem_open'ed by the parent (its name printed on stdout), inherited; the
 * child waits, the parent posts. And a process-shared mutex next to anon,
 * held by the parent from before the fork until the child sleeps on it.
 * The names check (check-shared.sh) wants one name and klass per object
 * in both processes. */
#include <dlfcn.h>
#include <fcntl.h>
#include <pthread.h>
#include <semaphore.h>
#include <stdio.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"

#define ROUNDS 3

/* Wait (at most 2 s: on a loaded machine the post may come first, which
 * changes no name) until pid sleeps. */
static void until_asleep(pid_t pid)
{
	char path[64];
	snprintf(path, sizeof(path), "/proc/%d/wchan", (int)pid);
	for (int i = 0; i < 20000 && !st_wchan_in_futex(path); i++)
		usleep(100);
}

int main(void)
{
	char name[64];
	snprintf(name, sizeof(name), "/st-naming-%d", (int)getpid());
	int fd = shm_open(name, O_RDWR | O_CREAT | O_EXCL, 0600);
	CHECK(fd >= 0);
	CHECK_EQ(shm_unlink(name), 0); /* the mappings keep it */
	CHECK_EQ(ftruncate(fd, 4096), 0);
	sem_t *file = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	sem_t *anon = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	CHECK(file != MAP_FAILED && anon != MAP_FAILED);
	file += 2; /* at offset 64 */
	CHECK_EQ(sem_init(file, 1, 0), 0); /* NAMESITE file */
	CHECK_EQ(sem_init(anon, 1, 0), 0); /* NAMESITE anon */
	pthread_mutex_t *mtx = (pthread_mutex_t *)(anon + 4);
	pthread_mutexattr_t ma;
	CHECK_EQ(pthread_mutexattr_init(&ma), 0);
	CHECK_EQ(pthread_mutexattr_setpshared(&ma, PTHREAD_PROCESS_SHARED), 0);
	CHECK_EQ(pthread_mutex_init(mtx, &ma), 0); /* NAMESITE mutex */
	CHECK_EQ(pthread_mutex_lock(mtx), 0);
	char semname[64];
	snprintf(semname, sizeof(semname), "/st-naming-sem-%d", (int)getpid());
	sem_t *named = sem_open(semname, O_CREAT | O_EXCL, 0600, 0);
	CHECK(named != SEM_FAILED);
	CHECK_EQ(sem_unlink(semname), 0);
	printf("named %s\n", semname);
	fflush(stdout);
	/* A traced child starts before its registration, and its first event
	 * waits for it in a futex: until_asleep would take that wait for its
	 * sem_wait. The child waits for its registration first (what its
	 * first event would do, src/trace/ready.h; nothing untraced), then
	 * says it is done. */
	int ready[2];
	CHECK_EQ(pipe(ready), 0);
	pid_t parent = getpid(), child = fork();
	CHECK(child >= 0);
	if (child == 0) {
		CHECK_EQ(close(ready[0]), 0);
		int (*registered)(void) = (int (*)(void))dlsym(RTLD_DEFAULT, "synctrace_ready_wait");
		if (registered)
			registered();
		CHECK_EQ(write(ready[1], "r", 1), 1);
		sem_t *again = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
		CHECK(again != MAP_FAILED);
		CHECK(again + 2 != file);
		for (int r = 0; r < ROUNDS; r++) {
			CHECK_EQ(sem_wait(again + 2), 0);
			until_asleep(parent);
			CHECK_EQ(sem_post(anon), 0);
			CHECK_EQ(sem_wait(named), 0);
		}
		CHECK_EQ(pthread_mutex_lock(mtx), 0);
		CHECK_EQ(pthread_mutex_unlock(mtx), 0);
		_exit(0);
	}
	char c;
	CHECK_EQ(close(ready[1]), 0);
	CHECK_EQ(read(ready[0], &c, 1), 1);
	for (int r = 0; r < ROUNDS; r++) {
		until_asleep(child);
		CHECK_EQ(sem_post(file), 0);
		CHECK_EQ(sem_wait(anon), 0);
		until_asleep(child);
		CHECK_EQ(sem_post(named), 0);
	}
	until_asleep(child);
	CHECK_EQ(pthread_mutex_unlock(mtx), 0);
	int status;
	CHECK_EQ(waitpid(child, &status, 0), child);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	CHECK_EQ(sem_destroy(file), 0);
	CHECK_EQ(sem_destroy(anon), 0);
	CHECK_EQ(sem_close(named), 0);
	CHECK_EQ(pthread_mutex_destroy(mtx), 0);
	return 0;
}
