/* Atomics used by the primitives: thin names over the GCC __atomic builtins,
 * so that every call site says which ordering it needs (and TSan sees it). */
#ifndef ST_ATOMIC_H
#define ST_ATOMIC_H

#include <stdint.h>

#define st_load_relaxed(p)   __atomic_load_n((p), __ATOMIC_RELAXED)
#define st_load_acquire(p)   __atomic_load_n((p), __ATOMIC_ACQUIRE)
#define st_store_relaxed(p, v) __atomic_store_n((p), (v), __ATOMIC_RELAXED)
#define st_store_release(p, v) __atomic_store_n((p), (v), __ATOMIC_RELEASE)

/* Strong CAS; returns non-zero on success. On failure *expected is not
 * updated (the callers re-read the word themselves, which keeps the loops
 * reading like the state machines they implement). */
static inline int st_cas_acquire(volatile int *p, int expected, int desired)
{
	return __atomic_compare_exchange_n(p, &expected, desired, 0,
					   __ATOMIC_ACQUIRE, __ATOMIC_RELAXED);
}

static inline int st_cas_acq_rel(volatile int *p, int expected, int desired)
{
	return __atomic_compare_exchange_n(p, &expected, desired, 0,
					   __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE);
}

static inline int st_cas_release(volatile int *p, int expected, int desired)
{
	return __atomic_compare_exchange_n(p, &expected, desired, 0,
					   __ATOMIC_RELEASE, __ATOMIC_RELAXED);
}

static inline int st_cas_ptr(void *volatile *p, void *expected, void *desired)
{
	return __atomic_compare_exchange_n(p, &expected, desired, 0,
					   __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE);
}

static inline int st_swap_release(volatile int *p, int v)
{
	return __atomic_exchange_n(p, v, __ATOMIC_RELEASE);
}

static inline int st_swap_acq_rel(volatile int *p, int v)
{
	return __atomic_exchange_n(p, v, __ATOMIC_ACQ_REL);
}

static inline int st_fetch_add(volatile int *p, int v)
{
	return __atomic_fetch_add(p, v, __ATOMIC_ACQ_REL);
}

static inline void st_inc(volatile int *p) { __atomic_fetch_add(p, 1, __ATOMIC_ACQ_REL); }
static inline void st_dec(volatile int *p) { __atomic_fetch_sub(p, 1, __ATOMIC_ACQ_REL); }

static inline void st_cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#elif defined(__aarch64__)
	__asm__ __volatile__("yield" ::: "memory");
#else
	__asm__ __volatile__("" ::: "memory");
#endif
}

#define st_likely(x)   __builtin_expect(!!(x), 1)
#define st_unlikely(x) __builtin_expect(!!(x), 0)

#endif
