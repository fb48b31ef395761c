#include "core/map.h"
#include "core/grow.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define MAP_FIRST 64
#define BLOCK_SIZE (1 << 16)
#define BLOCK_BIG (BLOCK_SIZE / 4)	/* larger keys get a block of their own */

/* Eight bytes at a time, then a final mix so that every input bit reaches
 * the low bits, which pick the slot. */
uint64_t core_map_hash(const void *key, size_t len)
{
	const unsigned char *p = key;
	uint64_t h = 0x9e3779b97f4a7c15ull ^ ((uint64_t)len * 0xff51afd7ed558ccdull);
	uint64_t w;

	for (; len >= 8; p += 8, len -= 8) {
		memcpy(&w, p, 8);
		h = (h ^ w) * 0xbf58476d1ce4e5b9ull;
		h ^= h >> 31;
	}
	if (len) {
		w = 0;
		memcpy(&w, p, len);
		h = (h ^ w) * 0x94d049bb133111ebull;
	}
	h ^= h >> 32;
	h *= 0xd6e8feb86659fd93ull;
	return h ^ (h >> 32);
}

struct core_map_entry *core_map_find(const struct core_map *m, const void *key, size_t len)
{
	uint32_t h;
	size_t i, mask;

	if (!m->n || len > UINT32_MAX)
		return NULL;
	h = (uint32_t)core_map_hash(key, len);
	mask = m->cap - 1;
	for (i = h & mask; m->slot[i].key; i = (i + 1) & mask) {
		struct core_map_entry *e = &m->slot[i];

		if (e->hash == h && e->len == len && !memcmp(e->key, key, len))
			return e;
	}
	return NULL;
}

static int rehash(struct core_map *m)
{
	size_t cap = m->cap ? 2 * m->cap : MAP_FIRST, mask = cap - 1, i, j;
	struct core_map_entry *slot;

	if (m->cap > SIZE_MAX / 2 / sizeof(*slot))
		return -ENOMEM;
	slot = calloc(cap, sizeof(*slot));
	if (!slot)
		return -ENOMEM;
	for (i = 0; i < m->cap; i++) {
		if (!m->slot[i].key)
			continue;
		for (j = m->slot[i].hash & mask; slot[j].key; j = (j + 1) & mask)
			;
		slot[j] = m->slot[i];
	}
	free(m->slot);
	m->slot = slot;
	m->cap = cap;
	return 0;
}

/* Room for n bytes that never move. */
static char *key_alloc(struct core_map *m, size_t n)
{
	int big = n > BLOCK_BIG;
	char *b;

	if (big || !m->nblocks || m->used + n > BLOCK_SIZE) {
		if (CORE_GROW(m->blocks, m->capblocks, m->nblocks + 1) < 0 ||
		    !(b = malloc(big ? n : BLOCK_SIZE)))
			return NULL;
		if (big && m->nblocks) {
			/* Keep the partly used block last. */
			m->blocks[m->nblocks] = m->blocks[m->nblocks - 1];
			m->blocks[m->nblocks++ - 1] = b;
			return b;
		}
		m->blocks[m->nblocks++] = b;
		m->used = 0;
		if (big) {
			m->used = BLOCK_SIZE;	/* full: the next key starts a block */
			return b;
		}
	}
	b = m->blocks[m->nblocks - 1] + m->used;
	m->used += n;
	return b;
}

int core_map_put(struct core_map *m, const void *key, size_t len, struct core_map_entry **e)
{
	uint32_t h;
	size_t i, mask;
	char *copy;

	if (len >= UINT32_MAX)
		return -EOVERFLOW;
	h = (uint32_t)core_map_hash(key, len);
	if (m->cap) {
		mask = m->cap - 1;
		for (i = h & mask; m->slot[i].key; i = (i + 1) & mask) {
			struct core_map_entry *s = &m->slot[i];

			if (s->hash == h && s->len == len && !memcmp(s->key, key, len)) {
				*e = s;
				return 0;
			}
		}
	}
	if ((m->n + 1) * 2 > m->cap && rehash(m) < 0)
		return -ENOMEM;
	if (!(copy = key_alloc(m, len + 1)))
		return -ENOMEM;
	if (len)
		memcpy(copy, key, len);
	copy[len] = '\0';
	mask = m->cap - 1;
	for (i = h & mask; m->slot[i].key; i = (i + 1) & mask)
		;
	m->slot[i].key = copy;
	m->slot[i].len = (uint32_t)len;
	m->slot[i].hash = h;
	m->slot[i].value.u = 0;
	m->n++;
	*e = &m->slot[i];
	return 1;
}

void core_map_release(struct core_map *m, void (*free_value)(void *))
{
	size_t i;

	for (i = 0; free_value && i < m->cap; i++)
		if (m->slot[i].key)
			free_value(m->slot[i].value.p);
	for (i = 0; i < m->nblocks; i++)
		free(m->blocks[i]);
	free(m->blocks);
	free(m->slot);
	*m = (struct core_map)CORE_MAP_INIT;
}
