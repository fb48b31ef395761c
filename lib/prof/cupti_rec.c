#include "prof/cupti_merge.h"

#include <string.h>

static size_t with_name(char *buf, const void *head, size_t hlen, const char *name)
{
	size_t n = name ? strlen(name) : 0;

	if (n > PROF_SPOOL_TEXT_MAX - hlen)
		n = PROF_SPOOL_TEXT_MAX - hlen;
	memcpy(buf, head, hlen);
	if (n)
		memcpy(buf + hlen, name, n);
	return hlen + n;
}

size_t prof_cupti_gpu_text(char *buf, const struct prof_spool_gpu *g, const char *name)
{
	return with_name(buf, g, sizeof(*g), name);
}

size_t prof_cupti_api_text(char *buf, int64_t end, const char *name)
{
	struct prof_spool_api a = { end };

	return with_name(buf, &a, sizeof(a), name);
}
