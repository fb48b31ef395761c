/*
 * The read buffer under the CSV and JSON Lines readers (core/csv.h,
 * core/json.h): bytes from a FILE or from a read function, kept in one
 * buffer that the readers parse in place.
 *
 * buf[pos..len) holds the bytes read and not yet consumed; a reader moves
 * `pos` as it consumes them.  core_input_fill() moves those bytes to the
 * front, doubles the buffer when it is full (never beyond `max` bytes),
 * and reads more.  The buffer always has CORE_INPUT_SLACK zeroed bytes
 * after `cap`, so that a reader may write a NUL at buf[len] and may load
 * whole words past `len` (it must ignore what it finds there).
 *
 * A read function returns the number of bytes it put in `buf` (at most
 * `n`), 0 at the end of the input, or a negative errno-style code; -EAGAIN
 * means "nothing now, call again later" and reaches the reader's caller
 * unchanged, with nothing lost.
 *
 * Not thread-safe; the input does not own the FILE.
 *
 * Why this is not a core_buf (core/buf.h): the parsers need what core_buf
 * does not promise, zeroed slack past the end for word loads, a hard size
 * limit, and the input offset of buf[0]; core_buf is the general byte
 * queue (appending, writing to a descriptor) and has none of these.  Both
 * read through core_read_fd() below.
 */
#ifndef CORE_INPUT_H
#define CORE_INPUT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#define CORE_INPUT_SLACK 64

typedef ssize_t core_read_fn(void *ctx, char *buf, size_t n);

/*
 * One read(2) of at most n bytes from fd, retried on EINTR: the byte
 * count, 0 at end of file, -EAGAIN when a non-blocking descriptor has
 * nothing (EWOULDBLOCK included), or -errno.  Thread-safe as read(2) is.
 */
ssize_t core_read_fd(int fd, char *buf, size_t n);

/* core_read_fd() as a core_read_fn: ctx points to the int descriptor. */
ssize_t core_read_fd_fn(void *ctx, char *buf, size_t n);

struct core_input {
	FILE *fp;		/* the source: fp, or fn(ctx, ...) */
	core_read_fn *fn;
	void *ctx;
	char *buf;
	size_t pos, len, cap;	/* cap excludes the slack */
	size_t max;		/* the buffer never grows beyond this */
	uint64_t base;		/* input offset of buf[0] */
	int eof;
};

/* 0, or -ENOMEM.  `chunk` is the first buffer size; `max` >= chunk. */
int core_input_init(struct core_input *in, FILE *fp, core_read_fn *fn,
		    void *ctx, size_t chunk, size_t max);
/*
 * Read more: 1 when bytes came, 0 at the end of the input (in->eof is then
 * set), -EAGAIN, -EMSGSIZE when buf[pos..len) already fills `max` bytes,
 * -ENOMEM, or -errno of the read.
 */
int core_input_fill(struct core_input *in);
void core_input_release(struct core_input *in);

#endif
