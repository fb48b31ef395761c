#include "fiber/spill.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int spill_open(struct fiber_spill *s, struct core_error *err)
{
	const char *dir = getenv("TMPDIR");
	char path[4096];

	if (!dir || !*dir)
		dir = "/tmp";
	snprintf(path, sizeof(path), "%s/fiberrun-order.XXXXXX", dir);
	s->fd = mkostemp(path, O_CLOEXEC);
	if (s->fd < 0)
		return core_error_errno(err, errno, "cannot make a temporary file in '%s'", dir);
	unlink(path);
	return 0;
}

int fiber_spill_put(struct fiber_spill *s, const char *rec, size_t len, uint64_t *off,
		    struct core_error *err)
{
	size_t done = 0;
	int ret;

	if (s->fd < 0 && (ret = spill_open(s, err)) < 0)
		return ret;
	if (s->waiting == 0 && s->size > 0) {
		/* Everything was read back: start the file over. */
		if (ftruncate(s->fd, 0) == 0)
			s->size = 0;
	}
	while (done < len) {
		ssize_t n = pwrite(s->fd, rec + done, len - done, (off_t)(s->size + done));

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return core_error_errno(err, n < 0 ? errno : ENOSPC, "writing a temporary file failed");
		done += (size_t)n;
	}
	*off = s->size;
	s->size += len;
	s->waiting++;
	return 0;
}

int fiber_spill_get(struct fiber_spill *s, uint64_t off, size_t len, char **rec,
		    struct core_error *err)
{
	char *b = malloc(len + 1);
	size_t done = 0;

	if (!b)
		return core_error_set(err, -ENOMEM, "out of memory");
	while (done < len) {
		ssize_t n = pread(s->fd, b + done, len - done, (off_t)(off + done));

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			free(b);
			return core_error_errno(err, n < 0 ? errno : EIO, "reading a temporary file failed");
		}
		done += (size_t)n;
	}
	b[len] = '\0';
	*rec = b;
	s->waiting--;
	return 0;
}

void fiber_spill_release(struct fiber_spill *s)
{
	if (s->fd >= 0)
		close(s->fd);
	*s = (struct fiber_spill)FIBER_SPILL_INIT;
}
