/*
 * A hash map from byte strings to a number or a pointer, for tables on hot
 * paths (the trace reader's string table) as much as for small ones.
 *
 *	struct core_map m = CORE_MAP_INIT;
 *	struct core_map_entry *e;
 *	int ret = core_map_put(&m, name, len, &e);
 *	if (ret < 0) return ret;          // out of memory
 *	if (ret == 1) e->value.u = next_id++;	// a new key
 *	id = e->value.u;
 *	...
 *	core_map_release(&m, NULL);
 *
 * Keys are byte strings with an explicit length (they may hold NUL bytes);
 * the map copies each new key once, NUL-terminated, into blocks it owns,
 * so entry->key stays valid and in place until core_map_release, whatever
 * the map does afterwards.
 *
 * Layout, for speed: the entries are a dense array in the order they were
 * added (entry i is the i-th key added, so an index doubles as an id), and
 * the hash table is a separate array of 8-byte slots (a key's hash and its
 * entry's index), open addressing with linear probing, at most half full.
 * A probe compares key bytes only when the hashes agree; a lookup that
 * finds its key allocates nothing.  There is no removal.
 *
 * A pointer to an entry is valid until the next core_map_put, which may
 * move the array; its index stays valid.  To visit every entry, walk
 * entries[0..n), in the order the keys were added.
 *
 * Ownership: the map owns its arrays and key copies; values are the
 * caller's (core_map_release can free pointer values).  Errors: -ENOMEM,
 * or -EOVERFLOW for a key of 4 GiB or more or a map of 2^32 - 1 entries;
 * the map is unchanged then.  Thread-safety: none for core_map_put;
 * core_map_find from several threads is safe while no thread calls
 * core_map_put.
 */
#ifndef CORE_MAP_H
#define CORE_MAP_H

#include <stddef.h>
#include <stdint.h>

struct core_map_entry {
	const char *key;	/* the map's copy, NUL-terminated */
	uint32_t len;		/* bytes of key, without the NUL */
	union {
		uint64_t u;
		void *p;
	} value;		/* zero in a new entry */
};

struct core_map_slot {
	uint32_t hash;		/* core_map_hash(key, len), truncated */
	uint32_t index;		/* entry index + 1; 0: an empty slot */
};

struct core_map {
	struct core_map_entry *entries;	/* n of them, in the order added */
	size_t n, cap;
	struct core_map_slot *slot;
	size_t nslot;		/* 0 or a power of two */
	char **blocks;		/* key copies */
	size_t nblocks, capblocks, used;	/* bytes used in the last block */
};

#define CORE_MAP_INIT { NULL, 0, 0, NULL, 0, NULL, 0, 0, 0 }

/* The hash of a key, the same for equal keys within one process. */
uint64_t core_map_hash(const void *key, size_t len);

/* The entry of key, or NULL. */
struct core_map_entry *core_map_find(const struct core_map *m, const void *key, size_t len);

/*
 * Find key, or add it with a zero value: sets *e to its entry and returns
 * 1 when it was added, 0 when it was there; or -ENOMEM / -EOVERFLOW.
 */
int core_map_put(struct core_map *m, const void *key, size_t len, struct core_map_entry **e);

/*
 * Free the map's memory and empty it (CORE_MAP_INIT).  With free_value,
 * call it on every entry's value.p first.
 */
void core_map_release(struct core_map *m, void (*free_value)(void *));

#endif
