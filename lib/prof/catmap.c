#include "prof/catmap.h"

#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int cat_parse(const char *s, size_t len)
{
	static const struct { const char *name; int cat; } names[] = {
		{ "python", PROF_CAT_PYTHON }, { "simulator", PROF_CAT_SIMULATOR },
		{ "backend", PROF_CAT_BACKEND }, { "cuda_api", PROF_CAT_CUDA_API },
		{ "native", PROF_CAT_NATIVE }, { "inherit", PROF_CATMAP_INHERIT },
		{ "interpreter", PROF_CATMAP_INTERPRETER },
	};
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (strlen(names[i].name) == len && !memcmp(names[i].name, s, len))
			return names[i].cat;
	return -1;
}

static int is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\r';
}

/* One line, without its newline: 0 (a rule or nothing), -EINVAL, -ENOMEM. */
static int parse_line(struct prof_catmap *m, const char *s, size_t len)
{
	size_t a = 0, b, c, d;
	const char *hash = memchr(s, '#', len);
	int cat;

	if (hash)
		len = (size_t)(hash - s);
	while (a < len && is_space(s[a]))
		a++;
	if (a == len)
		return 0;
	for (b = a; b < len && !is_space(s[b]); b++)
		;
	for (c = b; c < len && is_space(s[c]); c++)
		;
	for (d = c; d < len && !is_space(s[d]); d++)
		;
	if (c == len || (cat = cat_parse(s + c, d - c)) == -1)
		return -EINVAL;
	while (d < len && is_space(s[d]))
		d++;
	if (d != len)
		return -EINVAL;
	if (m->n == m->cap) {
		size_t cap = m->cap ? 2 * m->cap : 32;
		struct prof_catmap_rule *v = realloc(m->v, cap * sizeof(*v));

		if (!v)
			return -ENOMEM;
		m->v = v;
		m->cap = cap;
	}
	if (!(m->v[m->n].pattern = strndup(s + a, b - a)))
		return -ENOMEM;
	m->v[m->n++].cat = cat;
	return 0;
}

int prof_catmap_parse(struct prof_catmap *m, const char *text, size_t len, int *bad_line)
{
	size_t i = 0;
	int line = 0;

	while (i < len) {
		const char *nl = memchr(text + i, '\n', len - i);
		size_t end = nl ? (size_t)(nl - text) : len;
		int ret;

		line++;
		if (memchr(text + i, 0, end - i))
			ret = -EINVAL;
		else
			ret = parse_line(m, text + i, end - i);
		if (ret < 0) {
			if (ret == -EINVAL && bad_line)
				*bad_line = line;
			return ret;
		}
		i = end + 1;
	}
	return 0;
}

int prof_catmap_load(struct prof_catmap *m, const char *path, int *bad_line)
{
	char *buf = NULL;
	size_t len = 0, cap = 0;
	int fd = open(path, O_RDONLY | O_CLOEXEC), ret;

	if (fd < 0)
		return -errno;
	for (;;) {
		ssize_t n;

		if (len + 4096 > cap) {
			char *b = realloc(buf, cap = cap ? 2 * cap : 8192);

			if (!b) {
				ret = -ENOMEM;
				goto out;
			}
			buf = b;
		}
		n = read(fd, buf + len, cap - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			ret = -errno;
			goto out;
		}
		if (n == 0)
			break;
		len += (size_t)n;
	}
	ret = prof_catmap_parse(m, buf, len, bad_line);
out:
	close(fd);
	free(buf);
	return ret;
}

int prof_catmap_classify(const struct prof_catmap *m, const char *path)
{
	size_t i;

	if (!path || !*path)
		return PROF_CAT_NATIVE;
	for (i = 0; i < m->n; i++)
		if (fnmatch(m->v[i].pattern, path, 0) == 0)
			return m->v[i].cat;
	return PROF_CAT_NATIVE;
}

void prof_catmap_release(struct prof_catmap *m)
{
	size_t i;

	for (i = 0; i < m->n; i++)
		free(m->v[i].pattern);
	free(m->v);
	m->v = NULL;
	m->n = m->cap = 0;
}
