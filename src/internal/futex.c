#include "futex.h"

#include <dlfcn.h>
#include <errno.h>
#include <gnu/libc-version.h>
#include <linux/futex.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "fault.h"
#include "trace.h"

static inline long sys_futex(volatile int *addr, int op, int val,
			     const struct timespec *ts, volatile int *addr2, int val3)
{
	return syscall(SYS_futex, addr, op, val, ts, addr2, val3);
}

static inline int priv(int shared)
{
	return shared ? 0 : FUTEX_PRIVATE_FLAG;
}

/* glibc's word of cancellation bits in the thread descriptor (nptl's
 * descriptor header; these bits up to glibc 2.38 at least, ST_GLIBC_CANCEL_BITS_MAX;
 * a later glibc gets no wait, as before). Its offset is in the descriptor
 * glibc exports for libthread_db: { bits, count, offset }. */
#define GLIBC_CANCELING 0x04 /* pthread_cancel sent the cancellation signal */
#define GLIBC_CANCELED 0x08  /* the signal arrived (or the cancel needs none) */
#define ST_GLIBC_CANCEL_BITS_MAX 38 /* 2.MAX */
static long cancel_offset = -1; /* -1: not a glibc whose word we know */

static int glibc_bits_known(void)
{
	const char *v = gnu_get_libc_version();
	int major = 0, minor = 0;
	return sscanf(v, "%d.%d", &major, &minor) == 2 && major == 2 &&
	       minor <= ST_GLIBC_CANCEL_BITS_MAX;
}

/* At load, not on a wait path: dlvsym takes the loader lock, which a
 * thread in dlopen may hold while it waits for the waiter. */
__attribute__((constructor)) static void cancel_word_init(void)
{
	const uint32_t *d = glibc_bits_known()
		? dlvsym(RTLD_DEFAULT, "_thread_db_pthread_cancelhandling", "GLIBC_PRIVATE")
		: 0;
	if (d && d[0] == 32 && d[1] == 1)
		cancel_offset = d[2];
}

/* The asynchronous window is closed; a pthread_cancel that saw it open has
 * marked us CANCELING and sent the signal, which may still be on its way.
 * Wait for it, as glibc's own cancellable calls do
 * (__pthread_disable_asynccancel): its handler stores PTHREAD_CANCELED as
 * the thread's result, and arriving after the thread function returned it
 * would replace the value returned (joined as cancelled, a cancel that
 * never acted). The handler, now finding the type deferred, only marks the
 * cancel pending. Its CAS changes the word, and the signal interrupts the
 * futex wait, so neither can be missed. */
static void await_cancel_signal(void)
{
	volatile int *w;
	int v;
	if (cancel_offset < 0)
		return;
	w = (volatile int *)((char *)pthread_self() + cancel_offset);
	while (((v = __atomic_load_n(w, __ATOMIC_ACQUIRE)) &
		     (GLIBC_CANCELING | GLIBC_CANCELED)) == GLIBC_CANCELING)
		sys_futex(w, FUTEX_WAIT | FUTEX_PRIVATE_FLAG, v, 0, 0, 0);
}

static int futex_wait(volatile int *addr, int val, int shared, clockid_t clk,
		      const struct timespec *abs, const void *obj, int cancel)
{
	int op = FUTEX_WAIT_BITSET | priv(shared), oldtype = 0;
	unsigned long long t0 = 0;
	int r;

	if (abs) {
		/* The kernel rejects a negative time; POSIX says it has passed. */
		if (abs->tv_sec < 0)
			return ETIMEDOUT;
		if (clk == CLOCK_REALTIME)
			op |= FUTEX_CLOCK_REALTIME;
	}
#ifdef ST_FAULTS
	/* Fault injection (fault.h): a wait that returns at once, as the
	 * kernel may, or after a delay that widens the caller's window. */
	if (st_fault(ST_FAULT_SPURIOUS))
		return 0;
	if (st_fault(ST_FAULT_EINTR))
		return EINTR;
	ST_FAULT_POINT(futex_wait);
#endif
	if (st_tracing())
		t0 = st_now_ns();
	/* errno is the caller's: keep it as it was (sem_* set it themselves). */
	int saved = errno;
	/* Cancellable: asynchronous cancellation around the system call only,
	 * so an unwind never starts inside a probe (the event comes after). */
	if (cancel)
		pthread_setcanceltype(PTHREAD_CANCEL_ASYNCHRONOUS, &oldtype);
	r = sys_futex(addr, op, val, abs, 0, FUTEX_BITSET_MATCH_ANY) == 0 ? 0 : errno;
	if (cancel && oldtype == PTHREAD_CANCEL_DEFERRED) {
		pthread_setcanceltype(oldtype, 0);
		await_cancel_signal();
	}
	errno = saved;
	if (r != ETIMEDOUT && r != EINTR && r != EAGAIN)
		r = 0; /* EFAULT and friends: treat as a spurious return */
	if (t0)
		st_futex_ev_wait(obj, (const void *)addr, val, r, st_now_ns() - t0);
	return r;
}

int st_futex_wait(volatile int *addr, int val, int shared, clockid_t clk,
		  const struct timespec *abs, const void *obj)
{
	return futex_wait(addr, val, shared, clk, abs, obj, 0);
}

int st_futex_wait_cancel(volatile int *addr, int val, int shared, clockid_t clk,
			 const struct timespec *abs, const void *obj)
{
	return futex_wait(addr, val, shared, clk, abs, obj, 1);
}

int st_futex_wake(volatile int *addr, int n, int shared, const void *obj)
{
	ST_FAULT_POINT(futex_wake); /* the window between a release and its wake */
	int saved = errno;
	long r = sys_futex(addr, FUTEX_WAKE | priv(shared), n, 0, 0, 0);
	errno = saved;
	if (r < 0)
		r = 0; /* EFAULT: the word was unmapped by its new owner; nobody woke */
	st_futex_ev_wake(obj, (const void *)addr, n, (int)r);
	return (int)r;
}

int st_futex_requeue(volatile int *addr, int val, int nwake, int nmove,
		     volatile int *addr2, int shared, const void *obj)
{
	ST_FAULT_POINT(futex_requeue);
	int saved = errno;
	long r = sys_futex(addr, FUTEX_CMP_REQUEUE | priv(shared), nwake,
			   (const struct timespec *)(long)nmove, addr2, val);
	if (r < 0)
		r = -errno;
	errno = saved;
	st_futex_ev_requeue(obj, (const void *)addr, (const void *)addr2,
			    nwake, nmove, (int)r);
	return (int)r;
}

int st_futex_wait_untraced(volatile int *addr, int val, const struct timespec *abs)
{
	int saved = errno;
	int r = sys_futex(addr, FUTEX_WAIT_BITSET | FUTEX_PRIVATE_FLAG, val, abs, 0,
			  FUTEX_BITSET_MATCH_ANY) == 0 ? 0 : errno;
	errno = saved;
	return r;
}

void st_futex_wake_untraced(volatile int *addr, int n)
{
	int saved = errno;
	sys_futex(addr, FUTEX_WAKE | FUTEX_PRIVATE_FLAG, n, 0, 0, 0);
	errno = saved;
}
