#include "fiber/pool-int.h"
#include "fiber/envpass.h"

void pool_kid_add(struct pool *p, pid_t pid)
{
	if (CORE_GROW(p->kids, p->kids_cap, p->nkids + 1) < 0)
		return;	/* reaped by waitpid(-1) all the same */
	p->kids[p->nkids++] = pid;
}

void pool_kid_del(struct pool *p, pid_t pid)
{
	size_t i;

	for (i = 0; i < p->nkids; i++)
		if (p->kids[i] == pid) {
			p->kids[i] = p->kids[--p->nkids];
			return;
		}
}

struct worker *pool_worker_add(struct pool *p, const char *host)
{
	long cap = p->o->prefetch_max > p->o->prefetch ? p->o->prefetch_max : p->o->prefetch;
	struct worker *w;

	if (CORE_GROW(p->w, p->w_cap, (size_t)p->nw + 1) < 0 || !(w = calloc(1, sizeof(*w))))
		return NULL;
	if (core_ring_reserve(&w->fifo, (size_t)cap) < 0 || (host && !(w->slot_host = strdup(host)))) {
		core_ring_release(&w->fifo);
		free(w);
		return NULL;
	}
	w->index = p->nw;
	w->state = W_IDLE;
	w->proc = (struct fiber_proc)FIBER_PROC_INIT;
	p->w[p->nw++] = w;
	p->live_slots++;
	return w;
}

int pool_start_worker(struct pool *p, struct worker *w)
{
	char token[32], *env[8] = { NULL }, maxline[32], hb[32];
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
	if (p->hb_bound_ns) {
		/* The agent's own bound on the master's silence. */
		snprintf(hb, sizeof(hb), "%g", (double)p->hb_bound_ns / 1e9);
		env[k++] = fiber_env_pair("FIBERRUN_HEARTBEAT", hb);
	}
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
	ret = fiber_backend_spawn(p->o->backend, &l, &w->proc, p->err);
	if (ret == 0) {
		if (w->proc.pid > 0)
			pool_kid_add(p, w->proc.pid);
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

void pool_stop_proc(struct pool *p, struct worker *w, int sig)
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
void pool_worker_lost(struct pool *p, struct worker *w, const char *why, int timed_out)
{
	const char *host;
	size_t i;
	int was = w->state;

	if (was != W_STARTING && was != W_READY && was != W_STOPPING)
		return;
	/* SIGTERM: the agent takes its command's process group along. */
	pool_stop_proc(p, w, SIGTERM);
	if (w->c)
		pool_conn_close(p, w->c);
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
			pool_task_finish(p, t, timed_out ? "timeout" : "failed", NULL, 0, msg, w, w->head_start_ns);
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
		pool_fail(p, -ENOEXEC);
		w->state = W_GONE;
		return;
	}
	if (was == W_STOPPING || p->stopping || p->draining) {
		if (w->leaving && !p->stopping && !p->draining) {
			p->st->workers_left++;
			pool_note(p, "worker %ld on %s left (its host was removed from '%s')",
				  w->index, w->slot_host, p->o->hosts_file);
		}
		w->state = W_GONE;
		return;
	}
	p->st->workers_lost++;
	snprintf(p->last_loss, sizeof(p->last_loss), "%s", why);
	host = w->host[0] ? w->host : w->slot_host;
	/* A slot failing the same way again and again is reported once, then when given up. */
	if (w->fails == 0 || strcmp(w->last_why, why) != 0)
		pool_warn(p, "worker %ld%s%s lost: %s", w->index, host ? " on " : "", host ? host : "", why);
	snprintf(w->last_why, sizeof(w->last_why), "%s", why);
	if (w->leaving) {
		/* Its host was removed: not replaced (counted out of live_slots then). */
		if (was == W_READY)
			p->leaving_ready--;
		w->state = W_GONE;
		p->st->workers_left++;
		return;
	}
	if (!timed_out)
		w->fails++;
	if (w->fails >= SLOT_MAX_FAILS) {
		pool_warn(p, "worker %ld%s%s given up after %d failures in a row (last: %s)", w->index,
		     host ? " on " : "", host ? host : "", w->fails, why);
		w->state = W_GONE;
		p->live_slots--;
		return;
	}
	w->retry_ns = core_clock_mono_ns() + (w->fails > 1 ? (int64_t)w->fails * 100000000 : 0);
}

/* Frames from an authenticated worker. */
int pool_worker_frames(struct pool *p, struct worker *w)
{
	struct conn *c = w->c;
	struct fiber_frame f;
	int ret = 0;

	while (w->c == c && (ret = fiber_frame_next(&c->in, p->o->frame_max + 16, &f)) > 0) {
		if (f.type == FIBER_PONG) {
			;	/* heard: pool_conn_event noted it */
		} else if (f.type == FIBER_READY) {
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
				pool_worker_lost(p, w, f.len < 1 ? "sent a bad result frame" : why, 0);
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
				pool_task_finish(p, t, "error", NULL, 0, msg, w, start);
			} else {
				pool_task_finish(p, t, "ok", f.body + 1, f.len - 1, NULL, w, start);
			}
			w->head_start_ns = core_ring_count(&w->fifo) ? core_clock_mono_ns() : 0;
		} else if (f.type == FIBER_EXIT) {
			w->exit_kind = f.len > 0 ? f.body[0] : 'N';
			w->exit_status = (int)f.seq;
			snprintf(w->reason, sizeof(w->reason), "%.*s",
				 (int)(f.len > 1 ? (f.len - 1 < 250 ? f.len - 1 : 250) : 0), f.body + 1);
		} else {
			pool_worker_lost(p, w, "sent an unexpected frame", 0);
			return 0;
		}
	}
	if (w->c == c && ret < 0)
		pool_worker_lost(p, w, "sent a bad frame", 0);
	return 0;
}

/* Send tasks to w until it holds `upto` or only `keep` are left waiting. */
void pool_dispatch(struct pool *p, struct worker *w, long upto, size_t keep)
{
	struct conn *c = w->c;
	int sent = 0;

	while (w->state == W_READY && !w->leaving && (long)core_ring_count(&w->fifo) < upto &&
	       core_ring_count(&p->q.ready) > keep) {
		struct fiber_task *t = fiber_taskq_at(&p->q, fiber_taskq_pop(&p->q));
		int ret = pool_conn_put_task(c, t);

		if (ret < 0) {
			fiber_taskq_push(&p->q, t->seq, 1);
			if (ret == -EBUSY)
				break;	/* a long task still going out: another worker may take it */
			pool_fail(p, core_error_set(p->err, -ENOMEM, "out of memory"));
			return;
		}
		if (!core_ring_count(&w->fifo) && w->ready)
			w->head_start_ns = core_clock_mono_ns();
		core_ring_push(&w->fifo, t->seq);	/* cannot fail: reserved */
		t->attempts++;
		t->state = FIBER_TASK_RUNNING;
		sent = 1;
	}
	if (sent && pool_conn_flush(p, c) < 0)
		pool_worker_write_failed(p, w);
}

void pool_reap(struct pool *p)
{
	int st;
	pid_t pid;
	long i;

	while ((pid = waitpid(-1, &st, WNOHANG)) > 0) {
		pool_kid_del(p, pid);
		for (i = 0; i < p->nw; i++) {
			struct worker *w = p->w[i];
			char why[160];

			if (w->proc.pid != pid)
				continue;
			w->proc.pid = 0;
			/* A connected worker ends with its connection, which says more. */
			if (w->state == W_STARTING) {
				int status = core_spawn_exit_code(st);

				/* Counted as pool_worker_lost() counts it. */
				if (status == 127 && p->o->backend->ops->remote &&
				    !p->stopping && !p->draining)
					p->st->workers_missing++;
				snprintf(why, sizeof(why), "exited with status %d before connecting%s%s", status,
					 status == 127 && p->o->backend->ops->remote ?
					 " (is fiberrun installed there? see --remote-fiberrun)" : "",
					 status == 255 && p->o->backend->ops->remote ?
					 " (ssh failed: see its message)" : "");
				pool_worker_lost(p, w, why, 0);
			}
			if (w->state == W_GONE || w->state == W_IDLE)
				fiber_proc_release(&w->proc);
		}
	}
}

/* Stop every worker: politely when draining, at once when stopping. */
void pool_stop_workers(struct pool *p)
{
	long i;

	for (i = 0; i < p->nw; i++) {
		struct worker *w = p->w[i];

		if (p->stopping && (w->state == W_READY || w->state == W_STOPPING ||
				    w->state == W_STARTING)) {
			/* Tasks in flight are not finished: they are run again on resume. */
			core_ring_clear(&w->fifo);
			/* The signal first: the agent ends quietly, not on a closed connection. */
			pool_stop_proc(p, w, SIGTERM);
			if (w->c)
				pool_conn_close(p, w->c);
			w->state = W_GONE;
		} else if (w->state == W_READY) {
			fiber_frame_put(&w->c->out, FIBER_STOP, 0, NULL, 0);
			w->state = W_STOPPING;
			w->since_ns = core_clock_mono_ns();
			if (pool_conn_flush(p, w->c) < 0)
				pool_worker_write_failed(p, w);
		} else if (w->state == W_STARTING) {
			pool_stop_proc(p, w, SIGTERM);
			w->state = W_GONE;
		} else if (w->state == W_IDLE) {
			w->state = W_GONE;
		}
	}
}

int pool_all_gone(const struct pool *p)
{
	long i;

	for (i = 0; i < p->nw; i++)
		if (p->w[i]->state != W_GONE)
			return 0;
	return 1;
}
