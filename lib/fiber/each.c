#include "fiber/each.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <jansson.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/buf.h"
#include "core/json.h"
#include "core/spawn.h"
#include "core/sys.h"
#include "fiber/memlimit.h"
#include "fiber/proc.h"

void fiber_each_argv_free(char **v)
{
	size_t i;

	for (i = 0; v && v[i]; i++)
		free(v[i]);
	free(v);
}

/*
 * A JSON value as an argument: a string's value, else its compact text,
 * with numbers as short as they can be and still read back the same
 * (0.1, not 0.10000000000000001).
 */
static char *value_text(const json_t *v)
{
	const size_t flags = JSON_COMPACT | JSON_ENCODE_ANY;
	json_t *back;
	char *s;

	if (json_is_string(v))
		return strndup(json_string_value(v), json_string_length(v));
	s = json_dumps(v, flags | JSON_REAL_PRECISION(15));
	back = s ? json_loads(s, JSON_DECODE_ANY, NULL) : NULL;
	if (s && !json_equal(back, (json_t *)v)) {
		free(s);
		s = json_dumps(v, flags);
	}
	json_decref(back);
	return s;
}

static int is_name(const char *s, size_t n)
{
	size_t i;

	if (n == 0)
		return 0;
	for (i = 0; i < n; i++) {
		char c = s[i];

		if (!(c == '_' || c == '-' || c == '.' || (c >= 'A' && c <= 'Z') ||
		      (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')))
			return 0;
	}
	return 1;
}

/* Substitute one argument into b; *used is set when a placeholder was seen. */
static int subst(struct core_buf *b, const char *arg, const char *whole,
		 const json_t *task, const char *num, int *used)
{
	const char *s = arg;

	while (*s) {
		const char *open = strchr(s, '{'), *close;
		const char *put = NULL;
		char *owned = NULL;
		size_t nlen;
		int ret;

		if (!open)
			return core_buf_append(b, s, strlen(s));
		if (core_buf_append(b, s, (size_t)(open - s)) < 0)
			return -ENOMEM;
		close = strchr(open + 1, '}');
		if (!close)
			return core_buf_append(b, open, strlen(open));
		nlen = (size_t)(close - open - 1);
		if (nlen == 0) {
			put = whole;
		} else if (nlen == 1 && open[1] == '#') {
			put = num;
		} else if (task && json_is_object(task) && is_name(open + 1, nlen)) {
			char *name = strndup(open + 1, nlen);
			json_t *m = name ? json_object_get(task, name) : NULL;

			free(name);
			if (m && !(put = owned = value_text(m)))
				return -ENOMEM;
		}
		if (!put) {	/* not ours: keep the brace and go on after it */
			if (core_buf_append(b, "{", 1) < 0)
				return -ENOMEM;
			s = open + 1;
			continue;
		}
		*used = 1;
		ret = core_buf_append(b, put, strlen(put));
		free(owned);
		if (ret < 0)
			return -ENOMEM;
		s = close + 1;
	}
	return 0;
}

char **fiber_each_argv(char *const *argv, const char *task, size_t len, int lines,
		       unsigned long long number)
{
	json_t *v = lines ? NULL : core_jsonl_decode(task, len, NULL);
	char num[32], *whole, **out = NULL;
	size_t n = 0, i;
	int used = 0, ok = 1;

	snprintf(num, sizeof(num), "%llu", number);
	whole = v && json_is_string(v) ? value_text(v) : strndup(task, len);
	while (argv[n])
		n++;
	out = whole ? calloc(n + 2, sizeof(*out)) : NULL;
	for (i = 0; out && i < n && ok; i++) {
		struct core_buf b = CORE_BUF_INIT;

		ok = subst(&b, argv[i], whole, v, num, &used) == 0 &&
		     core_buf_append(&b, "", 1) == 0;
		out[i] = ok ? strdup(b.data + b.off) : NULL;
		ok = ok && out[i];
		core_buf_release(&b);
	}
	if (out && ok && !used)
		ok = (out[n] = strdup(whole)) != NULL;
	if (out && !ok) {
		fiber_each_argv_free(out);
		out = NULL;
	}
	free(whole);
	json_decref(v);
	return out;
}

static int answer(int fd, const char *kind, const char *id, const char *p, size_t n)
{
	char head[96];
	int hl = snprintf(head, sizeof(head), "%s %s %zu\n", kind, id, n), ret;

	ret = core_sys_write_all(fd, head, (size_t)hl);
	if (ret == 0)
		ret = core_sys_write_all(fd, p, n);
	if (ret == 0)
		ret = core_sys_write_all(fd, "\n", 1);
	return ret;
}

/*
 * Read the command's output (fd[0]) into out, and pass its standard error
 * (fd[1], or -1) on to ours, keeping its end in t, to their ends; both are
 * closed then.  1 when the output was longer than max (then not kept).
 */
static int drain(int fd[2], struct core_buf *out, size_t max, struct fiber_memlimit_tail *t)
{
	int too_long = 0;

	while (fd[0] >= 0 || fd[1] >= 0) {
		struct pollfd p[2] = { { fd[0], POLLIN, 0 }, { fd[1], POLLIN, 0 } };
		int i;

		if (poll(p, 2, -1) < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		for (i = 0; i < 2; i++) {
			ssize_t n;

			if (fd[i] < 0 || !p[i].revents)
				continue;
			if (i == 0) {
				n = core_buf_read_fd(out, fd[0], 65536);
				if (core_buf_pending(out) > max) {
					too_long = 1;
					core_buf_consume(out, core_buf_pending(out));
				}
			} else {
				n = fiber_memlimit_tail_pass(t, fd[1]);
			}
			if (n == 0 || (n < 0 && n != -EINTR && n != -EAGAIN)) {
				close(fd[i]);
				fd[i] = -1;
			}
		}
	}
	if (fd[0] >= 0)
		close(fd[0]);
	if (fd[1] >= 0)
		close(fd[1]);
	return too_long;
}

/* Why a command that ended with wst failed, into msg. */
static void failure(const struct fiber_memlimit *m, long kills, int wst,
		    const struct fiber_memlimit_tail *t, char *msg, size_t size)
{
	char st[64];

	if (fiber_memlimit_explain(m, kills, wst, t, "command", msg, size) > 0)
		return;
	core_spawn_status_text(wst, st, sizeof(st));
	if (m->kind == FIBER_MEMLIMIT_RLIMIT)
		snprintf(msg, size, "command ended with %s (its address space was limited to %llu "
			 "bytes by --mem-limit)", st, m->bytes);
	else
		snprintf(msg, size, "command ended with %s", st);
}

/* Run one task's command; its answer goes to o->res_fd. */
static int run_one(const struct fiber_each_opts *o, const struct fiber_memlimit *m,
		   const char *id, const char *task, size_t len, struct core_error *err)
{
	struct core_spawn sp = CORE_SPAWN_INIT;
	struct core_buf out = CORE_BUF_INIT;
	struct fiber_memlimit_tail t = { "", 0 };
	char **argv = fiber_each_argv(o->argv, task, len, o->lines, strtoull(id, NULL, 10) + 1);
	char msg[600];
	int fds[2] = { -1, -1 }, efds[2] = { -1, -1 }, rd[2], devnull, wst = 0, ret, too_long;
	long kills;

	if (!argv)
		return core_error_set(err, -ENOMEM, "out of memory");
	devnull = open("/dev/null", O_RDONLY | O_CLOEXEC);
	ret = fiber_pipe(fds);
	/* Under RLIMIT_AS, its standard error tells a MemoryError. */
	if (ret == 0 && m->kind == FIBER_MEMLIMIT_RLIMIT)
		ret = fiber_pipe(efds);
	if (ret < 0 || devnull < 0) {
		ret = core_error_errno(err, ret < 0 ? -ret : errno, "cannot create a pipe");
		goto out;
	}
	sp.argv = argv;
	sp.in_fd = devnull;
	sp.out_fd = fds[1];
	sp.err_fd = efds[1];
	sp.env_set = (const char *const *)o->env_set;
	fiber_memlimit_spawn(m, &sp);
	kills = fiber_memlimit_kills(m);
	ret = core_spawn_start(&sp, err);
	close(fds[1]);
	fds[1] = -1;
	if (efds[1] >= 0)
		close(efds[1]);
	efds[1] = -1;
	if (ret < 0) {
		/* Not found, not executable: this task's error, said once per task. */
		snprintf(msg, sizeof(msg), "%s", err->msg);
		core_error_clear(err);
		ret = answer(o->res_fd, "error", id, msg, strlen(msg));
		goto out;
	}
	rd[0] = fds[0];
	rd[1] = efds[0];
	fds[0] = efds[0] = -1;
	too_long = drain(rd, &out, o->frame_max, &t);
	while (waitpid(sp.pid, &wst, 0) < 0 && errno == EINTR)
		;
	if (too_long) {
		snprintf(msg, sizeof(msg), "output longer than %zu bytes", o->frame_max);
		ret = answer(o->res_fd, "error", id, msg, strlen(msg));
	} else if (WIFEXITED(wst) && WEXITSTATUS(wst) == 0) {
		size_t len_out = core_buf_pending(&out);

		if (len_out > 0 && out.data[out.off + len_out - 1] == '\n')
			len_out--;
		ret = answer(o->res_fd, "ok", id, out.data + out.off, len_out);
	} else {
		failure(m, kills, wst, &t, msg, sizeof(msg));
		ret = answer(o->res_fd, "error", id, msg, strlen(msg));
	}
	if (ret < 0)
		core_error_errno(err, -ret, "writing a result");
out:
	if (fds[0] >= 0)
		close(fds[0]);
	if (fds[1] >= 0)
		close(fds[1]);
	if (efds[0] >= 0)
		close(efds[0]);
	if (efds[1] >= 0)
		close(efds[1]);
	if (devnull >= 0)
		close(devnull);
	core_buf_release(&out);
	fiber_each_argv_free(argv);
	return ret;
}

int fiber_each_run(const struct fiber_each_opts *o, struct core_error *err)
{
	struct core_buf in = CORE_BUF_INIT;
	struct fiber_memlimit m = FIBER_MEMLIMIT_INIT;
	struct fiber_each_opts run = *o;
	char *cg[2] = { NULL, NULL };
	int ret = core_sys_write_all(o->res_fd, "ready\n", 6), eof = 0;

	if (ret < 0)
		return core_error_errno(err, -ret, "writing to the result descriptor");
	if (o->mem_group)
		fiber_memlimit_attach(&m, o->mem_limit, o->mem_group);
	else
		fiber_memlimit_init(&m, o->mem_limit);
	/* Each command finds its group (memory.current, memory.peak ...). */
	if (m.dir[0] && !(cg[0] = fiber_env_pair("FIBERRUN_MEM_CGROUP", m.dir))) {
		fiber_memlimit_release(&m);
		return core_error_set(err, -ENOMEM, "out of memory");
	}
	run.env_set = cg[0] ? cg : NULL;
	for (;;) {
		char *start = in.data + in.off, *nl;
		size_t avail = core_buf_pending(&in);
		char id[32];
		unsigned long long len;
		ssize_t n;

		nl = avail ? memchr(start, '\n', avail < 64 ? avail : 64) : NULL;
		if (nl) {
			if (sscanf(start, "task %31s %llu", id, &len) != 2 || len > o->frame_max + 1) {
				ret = core_error_set(err, -EPROTO, "bad task header from the agent");
				break;
			}
			if (avail >= (size_t)(nl - start) + 1 + len + 1) {
				size_t hl = (size_t)(nl - start) + 1;

				ret = run_one(&run, &m, id, start + hl, (size_t)len, err);
				if (ret < 0)
					break;
				core_buf_consume(&in, hl + (size_t)len + 1);
				continue;
			}
		} else if (avail >= 64) {
			ret = core_error_set(err, -EPROTO, "bad task header from the agent");
			break;
		}
		if (eof) {
			ret = 0;
			break;
		}
		n = core_buf_read_fd(&in, o->in_fd, 65536);
		if (n == 0)
			eof = 1;
		else if (n < 0 && n != -EINTR && n != -EAGAIN) {
			ret = core_error_errno(err, (int)-n, "reading tasks");
			break;
		}
	}
	core_buf_release(&in);
	fiber_memlimit_release(&m);
	free(cg[0]);
	return ret;
}
