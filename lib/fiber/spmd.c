#include "fiber/spmd.h"

#include <errno.h>
#include <inttypes.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/clock.h"
#include "core/sys.h"
#include "fiber/envpass.h"
#include "fiber/hmac.h"
#include "fiber/net.h"
#include "fiber/proc.h"
#include "fiber/wire.h"

#define GRACE_NS (5 * 1000000000LL)
#define LINE_MAX_BYTES 65536

struct stream {
	int fd;			/* read end, -1 when closed */
	int to;			/* our fd it goes to */
	struct core_buf buf;
};

struct rank {
	struct fiber_proc proc;
	struct stream s[2];
	int done, status;
};

/* Write the whole lines of s (all of it at end of file) with the prefix. */
static void stream_flush(struct stream *s, long rank, int tag, int eof)
{
	char pre[32];
	int plen = tag ? snprintf(pre, sizeof(pre), "%ld: ", rank) : 0;

	while (core_buf_pending(&s->buf) > 0) {
		char *start = s->buf.data + s->buf.off, *nl;
		size_t len, avail = core_buf_pending(&s->buf);
		struct core_buf line = CORE_BUF_INIT;

		nl = memchr(start, '\n', avail);
		if (nl)
			len = (size_t)(nl - start) + 1;
		else if (eof || avail >= LINE_MAX_BYTES)
			len = avail;
		else
			return;
		/* One write per line, so lines of different ranks never mix. */
		core_buf_append(&line, pre, (size_t)plen);
		core_buf_append(&line, start, len);
		if (!nl)
			core_buf_append(&line, "\n", 1);
		core_sys_write_all(s->to, line.data, core_buf_pending(&line));
		core_buf_release(&line);
		core_buf_consume(&s->buf, len);
	}
}

static int free_port(void)
{
	int port = 0, fd = fiber_net_listen("127.0.0.1:0", &port, NULL);

	if (fd >= 0)
		close(fd);
	return port;
}

static int start_rank(const struct fiber_spmd_opts *o, struct rank *r, long i,
		      const char *master, int port, struct core_error *err)
{
	const struct fiber_hosts *h = &o->backend->hosts;
	char host[256] = "localhost", *env[8] = { NULL }, num[6][32];
	long lr = i, ls = o->ranks;
	struct fiber_launch l = { 0 };
	int fds[2][2] = { { -1, -1 }, { -1, -1 } }, ret = 0, k;

	if (h->n > 0) {
		size_t hi;

		fiber_hosts_place(h, i, o->ranks, &hi, &lr, &ls);
		snprintf(host, sizeof(host), "%s", h->v[hi].name);
	} else {
		gethostname(host, sizeof(host) - 1);
	}
	snprintf(num[0], sizeof(num[0]), "%ld", i);
	snprintf(num[1], sizeof(num[1]), "%ld", o->ranks);
	snprintf(num[2], sizeof(num[2]), "%ld", lr);
	snprintf(num[3], sizeof(num[3]), "%ld", ls);
	snprintf(num[4], sizeof(num[4]), "%d", port);
	env[0] = fiber_env_pair("FIBERRUN_RANK", num[0]);
	env[1] = fiber_env_pair("FIBERRUN_SIZE", num[1]);
	env[2] = fiber_env_pair("FIBERRUN_LOCAL_RANK", num[2]);
	env[3] = fiber_env_pair("FIBERRUN_LOCAL_SIZE", num[3]);
	env[4] = fiber_env_pair("FIBERRUN_HOST", host);
	env[5] = fiber_env_pair("FIBERRUN_MASTER_ADDR", master);
	env[6] = fiber_env_pair("FIBERRUN_MASTER_PORT", num[4]);
	for (k = 0; k < 7; k++)
		if (!env[k])
			ret = core_error_set(err, -ENOMEM, "out of memory");
	for (k = 0; k < 2 && ret == 0; k++)
		if ((ret = fiber_pipe(fds[k])) < 0)
			ret = core_error_errno(err, -ret, "cannot create a pipe");
	if (ret == 0) {
		l.host = h->n > 0 ? host : NULL;
		l.argv = o->argv;
		l.env = (const char *const *)env;
		l.out_fd = fds[0][1];
		l.err_fd = fds[1][1];
		ret = fiber_backend_spawn(o->backend, &l, &r->proc, err);
	}
	for (k = 0; k < 2; k++) {
		if (fds[k][1] >= 0)
			close(fds[k][1]);
		r->s[k].fd = ret == 0 ? fds[k][0] : -1;
		r->s[k].to = k == 0 ? o->out_fd : o->err_fd;
		if (ret < 0 && fds[k][0] >= 0)
			close(fds[k][0]);
		if (ret == 0)
			fiber_fd_nonblock(fds[k][0], 1);
	}
	for (k = 0; k < 7; k++)
		free(env[k]);
	if (ret == 0 && r->proc.pid <= 0)
		r->done = 1;
	return ret;
}

static void stop_all(const struct fiber_spmd_opts *o, struct rank *r, int sig)
{
	long i;

	for (i = 0; i < o->ranks; i++)
		if (!r[i].done)
			o->backend->ops->stop(o->backend, &r[i].proc, sig);
}

int fiber_spmd_run(const struct fiber_spmd_opts *o, struct core_error *err)
{
	struct rank *r = calloc((size_t)o->ranks, sizeof(*r));
	struct pollfd *pf = calloc((size_t)o->ranks * 2 + 1, sizeof(*pf));
	char master[256] = "127.0.0.1";
	int64_t kill_at = 0;
	long i, left = 0, open_streams = 0;
	int status = 0, failed = 0, sig = 0, port, sfd = -1, ret = 0;

	if (!r || !pf) {
		ret = core_error_set(err, -ENOMEM, "out of memory");
		goto out;
	}
	if (o->backend->hosts.n > 0)
		snprintf(master, sizeof(master), "%s", o->backend->hosts.v[0].name);
	port = free_port();
	if (port <= 0) {
		uint16_t rnd = 0;

		fiber_random_bytes(&rnd, sizeof(rnd));
		port = 20000 + rnd % 20000;
	}
	sfd = fiber_proc_signalfd();
	if (sfd < 0) {
		ret = core_error_errno(err, -sfd, "signalfd");
		goto out;
	}
	for (i = 0; i < o->ranks; i++) {
		r[i].proc = (struct fiber_proc)FIBER_PROC_INIT;
		r[i].s[0].fd = r[i].s[1].fd = -1;
	}
	for (i = 0; i < o->ranks; i++) {
		ret = start_rank(o, &r[i], i, master, port, err);
		if (ret < 0) {
			core_error_prefix(err, "rank %ld: ", i);
			stop_all(o, r, SIGKILL);
			kill_at = core_clock_mono_ns();
			break;
		}
		left += !r[i].done;
		open_streams += 2;
	}
	while (left > 0 || open_streams > 0) {
		int64_t now = core_clock_mono_ns();
		nfds_t np = 0;
		struct signalfd_siginfo si;

		pf[np++] = (struct pollfd){ sfd, POLLIN, 0 };
		for (i = 0; i < o->ranks; i++) {
			int k;

			for (k = 0; k < 2; k++)
				if (r[i].s[k].fd >= 0)
					pf[np++] = (struct pollfd){ r[i].s[k].fd, POLLIN, 0 };
		}
		if (kill_at && now > kill_at) {
			stop_all(o, r, SIGKILL);
			kill_at = 0;
		}
		if (poll(pf, np, 100) < 0 && errno != EINTR)
			break;
		while (read(sfd, &si, sizeof(si)) == (ssize_t)sizeof(si)) {
			if (si.ssi_signo != SIGCHLD && !sig) {
				sig = (int)si.ssi_signo;
				stop_all(o, r, sig);	/* the ranks get the same signal */
				kill_at = core_clock_mono_ns() + GRACE_NS;
			}
		}
		for (;;) {
			int st;
			pid_t pid = waitpid(-1, &st, WNOHANG);

			if (pid <= 0)
				break;
			for (i = 0; i < o->ranks; i++) {
				if (r[i].proc.pid != pid || r[i].done)
					continue;
				r[i].done = 1;
				r[i].status = core_spawn_exit_code(st);
				left--;
				r[i].proc.pid = 0;
				fiber_proc_release(&r[i].proc);
				if (r[i].status != 0 && !failed && !sig) {
					failed = 1;
					status = r[i].status;
					if (o->halt_on_failure && left > 0) {
						stop_all(o, r, SIGTERM);
						kill_at = core_clock_mono_ns() + GRACE_NS;
					}
				}
			}
		}
		for (i = 0; i < o->ranks; i++) {
			int k;

			for (k = 0; k < 2; k++) {
				struct stream *s = &r[i].s[k];
				ssize_t n;

				if (s->fd < 0)
					continue;
				while ((n = core_buf_read_fd(&s->buf, s->fd, 65536)) > 0)
					stream_flush(s, i, o->tag, 0);
				if (n == 0 || (n < 0 && n != -EAGAIN)) {
					stream_flush(s, i, o->tag, 1);
					close(s->fd);
					s->fd = -1;
					open_streams--;
				}
			}
		}
	}
	if (ret == 0)
		ret = sig ? 128 + sig : status;
out:
	for (i = 0; r && i < o->ranks; i++) {
		int k;

		for (k = 0; k < 2; k++) {
			if (r[i].s[k].fd >= 0)
				close(r[i].s[k].fd);
			core_buf_release(&r[i].s[k].buf);
		}
		fiber_proc_release(&r[i].proc);
	}
	if (sfd >= 0)
		close(sfd);
	free(r);
	free(pf);
	return ret;
}
