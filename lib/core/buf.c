#include "core/buf.h"
#include "core/input.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define BUF_FIRST 4096

void core_buf_release(struct core_buf *b)
{
	free(b->data);
	b->data = NULL;
	b->off = b->len = b->cap = 0;
}

int core_buf_reserve(struct core_buf *b, size_t extra)
{
	size_t cap;
	char *p;

	if (b->off > 0 && (b->off == b->len || b->off >= b->cap / 2)) {
		memmove(b->data, b->data + b->off, b->len - b->off);
		b->len -= b->off;
		b->off = 0;
	}
	if (b->cap - b->len >= extra)
		return 0;
	cap = b->cap ? b->cap : BUF_FIRST;
	while (cap - b->len < extra) {
		if (cap > SIZE_MAX / 2)
			return -ENOMEM;
		cap *= 2;
	}
	p = realloc(b->data, cap);
	if (!p)
		return -ENOMEM;
	b->data = p;
	b->cap = cap;
	return 0;
}

int core_buf_append(struct core_buf *b, const void *p, size_t n)
{
	int ret = core_buf_reserve(b, n);

	if (ret < 0)
		return ret;
	if (n)
		memcpy(b->data + b->len, p, n);
	b->len += n;
	return 0;
}

void core_buf_consume(struct core_buf *b, size_t n)
{
	b->off += n;
	if (b->off >= b->len)
		b->off = b->len = 0;
}

ssize_t core_buf_read_fd(struct core_buf *b, int fd, size_t chunk)
{
	ssize_t n;
	int ret = core_buf_reserve(b, chunk);

	if (ret < 0)
		return ret;
	n = core_read_fd(fd, b->data + b->len, chunk);
	if (n > 0)
		b->len += (size_t)n;
	return n;
}

ssize_t core_buf_write_fd(struct core_buf *b, int fd)
{
	size_t total = 0;

	while (core_buf_pending(b) > 0) {
		ssize_t n = write(fd, b->data + b->off, core_buf_pending(b));

		if (n < 0) {
			if (errno == EINTR)
				continue;
			if (errno == EAGAIN || errno == EWOULDBLOCK)
				break;
			return -errno;
		}
		core_buf_consume(b, (size_t)n);
		total += (size_t)n;
	}
	return (ssize_t)total;
}
