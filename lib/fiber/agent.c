#include "fiber/agent.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/clock.h"
#include "core/ring.h"
#include "core/sys.h"
#include "fiber/envpass.h"
#include "fiber/memlimit.h"
#include "fiber/net.h"
#include "fiber/proc.h"
#include "fiber/wire.h"

#define HANDSHAKE_MS 10000
#define CONNECT_PATIENCE_MS 15000

volatile sig_atomic_t fiber_agent_child_pgrp;
/* The command's memory cgroup, for the signal handler: set while it exists. */
static char group_dir[PATH_MAX];
static volatile sig_atomic_t group_set;

/* SIGTERM, SIGINT, SIGHUP: take the command's process group (and cgroup) along. */
static void on_stop_signal(int sig)
{
	if (fiber_agent_child_pgrp > 0)
		core_spawn_kill_group(fiber_agent_child_pgrp, SIGKILL);
	/* Up to 0.2 s; a group still busy then is swept by the next agent. */
	if (group_set)
		fiber_memlimit_remove(group_dir, 100);
	_exit(128 + sig);
}

struct agent {
	const struct fiber_agent_opts *o;
	int sock, cin, cout, cres;
	int cerr;		/* the command's standard error, under RLIMIT_AS */
	pid_t child;
	int wstatus;		/* the command's wait status, once it ended */
	struct fiber_memlimit mem;	/* --mem-limit of the command */
	long kills;		/* kills for the limit before the command started */
	struct fiber_memlimit_tail tail;	/* the end of its standard error */
	uint64_t number;
	struct core_buf sin, sout, to_child, from_child, from_res;
	/*
	 * A long task goes to the command from the frame it came in, not from
	 * a copy: `big` is the receive buffer it lies in, handed over whole
	 * (pending: the body); what follows it waits in `after`.
	 */
	struct core_buf big, after;
	struct core_ring fifo;	/* lines protocol: tasks sent to the command, oldest first */
	size_t scanned;		/* bytes of from_child known to hold no newline */
	uint64_t fed;		/* bytes written to the command's input, until ready */
	int ready;		/* READY sent */
	int hinted;		/* told that stdout is not for results */
	int stopping;
	int reported;		/* an EXIT frame told the master why we end */
	int64_t heard_ns;	/* when the master was last heard */
};

static void release_group(struct agent *a)
{
	group_set = 0;
	fiber_memlimit_release(&a->mem);
}

/* Blocking: read one whole frame of at most `max` bytes. */
static int read_frame(struct agent *a, size_t max, struct fiber_frame *f)
{
	int64_t deadline = core_clock_mono_ns() + (int64_t)HANDSHAKE_MS * 1000000;

	for (;;) {
		struct pollfd p = { a->sock, POLLIN, 0 };
		int ret = fiber_frame_next(&a->sin, max, f), left;
		ssize_t n;

		if (ret != 0)
			return ret;
		left = (int)((deadline - core_clock_mono_ns()) / 1000000);
		if (left <= 0 || poll(&p, 1, left) <= 0)
			return -ETIMEDOUT;
		n = core_buf_read_fd(&a->sin, a->sock, 4096);
		if (n == 0)
			return -ECONNRESET;
		if (n < 0 && n != -EAGAIN)
			return (int)n;
	}
}

static int send_all(struct agent *a)
{
	while (core_buf_pending(&a->sout) > 0) {
		struct pollfd p = { a->sock, POLLOUT, 0 };
		ssize_t n = core_buf_write_fd(&a->sout, a->sock);

		if (n < 0)
			return (int)n;
		if (core_buf_pending(&a->sout) > 0 && poll(&p, 1, HANDSHAKE_MS) <= 0)
			return -ETIMEDOUT;
	}
	return 0;
}

static int handshake(struct agent *a, uint64_t *number, struct core_error *err)
{
	uint8_t nonce_w[FIBER_NONCE_LEN], proof[FIBER_SHA256_LEN];
	char body[FIBER_SHA256_LEN + 256], host[256] = "";
	struct fiber_frame f;
	size_t hlen;
	int ret;

	ret = fiber_random_bytes(nonce_w, sizeof(nonce_w));
	if (ret < 0)
		return core_error_errno(err, -ret, "cannot get random bytes");
	fiber_frame_put(&a->sout, FIBER_HELLO, a->o->token, nonce_w, sizeof(nonce_w));
	ret = send_all(a);
	if (ret == 0)
		ret = read_frame(a, FIBER_AUTH_FRAME_MAX, &f);
	if (ret < 0)
		return core_error_errno(err, -ret, "handshake with '%s'", a->o->master);
	if (f.type != FIBER_CHALLENGE)
		return core_error_set(err, -EPROTO, "handshake with '%s': unexpected frame", a->o->master);
	if (!fiber_auth_master_ok(a->o->secret, nonce_w, f.body, f.len))
		return core_error_set(err, -EACCES, "'%s' does not know the secret of this run", a->o->master);
	fiber_auth_worker_proof(a->o->secret, (const uint8_t *)f.body, nonce_w, a->o->token, proof);
	if (a->o->host)
		snprintf(host, sizeof(host), "%s", a->o->host);
	else
		gethostname(host, sizeof(host) - 1);
	hlen = strlen(host);
	memcpy(body, proof, sizeof(proof));
	memcpy(body + sizeof(proof), host, hlen);
	fiber_frame_put(&a->sout, FIBER_AUTH, 0, body, sizeof(proof) + hlen);
	ret = send_all(a);
	if (ret == 0)
		ret = read_frame(a, FIBER_AUTH_FRAME_MAX, &f);
	if (ret == -ECONNRESET)
		return core_error_set(err, -EACCES, "'%s' refused this worker", a->o->master);
	if (ret < 0)
		return core_error_errno(err, -ret, "handshake with '%s'", a->o->master);
	if (f.type != FIBER_WELCOME)
		return core_error_set(err, -EPROTO, "handshake with '%s': unexpected frame", a->o->master);
	*number = f.seq;
	return 0;
}

static int start_command(struct agent *a, uint64_t number, struct core_error *err)
{
	static const char *const unset[] = { "FIBERRUN_SECRET", "FIBERRUN_WORKER_TOKEN",
					     "FIBERRUN_MASTER", "FIBERRUN_HEARTBEAT",
					     "FIBERRUN_MEM_CGROUP", NULL };
	struct core_spawn sp = CORE_SPAWN_INIT;
	char num[32], rfd[32], *set[6] = { NULL };
	char host[256] = "";
	int in[2], out[2], res[2] = { -1, -1 }, errp[2] = { -1, -1 }, ret, k = 0, i;

	snprintf(num, sizeof(num), "%" PRIu64, number);
	if (a->o->host)
		snprintf(host, sizeof(host), "%s", a->o->host);
	else
		gethostname(host, sizeof(host) - 1);
	if ((ret = fiber_pipe(in)) < 0 || (ret = fiber_pipe(out)) < 0 ||
	    (a->o->proto2 && (ret = fiber_pipe(res)) < 0)) {
		ret = core_error_errno(err, -ret, "cannot create a pipe");
		goto out;
	}
	snprintf(rfd, sizeof(rfd), "%d", res[1]);
	set[k++] = fiber_env_pair("FIBERRUN_WORKER", num);
	set[k++] = fiber_env_pair("FIBERRUN_HOST", host);
	set[k++] = fiber_env_pair("FIBERRUN_PROTOCOL", a->o->proto2 ? "2" : "lines");
	if (a->o->proto2)
		set[k++] = fiber_env_pair("FIBERRUN_RESULT_FD", rfd);
	/* --mem-limit: the command's memory cgroup, or RLIMIT_AS. */
	fiber_memlimit_init(&a->mem, a->o->mem_limit);
	if (a->mem.dir[0]) {
		memcpy(group_dir, a->mem.dir, sizeof(group_dir));
		group_set = 1;
		set[k++] = fiber_env_pair("FIBERRUN_MEM_CGROUP", a->mem.dir);
	}
	for (i = 0; i < k; i++)
		if (!set[i]) {
			ret = core_error_set(err, -ENOMEM, "out of memory");
			goto out;
		}
	/* The result pipe is the one descriptor the command inherits beyond 0-2. */
	if (res[1] >= 0)
		fcntl(res[1], F_SETFD, 0);
	sp.argv = a->o->argv;
	sp.env_set = (const char *const *)set;
	sp.env_unset = unset;
	sp.in_fd = in[0];
	sp.out_fd = out[1];
	sp.pdeathsig = SIGKILL;
	sp.new_pgrp = 1;
	/* --mem-limit: the worker command (and what it starts) gets it, not the agent. */
	if (!a->o->mem_limit_inside)
		fiber_memlimit_spawn(&a->mem, &sp);
	a->kills = fiber_memlimit_kills(&a->mem);
	/* Under RLIMIT_AS, its standard error passes through us: a MemoryError shows there. */
	if (a->mem.kind == FIBER_MEMLIMIT_RLIMIT && !a->o->mem_limit_inside && fiber_pipe(errp) == 0)
		sp.err_fd = errp[1];
	ret = core_spawn_start(&sp, err);
	if (ret == 0)
		fiber_agent_child_pgrp = a->child = sp.pid;
	close(in[0]);
	close(out[1]);
	if (res[1] >= 0)
		close(res[1]);
	if (errp[1] >= 0)
		close(errp[1]);
	if (ret < 0) {
		close(in[1]);
		close(out[0]);
		if (res[0] >= 0)
			close(res[0]);
		if (errp[0] >= 0)
			close(errp[0]);
		goto out;
	}
	a->cerr = errp[0];
	if (a->cerr >= 0)
		fiber_fd_nonblock(a->cerr, 1);
	a->cin = in[1];
	a->cout = out[0];
	a->cres = res[0];
	fiber_fd_nonblock(a->cin, 1);
	fiber_fd_nonblock(a->cout, 1);
	if (a->cres >= 0)
		fiber_fd_nonblock(a->cres, 1);
out:
	for (i = 0; i < k; i++)
		free(set[i]);
	return ret;
}

/* Kill the command: TERM, then KILL after a grace period.  Its status. */
static int end_child(struct agent *a, int sig)
{
	int st = 0, i;

	if (a->child <= 0)
		return 0;
	if (sig)
		core_spawn_kill_group(a->child, sig);
	for (i = 0; i < 300; i++) {
		pid_t p = waitpid(a->child, &st, WNOHANG);

		if (p == a->child)
			break;
		if (i == 200)
			core_spawn_kill_group(a->child, SIGKILL);
		core_clock_sleep_ns(10000000);
	}
	if (i == 300) {
		core_spawn_kill_group(a->child, SIGKILL);
		waitpid(a->child, &st, 0);
	}
	/* What the command left behind in its group goes too. */
	core_spawn_kill_group(a->child, SIGKILL);
	fiber_agent_child_pgrp = 0;
	a->child = 0;
	a->wstatus = st;
	return core_spawn_exit_code(st);
}

/* The command's standard error: on to ours, its end kept. */
static void pass_stderr(struct agent *a)
{
	ssize_t n;

	while (a->cerr >= 0) {
		n = fiber_memlimit_tail_pass(&a->tail, a->cerr);
		if (n > 0 || n == -EINTR)
			continue;
		if (n == -EAGAIN)
			return;
		close(a->cerr);
		a->cerr = -1;
	}
}

/*
 * The kind of a result ("o" or "e") into head, with, for an error when the
 * kernel killed a process of the worker for --mem-limit since the last
 * result, what the error owes to it: its length.
 */
static size_t result_head(struct agent *a, int error, char *head, size_t size)
{
	/* The --each runner says it itself. */
	long kills = a->mem.dir[0] && !a->o->mem_limit_inside ? fiber_memlimit_kills(&a->mem) : -1;
	int n = 0;

	head[0] = error ? 'e' : 'o';
	head[1] = '\0';
	if (kills > a->kills && a->kills >= 0 && error)
		n = snprintf(head + 1, size - 1, "out of memory: the kernel killed a process of the "
			     "worker at its --mem-limit of %llu bytes (memory cgroup): ", a->mem.bytes);
	if (kills >= 0)
		a->kills = kills;
	return 1 + (n > 0 && (size_t)n < size - 1 ? (size_t)n : 0);
}

/* Send EXIT (best effort) and end. */
static int finish(struct agent *a, int status, char kind, const char *reason)
{
	char body[512];
	int n = snprintf(body, sizeof(body), "%c%s", kind, reason ? reason : "");

	a->reported = 1;
	fiber_frame_put(&a->sout, FIBER_EXIT, (uint64_t)status, body,
			(size_t)(n < (int)sizeof(body) ? n : (int)sizeof(body) - 1));
	send_all(a);
	shutdown(a->sock, SHUT_WR);
	return status;
}

static int send_ready(struct agent *a, struct core_error *err)
{
	if (a->ready)
		return 0;
	a->ready = 1;
	if (fiber_frame_put(&a->sout, FIBER_READY, 0, NULL, 0) < 0)
		return core_error_set(err, -ENOMEM, "out of memory");
	return 0;
}

/*
 * Lines protocol: the command is ready when it has read from its input,
 * that is when the pipe holds less than what was written to it.
 */
static int check_taken(struct agent *a, struct core_error *err)
{
	int queued = 0;

	if (a->ready || !a->fed || a->cin < 0)
		return 0;
	if (ioctl(a->cin, FIONREAD, &queued) < 0 || (uint64_t)queued < a->fed)
		return send_ready(a, err);
	return 0;
}

/* Lines protocol: each line from the command answers the oldest task. */
static int relay_lines(struct agent *a, struct core_error *err)
{
	for (;;) {
		char *start = a->from_child.data + a->from_child.off;
		size_t avail = core_buf_pending(&a->from_child);
		char *nl = memchr(start + a->scanned, '\n', avail - a->scanned);
		char head[200];
		size_t len, hl;
		int bang;

		if (!nl) {
			a->scanned = avail;
			if (avail > a->o->frame_max)
				return core_error_set(err, -EMSGSIZE, "result line longer than %zu bytes",
						      a->o->frame_max);
			return 0;
		}
		a->scanned = 0;
		len = (size_t)(nl - start);
		if (len > a->o->frame_max)
			return core_error_set(err, -EMSGSIZE, "result line longer than %zu bytes",
					      a->o->frame_max);
		if (!core_ring_count(&a->fifo))
			return core_error_set(err, -EPROTO, "worker wrote a line with no task: '%.*s'",
					      (int)(len < 40 ? len : 40), start);
		if (send_ready(a, err) < 0)
			return -ENOMEM;
		bang = len > 0 && start[0] == '!';
		hl = result_head(a, bang, head, sizeof(head));
		if (fiber_frame_put2(&a->sout, FIBER_RESULT, core_ring_at(&a->fifo, 0),
				     head, hl, start + bang, len - (size_t)bang) < 0)
			return core_error_set(err, -ENOMEM, "out of memory");
		core_ring_pop(&a->fifo);
		core_buf_consume(&a->from_child, len + 1);
	}
}

/* Protocol 2: what the command writes on its standard output is not a result. */
static void relay_stray(struct agent *a, int eof)
{
	for (;;) {
		char *start = a->from_child.data + a->from_child.off;
		size_t avail = core_buf_pending(&a->from_child);
		char *nl = memchr(start + a->scanned, '\n', avail - a->scanned);
		size_t len = nl ? (size_t)(nl - start) : avail;

		if (!avail)
			return;
		if (!nl && !eof && avail < 4096) {
			a->scanned = avail;
			return;
		}
		a->scanned = 0;
		dprintf(2, "fiberrun: worker %" PRIu64 " stdout (not a result): %.*s%s\n",
			a->number, (int)len, start, a->ready || a->hinted ? "" :
			" [protocol 2 workers answer on $FIBERRUN_RESULT_FD; see --protocol lines]");
		a->hinted = 1;
		core_buf_consume(&a->from_child, nl ? len + 1 : len);
	}
}

/*
 * Protocol 2 (fiberrun-protocol(5)): records on the result descriptor,
 * "ready", or "ok ID LEN" / "error ID LEN" and LEN bytes and a newline.
 */
#define RES_HEADER_MAX 64

static int relay_records(struct agent *a, struct core_error *err)
{
	for (;;) {
		char *start = a->from_res.data + a->from_res.off;
		size_t avail = core_buf_pending(&a->from_res);
		char *nl = memchr(start, '\n', avail < RES_HEADER_MAX ? avail : RES_HEADER_MAX);
		char kind[8], *end, head[200];
		unsigned long long id, len;
		size_t hl, head_len;

		if (!nl) {
			if (avail >= RES_HEADER_MAX)
				return core_error_set(err, -EPROTO, "worker wrote a bad record header: '%.*s'",
						      20, start);
			return 0;
		}
		hl = (size_t)(nl - start) + 1;
		if (hl == 6 && memcmp(start, "ready", 5) == 0) {
			if (send_ready(a, err) < 0)
				return -ENOMEM;
			core_buf_consume(&a->from_res, hl);
			continue;
		}
		*nl = '\0';
		if (sscanf(start, "%7s %llu %llu", kind, &id, &len) != 3 ||
		    (strcmp(kind, "ok") != 0 && strcmp(kind, "error") != 0) ||
		    !(end = strrchr(start, ' ')) || strspn(end + 1, "0123456789") != strlen(end + 1)) {
			*nl = '\n';
			return core_error_set(err, -EPROTO, "worker wrote a bad record header: '%.*s'",
					      (int)(hl - 1 < 40 ? hl - 1 : 40), start);
		}
		*nl = '\n';
		if (len > a->o->frame_max)
			return core_error_set(err, -EMSGSIZE, "result longer than %zu bytes",
					      a->o->frame_max);
		if (avail < hl + len + 1) {
			/* Room for the whole record at once: linear in its length. */
			if (core_buf_reserve(&a->from_res, hl + len + 1 - avail) < 0)
				return core_error_set(err, -ENOMEM, "out of memory");
			return 0;
		}
		if (start[hl + len] != '\n')
			return core_error_set(err, -EPROTO, "worker's result for task %llu does not end "
					      "with a newline after %llu bytes", id, len);
		head_len = result_head(a, kind[0] != 'o', head, sizeof(head));
		if (send_ready(a, err) < 0 ||
		    fiber_frame_put2(&a->sout, FIBER_RESULT, id, head, head_len, start + hl, len) < 0)
			return core_error_set(err, -ENOMEM, "out of memory");
		core_buf_consume(&a->from_res, hl + len + 1);
	}
}

#define AGENT_BIG_TASK ((size_t)1 << 20)

/*
 * Hand the receive buffer, where the body of task `f` lies, over to `big`;
 * the bytes after the frame (a read's worth) go on in a new one.
 */
static int take_big(struct agent *a, const struct fiber_frame *f)
{
	struct core_buf rest = CORE_BUF_INIT;
	size_t start = (size_t)(f->body - a->sin.data);

	if (core_buf_append(&rest, a->sin.data + a->sin.off, core_buf_pending(&a->sin)) < 0)
		return -ENOMEM;
	a->big = a->sin;
	a->big.off = start;
	a->big.len = start + f->len;
	a->sin = rest;
	return 0;
}

/* Bytes still to go to the command's input. */
static size_t child_pending(const struct agent *a)
{
	return core_buf_pending(&a->to_child) + core_buf_pending(&a->big) +
	       core_buf_pending(&a->after);
}

/* Write what the command takes, in order: to_child, big, after. */
static ssize_t feed_child(struct agent *a)
{
	ssize_t n = core_buf_write_fd(&a->to_child, a->cin), m;

	if (n < 0 || core_buf_pending(&a->to_child) || !a->big.data)
		return n;
	m = core_buf_write_fd(&a->big, a->cin);
	if (m < 0)
		return m;
	if (!core_buf_pending(&a->big)) {
		core_buf_release(&a->big);
		core_buf_release(&a->to_child);
		a->to_child = a->after;
		a->after = (struct core_buf)CORE_BUF_INIT;
	}
	return n + m;
}

/* Frames from the master. */
static int take_frames(struct agent *a, struct core_error *err)
{
	struct fiber_frame f;
	int ret;

	while ((ret = fiber_frame_next(&a->sin, a->o->frame_max + 16, &f)) > 0) {
		if (f.type == FIBER_STOP) {
			a->stopping = 1;
		} else if (f.type == FIBER_PING) {
			/* The agent answers, not the command: a long task is no silence. */
			if (fiber_frame_put(&a->sout, FIBER_PONG, f.seq, NULL, 0) < 0)
				return core_error_set(err, -ENOMEM, "out of memory");
		} else if (f.type == FIBER_TASK && !a->stopping) {
			struct core_buf *dst = a->big.data ? &a->after : &a->to_child;

			if (a->o->proto2) {
				char h[64];
				int n = snprintf(h, sizeof(h), "task %" PRIu64 " %zu\n", f.seq, f.len);

				ret = core_buf_append(dst, h, (size_t)n);
			} else {
				if (memchr(f.body, '\n', f.len))
					return core_error_set(err, -EPROTO, "task with a newline");
				ret = core_ring_push(&a->fifo, f.seq);
			}
			if (ret == 0 && f.len >= AGENT_BIG_TASK && !a->big.data)
				ret = take_big(a, &f);
			else if (ret == 0)
				ret = core_buf_append(dst, f.body, f.len);
			if (ret < 0 || core_buf_append(a->big.data ? &a->after : &a->to_child, "\n", 1) < 0)
				return core_error_set(err, -ENOMEM, "out of memory");
		} else {
			return core_error_set(err, -EPROTO, "unexpected frame type %d", f.type);
		}
	}
	return ret < 0 ? core_error_set(err, ret, "bad frame from the master") : 0;
}

static int relay(struct agent *a, struct core_error *err)
{
	a->heard_ns = core_clock_mono_ns();
	/* Tasks may have come with the WELCOME frame. */
	if (take_frames(a, err) < 0) {
		end_child(a, SIGKILL);
		return finish(a, 1, 'N', err->msg), -EPROTO;
	}
	for (;;) {
		struct pollfd p[6];
		int np = 0, ret, isock, icout, icres = -1, icin = -1, iwatch = -1, icerr = -1;
		int wait_ms = -1;
		ssize_t n;

		if (a->stopping && a->cin >= 0 && child_pending(a) == 0) {
			close(a->cin);
			a->cin = -1;
		}
		isock = np;
		p[np++] = (struct pollfd){ a->sock, POLLIN | (core_buf_pending(&a->sout) ? POLLOUT : 0), 0 };
		icout = np;
		p[np++] = (struct pollfd){ a->cout, POLLIN, 0 };
		if (a->cres >= 0) {
			icres = np;
			p[np++] = (struct pollfd){ a->cres, POLLIN, 0 };
		}
		if (a->cin >= 0 && child_pending(a)) {
			icin = np;
			p[np++] = (struct pollfd){ a->cin, POLLOUT, 0 };
		}
		if (a->cerr >= 0) {
			icerr = np;
			p[np++] = (struct pollfd){ a->cerr, POLLIN, 0 };
		}
		if (a->o->watch_fd >= 0) {
			iwatch = np;
			p[np++] = (struct pollfd){ a->o->watch_fd, POLLIN, 0 };
		}
		/* Lines protocol, until the command first reads: look again soon. */
		if (!a->o->proto2 && !a->ready && a->fed)
			wait_ms = 5;
		if (a->o->heartbeat_s > 0) {
			/* Twice the master's bound: the master, not us, decides first. */
			int64_t bound = (int64_t)(2 * a->o->heartbeat_s * 1e9);
			int64_t left = a->heard_ns + bound - core_clock_mono_ns();

			if (left < 0) {
				end_child(a, SIGTERM);
				return core_error_set(err, -ETIMEDOUT, "the master was not heard for %g s "
						      "(twice --heartbeat): it is gone", 2 * a->o->heartbeat_s);
			}
			if (wait_ms < 0 || left / 1000000 + 1 < wait_ms)
				wait_ms = (int)(left / 1000000 + 1);
		}
		ret = poll(p, (nfds_t)np, wait_ms);
		if (ret < 0) {
			if (errno == EINTR)
				continue;
			return core_error_errno(err, errno, "poll");
		}
		if (icerr >= 0 && p[icerr].revents)
			pass_stderr(a);
		if (iwatch >= 0 && p[iwatch].revents) {
			char c;

			n = read(a->o->watch_fd, &c, 1);
			if (n <= 0 && !(n < 0 && errno == EINTR)) {
				end_child(a, SIGTERM);
				return core_error_set(err, -ECONNRESET, "the master went away");
			}
		}
		if (p[isock].revents & POLLOUT) {
			n = core_buf_write_fd(&a->sout, a->sock);
			if (n < 0) {
				end_child(a, SIGTERM);
				return core_error_errno(err, (int)-n, "connection to the master");
			}
		}
		if (p[isock].revents & (POLLIN | POLLHUP | POLLERR)) {
			n = core_buf_read_fd(&a->sin, a->sock, 65536);
			if (n == 0 || (n < 0 && n != -EAGAIN)) {
				end_child(a, SIGTERM);
				return core_error_set(err, -ECONNRESET, "the master went away");
			}
			if (n > 0)
				a->heard_ns = core_clock_mono_ns();
			ret = take_frames(a, err);
			if (ret < 0) {
				end_child(a, SIGKILL);
				return finish(a, 1, 'N', err->msg), ret;
			}
		}
		if (icin >= 0 && p[icin].revents) {
			n = feed_child(a);
			/* Counted once in the pipe: a task still in our buffer was not read. */
			if (n > 0 && !a->ready)
				a->fed += (uint64_t)n;
			if (n < 0) {	/* the command closed its input: it will exit */
				close(a->cin);
				a->cin = -1;
				a->to_child.off = a->to_child.len = 0;
				core_buf_release(&a->big);
				core_buf_release(&a->after);
			}
		}
		if (!a->o->proto2 && check_taken(a, err) < 0) {
			end_child(a, SIGKILL);
			return finish(a, 1, 'N', err->msg), -ENOMEM;
		}
		if (icres >= 0 && p[icres].revents) {
			n = core_buf_read_fd(&a->from_res, a->cres, 65536);
			if (n > 0 || n == -EAGAIN) {
				ret = relay_records(a, err);
				if (ret < 0) {
					end_child(a, SIGKILL);
					return finish(a, 1, 'N', err->msg), ret;
				}
			} else {
				/* The command closed its result descriptor: its stdout says when it ends. */
				close(a->cres);
				a->cres = -1;
			}
		}
		if (p[icout].revents) {
			n = core_buf_read_fd(&a->from_child, a->cout, 65536);
			if (n > 0 || n == -EAGAIN) {
				if (a->o->proto2) {
					relay_stray(a, 0);
					ret = 0;
				} else {
					ret = relay_lines(a, err);
				}
				if (ret < 0) {
					end_child(a, SIGKILL);
					return finish(a, 1, 'N', err->msg), ret;
				}
			} else {
				int status;
				char why[300];

				if (a->o->proto2)
					relay_stray(a, 1);
				/* Results written just before the end still count. */
				while (a->cres >= 0 &&
				       (n = core_buf_read_fd(&a->from_res, a->cres, 65536)) > 0)
					;
				if (a->cres >= 0 && relay_records(a, err) < 0) {
					end_child(a, SIGKILL);
					return finish(a, 1, 'N', err->msg), -EPROTO;
				}
				status = end_child(a, 0);
				pass_stderr(a);
				if (a->stopping) {
					release_group(a);
					return finish(a, status, 'N', "");
				}
				/* The --each runner is not under the limit: its end is its own. */
				if (a->o->mem_limit_inside ||
				    fiber_memlimit_explain(&a->mem, a->kills, a->wstatus, &a->tail,
							   "worker", why, sizeof(why)) == 0)
					snprintf(why, sizeof(why), "worker exited with status %d", status);
				/* Before the master hears of it (and may stop us). */
				release_group(a);
				return finish(a, status ? status : 1, 'N', why), 1;
			}
		}
		if (core_buf_pending(&a->sout) > 0) {
			n = core_buf_write_fd(&a->sout, a->sock);
			if (n < 0) {
				end_child(a, SIGTERM);
				return core_error_errno(err, (int)-n, "connection to the master");
			}
		}
	}
}

/* A failure that a master briefly out of reach (a link flapping) explains. */
static int transient(int code)
{
	return code == -ECONNREFUSED || code == -ECONNRESET || code == -ECONNABORTED ||
	       code == -EPIPE || code == -ETIMEDOUT || code == -ENETUNREACH ||
	       code == -EHOSTUNREACH;
}

/*
 * Connect and authenticate, trying again for CONNECT_PATIENCE_MS while
 * the master is out of reach (pauses from 50 ms doubling to 1 s), so that
 * a worker started while the master's link is down still joins.
 */
static int connect_master(struct agent *a, uint64_t *number, struct core_error *err)
{
	int64_t give_up = core_clock_mono_ns() + (int64_t)CONNECT_PATIENCE_MS * 1000000;
	int64_t pause = 50000000;
	int ret;

	for (;;) {
		a->sock = fiber_net_connect(a->o->master, HANDSHAKE_MS, err);
		ret = a->sock;
		if (a->sock >= 0) {
			ret = handshake(a, number, err);
			if (ret == 0)
				return 0;
			close(a->sock);
			a->sock = -1;
			core_buf_release(&a->sin);
			core_buf_release(&a->sout);
		}
		if (!transient(ret) || core_clock_mono_ns() + pause > give_up)
			return ret;
		core_error_clear(err);
		core_clock_sleep_ns(pause);
		if (pause < 1000000000)
			pause *= 2;
	}
}

int fiber_agent_run(const struct fiber_agent_opts *o, struct core_error *err)
{
	struct agent a = { 0 };
	uint64_t number = 0;
	int ret, status = 1;

	a.o = o;
	a.cin = a.cout = a.cres = a.cerr = a.sock = -1;
	a.mem.procs_fd = -1;
	signal(SIGTERM, on_stop_signal);
	signal(SIGINT, on_stop_signal);
	signal(SIGHUP, on_stop_signal);
	ret = connect_master(&a, &number, err);
	if (ret < 0)
		goto out;
	a.number = number;
	/* --workdir: not entering it is this worker's error, named with its host. */
	ret = fiber_workdir_enter(o->host, err);
	if (ret < 0) {
		finish(&a, 1, 'N', err->msg);
		core_error_clear(err);
		goto out;
	}
	ret = start_command(&a, number, err);
	if (ret < 0) {
		status = core_spawn_error_exit(ret);
		finish(&a, status, 'F', err->msg);
		core_error_clear(err);	/* the master reports it, once */
		goto out;
	}
	fiber_fd_nonblock(a.sock, 1);
	ret = relay(&a, err);
	/* relay returns the status for an orderly end, or a negative code. */
	status = ret >= 0 ? ret : 1;
	if (a.reported)
		core_error_clear(err);	/* the master reports it, once */
out:
	if (a.child > 0)
		end_child(&a, SIGKILL);
	release_group(&a);
	if (a.cin >= 0)
		close(a.cin);
	if (a.cout >= 0)
		close(a.cout);
	if (a.cres >= 0)
		close(a.cres);
	if (a.cerr >= 0)
		close(a.cerr);
	if (a.sock >= 0)
		close(a.sock);
	core_buf_release(&a.sin);
	core_buf_release(&a.sout);
	core_buf_release(&a.to_child);
	core_buf_release(&a.big);
	core_buf_release(&a.after);
	core_buf_release(&a.from_child);
	core_buf_release(&a.from_res);
	core_ring_release(&a.fifo);
	return status;
}
