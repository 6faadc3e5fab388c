/* lttng-ust's sockets in a traced process keep their timeouts
 * (src/trace/ready.h): lttng-ust takes LTTNG_UST_REGISTER_TIMEOUT for its
 * notify socket's send and receive timeouts too, raised to 10 ms when it
 * is 0, and a daemon slower than that to acknowledge a channel left the
 * process untraced. So `record` must not set it to 0; it skips lttng-ust's
 * constructor wait another way.
 *
 * Prints, for each of this process's sockets connected to a session
 * daemon's application socket (its peer's path ends in
 * "lttng-ust-sock-N"), "sock fd=FD rcv_ms=MS snd_ms=MS" (0: no timeout),
 * first in the process itself once it recorded an event (registered),
 * then in a forked child once its first event waited for its own
 * registration ("child" lines). */
#include <dirent.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"

static long ms(const struct timeval *t)
{
	return t->tv_sec * 1000L + t->tv_usec / 1000;
}

static void list(const char *who)
{
	DIR *d = opendir("/proc/self/fd");
	CHECK(d != NULL);
	struct dirent *e;
	while ((e = readdir(d))) {
		int fd = atoi(e->d_name);
		struct sockaddr_un a;
		socklen_t len = sizeof(a);
		if (e->d_name[0] == '.' || fd == dirfd(d))
			continue;
		memset(&a, 0, sizeof(a));
		if (getpeername(fd, (struct sockaddr *)&a, &len) || a.sun_family != AF_UNIX ||
		    !strstr(a.sun_path, "lttng-ust-sock-"))
			continue;
		struct timeval r, s;
		socklen_t lr = sizeof(r), ls = sizeof(s);
		CHECK_EQ(getsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &r, &lr), 0);
		CHECK_EQ(getsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &s, &ls), 0);
		printf("%s fd=%d rcv_ms=%ld snd_ms=%ld\n", who, fd, ms(&r), ms(&s));
	}
	closedir(d);
	fflush(stdout);
}

/* An event at the contention level and above: the first one waits for
 * the registration. */
static void record_one(void)
{
	pthread_mutex_t m;
	CHECK_EQ(pthread_mutex_init(&m, 0), 0);
	CHECK_EQ(pthread_mutex_destroy(&m), 0);
}

int main(void)
{
	record_one();
	list("sock");
	pid_t c = fork();
	CHECK(c >= 0);
	if (c == 0) {
		record_one();
		list("child");
		exit(0);
	}
	int st;
	CHECK_EQ(waitpid(c, &st, 0), c);
	CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	return 0;
}
