#include <stdlib.h>

#include "sa_map.h"

static uint64_t mix(uint64_t a, uint64_t b)
{
	uint64_t h = a * 0x9e3779b97f4a7c15ull ^ (b + 0x632be59bd9b4e019ull + (a << 6));
	h ^= h >> 31;
	h *= 0xbf58476d1ce4e5b9ull;
	h ^= h >> 29;
	return h;
}

int64_t sa_map_get(const struct sa_map *m, uint64_t a, uint64_t b)
{
	if (!m->cap)
		return -1;
	for (uint32_t i = (uint32_t)mix(a, b) & (m->cap - 1);; i = (i + 1) & (m->cap - 1)) {
		const struct sa_map_slot *s = &m->slots[i];
		if (!s->val)
			return -1;
		if (s->a == a && s->b == b)
			return (int64_t)s->val - 1;
	}
}

static void place(struct sa_map_slot *slots, uint32_t cap, uint64_t a, uint64_t b,
		  uint32_t val)
{
	uint32_t i = (uint32_t)mix(a, b) & (cap - 1);
	while (slots[i].val && !(slots[i].a == a && slots[i].b == b))
		i = (i + 1) & (cap - 1);
	slots[i] = (struct sa_map_slot){ a, b, val };
}

int sa_map_put(struct sa_map *m, uint64_t a, uint64_t b, uint32_t idx)
{
	if ((m->n + 1) * 2 > m->cap) {
		uint32_t cap = m->cap ? m->cap * 2 : 64;
		struct sa_map_slot *s = calloc(cap, sizeof(*s));
		if (!s)
			return -1;
		for (uint32_t i = 0; i < m->cap; i++)
			if (m->slots[i].val)
				place(s, cap, m->slots[i].a, m->slots[i].b, m->slots[i].val);
		free(m->slots);
		m->slots = s;
		m->cap = cap;
	}
	if (sa_map_get(m, a, b) < 0)
		m->n++;
	place(m->slots, m->cap, a, b, idx + 1);
	return 0;
}

/* Backward-shift deletion: the entries after the hole that probed past it
 * move up, so every lookup still finds its key before an empty slot. */
void sa_map_del(struct sa_map *m, uint64_t a, uint64_t b)
{
	if (!m->cap)
		return;
	uint32_t mask = m->cap - 1, i = (uint32_t)mix(a, b) & mask;
	while (m->slots[i].val && !(m->slots[i].a == a && m->slots[i].b == b))
		i = (i + 1) & mask;
	if (!m->slots[i].val)
		return;
	m->n--;
	for (uint32_t j = (i + 1) & mask; m->slots[j].val; j = (j + 1) & mask) {
		uint32_t home = (uint32_t)mix(m->slots[j].a, m->slots[j].b) & mask;
		/* j's entry may fill the hole at i unless its home lies in (i, j]. */
		if (((j - home) & mask) >= ((j - i) & mask)) {
			m->slots[i] = m->slots[j];
			i = j;
		}
	}
	m->slots[i].val = 0;
}

void sa_map_free(struct sa_map *m)
{
	free(m->slots);
	m->slots = NULL;
	m->cap = m->n = 0;
}
