/* The relay daemon. `--relayd net://HOST[:CTRL[:DATA]]` names one (its
 * live port is CTRL + 2, as lttng's defaults 5342/5343/5344 are laid out).
 * Otherwise `top` starts a private `lttng-relayd` as its own child: bound
 * to 127.0.0.1 only, on three ports the kernel just handed out as free
 * (bound to port 0, read back, released; if another program takes one in
 * between, the daemon exits and it is tried again on new ones), in its own
 * process group (Ctrl-C on the terminal is for the command and the view,
 * not for the daemon that still has their data), stopped by its pid. */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "synctrace.h"

static pid_t relayd_pid;

int relay_parse(const char *url, struct relay_addr *r)
{
	memset(r, 0, sizeof(*r));
	const char *p = url;
	if (!strncmp(p, "net://", 6))
		p += 6;
	else if (strstr(p, "://"))
		goto bad;
	size_t n = strcspn(p, ":/");
	if (!n || n >= sizeof(r->host))
		goto bad;
	memcpy(r->host, p, n);
	r->ctrl = 5342;
	r->data = 5343;
	p += n;
	for (int i = 0; *p == ':' && i < 2; i++) {
		char *end;
		long v = strtol(p + 1, &end, 10);
		if (end == p + 1 || v <= 0 || v > 65533)
			goto bad;
		if (i == 0) {
			r->ctrl = (int)v;
			r->data = (int)v + 1;
		} else {
			r->data = (int)v;
		}
		p = end;
	}
	if (*p && strcmp(p, "/"))
		goto bad;
	r->live = r->ctrl + 2;
	return 0;
bad:
	say("--relayd wants net://HOST[:CONTROL_PORT[:DATA_PORT]] (the live port is the "
	    "control port + 2), not '%s'", url);
	return -1;
}

static void nap_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };
	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

/* n free TCP ports on 127.0.0.1 (all bound at once, so distinct). */
static int free_ports(int *ports, int n)
{
	int fds[3], rc = 0;
	for (int i = 0; i < n; i++) {
		struct sockaddr_in a = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
		socklen_t len = sizeof(a);
		fds[i] = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
		if (fds[i] < 0 || bind(fds[i], (struct sockaddr *)&a, sizeof(a)) ||
		    getsockname(fds[i], (struct sockaddr *)&a, &len)) {
			rc = -1;
			n = i + 1;
			break;
		}
		ports[i] = ntohs(a.sin_port);
	}
	for (int i = 0; i < n; i++)
		if (fds[i] >= 0)
			close(fds[i]);
	return rc;
}

/* Whether something accepts connections on 127.0.0.1:port. */
static int listening(int port)
{
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons((uint16_t)port),
				 .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	int ok = fd >= 0 && !connect(fd, (struct sockaddr *)&a, sizeof(a));
	if (fd >= 0)
		close(fd);
	return ok;
}

/* One attempt: 0 started, 1 it exited (a port taken?), -1 failure. */
static int try_start(const char *bin, const char *outdir, struct relay_addr *r)
{
	int ports[3];
	char c[64], d[64], l[64];
	if (free_ports(ports, 3)) {
		say("cannot find free ports on 127.0.0.1: %s", strerror(errno));
		return -1;
	}
	snprintf(r->host, sizeof(r->host), "127.0.0.1");
	r->ctrl = ports[0];
	r->data = ports[1];
	r->live = ports[2];
	snprintf(c, sizeof(c), "tcp://127.0.0.1:%d", r->ctrl);
	snprintf(d, sizeof(d), "tcp://127.0.0.1:%d", r->data);
	snprintf(l, sizeof(l), "tcp://127.0.0.1:%d", r->live);
	pid_t p = child_fork();
	if (p < 0)
		return -1;
	if (p == 0) {
		setpgid(0, 0);
		int null = open("/dev/null", O_RDWR);
		if (null >= 0) {
			dup2(null, 0);
			dup2(null, 1);
			dup2(null, 2);
		}
		execl(bin, "lttng-relayd", "-C", c, "-D", d, "-L", l, "-o", outdir, (char *)NULL);
		_exit(127);
	}
	for (int i = 0; i < 200; i++) { /* 10 s */
		int status;
		if (waitpid(p, &status, WNOHANG) == p)
			return 1;
		if (listening(r->live) && listening(r->ctrl)) {
			relayd_pid = p;
			return 0;
		}
		nap_ms(50);
	}
	kill(p, SIGKILL);
	waitpid(p, NULL, 0);
	say("the private lttng-relayd did not start listening within 10 s");
	return -1;
}

int relayd_start(const char *outdir, struct relay_addr *r)
{
	char bin[PATH_MAX];
	if (path_lookup("lttng-relayd", bin, sizeof(bin))) {
		say("lttng-relayd is not in PATH: install lttng-tools (Debian: apt-get install "
		    "lttng-tools) or give one with --relayd URL");
		return -1;
	}
	for (int attempt = 0; attempt < 3; attempt++) {
		int rc = try_start(bin, outdir, r);
		if (rc <= 0)
			return rc;
	}
	say("the private lttng-relayd exited at once three times (ports taken?)");
	return -1;
}

void relayd_stop(void)
{
	pid_t p = relayd_pid;
	int status;
	if (!p)
		return;
	relayd_pid = 0;
	kill(p, SIGTERM);
	for (int i = 0; i < 100; i++) {
		if (waitpid(p, &status, WNOHANG) == p)
			return;
		nap_ms(50);
	}
	say("the private lttng-relayd (pid %d) did not stop: killing it", (int)p);
	kill(p, SIGKILL);
	waitpid(p, &status, 0);
}
