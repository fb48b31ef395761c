/* core/buf.h: growth, the queue's compaction, descriptors; and core_read_fd
 * (core/input.h), which core_buf_read_fd reads through. */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "core/buf.h"
#include "core/input.h"
#include "test.h"

static void test_append_consume(void)
{
	struct core_buf b = CORE_BUF_INIT;
	char big[10000];
	size_t i;
	int ok = 1;

	TEST_EQ_LONG(core_buf_pending(&b), 0, "a new buffer is empty");
	TEST_EQ_LONG(core_buf_append(&b, "", 0), 0, "appending nothing to an empty buffer");
	TEST_EQ_LONG(core_buf_pending(&b), 0, "still empty");
	TEST_EQ_LONG(core_buf_append(&b, "abc", 3), 0, "append");
	core_buf_consume(&b, 1);
	TEST_OK(core_buf_pending(&b) == 2 && !memcmp(b.data + b.off, "bc", 2),
		"consume drops the front");
	core_buf_consume(&b, 2);
	TEST_OK(b.off == 0 && b.len == 0, "consuming everything resets the offsets");
	/* Growth past the first allocation, byte by byte. */
	for (i = 0; i < sizeof(big); i++)
		big[i] = (char)(i * 7);
	for (i = 0; i < sizeof(big); i++)
		ok &= core_buf_append(&b, &big[i], 1) == 0;
	TEST_OK(ok && core_buf_pending(&b) == sizeof(big) && !memcmp(b.data, big, sizeof(big)),
		"10000 single-byte appends grow the buffer and keep the bytes");
	TEST_OK(b.cap >= sizeof(big) && (b.cap & (b.cap - 1)) == 0, "capacity doubles");
	core_buf_release(&b);
	TEST_OK(!b.data && !b.off && !b.len && !b.cap, "release empties");
}

static void test_compaction(void)
{
	struct core_buf b = CORE_BUF_INIT;
	char chunk[1000], want[1000];
	size_t i, round, cap;
	int ok = 1;

	/* A queue that never empties: consuming and appending forever must
	 * keep the buffer at its size and the bytes in order. */
	for (i = 0; i < sizeof(chunk); i++)
		chunk[i] = (char)i;
	core_buf_append(&b, chunk, sizeof(chunk));
	core_buf_append(&b, chunk, sizeof(chunk));
	cap = b.cap;
	for (round = 0; round < 5000; round++) {
		core_buf_consume(&b, sizeof(chunk));
		memcpy(want, b.data + b.off, sizeof(want));
		ok &= !memcmp(want, chunk, sizeof(chunk));
		ok &= core_buf_append(&b, chunk, sizeof(chunk)) == 0;
	}
	TEST_OK(ok, "a steady queue keeps its bytes in order");
	TEST_EQ_LONG(b.cap, cap, "a steady queue does not grow");
	TEST_OK(b.off < b.cap, "the offset stays inside the buffer");
	TEST_EQ_LONG(core_buf_reserve(&b, 0), 0, "reserving nothing");
	TEST_EQ_LONG(core_buf_reserve(&b, (size_t)-1), -ENOMEM, "an impossible reserve");
	TEST_EQ_LONG(core_buf_pending(&b), 2 * sizeof(chunk), "a failed reserve changes nothing");
	core_buf_release(&b);
}

static void test_fds(void)
{
	struct core_buf in = CORE_BUF_INIT, out = CORE_BUF_INIT;
	int fds[2];
	ssize_t n;

	if (pipe2(fds, O_NONBLOCK) < 0) {
		TEST_OK(0, "pipe: %s", strerror(errno));
		return;
	}
	TEST_EQ_LONG(core_buf_read_fd(&in, fds[0], 64), -EAGAIN, "an empty pipe: -EAGAIN");
	core_buf_append(&out, "hello, pipe", 11);
	TEST_EQ_LONG(core_buf_write_fd(&out, fds[1]), 11, "write all");
	TEST_EQ_LONG(core_buf_pending(&out), 0, "written bytes are consumed");
	TEST_EQ_LONG(core_buf_read_fd(&in, fds[0], 4), 4, "a read stops at the chunk");
	TEST_EQ_LONG(core_buf_read_fd(&in, fds[0], 64), 7, "the rest");
	TEST_OK(core_buf_pending(&in) == 11 && !memcmp(in.data + in.off, "hello, pipe", 11),
		"what went in came out");
	/* Fill the pipe: write_fd stops at EAGAIN with bytes still pending. */
	core_buf_release(&out);
	while (core_buf_pending(&out) < (1 << 20))
		core_buf_append(&out, "0123456789abcdef", 16);
	n = core_buf_write_fd(&out, fds[1]);
	TEST_OK(n > 0 && core_buf_pending(&out) == (1 << 20) - (size_t)n,
		"a full pipe: a short write, the rest pending");
	close(fds[1]);
	while ((n = core_buf_read_fd(&in, fds[0], 65536)) > 0)
		;
	TEST_EQ_LONG(n, 0, "end of file reads 0");
	TEST_EQ_LONG(core_buf_write_fd(&out, fds[1]), -EBADF, "writing to a closed fd: -errno");
	close(fds[0]);
	core_buf_release(&in);
	core_buf_release(&out);
}

static void test_read_fd(void)
{
	int fds[2];
	char buf[16];

	if (pipe(fds) < 0) {
		TEST_OK(0, "pipe");
		return;
	}
	fcntl(fds[0], F_SETFL, O_NONBLOCK);
	TEST_EQ_LONG(core_read_fd(fds[0], buf, sizeof(buf)), -EAGAIN, "an empty non-blocking pipe: -EAGAIN");
	TEST_EQ_LONG(write(fds[1], "abcdef", 6), 6, "write");
	TEST_EQ_LONG(core_read_fd(fds[0], buf, 4), 4, "one read of at most n bytes");
	TEST_EQ_LONG(core_read_fd_fn(&fds[0], buf + 4, sizeof(buf) - 4), 2,
		     "as a core_read_fn, the descriptor behind ctx");
	TEST_OK(!memcmp(buf, "abcdef", 6), "the bytes in order");
	close(fds[1]);
	TEST_EQ_LONG(core_read_fd(fds[0], buf, sizeof(buf)), 0, "end of file: 0");
	close(fds[0]);
	TEST_EQ_LONG(core_read_fd(fds[0], buf, sizeof(buf)), -EBADF, "a closed descriptor: -errno");
}

int main(void)
{
	test_append_consume();
	test_compaction();
	test_fds();
	test_read_fd();
	return test_done();
}
