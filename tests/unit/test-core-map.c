/* core/map.h: keys with lengths, growth, collisions, stable key copies. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/map.h"
#include "test.h"

static void test_basics(void)
{
	struct core_map m = CORE_MAP_INIT;
	struct core_map_entry *e = NULL;

	TEST_OK(!core_map_find(&m, "a", 1), "an empty map finds nothing");
	TEST_EQ_LONG(core_map_put(&m, "a", 1, &e), 1, "a new key is added");
	TEST_OK(e && e->value.u == 0 && e->len == 1 && !strcmp(e->key, "a"),
		"a new entry: its key copied, value zero");
	e->value.u = 42;
	TEST_EQ_LONG(core_map_put(&m, "a", 1, &e), 0, "the same key again is found");
	TEST_EQ_LONG(e->value.u, 42, "with its value");
	/* Lengths count, not NUL bytes. */
	TEST_EQ_LONG(core_map_put(&m, "ab", 1, &e), 0, "a key is its first len bytes");
	TEST_EQ_LONG(core_map_put(&m, "a\0b", 3, &e), 1, "a key with a NUL byte is its own key");
	TEST_OK(e->len == 3 && !memcmp(e->key, "a\0b", 4), "copied whole, NUL-terminated");
	TEST_EQ_LONG(core_map_put(&m, "a\0c", 3, &e), 1, "bytes after a NUL count");
	TEST_EQ_LONG(core_map_put(&m, "", 0, &e), 1, "the empty key");
	TEST_OK(e->key && e->key[0] == '\0', "the empty key is a real entry");
	TEST_OK(core_map_find(&m, "", 0) == e, "and is found");
	TEST_OK(!core_map_find(&m, "a\0", 2), "a prefix is not a match");
	TEST_EQ_LONG(m.n, 4, "four entries");
	TEST_EQ_LONG(core_map_put(&m, "x", (size_t)UINT32_MAX + 1, &e), -EOVERFLOW,
		     "a key of 4 GiB is refused before it is read");
	TEST_EQ_LONG(m.n, 4, "a refused key changes nothing");
	core_map_release(&m, NULL);
	TEST_OK(!m.slot && !m.entries && !m.n && !m.nslot && !m.blocks, "release empties");
	TEST_OK(!core_map_find(&m, "a", 1), "a released map finds nothing");
}

static void test_growth(void)
{
	struct core_map m = CORE_MAP_INIT;
	struct core_map_entry *e;
	const char **keys = calloc(100000, sizeof(*keys));
	char k[32];
	size_t i, seen = 0;
	int ok = 1, stable = 1;

	for (i = 0; i < 100000; i++) {
		int len = snprintf(k, sizeof(k), "key-%zu", i);

		ok &= core_map_put(&m, k, (size_t)len, &e) == 1;
		e->value.u = i * 3;
		keys[i] = e->key;
	}
	TEST_OK(ok, "100000 keys added");
	TEST_OK(m.n == 100000 && m.nslot >= 2 * m.n && (m.nslot & (m.nslot - 1)) == 0,
		"at most half full, a power of two");
	for (i = 0; i < 100000; i++) {
		int len = snprintf(k, sizeof(k), "key-%zu", i);

		e = core_map_find(&m, k, (size_t)len);
		ok &= e && e->value.u == i * 3;
		stable &= e && e->key == keys[i] && !strcmp(keys[i], k);
	}
	TEST_OK(ok, "every key found with its value after many rehashes");
	TEST_OK(stable, "key copies never moved");
	TEST_OK(!core_map_find(&m, "key-100000", 10), "a missing key");
	for (i = 0; i < m.n; i++) {
		int len = snprintf(k, sizeof(k), "key-%zu", i);

		seen += m.entries[i].len == (uint32_t)len && !strcmp(m.entries[i].key, k);
	}
	TEST_EQ_LONG(seen, 100000, "entries are in the order the keys were added");
	core_map_release(&m, NULL);
	free(keys);
}

static void test_collisions(void)
{
	struct core_map m = CORE_MAP_INIT;
	struct core_map_entry *e;
	char k[8];
	size_t i, cap;
	int ok = 1;

	/* Keys that all land on one slot: grow the map first, then fill it
	 * with keys whose hash has the same low bits. */
	core_map_put(&m, "seed", 4, &e);
	while (m.nslot < 1024) {
		snprintf(k, sizeof(k), "g%u", (unsigned)m.n);
		core_map_put(&m, k, strlen(k), &e);
	}
	cap = m.nslot;
	for (i = 0; m.n < cap / 2 - 1 && i < 10000000; i++) {
		memcpy(k, &i, sizeof(k) < sizeof(i) ? sizeof(k) : sizeof(i));
		if ((core_map_hash(k, sizeof(k)) & (cap - 1)) != 7)
			continue;
		ok &= core_map_put(&m, k, sizeof(k), &e) >= 0;
		e->value.u = i;
	}
	TEST_OK(ok && m.nslot == cap, "a cluster of colliding keys fills the map");
	for (i = 0; i < 10000000 && ok; i++) {
		memcpy(k, &i, sizeof(k) < sizeof(i) ? sizeof(k) : sizeof(i));
		if ((core_map_hash(k, sizeof(k)) & (cap - 1)) != 7)
			continue;
		e = core_map_find(&m, k, sizeof(k));
		if (e)
			ok &= e->value.u == i;
		else
			break;
	}
	TEST_OK(ok, "each colliding key keeps its own value");
	TEST_OK(core_map_find(&m, "seed", 4) != NULL, "other keys still found among them");
	core_map_release(&m, NULL);
}

static int freed;

static void count_free(void *p)
{
	freed += p != NULL;
	free(p);
}

static void test_values(void)
{
	struct core_map m = CORE_MAP_INIT;
	struct core_map_entry *e;
	char big[100000];

	memset(big, 'x', sizeof(big));
	core_map_put(&m, "one", 3, &e);
	e->value.p = strdup("1");
	core_map_put(&m, big, sizeof(big), &e);
	TEST_OK(e->len == sizeof(big) && e->key[sizeof(big)] == '\0', "a key larger than a block");
	e->value.p = strdup("big");
	core_map_put(&m, "two", 3, &e);
	TEST_OK(!strcmp(core_map_find(&m, "one", 3)->value.p, "1") &&
		!strcmp(core_map_find(&m, big, sizeof(big))->value.p, "big"),
		"pointer values kept around a large key");
	core_map_release(&m, count_free);
	TEST_EQ_LONG(freed, 2, "release frees the pointer values (NULL ones too)");
}

int main(void)
{
	test_basics();
	test_growth();
	test_collisions();
	test_values();
	return test_done();
}
