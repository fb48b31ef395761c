#include "fiber/pool.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <jansson.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/clock.h"
#include "core/grow.h"
#include "core/input.h"
#include "core/json.h"
#include "core/map.h"
#include "core/ring.h"
#include "core/utf8.h"
#include "fiber/joblog.h"
#include "fiber/net.h"
#include "fiber/proc.h"
#include "fiber/record.h"
#include "fiber/spill.h"
#include "fiber/task.h"
#include "fiber/taskq.h"
#include "fiber/wire.h"

#define AUTH_TIMEOUT_NS (10 * 1000000000LL)
/* A connection that has not said HELLO with a live worker's token by then is dropped. */
#define HELLO_TIMEOUT_NS (2 * 1000000000LL)
#define START_TIMEOUT_S 120.0
#define ORDER_MEMORY_DEFAULT ((size_t)64 << 20)
#define STOP_GRACE_NS (5 * 1000000000LL)
#define SLOT_MAX_FAILS 5
#define TICK_MS 100
/* Starts per turn of the loop, so that handshakes are served meanwhile. */
#define STARTS_PER_TURN 16

enum { EV_LISTEN = 1, EV_INPUT, EV_SIGNAL, EV_CONN };
enum { W_IDLE, W_STARTING, W_READY, W_STOPPING, W_GONE };

struct ev {
	int kind;
};


struct worker;

struct conn {
	struct ev ev;
	int fd;
	int stage;		/* 0 wants HELLO, 1 wants AUTH, 2 attached */
	int vouched;		/* its HELLO named the token of a worker we started */
	int watching_out;
	uint64_t token;
	uint8_t nonce_w[FIBER_NONCE_LEN], nonce_m[FIBER_NONCE_LEN];
	int64_t deadline;
	struct core_buf in, out;
	struct worker *w;
	struct conn *next, *prev;	/* unattached connections */
};

struct worker {
	long index;
	int state;
	uint64_t token;
	struct fiber_proc proc;
	struct conn *c;
	const char *slot_host;		/* from the hosts file, or NULL */
	char host[256];
	struct core_ring fifo;		/* tasks sent, oldest first */
	int64_t head_start_ns, since_ns, retry_ns;	/* head_start_ns 0: not started */
	int ready;		/* the command said it is ready (READY) */
	int fails;
	char exit_kind;
	int exit_status;
	char reason[256];
	char last_why[160];	/* the reason of its last loss */
};

struct pool {
	const struct fiber_pool_opts *o;
	struct fiber_pool_stats *st;
	struct core_error *err;
	int ep, lfd, sfd;
	struct ev ev_listen, ev_input, ev_signal;
	char addr[320], secret[FIBER_SECRET_HEX_LEN + 1], size[32];
	struct worker *w;
	long live_slots;
	struct conn *pending;
	long npending;
	pid_t *kids;
	size_t nkids, kids_cap;
	/* input */
	struct core_jsonl_reader *in;
	int in_reads;		/* read(2) calls the reader may still make */
	long lineno;
	int in_eof, in_ready, in_poll;
	struct fiber_taskq q;
	uint64_t *done;
	size_t ndone, done_cap;
	struct core_map seen, logged;
	struct fiber_joblog jl;
	long unfinished;	/* tasks read and not done */
	size_t held;		/* -k: bytes of records waiting in memory */
	struct fiber_spill spill;
	int stopping, draining, failed;
	int warned_idle;
	char last_loss[160];	/* why the last worker was lost, for "no workers left" */
	int backlog;		/* workers still waiting to be started */
	int64_t stop_ns;
};

static void warn(struct pool *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void warn(struct pool *p, const char *fmt, ...)
{
	char buf[512];
	va_list ap;

	if (!p->o->warn)
		return;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	p->o->warn(p->o->warn_ctx, buf);
}

/* A fatal error: keep the first message, stop everything. */
static int fail(struct pool *p, int code)
{
	if (!p->failed)
		p->failed = code;
	p->stopping = 1;
	return code;
}

/* Mark t done (its record is set) and queue it for output. */
static int task_done(struct pool *p, struct fiber_task *t)
{
	size_t limit = p->o->order_memory ? p->o->order_memory : ORDER_MEMORY_DEFAULT;

	t->state = FIBER_TASK_DONE;
	free(t->line);
	t->line = NULL;
	p->unfinished--;
	if (p->o->keep_order) {
		size_t len = strlen(t->record);
		int ret;

		if (t->seq == p->q.base || p->held + len <= limit) {
			p->held += len;
			return 0;
		}
		/* Its turn may be far: to disk. */
		ret = fiber_spill_put(&p->spill, t->record, len, &t->spill_off, p->err);
		if (ret < 0)
			return fail(p, ret);
		t->spill_len = len;
		free(t->record);
		t->record = NULL;
		return 0;
	}
	if (CORE_GROW(p->done, p->done_cap, p->ndone + 1) < 0)
		return fail(p, core_error_set(p->err, -ENOMEM, "out of memory"));
	p->done[p->ndone++] = t->seq;
	return 0;
}

/*
 * The one way a task ends.  `result` (len bytes; NULL for none) and
 * `error` are borrowed; `w` may be NULL; `start_ns` is when the last
 * attempt began (0: it never began).
 */
static void task_finish(struct pool *p, struct fiber_task *t, const char *status,
			const char *result, size_t len, const char *error, struct worker *w,
			int64_t start_ns)
{
	struct fiber_record r = { 0 };
	size_t n;

	r.id = t->id;
	r.status = status;
	r.result = result;
	r.len = len;
	r.text_only = p->o->lines;
	r.error = error;
	r.line = strcmp(status, "invalid") == 0 ? t->lineno : 0;
	r.worker = w ? w->index : -1;
	r.host = !w ? NULL : w->host[0] ? w->host : w->slot_host;
	r.attempts = t->attempts;
	r.duration = start_ns ? (double)(core_clock_mono_ns() - start_ns) / 1e9 : 0.0;
	t->record = fiber_record_make(&r);
	if (!t->record) {
		fail(p, core_error_set(p->err, -ENOMEM, "out of memory"));
		return;
	}
	n = strlen(t->record);
	if (p->jl.fd >= 0 && fiber_joblog_add(&p->jl, t->record, n) < 0)
		fail(p, core_error_set(p->err, -ENOMEM, "out of memory"));
	if (strcmp(status, "ok") == 0)
		p->st->ok++;
	else
		p->st->failed++;
	task_done(p, t);
}

/* Joblog first, then the output: what the user saw is in the journal. */
static int emit(struct pool *p)
{
	FILE *out = p->o->out;
	size_t i;
	int ret = fiber_joblog_commit(&p->jl, p->err);

	if (ret < 0)
		return fail(p, ret);
	if (p->o->keep_order) {
		struct fiber_task *t;

		while (p->q.base < p->q.next && (t = fiber_taskq_at(&p->q, p->q.base)) &&
		       t->state == FIBER_TASK_DONE) {
			if (!t->record) {
				ret = fiber_spill_get(&p->spill, t->spill_off, t->spill_len, &t->record, p->err);
				if (ret < 0)
					return fail(p, ret);
			} else {
				p->held -= strlen(t->record);
			}
			fprintf(out, "%s\n", t->record);
			fiber_taskq_drop(&p->q, t->seq);
		}
	} else {
		for (i = 0; i < p->ndone; i++) {
			fprintf(out, "%s\n", fiber_taskq_at(&p->q, p->done[i])->record);
			fiber_taskq_drop(&p->q, p->done[i]);
		}
		p->ndone = 0;
	}
	if (fflush(out) != 0 || ferror(out)) {
		if (errno == EPIPE) {
			/* The reader is gone (`| head`): stop as for a signal, quietly. */
			if (!p->stopping) {
				p->st->signal = SIGPIPE;
				p->stopping = 1;
			}
			clearerr(out);
			return 0;
		}
		return fail(p, core_error_errno(p->err, errno ? errno : EIO, "writing output failed"));
	}
	return 0;
}

/*
 * One input line (parsed as `v` unless --lines): a new task, or an old
 * record with --resume.  `bad`: the line is not a task (invalid JSON, too
 * long); it becomes a task of status "invalid" with that reason.
 */
static int take_line(struct pool *p, json_t *v, const char *line, size_t len, const char *bad)
{
	struct core_map_entry *e;
	json_t *id = NULL;
	struct fiber_task *t;
	char *key = NULL;
	int ret;

	p->lineno = core_jsonl_line(p->in);
	ret = fiber_task_id(v, p->lineno, &id, &key, p->err);
	json_decref(v);
	if (ret < 0) {
		core_error_prefix(p->err, "'%s': line %ld: ", p->o->in_name, p->lineno);
		return fail(p, ret);
	}
	ret = core_map_put(&p->seen, key, strlen(key), &e);
	if (ret <= 0) {
		char *s = json_dumps(id, JSON_ENCODE_ANY);

		ret = ret < 0 ? core_error_set(p->err, -ENOMEM, "out of memory") :
			core_error_set(p->err, -EINVAL, "'%s': line %ld: task id %s appears twice",
				       p->o->in_name, p->lineno, s ? s : "?");
		free(s);
		free(key);
		json_decref(id);
		return fail(p, ret);
	}
	t = calloc(1, sizeof(*t));
	if (!t || fiber_taskq_add(&p->q, t) < 0) {
		free(t);
		free(key);
		json_decref(id);
		return fail(p, core_error_set(p->err, -ENOMEM, "out of memory"));
	}
	t->id = id;
	t->lineno = p->lineno;
	p->st->tasks++;
	p->unfinished++;
	e = core_map_find(&p->logged, key, strlen(key));
	free(key);
	if (e && e->value.p) {
		json_t *rec = core_jsonl_decode(e->value.p, strlen(e->value.p), NULL);
		const char *status = json_string_value(json_object_get(rec, "status"));

		if (status && strcmp(status, "ok") == 0)
			p->st->ok++;
		else
			p->st->failed++;
		json_decref(rec);
		p->st->resumed++;
		t->record = e->value.p;
		e->value.p = NULL;
		return task_done(p, t);
	}
	if (bad) {
		p->st->invalid++;
		task_finish(p, t, "invalid", NULL, 0, bad, NULL, 0);
		return 0;
	}
	t->line = malloc(len + 1);
	if (!t->line)
		return fail(p, core_error_set(p->err, -ENOMEM, "out of memory"));
	memcpy(t->line, line, len);
	t->line[len] = '\0';
	t->len = len;
	return fiber_taskq_push(&p->q, t->seq, 0) < 0 ? fail(p, core_error_set(p->err, -ENOMEM, "out of memory")) : 0;
}

/* The input reader's read function: at most one read(2) per read_input(). */
static ssize_t input_read(void *ctx, char *buf, size_t n)
{
	struct pool *p = ctx;

	if (!p->in_reads)
		return -EAGAIN;
	p->in_reads--;
	return core_read_fd(p->o->in_fd, buf, n);
}

/* Read what input is there and take its whole lines. */
static int read_input(struct pool *p)
{
	json_t *v = NULL;
	char *line;
	size_t len;
	int ret;

	p->in_ready = p->in_poll ? 0 : 1;
	p->in_reads = 1;
	while (!p->stopping) {
		if (p->o->lines) {
			ret = core_jsonl_read_line(p->in, &line, &len, p->err);
		} else {
			ret = core_jsonl_read(p->in, &v, p->err);
			line = ret > 0 ? (char *)core_jsonl_text(p->in, &len) : NULL;
		}
		if (ret == -EAGAIN)
			break;
		if (ret == -EMSGSIZE || ret == -EBADMSG) {
			char why[CORE_ERROR_MSG_MAX];

			if (ret == -EMSGSIZE)
				snprintf(why, sizeof(why), "task longer than %zu bytes (--max-line)",
					 p->o->frame_max);
			else
				snprintf(why, sizeof(why), "%s", p->err->msg);
			if (p->o->on_bad_input == FIBER_BAD_INPUT_ABORT) {
				if (ret == -EMSGSIZE)
					core_error_set(p->err, -EINVAL, "'%s': line %ld: %s", p->o->in_name,
						       core_jsonl_line(p->in), why);
				p->err->code = -EINVAL;
				return fail(p, -EINVAL);
			}
			if (ret == -EBADMSG) {
				/* The reader's message names the input and the line: keep the reason. */
				const char *r = strstr(p->err->msg, ": line ");

				if (r && (r = strchr(r + 7, ':')))
					snprintf(why, sizeof(why), "%s", r + 2);
			}
			core_error_clear(p->err);
			if (p->o->on_bad_input == FIBER_BAD_INPUT_SKIP) {
				p->st->skipped++;
				warn(p, "'%s': line %ld skipped: %s", p->o->in_name, core_jsonl_line(p->in), why);
				continue;
			}
			take_line(p, NULL, NULL, 0, why);
			continue;
		}
		if (ret < 0 && ret != -ENOMEM)
			return fail(p, core_error_errno(p->err, -ret, "cannot read '%s'", p->o->in_name));
		if (ret < 0)
			return fail(p, ret);
		if (ret == 0) {
			p->in_eof = 1;
			break;
		}
		take_line(p, v, line, len, NULL);
		v = NULL;
	}
	if (p->in_eof && p->in_poll) {
		epoll_ctl(p->ep, EPOLL_CTL_DEL, p->o->in_fd, NULL);
		p->in_poll = 0;
	}
	return 0;
}

static int want_input(const struct pool *p)
{
	size_t limit = (size_t)(p->o->workers * p->o->prefetch * 4);

	if (limit < 65536)
		limit = 65536;
	/* Tasks not done, not the span of the window: a slow task stalls no one. */
	return !p->in_eof && !p->stopping && !p->draining && p->in_ready &&
	       (size_t)p->unfinished < limit;
}

static void kid_add(struct pool *p, pid_t pid)
{
	if (CORE_GROW(p->kids, p->kids_cap, p->nkids + 1) < 0)
		return;	/* reaped by waitpid(-1) all the same */
	p->kids[p->nkids++] = pid;
}

static void kid_del(struct pool *p, pid_t pid)
{
	size_t i;

	for (i = 0; i < p->nkids; i++)
		if (p->kids[i] == pid) {
			p->kids[i] = p->kids[--p->nkids];
			return;
		}
}

/* Take an unauthenticated connection off the pending list. */
static void pending_unlink(struct pool *p, struct conn *c)
{
	if (c->prev)
		c->prev->next = c->next;
	else
		p->pending = c->next;
	if (c->next)
		c->next->prev = c->prev;
	p->npending--;
}

static void conn_close(struct pool *p, struct conn *c)
{
	if (c->stage < 2)
		pending_unlink(p, c);
	epoll_ctl(p->ep, EPOLL_CTL_DEL, c->fd, NULL);
	close(c->fd);
	core_buf_release(&c->in);
	core_buf_release(&c->out);
	if (c->w)
		c->w->c = NULL;
	free(c);
}

static int conn_flush(struct pool *p, struct conn *c)
{
	ssize_t n = core_buf_write_fd(&c->out, c->fd);
	int want = core_buf_pending(&c->out) > 0;

	if (n < 0)
		return (int)n;
	if (want != c->watching_out) {
		struct epoll_event e = { EPOLLIN | (want ? EPOLLOUT : 0), { .ptr = &c->ev } };

		epoll_ctl(p->ep, EPOLL_CTL_MOD, c->fd, &e);
		c->watching_out = want;
	}
	return 0;
}

static int start_worker(struct pool *p, struct worker *w)
{
	char token[32], *env[7] = { NULL }, maxline[32];
	char *argv_fixed[] = { p->o->backend->self, "--worker", "--max-line", maxline,
			       "--protocol", p->o->proto2 ? "2" : "lines", "--" };
	size_t nfixed = sizeof(argv_fixed) / sizeof(argv_fixed[0]);
	struct fiber_launch l = { 0 };
	char **argv;
	size_t n = 0, i, k = 0;
	int ret = -ENOMEM;

	while (p->o->argv[n])
		n++;
	snprintf(maxline, sizeof(maxline), "%zu", p->o->frame_max);
	argv = calloc(n + nfixed + 1, sizeof(*argv));
	if (fiber_random_bytes(&w->token, sizeof(w->token)) < 0)
		w->token = (uint64_t)core_clock_mono_ns() ^ ((uint64_t)w->index << 32);
	snprintf(token, sizeof(token), "%" PRIu64, w->token);
	env[k++] = fiber_env_pair("FIBERRUN_MASTER", p->addr);
	env[k++] = fiber_env_pair("FIBERRUN_SECRET", p->secret);
	env[k++] = fiber_env_pair("FIBERRUN_WORKER_TOKEN", token);
	env[k++] = fiber_env_pair("FIBERRUN_SIZE", p->size);
	if (w->slot_host)
		env[k++] = fiber_env_pair("FIBERRUN_HOST", w->slot_host);
	for (i = 0; i < k; i++)
		if (!env[i])
			goto out;
	if (!argv)
		goto out;
	for (i = 0; i < nfixed; i++)
		argv[i] = argv_fixed[i];
	for (i = 0; i < n; i++)
		argv[nfixed + i] = p->o->argv[i];
	l.host = w->slot_host;
	l.argv = argv;
	l.env = (const char *const *)env;
	l.out_fd = l.err_fd = -1;
	ret = p->o->backend->ops->spawn(p->o->backend, &l, &w->proc, p->err);
	if (ret == 0) {
		if (w->proc.pid > 0)
			kid_add(p, w->proc.pid);
		w->state = W_STARTING;
		w->ready = 0;
		w->head_start_ns = 0;
		w->since_ns = core_clock_mono_ns();
		w->exit_kind = 0;
		w->reason[0] = '\0';
		w->host[0] = '\0';
		p->st->workers_started++;
	}
out:
	for (i = 0; i < k; i++)
		free(env[i]);
	free(argv);
	return ret;
}

static void stop_proc(struct pool *p, struct worker *w, int sig)
{
	p->o->backend->ops->stop(p->o->backend, &w->proc, sig);
	if (w->proc.pid <= 0) {
		fiber_proc_release(&w->proc);
	}
}

/*
 * A worker is gone (`why`).  Its tasks go back to the queue (or fail), and
 * it is replaced unless the run is ending.  `timed_out`: its running task
 * took too long, which is the task's fault, not the worker's.
 */
static void worker_lost(struct pool *p, struct worker *w, const char *why, int timed_out)
{
	const char *host;
	size_t i;
	int was = w->state;

	if (was != W_STARTING && was != W_READY && was != W_STOPPING)
		return;
	/* SIGTERM: the agent takes its command's process group along. */
	stop_proc(p, w, SIGTERM);
	if (w->c)
		conn_close(p, w->c);
	w->state = W_IDLE;
	for (i = core_ring_count(&w->fifo); i-- > 0;) {
		struct fiber_task *t = fiber_taskq_at(&p->q, core_ring_at(&w->fifo, i));

		t->state = FIBER_TASK_QUEUED;
		/* Only the task the worker was running counts an attempt. */
		if (i > 0 || !w->head_start_ns) {
			t->attempts--;
			fiber_taskq_push(&p->q, t->seq, 1);
		} else if (t->attempts >= p->o->retries) {
			char msg[300];

			snprintf(msg, sizeof(msg), "%s", why);
			task_finish(p, t, timed_out ? "timeout" : "failed", NULL, 0, msg, w, w->head_start_ns);
		} else {
			fiber_taskq_push(&p->q, t->seq, 1);
		}
	}
	core_ring_clear(&w->fifo);
	w->head_start_ns = 0;
	w->ready = 0;
	if (w->exit_kind == 'F') {
		/* The worker command cannot run at all: no use going on. */
		p->st->fatal_status = w->exit_status;
		core_error_set(p->err, -ENOEXEC, "%s", w->reason);
		fail(p, -ENOEXEC);
		w->state = W_GONE;
		return;
	}
	if (was == W_STOPPING || p->stopping || p->draining) {
		w->state = W_GONE;
		return;
	}
	p->st->workers_lost++;
	snprintf(p->last_loss, sizeof(p->last_loss), "%s", why);
	host = w->host[0] ? w->host : w->slot_host;
	/* A slot failing the same way again and again is reported once, then when given up. */
	if (w->fails == 0 || strcmp(w->last_why, why) != 0)
		warn(p, "worker %ld%s%s lost: %s", w->index, host ? " on " : "", host ? host : "", why);
	snprintf(w->last_why, sizeof(w->last_why), "%s", why);
	if (!timed_out)
		w->fails++;
	if (w->fails >= SLOT_MAX_FAILS) {
		warn(p, "worker %ld%s%s given up after %d failures in a row (last: %s)", w->index,
		     host ? " on " : "", host ? host : "", w->fails, why);
		w->state = W_GONE;
		p->live_slots--;
		return;
	}
	w->retry_ns = core_clock_mono_ns() + (w->fails > 1 ? (int64_t)w->fails * 100000000 : 0);
}

/* Frames from an authenticated worker. */
static int worker_frames(struct pool *p, struct worker *w)
{
	struct conn *c = w->c;
	struct fiber_frame f;
	int ret = 0;

	while (w->c == c && (ret = fiber_frame_next(&c->in, p->o->frame_max + 16, &f)) > 0) {
		if (f.type == FIBER_READY) {
			if (!w->ready) {
				w->ready = 1;
				if (core_ring_count(&w->fifo))
					w->head_start_ns = core_clock_mono_ns();
			}
		} else if (f.type == FIBER_RESULT) {
			size_t i, n = core_ring_count(&w->fifo);
			struct fiber_task *t;
			int64_t start;

			for (i = 0; i < n && core_ring_at(&w->fifo, i) != f.seq; i++)
				;
			if (i == n || f.len < 1 || (f.body[0] != 'o' && f.body[0] != 'e')) {
				char why[128];

				snprintf(why, sizeof(why), "sent a result for task id %" PRIu64
					 ", which it was not given", f.seq);
				worker_lost(p, w, f.len < 1 ? "sent a bad result frame" : why, 0);
				return 0;
			}
			/* Out of order (protocol 2): take it out, keep the others' order. */
			for (; i > 0; i--)
				w->fifo.v[(w->fifo.head + i) & (w->fifo.cap - 1)] =
					core_ring_at(&w->fifo, i - 1);
			core_ring_pop(&w->fifo);
			t = fiber_taskq_at(&p->q, f.seq);
			w->fails = 0;
			if (!w->ready) {	/* an answer means it was ready */
				w->ready = 1;
				w->head_start_ns = core_clock_mono_ns();
			}
			start = w->head_start_ns;
			if (f.body[0] == 'e') {
				char msg[1024];

				snprintf(msg, sizeof(msg), "%.*s", (int)(f.len - 1 < 1000 ? f.len - 1 : 1000), f.body + 1);
				task_finish(p, t, "error", NULL, 0, msg, w, start);
			} else {
				task_finish(p, t, "ok", f.body + 1, f.len - 1, NULL, w, start);
			}
			w->head_start_ns = core_ring_count(&w->fifo) ? core_clock_mono_ns() : 0;
		} else if (f.type == FIBER_EXIT) {
			w->exit_kind = f.len > 0 ? f.body[0] : 'N';
			w->exit_status = (int)f.seq;
			snprintf(w->reason, sizeof(w->reason), "%.*s",
				 (int)(f.len > 1 ? (f.len - 1 < 250 ? f.len - 1 : 250) : 0), f.body + 1);
		} else {
			worker_lost(p, w, "sent an unexpected frame", 0);
			return 0;
		}
	}
	if (w->c == c && ret < 0)
		worker_lost(p, w, "sent a bad frame", 0);
	return 0;
}

/* Handshake frames from a connection not yet authenticated. */
static void conn_handshake(struct pool *p, struct conn *c)
{
	struct fiber_frame f;
	char body[FIBER_CHALLENGE_LEN];
	long i;
	int ret = 0;

	while (c->stage < 2 && (ret = fiber_frame_next(&c->in, FIBER_AUTH_FRAME_MAX, &f)) > 0) {
		if (c->stage == 0 && f.type == FIBER_HELLO && f.len == FIBER_NONCE_LEN) {
			c->token = f.seq;
			for (i = 0; i < p->o->workers; i++)
				if (p->w[i].token == c->token && p->w[i].state == W_STARTING && !p->w[i].c) {
					/* A worker of ours, most likely: the whole handshake may take its time. */
					c->vouched = 1;
					c->deadline = core_clock_mono_ns() + AUTH_TIMEOUT_NS;
				}
			memcpy(c->nonce_w, f.body, FIBER_NONCE_LEN);
			if (fiber_auth_challenge(p->secret, c->nonce_w, c->nonce_m, body) < 0)
				break;
			fiber_frame_put(&c->out, FIBER_CHALLENGE, 0, body, sizeof(body));
			c->stage = 1;
			if (conn_flush(p, c) < 0)
				break;
			continue;
		}
		if (c->stage == 1 && f.type == FIBER_AUTH &&
		    fiber_auth_worker_ok(p->secret, c->nonce_m, c->nonce_w, c->token, f.body, f.len)) {
			struct worker *w = NULL;
			size_t hl = f.len - FIBER_SHA256_LEN, k;

			for (i = 0; i < p->o->workers; i++)
				if (p->w[i].token == c->token)
					w = &p->w[i];
			if (w && w->state == W_GONE) {
				/* A worker stopped while it was connecting: the run is ending. */
				conn_close(p, c);
				return;
			}
			if (!w || w->state != W_STARTING || w->c)
				break;
			if (hl > sizeof(w->host) - 1)
				hl = sizeof(w->host) - 1;
			for (k = 0; k < hl; k++) {
				char ch = f.body[FIBER_SHA256_LEN + k];

				w->host[k] = ch > ' ' && ch < 127 ? ch : '?';
			}
			w->host[hl] = '\0';
			/* Off the unauthenticated list, onto the worker. */
			pending_unlink(p, c);
			c->stage = 2;
			c->w = w;
			w->c = c;
			w->state = W_READY;
			if (p->o->backend->ops == &fiber_backend_sbatch)
				w->since_ns = core_clock_mono_ns();	/* its queue time is not start-up */
			core_ring_clear(&w->fifo);
			fiber_frame_put(&c->out, FIBER_WELCOME, (uint64_t)w->index, NULL, 0);
			if (conn_flush(p, c) < 0)
				worker_lost(p, w, "connection failed", 0);
			else if (core_buf_pending(&c->in) > 0)
				worker_frames(p, w);
			return;
		}
		break;
	}
	if (c->stage < 2 && ret != 0) {
		p->st->rejected++;
		warn(p, "rejected a connection that failed authentication");
		conn_close(p, c);
	}
}

static void conn_event(struct pool *p, struct conn *c, uint32_t events)
{
	struct worker *w = c->w;
	ssize_t n = 0;

	if (events & EPOLLOUT) {
		if (conn_flush(p, c) < 0) {
			if (w)
				worker_lost(p, w, "connection failed", 0);
			else
				conn_close(p, c);
			return;
		}
	}
	if (!(events & (EPOLLIN | EPOLLHUP | EPOLLERR)))
		return;
	n = core_buf_read_fd(&c->in, c->fd, c->stage < 2 ? FIBER_AUTH_FRAME_MAX : 1 << 16);
	if (n == -EAGAIN)
		return;
	if (n > 0) {
		if (c->stage < 2)
			conn_handshake(p, c);
		else
			worker_frames(p, w);
		return;
	}
	if (!w) {
		conn_close(p, c);
		return;
	}
	/* End of the connection: take what is still buffered first. */
	worker_frames(p, w);
	if (w->c == c) {
		char why[300];

		if (w->reason[0])
			snprintf(why, sizeof(why), "%s", w->reason);
		else
			snprintf(why, sizeof(why), "connection closed");
		worker_lost(p, w, why, 0);
	}
}

/*
 * Admission: an unauthenticated connection costs one slot of a bounded
 * list.  When the list is full, the oldest connection that has not named
 * a live worker's token (tokens are secret: a stranger cannot) makes room,
 * so that idle or hostile connections can never keep a worker out.
 */
static int make_room(struct pool *p)
{
	struct conn *c, *victim = NULL;

	for (c = p->pending; c; c = c->next)
		if (!c->vouched)
			victim = c;	/* the list is newest first: the last is the oldest */
	if (!victim)
		return 0;
	p->st->rejected++;
	conn_close(p, victim);
	return 1;
}

static void accept_conns(struct pool *p)
{
	for (;;) {
		int fd = accept4(p->lfd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
		struct epoll_event e = { EPOLLIN, { 0 } };
		int64_t now = core_clock_mono_ns();
		struct conn *c;

		if (fd < 0)
			return;
		if (p->stopping || (p->npending >= 2 * p->o->workers + 64 && !make_room(p)) ||
		    !(c = calloc(1, sizeof(*c)))) {
			close(fd);
			continue;
		}
		fiber_net_tune(fd);
		c->ev.kind = EV_CONN;
		c->fd = fd;
		c->deadline = now + HELLO_TIMEOUT_NS;
		c->next = p->pending;
		if (c->next)
			c->next->prev = c;
		p->pending = c;
		p->npending++;
		e.data.ptr = &c->ev;
		epoll_ctl(p->ep, EPOLL_CTL_ADD, fd, &e);
	}
}

/* Send tasks to w until it holds `upto` or only `keep` are left waiting. */
static void dispatch(struct pool *p, struct worker *w, long upto, size_t keep)
{
	struct conn *c = w->c;
	int sent = 0;

	while (w->state == W_READY && (long)core_ring_count(&w->fifo) < upto &&
	       core_ring_count(&p->q.ready) > keep) {
		struct fiber_task *t = fiber_taskq_at(&p->q, fiber_taskq_pop(&p->q));

		if (fiber_frame_put(&c->out, FIBER_TASK, t->seq, t->line, t->len) < 0) {
			fiber_taskq_push(&p->q, t->seq, 1);
			fail(p, core_error_set(p->err, -ENOMEM, "out of memory"));
			return;
		}
		if (!core_ring_count(&w->fifo) && w->ready)
			w->head_start_ns = core_clock_mono_ns();
		core_ring_push(&w->fifo, t->seq);	/* cannot fail: reserved */
		t->attempts++;
		t->state = FIBER_TASK_RUNNING;
		sent = 1;
	}
	if (sent && conn_flush(p, c) < 0)
		worker_lost(p, w, "connection failed", 0);
}

static void reap(struct pool *p)
{
	int st;
	pid_t pid;
	long i;

	while ((pid = waitpid(-1, &st, WNOHANG)) > 0) {
		kid_del(p, pid);
		for (i = 0; i < p->o->workers; i++) {
			struct worker *w = &p->w[i];
			char why[160];

			if (w->proc.pid != pid)
				continue;
			w->proc.pid = 0;
			/* A connected worker ends with its connection, which says more. */
			if (w->state == W_STARTING) {
				int status = core_spawn_exit_code(st);

				/* Counted as worker_lost() counts it. */
				if (status == 127 && p->o->backend->ops->remote &&
				    !p->stopping && !p->draining)
					p->st->workers_missing++;
				snprintf(why, sizeof(why), "exited with status %d before connecting%s%s", status,
					 status == 127 && p->o->backend->ops->remote ?
					 " (is fiberrun installed there? see --remote-fiberrun)" : "",
					 status == 255 && p->o->backend->ops->remote ?
					 " (ssh failed: see its message)" : "");
				worker_lost(p, w, why, 0);
			}
			if (w->state == W_GONE || w->state == W_IDLE)
				fiber_proc_release(&w->proc);
		}
	}
}

/* Stop every worker: politely when draining, at once when stopping. */
static void stop_workers(struct pool *p)
{
	long i;

	for (i = 0; i < p->o->workers; i++) {
		struct worker *w = &p->w[i];

		if (p->stopping && (w->state == W_READY || w->state == W_STOPPING ||
				    w->state == W_STARTING)) {
			/* Tasks in flight are not finished: they are run again on resume. */
			core_ring_clear(&w->fifo);
			/* The signal first: the agent ends quietly, not on a closed connection. */
			stop_proc(p, w, SIGTERM);
			if (w->c)
				conn_close(p, w->c);
			w->state = W_GONE;
		} else if (w->state == W_READY) {
			fiber_frame_put(&w->c->out, FIBER_STOP, 0, NULL, 0);
			w->state = W_STOPPING;
			w->since_ns = core_clock_mono_ns();
			if (conn_flush(p, w->c) < 0)
				worker_lost(p, w, "connection failed", 0);
		} else if (w->state == W_STARTING) {
			stop_proc(p, w, SIGTERM);
			w->state = W_GONE;
		} else if (w->state == W_IDLE) {
			w->state = W_GONE;
		}
	}
}

static void on_signal(struct pool *p)
{
	struct signalfd_siginfo si;

	while (read(p->sfd, &si, sizeof(si)) == (ssize_t)sizeof(si)) {
		if (si.ssi_signo == SIGCHLD) {
			reap(p);
		} else if (!p->stopping) {
			p->st->signal = (int)si.ssi_signo;
			p->stopping = 1;
			stop_workers(p);
		}
	}
}

/* Deadlines: handshakes, starts, tasks, polite stops, restarts. */
static void tick(struct pool *p)
{
	long starts = 0;
	int64_t now = core_clock_mono_ns();
	int64_t timeout = (int64_t)(p->o->timeout_s * 1e9);
	double start_s = p->o->start_timeout_s > 0 ? p->o->start_timeout_s : START_TIMEOUT_S;
	int64_t start_ns = (int64_t)(start_s * 1e9);
	struct conn *c, *next;
	long i;

	for (c = p->pending; c; c = next) {
		next = c->next;
		if (now > c->deadline) {
			p->st->rejected++;
			if (!p->warned_idle++)
				warn(p, "closed a connection that did not authenticate in time "
				     "(further ones are not reported)");
			conn_close(p, c);
		}
	}
	for (i = 0; i < p->o->workers; i++) {
		struct worker *w = &p->w[i];

		if (((w->state == W_STARTING && p->o->backend->ops != &fiber_backend_sbatch) ||
		     (w->state == W_READY && !w->ready)) && now - w->since_ns > start_ns) {
			char why[96];

			snprintf(why, sizeof(why), "did not become ready within %g s (--start-timeout)%s",
				 start_s, w->state == W_STARTING ? ": it never connected" : "");
			worker_lost(p, w, why, 0);
		} else if (w->state == W_READY && timeout > 0 && w->head_start_ns &&
			   now - w->head_start_ns > timeout) {
			char why[64];

			snprintf(why, sizeof(why), "timed out after %g s", p->o->timeout_s);
			worker_lost(p, w, why, 1);
		} else if (w->state == W_STOPPING && now - w->since_ns > STOP_GRACE_NS) {
			worker_lost(p, w, "did not stop in time", 0);
		} else if (w->state == W_IDLE && !p->stopping && !p->draining && now >= w->retry_ns) {
			if (starts++ >= STARTS_PER_TURN) {
				p->backlog = 1;
				continue;
			}
			if (start_worker(p, w) < 0) {
				warn(p, "cannot start worker %ld: %s", w->index, p->err->msg);
				core_error_clear(p->err);
				if (++w->fails >= SLOT_MAX_FAILS) {
					w->state = W_GONE;
					p->live_slots--;
				} else {
					w->retry_ns = now + (int64_t)w->fails * 200000000;
				}
			}
		}
	}
}

/* No worker left: every task still waiting fails. */
static void fail_waiting(struct pool *p)
{
	while (core_ring_count(&p->q.ready) > 0) {
		struct fiber_task *t = fiber_taskq_at(&p->q, fiber_taskq_pop(&p->q));

		char why[200];

		snprintf(why, sizeof(why), "no workers left%s%s%s", p->last_loss[0] ? " (last: " : "",
			 p->last_loss, p->last_loss[0] ? ")" : "");
		task_finish(p, t, "failed", NULL, 0, why, NULL, 0);
		p->st->abandoned++;
	}
}

static int all_gone(const struct pool *p)
{
	long i;

	for (i = 0; i < p->o->workers; i++)
		if (p->w[i].state != W_GONE)
			return 0;
	return 1;
}

static int setup(struct pool *p)
{
	const struct fiber_pool_opts *o = p->o;
	struct epoll_event e = { EPOLLIN, { 0 } };
	struct rlimit rl;
	char *host, *port;
	int lport, ret;
	long i;

	/* One socket per worker: take the hard limit of open files. */
	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max) {
		rl.rlim_cur = rl.rlim_max;
		setrlimit(RLIMIT_NOFILE, &rl);
	}
	ret = fiber_secret_new(p->secret);
	if (ret < 0)
		return core_error_errno(p->err, -ret, "cannot make a secret");
	snprintf(p->size, sizeof(p->size), "%ld", o->workers);
	p->lfd = fiber_net_listen(o->bind ? o->bind : "127.0.0.1:0", &lport, p->err);
	if (p->lfd < 0)
		return p->lfd;
	ret = fiber_net_split(o->bind ? o->bind : "127.0.0.1:0", &host, &port);
	if (ret < 0)
		return core_error_set(p->err, ret, "bad address");
	if (strcmp(host, "0.0.0.0") == 0 || strcmp(host, "::") == 0) {
		char name[256] = "localhost";

		gethostname(name, sizeof(name) - 1);
		snprintf(p->addr, sizeof(p->addr), "%s:%d", name, lport);
	} else {
		snprintf(p->addr, sizeof(p->addr), strchr(host, ':') ? "[%s]:%d" : "%s:%d", host, lport);
	}
	free(host);
	free(port);
	p->ep = epoll_create1(EPOLL_CLOEXEC);
	if (p->ep < 0)
		return core_error_errno(p->err, errno, "epoll");
	p->sfd = fiber_proc_signalfd();
	if (p->sfd < 0)
		return core_error_errno(p->err, -p->sfd, "signalfd");
	p->ev_listen.kind = EV_LISTEN;
	p->ev_input.kind = EV_INPUT;
	p->ev_signal.kind = EV_SIGNAL;
	e.data.ptr = &p->ev_listen;
	epoll_ctl(p->ep, EPOLL_CTL_ADD, p->lfd, &e);
	e.data.ptr = &p->ev_signal;
	epoll_ctl(p->ep, EPOLL_CTL_ADD, p->sfd, &e);
	e.data.ptr = &p->ev_input;
	if (epoll_ctl(p->ep, EPOLL_CTL_ADD, o->in_fd, &e) == 0) {
		p->in_poll = 1;
	} else if (errno == EPERM) {
		p->in_ready = 1;	/* a regular file: always readable */
	} else {
		return core_error_errno(p->err, errno, "cannot watch '%s'", o->in_name);
	}
	ret = core_jsonl_reader_new_fn(&p->in, input_read, p, o->in_name, p->err);
	if (ret < 0)
		return ret;
	core_jsonl_set_max(p->in, o->frame_max);
	if (o->joblog) {
		ret = fiber_joblog_open(&p->jl, o->joblog, o->resume, &p->logged, p->err);
		if (ret < 0)
			return ret;
	}
	p->w = calloc((size_t)o->workers, sizeof(*p->w));
	if (!p->w)
		return core_error_set(p->err, -ENOMEM, "out of memory");
	for (i = 0; i < o->workers; i++) {
		struct worker *w = &p->w[i];

		w->index = i;
		w->proc = (struct fiber_proc)FIBER_PROC_INIT;
		if (core_ring_reserve(&w->fifo, (size_t)o->prefetch) < 0)
			return core_error_set(p->err, -ENOMEM, "out of memory");
		if (o->backend->hosts.n > 0) {
			size_t h;
			long lr, ls;

			fiber_hosts_place(&o->backend->hosts, i, o->workers, &h, &lr, &ls);
			w->slot_host = o->backend->hosts.v[h].name;
		}
	}
	p->live_slots = o->workers;
	/* The first start is tried here, so that a backend error is reported at once. */
	ret = start_worker(p, &p->w[0]);
	if (ret < 0)
		return ret;
	p->backlog = 1;		/* the loop starts the others, a few per turn */
	return 0;
}

static void teardown(struct pool *p)
{
	int64_t deadline = core_clock_mono_ns() + STOP_GRACE_NS;
	long i;

	p->stopping = 1;
	if (p->w)
		stop_workers(p);
	/* Reap what we started; whatever outlives the grace period is killed. */
	while (p->nkids > 0) {
		int st;
		pid_t pid = waitpid(-1, &st, WNOHANG);

		if (pid > 0) {
			kid_del(p, pid);
			continue;
		}
		if (pid < 0 && errno == ECHILD)
			break;
		if (core_clock_mono_ns() > deadline) {
			size_t k;

			for (k = 0; k < p->nkids; k++)
				kill(p->kids[k], SIGKILL);
			deadline = INT64_MAX;
		}
		core_clock_sleep_ns(5000000);
	}
	for (i = 0; p->w && i < p->o->workers; i++) {
		stop_proc(p, &p->w[i], SIGKILL);
		fiber_proc_release(&p->w[i].proc);
		core_ring_release(&p->w[i].fifo);
	}
	while (p->pending)
		conn_close(p, p->pending);
	fiber_taskq_release(&p->q);
	free(p->w);
	free(p->done);
	free(p->kids);
	core_jsonl_reader_free(p->in);
	core_map_release(&p->seen, NULL);
	core_map_release(&p->logged, free);
	fiber_joblog_release(&p->jl);
	fiber_spill_release(&p->spill);
	if (p->lfd >= 0)
		close(p->lfd);
	if (p->sfd >= 0)
		close(p->sfd);
	if (p->ep >= 0)
		close(p->ep);
}

int fiber_pool_run(const struct fiber_pool_opts *o, struct fiber_pool_stats *stats,
		   struct core_error *err)
{
	struct pool p = { 0 };
	struct epoll_event ev[256];
	int ret, n, i;
	long k, starting;

	memset(stats, 0, sizeof(*stats));
	p.o = o;
	p.st = stats;
	p.err = err;
	p.ep = p.lfd = p.sfd = -1;
	p.jl = (struct fiber_joblog)FIBER_JOBLOG_INIT;
	p.spill = (struct fiber_spill)FIBER_SPILL_INIT;
	ret = setup(&p);
	if (ret < 0) {
		fail(&p, ret);
		goto out;
	}
	for (;;) {
		if (want_input(&p))
			read_input(&p);
		if (p.live_slots == 0 && !p.stopping)
			fail_waiting(&p);
		/*
		 * First a task for every idle worker; then tasks ahead (prefetch),
		 * keeping back one for each worker still starting, so that the
		 * first workers up do not take the work of the others.
		 */
		for (k = 0, starting = 0; k < o->workers; k++)
			starting += p.w[k].state == W_STARTING || p.w[k].state == W_IDLE;
		for (k = 0; k < o->workers && !p.stopping; k++)
			if (p.w[k].state == W_READY)
				dispatch(&p, &p.w[k], 1, 0);
		for (k = 0; k < o->workers && !p.stopping; k++)
			if (p.w[k].state == W_READY)
				dispatch(&p, &p.w[k], o->prefetch, (size_t)starting);
		emit(&p);
		if (p.stopping)
			break;
		if (p.in_eof && p.q.base == p.q.next && !p.draining) {
			p.draining = 1;
			stop_workers(&p);
		}
		if (p.draining && all_gone(&p))
			break;
		n = epoll_wait(p.ep, ev, 256, (want_input(&p) && !p.in_poll) || p.backlog ? 0 : TICK_MS);
		if (n < 0 && errno != EINTR) {
			fail(&p, core_error_errno(err, errno, "epoll_wait"));
			break;
		}
		for (i = 0; i < n; i++) {
			struct ev *e = ev[i].data.ptr;

			if (e->kind == EV_LISTEN)
				accept_conns(&p);
			else if (e->kind == EV_INPUT)
				p.in_ready = 1;
			else if (e->kind == EV_SIGNAL)
				on_signal(&p);
			else if (!p.stopping)
				conn_event(&p, (struct conn *)e, ev[i].events);
		}
		p.backlog = 0;
		tick(&p);
		/*
		 * Journal what finished before any new task goes out: a worker's
		 * slot is free again only once its result is on disk, so at most
		 * workers x prefetch tasks run unjournalled at any time.
		 */
		emit(&p);
	}
out:
	emit(&p);
	teardown(&p);
	return p.failed < 0 ? p.failed : 0;
}
