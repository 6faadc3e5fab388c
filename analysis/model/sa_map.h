/* Open-addressing hash map: (a, b) → 32-bit index into the caller's array.
 * Grows by doubling; no deletion (objects and threads are kept for the
 * report; a reused key is re-pointed with sa_map_put). */
#ifndef SA_MAP_H
#define SA_MAP_H

#include <stdint.h>

struct sa_map_slot {
	uint64_t a, b;
	uint32_t val; /* index + 1; 0 = empty */
};

struct sa_map {
	struct sa_map_slot *slots;
	uint32_t cap, n; /* cap: power of two */
};

/* Index, or -1. */
int64_t sa_map_get(const struct sa_map *m, uint64_t a, uint64_t b);
/* Insert or overwrite. 0, or -1 when out of memory. */
int sa_map_put(struct sa_map *m, uint64_t a, uint64_t b, uint32_t idx);
void sa_map_free(struct sa_map *m);

#endif
