/*
 * A growable byte buffer that is also a queue: bytes are appended at the
 * end and consumed from the front, so one buffer serves for building a
 * string, for reading a stream record by record, and for writing to a
 * non-blocking descriptor.
 *
 *	struct core_buf b = CORE_BUF_INIT;
 *	if (core_buf_append(&b, "hello", 5) < 0) ...
 *	while (core_buf_pending(&b)) {
 *		n = core_buf_write_fd(&b, fd);
 *		...
 *	}
 *	core_buf_release(&b);
 *
 * The pending bytes are data[off..len); nothing else of `data` means
 * anything.  They are not NUL-terminated.  A pointer into `data` stays
 * valid until the next call that adds bytes (reserve, append, read_fd),
 * which may move them; consume never moves them.
 *
 * Ownership: the buffer owns `data`; core_buf_release frees it and leaves
 * an empty buffer that can be used again.  Errors: -ENOMEM when memory
 * runs out (the buffer is unchanged then), -errno from read(2)/write(2).
 * Thread-safety: none; one buffer belongs to one thread at a time.
 *
 * The CSV and JSON Lines readers read through core_input (core/input.h)
 * instead: it keeps zeroed slack past the end for their word loads, a hard
 * size limit and the input offset, which a queue has no use for.  Both
 * read a descriptor through core_read_fd().
 */
#ifndef CORE_BUF_H
#define CORE_BUF_H

#include <stddef.h>
#include <sys/types.h>

struct core_buf {
	char *data;
	size_t off, len, cap;	/* pending bytes are data[off..len) */
};

#define CORE_BUF_INIT { NULL, 0, 0, 0 }

/* Free the bytes; the buffer is empty (CORE_BUF_INIT) again. */
void core_buf_release(struct core_buf *b);

/* The number of pending bytes. */
static inline size_t core_buf_pending(const struct core_buf *b)
{
	return b->len - b->off;
}

/*
 * Make room for `extra` more bytes after data[len]: 0 or -ENOMEM.  Moves
 * the pending bytes to the front when that frees enough room.
 */
int core_buf_reserve(struct core_buf *b, size_t extra);

/* Append n bytes from p: 0 or -ENOMEM. */
int core_buf_append(struct core_buf *b, const void *p, size_t n);

/* Drop the first n pending bytes (n <= core_buf_pending(b)). */
void core_buf_consume(struct core_buf *b, size_t n);

/*
 * One read(2) of up to `chunk` bytes appended to `b` (EINTR is retried):
 * returns the byte count, 0 at end of file, -EAGAIN when a non-blocking
 * descriptor has nothing, -ENOMEM, or -errno.
 */
ssize_t core_buf_read_fd(struct core_buf *b, int fd, size_t chunk);

/*
 * Write pending bytes until they are all written or the descriptor would
 * block; the bytes written are consumed.  Returns the byte count (maybe
 * 0 on EAGAIN) or -errno.
 */
ssize_t core_buf_write_fd(struct core_buf *b, int fd);

#endif
