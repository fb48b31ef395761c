#include "fiber/hosts.h"

#include <ctype.h>
#include <errno.h>
#include <sys/stat.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/cli.h"
#include "core/grow.h"

void fiber_hosts_release(struct fiber_hosts *h)
{
	size_t i;

	for (i = 0; i < h->n; i++)
		free(h->v[i].name);
	free(h->v);
	h->v = NULL;
	h->n = h->cap = 0;
}

long fiber_hosts_slots(const struct fiber_hosts *h)
{
	long total = 0;
	size_t i;

	for (i = 0; i < h->n; i++)
		total += h->v[i].slots;
	return total;
}

int fiber_hosts_parse_line(struct fiber_hosts *h, const char *line,
			   struct core_error *err)
{
	char buf[1024], *s = buf, *end, *colon;
	long slots = 1;
	struct fiber_host *v;

	if (strlen(line) >= sizeof(buf))
		return core_error_set(err, -EINVAL, "line too long");
	strcpy(buf, line);
	s[strcspn(s, "#")] = '\0';
	while (isspace((unsigned char)*s))
		s++;
	end = s + strlen(s);
	while (end > s && isspace((unsigned char)end[-1]))
		*--end = '\0';
	if (!*s)
		return 1;
	if (strpbrk(s, " \t") || *s == '-')
		return core_error_set(err, -EINVAL, "bad host '%s': want host[:slots]", s);
	colon = strrchr(s, ':');
	if (*s == '[') {
		char *close = strchr(s, ']');

		if (!close || (close[1] && close[1] != ':'))
			return core_error_set(err, -EINVAL, "bad host '%s': want [ADDRESS]:slots", s);
		colon = close[1] ? close + 1 : NULL;
		*close = '\0';
		s++;
	} else if (colon && strchr(s, ':') != colon) {
		if (strspn(s, "0123456789abcdefABCDEF:.%") < strlen(s))
			return core_error_set(err, -EINVAL, "bad host '%s': want host[:slots], "
					      "one per line (is this a hosts file?)", s);
		return core_error_set(err, -EINVAL, "bad host '%s': write IPv6 addresses in brackets", s);
	}
	if (colon) {
		*colon = '\0';
		if (core_cli_parse_long(colon + 1, 1, 65536, &slots) < 0)
			return core_error_set(err, -EINVAL, "bad slot count '%s': want 1 to 65536", colon + 1);
	}
	if (!*s)
		return core_error_set(err, -EINVAL, "empty host name");
	if (CORE_GROW(h->v, h->cap, h->n + 1) < 0)
		return core_error_set(err, -ENOMEM, "out of memory");
	v = h->v;
	v[h->n].name = strdup(s);
	if (!v[h->n].name)
		return core_error_set(err, -ENOMEM, "out of memory");
	v[h->n].slots = (int)slots;
	h->n++;
	return 0;
}

int fiber_hosts_load(struct fiber_hosts *h, const char *path,
		     struct core_error *err)
{
	FILE *fp = fopen(path, "r");
	struct stat st;
	char *line = NULL;
	size_t cap = 0;
	long lineno = 0;
	ssize_t n;
	int ret = 0;

	if (!fp)
		return core_error_errno(err, errno, "cannot open '%s'", path);
	if (fstat(fileno(fp), &st) == 0 && S_ISDIR(st.st_mode)) {
		fclose(fp);
		return core_error_errno(err, EISDIR, "cannot read '%s'", path);
	}
	while ((n = getline(&line, &cap, fp)) >= 0) {
		lineno++;
		if (n > 0 && line[n - 1] == '\n')
			line[n - 1] = '\0';
		ret = fiber_hosts_parse_line(h, line, err);
		if (ret < 0) {
			core_error_prefix(err, "'%s': line %ld: ", path, lineno);
			err->line = lineno;
			break;
		}
		ret = 0;
	}
	if (ret == 0 && ferror(fp))
		ret = core_error_errno(err, errno, "cannot read '%s'", path);
	free(line);
	fclose(fp);
	if (ret == 0 && h->n == 0)
		ret = core_error_set(err, -EINVAL, "'%s': no hosts", path);
	return ret;
}

void fiber_hosts_place(const struct fiber_hosts *h, long i, long n,
		       size_t *host, long *local_rank, long *local_size)
{
	long total = fiber_hosts_slots(h), round = i / total, r = i % total;
	long before = 0, size;
	size_t k;

	for (k = 0; k < h->n; k++) {
		if (r < before + h->v[k].slots)
			break;
		before += h->v[k].slots;
	}
	*host = k;
	/* Workers on host k: full rounds, plus this round's share. */
	size = (n / total) * h->v[k].slots;
	if (n % total > before)
		size += (n % total - before < h->v[k].slots) ? n % total - before : h->v[k].slots;
	*local_rank = round * h->v[k].slots + (r - before);
	*local_size = size;
}
