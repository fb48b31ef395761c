#include "core/map.h"
#include "core/grow.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define MAP_FIRST 64
#define BLOCK_SIZE (1 << 16)
#define BLOCK_BIG (BLOCK_SIZE / 4)	/* larger keys get a block of their own */

/* Eight bytes at a time, then a final mix (MurmurHash3's fmix64) so that
 * every input bit reaches the low bits, which pick the slot. */
uint64_t core_map_hash(const void *key, size_t len)
{
	const unsigned char *p = key;
	uint64_t h = (uint64_t)len * 0xc4ceb9fe1a85ec53ull, w;

	for (; len >= 8; p += 8, len -= 8) {
		memcpy(&w, p, 8);
		h = (h ^ w) * 0xff51afd7ed558ccdull;
		h ^= h >> 29;
	}
	if (len) {
		w = 0;
		memcpy(&w, p, len);
		h = (h ^ w) * 0xff51afd7ed558ccdull;
	}
	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdull;
	h ^= h >> 33;
	h *= 0xc4ceb9fe1a85ec53ull;
	return h ^ (h >> 33);
}

/* The slot of key (hash h): its entry's index + 1, or 0 and *at the empty
 * slot where it would go. */
static uint32_t probe(const struct core_map *m, const void *key, size_t len,
		      uint32_t h, size_t *at)
{
	size_t mask = m->nslot - 1, i;
	uint32_t ix;

	for (i = h & mask; (ix = m->slot[i].index); i = (i + 1) & mask) {
		const struct core_map_entry *e;

		if (m->slot[i].hash != h)
			continue;
		e = &m->entries[ix - 1];
		if (e->len == len && !memcmp(e->key, key, len))
			return ix;
	}
	*at = i;
	return 0;
}

struct core_map_entry *core_map_find(const struct core_map *m, const void *key, size_t len)
{
	size_t at;
	uint32_t ix;

	if (!m->n || len >= UINT32_MAX)
		return NULL;
	ix = probe(m, key, len, (uint32_t)core_map_hash(key, len), &at);
	return ix ? &m->entries[ix - 1] : NULL;
}

static int rehash(struct core_map *m)
{
	size_t nslot = m->nslot ? 2 * m->nslot : MAP_FIRST, mask = nslot - 1, i, j;
	struct core_map_slot *slot;

	if (m->nslot > SIZE_MAX / 2 / sizeof(*slot))
		return -ENOMEM;
	slot = calloc(nslot, sizeof(*slot));
	if (!slot)
		return -ENOMEM;
	for (i = 0; i < m->nslot; i++) {
		if (!m->slot[i].index)
			continue;
		for (j = m->slot[i].hash & mask; slot[j].index; j = (j + 1) & mask)
			;
		slot[j] = m->slot[i];
	}
	free(m->slot);
	m->slot = slot;
	m->nslot = nslot;
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
	struct core_map_entry *n;
	uint32_t h, ix = 0;
	size_t at = 0;
	char *copy;

	if (len >= UINT32_MAX)
		return -EOVERFLOW;
	h = (uint32_t)core_map_hash(key, len);
	if (m->nslot && (ix = probe(m, key, len, h, &at))) {
		*e = &m->entries[ix - 1];
		return 0;
	}
	if (m->n >= UINT32_MAX - 1)
		return -EOVERFLOW;
	if (CORE_GROW(m->entries, m->cap, m->n + 1) < 0)
		return -ENOMEM;
	if ((m->n + 1) * 2 > m->nslot) {
		if (rehash(m) < 0)
			return -ENOMEM;
		probe(m, key, len, h, &at);
	}
	if (!(copy = key_alloc(m, len + 1)))
		return -ENOMEM;
	if (len)
		memcpy(copy, key, len);
	copy[len] = '\0';
	n = &m->entries[m->n++];
	n->key = copy;
	n->len = (uint32_t)len;
	n->value.u = 0;
	m->slot[at].hash = h;
	m->slot[at].index = (uint32_t)m->n;
	*e = n;
	return 1;
}

void core_map_release(struct core_map *m, void (*free_value)(void *))
{
	size_t i;

	for (i = 0; free_value && i < m->n; i++)
		free_value(m->entries[i].value.p);
	for (i = 0; i < m->nblocks; i++)
		free(m->blocks[i]);
	free(m->blocks);
	free(m->entries);
	free(m->slot);
	*m = (struct core_map)CORE_MAP_INIT;
}
