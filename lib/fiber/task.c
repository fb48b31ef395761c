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
