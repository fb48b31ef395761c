#include "core/input.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

ssize_t core_read_fd(int fd, char *buf, size_t n)
{
	ssize_t k;

	do
		k = read(fd, buf, n);
	while (k < 0 && errno == EINTR);
	if (k < 0)
		return errno == EWOULDBLOCK ? -EAGAIN : -errno;
	return k;
}

ssize_t core_read_fd_fn(void *ctx, char *buf, size_t n)
{
	return core_read_fd(*(const int *)ctx, buf, n);
}

int core_input_init(struct core_input *in, FILE *fp, core_read_fn *fn,
		    void *ctx, size_t chunk, size_t max)
{
	memset(in, 0, sizeof(*in));
	in->fp = fp;
	in->fn = fn;
	in->ctx = ctx;
	in->cap = chunk;
	in->max = max < chunk ? chunk : max;
	in->buf = calloc(1, chunk + CORE_INPUT_SLACK);
	return in->buf ? 0 : -ENOMEM;
}

int core_input_fill(struct core_input *in)
{
	ssize_t n;

	if (in->eof)
		return 0;
	if (in->pos) {
		memmove(in->buf, in->buf + in->pos, in->len - in->pos);
		in->base += in->pos;
		in->len -= in->pos;
		in->pos = 0;
	}
	if (in->len == in->cap) {
		size_t cap = in->cap > in->max / 2 ? in->max : in->cap * 2;
		char *b;

		if (in->cap >= in->max)
			return -EMSGSIZE;
		if (!(b = realloc(in->buf, cap + CORE_INPUT_SLACK)))
			return -ENOMEM;
		/* Only the new slack: the rest is touched as data comes (a long line costs its size). */
		memset(b + cap, 0, CORE_INPUT_SLACK);
		in->buf = b;
		in->cap = cap;
	}
	if (in->fn) {
		n = in->fn(in->ctx, in->buf + in->len, in->cap - in->len);
		if (n < 0)
			return (int)n;
	} else {
		n = (ssize_t)fread(in->buf + in->len, 1, in->cap - in->len, in->fp);
		if (n == 0 && ferror(in->fp))
			return -(errno ? errno : EIO);
	}
	if (n == 0) {
		in->eof = 1;
		return 0;
	}
	in->len += (size_t)n;
	/* What an earlier, longer content left there must not look like data. */
	memset(in->buf + in->len, 0, CORE_INPUT_SLACK);
	return 1;
}

void core_input_release(struct core_input *in)
{
	free(in->buf);
	in->buf = NULL;
	in->pos = in->len = in->cap = 0;
}
