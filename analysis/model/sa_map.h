/* Open-addressing hash map: (a, b) → 32-bit index into the caller's array.
 * Grows by doubling (linear probing); a reused key is re-pointed with
 * sa_map_put, a dead one removed with sa_map_del. */
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
/* Remove (a, b) if present. */
void sa_map_del(struct sa_map *m, uint64_t a, uint64_t b);
void sa_map_free(struct sa_map *m);

#endif
