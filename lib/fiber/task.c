#include "fiber/task.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

char *fiber_task_key(const json_t *id)
{
	char *key = NULL;

	if (json_is_string(id)) {
		size_t n = json_string_length(id);

		key = malloc(n + 2);
		if (key) {
			key[0] = 's';
			memcpy(key + 1, json_string_value(id), n);
			key[n + 1] = '\0';
		}
	} else if (json_is_integer(id)) {
		if (asprintf(&key, "i%" JSON_INTEGER_FORMAT, json_integer_value(id)) < 0)
			key = NULL;
	}
	return key;
}

int fiber_task_id(const json_t *v, long lineno, json_t **id, char **key,
		  struct core_error *err)
{
	json_t *given = json_is_object(v) ? json_object_get(v, "id") : NULL;

	if (given && !json_is_string(given) && !json_is_integer(given))
		return core_error_set(err, -EINVAL, "task id must be a string or an integer");
	*id = given ? json_incref(given) : json_integer(lineno);
	*key = *id ? fiber_task_key(*id) : NULL;
	if (!*key) {
		json_decref(*id);
		*id = NULL;
		return core_error_set(err, -ENOMEM, "out of memory");
	}
	return 0;
}

static uint64_t hash(const char *s)
{
	uint64_t h = 1469598103934665603ull;

	while (*s)
		h = (h ^ (unsigned char)*s++) * 1099511628211ull;
	return h;
}

static struct fiber_idmap_entry *slot(const struct fiber_idmap_entry *v, size_t cap,
				      const char *key)
{
	size_t i = (size_t)hash(key) & (cap - 1);

	while (v[i].key && strcmp(v[i].key, key) != 0)
		i = (i + 1) & (cap - 1);
	return (struct fiber_idmap_entry *)&v[i];
}

static int grow(struct fiber_idmap *m)
{
	size_t cap = m->cap ? 2 * m->cap : 64, i;
	struct fiber_idmap_entry *v = calloc(cap, sizeof(*v));

	if (!v)
		return -ENOMEM;
	for (i = 0; i < m->cap; i++)
		if (m->v[i].key)
			*slot(v, cap, m->v[i].key) = m->v[i];
	free(m->v);
	m->v = v;
	m->cap = cap;
	return 0;
}

int fiber_idmap_add(struct fiber_idmap *m, const char *key, const char *value)
{
	struct fiber_idmap_entry *e;

	if ((m->n + 1) * 2 > m->cap && grow(m) < 0)
		return -ENOMEM;
	e = slot(m->v, m->cap, key);
	if (e->key)
		return 0;
	e->key = strdup(key);
	e->value = value ? strdup(value) : NULL;
	if (!e->key || (value && !e->value)) {
		free(e->key);
		free(e->value);
		e->key = e->value = NULL;
		return -ENOMEM;
	}
	m->n++;
	return 1;
}

struct fiber_idmap_entry *fiber_idmap_find(const struct fiber_idmap *m, const char *key)
{
	struct fiber_idmap_entry *e;

	if (!m->cap)
		return NULL;
	e = slot(m->v, m->cap, key);
	return e->key ? e : NULL;
}

void fiber_idmap_release(struct fiber_idmap *m)
{
	size_t i;

	for (i = 0; i < m->cap; i++) {
		free(m->v[i].key);
		free(m->v[i].value);
	}
	free(m->v);
	m->v = NULL;
	m->n = m->cap = 0;
}
