#include "prof/demangle.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "core/map.h"

typedef char *(*cxa_demangle_fn)(const char *mangled, char *buf, size_t *len, int *status);

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct core_map names = CORE_MAP_INIT;	/* mangled name -> its reading */
static cxa_demangle_fn demangle_fn;
static int looked;

/* The C++ runtime's demangler: in the process already, else libstdc++. */
static cxa_demangle_fn find_demangler(void)
{
	void *sym = dlsym(RTLD_DEFAULT, "__cxa_demangle");
	void *h;

	if (!sym && (h = dlopen("libstdc++.so.6", RTLD_NOW | RTLD_LOCAL)))
		sym = dlsym(h, "__cxa_demangle");	/* kept open: its result is kept */
	return (cxa_demangle_fn)sym;
}

const char *prof_demangle(const char *name)
{
	struct core_map_entry *e;
	const char *out = name;
	char *d;
	int status = -1;

	/* Itanium C++ ABI names start with _Z; anything else is as written. */
	if (!name || name[0] != '_' || name[1] != 'Z')
		return name;
	pthread_mutex_lock(&lock);
	if (!looked) {
		demangle_fn = find_demangler();
		looked = 1;
	}
	if (!demangle_fn)
		goto out;
	switch (core_map_put(&names, name, strlen(name), &e)) {
	case 0:
		if (e->value.p)
			out = e->value.p;
		break;
	case 1:
		d = demangle_fn(name, NULL, NULL, &status);
		if (d && status == 0)
			out = e->value.p = d;
		else
			free(d);
		break;
	default:	/* out of memory: the name as it is */
		break;
	}
out:
	pthread_mutex_unlock(&lock);
	return out;
}
