/*
 * A core_read_fn (core/input.h) over bytes in memory that hands out at most
 * `step` bytes a call and says -EAGAIN every other call, to put every byte
 * of an input at the edge of a read.  Shared by the reader unit tests and
 * the fuzz targets; header-only so that both can include it.
 *
 *	struct feed f = { text, strlen(text), 0, 3, 0 };
 *	core_csv_reader_new_fn(&r, feed_read, &f, "x.csv", &err);
 */
#ifndef TESTS_FEED_H
#define TESTS_FEED_H

#include <errno.h>
#include <string.h>
#include <sys/types.h>

struct feed {
	const void *p;
	size_t len, off, step;
	int again;
};

static inline ssize_t feed_read(void *ctx, char *buf, size_t n)
{
	struct feed *f = ctx;

	if ((f->again = !f->again))
		return -EAGAIN;
	if (n > f->step)
		n = f->step;
	if (n > f->len - f->off)
		n = f->len - f->off;
	memcpy(buf, (const char *)f->p + f->off, n);
	f->off += n;
	return (ssize_t)n;
}

#endif
