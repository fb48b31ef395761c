#include "prof/trace.h"

#include <string.h>

static const char *const kind_names[PROF_KIND_COUNT] = {
	"meta", "process", "thread", "op", "mark", "phase", "cpu", "gpu",
	"counter", "warning", "sample",
};

static const char *const category_names[PROF_CAT_COUNT] = {
	"", "python", "simulator", "backend", "cuda_api", "native", "wait",
	"gpu", "kernel", "memcpy", "memset", "system", "runnable",
};

const char *prof_kind_name(enum prof_kind k)
{
	return (unsigned)k < PROF_KIND_COUNT ? kind_names[k] : "";
}

const char *prof_category_name(enum prof_category c)
{
	return (unsigned)c < PROF_CAT_COUNT ? category_names[c] : "";
}

static int lookup(const char *const *names, int n, const char *s)
{
	int i;

	for (i = 0; i < n; i++)
		if (!strcmp(names[i], s))
			return i;
	return -1;
}

int prof_kind_parse(const char *s)
{
	return lookup(kind_names, PROF_KIND_COUNT, s);
}

int prof_category_parse(const char *s)
{
	return lookup(category_names, PROF_CAT_COUNT, s);
}
