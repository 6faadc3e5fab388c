/* Process-shared objects' identity across processes: meta:mapping.
 *
 * A process-shared semaphore (mutex, condvar, rwlock) lives in a shared
 * mapping, usually at a different address in each process (sem_open, two
 * programs mapping one file) or at the same address in processes that are
 * not otherwise linked in the trace (fork). The analyzers need a key that
 * is the same in every process: the mapping's file and the object's
 * offset in it. lttng-ust's statedump lists the loaded modules only, so
 * this file announces the mapping itself, once per process and mapping,
 * before the first event on a process-shared object in it.
 *
 * How: st_shared_install replaces the entries of `wrapped` below (after
 * stacks.c replaced its own, so the announcement precedes a stack:use and
 * its event) with wrappers that look at the object's pshared flag and, for
 * a shared one not yet covered by an announced mapping, read
 * /proc/self/maps, emit meta:mapping, and call the previous entry.
 *
 * Only events emitted while the call keeps the object alive are wrapped:
 * its init (the flag is set by then) and the beginning of a wait. After a
 * post, an unlock or a signal another thread may destroy and free the
 * object at once (POSIX allows it), so the flag is never read there; a
 * process that only posts to a semaphore is not announced (the analyzers
 * fall back to the address: tracepoints/EVENTS.md).
 *
 * The flags, from the LAYOUT sections of src/sem/sem.h (private at 8,
 * 128 shared), src/mutex/mutex.h (kind at 16, bit 128), src/cond/cond.h
 * (attr at 20, bit 0x100) and src/rwlock/rwlock.h (shared at 28, 128).
 *
 * Memory and concurrency: the announced mappings are a fixed array; a
 * slot is reserved with a fetch_add and filled after, so a reader may see
 * a slot not yet filled and announce the mapping twice, which analyzers
 * accept. Beyond ST_SHARED_MAX mappings (private ones included: looked
 * at once) nothing more is announced: the maps file is never read per
 * event. A forked child starts with none (its
 * vpid is another process in the trace). Reading the maps file is a
 * cancellation point: cancellation is off around it, and errno is kept,
 * as the primitives' callers see it. No allocation, no stdio: sem_post
 * may run in a signal handler. */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "shared.h"

#define ST_SHARED_MAX 64

static struct st_probes st_shr_orig;
static struct {
	uintptr_t lo, hi;
} st_shr_seen[ST_SHARED_MAX];
static unsigned st_shr_n;

static int flag_at(const void *o, size_t off, int mask)
{
	return (*(const volatile int *)((const char *)o + off) & mask) != 0;
}


static int seen(uintptr_t a)
{
	unsigned n = __atomic_load_n(&st_shr_n, __ATOMIC_ACQUIRE);
	for (unsigned i = 0; i < n && i < ST_SHARED_MAX; i++)
		if (a >= st_shr_seen[i].lo && a < st_shr_seen[i].hi)
			return 1;
	return 0;
}

static uint64_t hex(const char **p)
{
	uint64_t v = 0;
	for (;; (*p)++) {
		char c = **p;
		if (c >= '0' && c <= '9')
			v = v * 16 + (uint64_t)(c - '0');
		else if (c >= 'a' && c <= 'f')
			v = v * 16 + (uint64_t)(c - 'a' + 10);
		else
			return v;
	}
}

static uint64_t dec(const char **p)
{
	uint64_t v = 0;
	for (; **p >= '0' && **p <= '9'; (*p)++)
		v = v * 10 + (uint64_t)(**p - '0');
	return v;
}

/* One maps line: "lo-hi perms offset maj:min inode   path". 1 when it
 * covers a, with the mapping announced if it is a shared one. */
static int maps_line(const void *obj, uintptr_t a, const char *l)
{
	const char *p = l;
	uint64_t lo = hex(&p);
	if (*p++ != '-')
		return 0;
	uint64_t hi = hex(&p);
	if (a < lo || a >= hi || *p++ != ' ')
		return 0;
	int shared = p[0] && p[1] && p[2] && p[3] == 's';
	p += 4;
	if (*p++ != ' ')
		return 1;
	uint64_t off = hex(&p);
	p++;
	unsigned maj = (unsigned)hex(&p);
	p++;
	unsigned min = (unsigned)hex(&p);
	while (*p == ' ')
		p++;
	uint64_t ino = dec(&p);
	while (*p == ' ')
		p++;
	unsigned slot = __atomic_fetch_add(&st_shr_n, 1, __ATOMIC_ACQ_REL);
	if (slot < ST_SHARED_MAX) {
		st_shr_seen[slot].lo = lo; /* private mappings too: no second look */
		st_shr_seen[slot].hi = hi;
	}
	if (shared)
		st_shr_orig.meta_mapping(obj, lo, hi, off, (uint64_t)makedev(maj, min), ino, p);
	return 1;
}

static void announce(const void *obj)
{
	uintptr_t a = (uintptr_t)obj;
	if (seen(a) || __atomic_load_n(&st_shr_n, __ATOMIC_RELAXED) >= ST_SHARED_MAX)
		return;
	int err = errno, cs;
	pthread_setcancelstate(PTHREAD_CANCEL_DISABLE, &cs);
	int fd = open("/proc/self/maps", O_RDONLY | O_CLOEXEC);
	if (fd >= 0) {
		char buf[4096], line[512];
		size_t len = 0;
		ssize_t n;
		int done = 0;
		while (!done && (n = read(fd, buf, sizeof(buf))) > 0) {
			for (ssize_t i = 0; i < n && !done; i++) {
				if (buf[i] != '\n') {
					if (len + 1 < sizeof(line))
						line[len++] = buf[i];
					continue;
				}
				line[len] = 0;
				done = maps_line(obj, a, line);
				len = 0;
			}
		}
		close(fd);
	}
	pthread_setcancelstate(cs, NULL);
	errno = err;
}

static void st_shr_forget(void)
{
	__atomic_store_n(&st_shr_n, 0, __ATOMIC_RELEASE);
}

/* Is o, the first argument of an event of family fam, process-shared?
 * (fam is a literal: the comparisons fold.) */
static inline int is_shared(const char *fam, const void *o)
{
	if (!strcmp(fam, "sem"))
		return flag_at(o, 8, 128);
	if (!strcmp(fam, "mutex"))
		return flag_at(o, 16, 128);
	if (!strcmp(fam, "cond"))
		return flag_at(o, 20, 0x100);
	if (!strcmp(fam, "rwlock"))
		return flag_at(o, 28, 128);
	return 0;
}

/* One wrapper per event (only those in `wrapped` are installed): the
 * object's flag, then the previous entry. The first argument is the object. */
#define ST_FIRST(...) ST_FIRST_(__VA_ARGS__, 0)
#define ST_FIRST_(a, ...) a
#define ST_EVENT(fam, name, args, fields)                                     \
	static void st_shr_##fam##_##name(ST_DECL args)                       \
	{                                                                     \
		const void *o = (const void *)(uintptr_t)ST_FIRST(ST_NAMES args); \
		if (is_shared(#fam, o))                                       \
			announce(o);                                          \
		st_shr_orig.fam##_##name(ST_NAMES args);                      \
	}
#include "st_all_events.h"
#undef ST_EVENT

static const struct {
	const char *name;
	size_t off;
	void (*fn)(void);
} st_shr_wrappers[] = {
#define ST_EVENT(fam, name, args, fields)                                     \
	{ #fam ":" #name, offsetof(struct st_probes, fam##_##name),           \
	  (void (*)(void))st_shr_##fam##_##name },
#include "st_all_events.h"
#undef ST_EVENT
};

/* Events emitted while the call keeps the object alive (see the top). */
static const char *const wrapped[] = {
	"sem:init", "sem:wait_begin", "sem:trywait_failed",
	"mutex:init", "mutex:requested", "mutex:trylock_failed",
	"cond:init", "cond:enqueued",
	"rwlock:init", "rwlock:requested", "rwlock:trylock_failed",
};

void st_shared_install(struct st_probes *t)
{
	st_shr_orig = *t;
	pthread_atfork(NULL, NULL, st_shr_forget);
	for (size_t i = 0; i < sizeof(wrapped) / sizeof(wrapped[0]); i++)
		for (size_t j = 0; j < sizeof(st_shr_wrappers) / sizeof(st_shr_wrappers[0]); j++)
			if (!strcmp(wrapped[i], st_shr_wrappers[j].name))
				memcpy((char *)t + st_shr_wrappers[j].off, &st_shr_wrappers[j].fn,
				       sizeof(st_shr_wrappers[j].fn));
}
