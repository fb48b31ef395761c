#include "fiber/pool-int.h"

void pool_warn(struct pool *p, const char *fmt, ...)
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

void pool_note(struct pool *p, const char *fmt, ...)
{
	char buf[512];
	va_list ap;

	if (!p->o->note)
		return;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	p->o->note(p->o->warn_ctx, buf);
}

/* A fatal error: keep the first message, stop everything. */
int pool_fail(struct pool *p, int code)
{
	if (!p->failed)
		p->failed = code;
	p->stopping = 1;
	return code;
}

static void pool_on_signal(struct pool *p)
{
	struct signalfd_siginfo si;

	while (read(p->sfd, &si, sizeof(si)) == (ssize_t)sizeof(si)) {
		if (si.ssi_signo == SIGCHLD) {
			pool_reap(p);
		} else if (si.ssi_signo == SIGHUP && p->o->hosts_file) {
			p->reload = 1;	/* elastic hosts: re-read, do not stop */
		} else if (!p->stopping) {
			p->st->signal = (int)si.ssi_signo;
			p->stopping = 1;
			pool_stop_workers(p);
		}
	}
}

/*
 * Heartbeats of the connected workers (heartbeat.h): PINGs due, and the
 * workers not heard for the bound are lost.  A loop of ours that stalled
 * for half the bound blames no one: every worker gets a fresh bound.
 */
static void pool_heartbeats(struct pool *p, int64_t now)
{
	int stalled = p->tick_ns && now - p->tick_ns > p->hb_bound_ns / 2;
	long i;

	p->tick_ns = now;
	if (!p->hb_bound_ns)
		return;
	for (i = 0; i < p->nw; i++) {
		struct worker *w = p->w[i];
		char why[128];

		if ((w->state != W_READY && w->state != W_STOPPING) || !w->c)
			continue;
		if (stalled)
			fiber_heartbeat_heard(&w->hb, now);
		switch (fiber_heartbeat_check(&w->hb, now)) {
		case FIBER_HB_PING:
			if (fiber_frame_put(&w->c->out, FIBER_PING, w->hb.pings, NULL, 0) < 0 ||
			    pool_conn_flush(p, w->c) < 0)
				pool_worker_write_failed(p, w);
			break;
		case FIBER_HB_LOST:
			snprintf(why, sizeof(why), "not heard for %g s (--heartbeat): "
				 "its host is unreachable or stopped", (double)p->hb_bound_ns / 1e9);
			pool_worker_lost(p, w, why, 0);
			break;
		}
	}
}

/* Deadlines: handshakes, starts, tasks, polite stops, restarts. */
static void pool_tick(struct pool *p)
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
				pool_warn(p, "closed a connection that did not authenticate in time "
				     "(further ones are not reported)");
			pool_conn_close(p, c);
		}
	}
	pool_heartbeats(p, now);
	pool_hosts_watch(p, now);
	for (i = 0; i < p->nw; i++) {
		struct worker *w = p->w[i];

		if (((w->state == W_STARTING && p->o->backend->ops != &fiber_backend_sbatch) ||
		     (w->state == W_READY && !w->ready)) && now - w->since_ns > start_ns) {
			char why[96];

			snprintf(why, sizeof(why), "did not become ready within %g s (--start-timeout)%s",
				 start_s, w->state == W_STARTING ? ": it never connected" : "");
			pool_worker_lost(p, w, why, 0);
		} else if (w->state == W_READY && timeout > 0 && w->head_start_ns &&
			   now - w->head_start_ns > timeout) {
			char why[64];

			snprintf(why, sizeof(why), "timed out after %g s", p->o->timeout_s);
			pool_worker_lost(p, w, why, 1);
		} else if (w->state == W_STOPPING && now - w->since_ns > STOP_GRACE_NS) {
			pool_worker_lost(p, w, "did not stop in time", 0);
		} else if (w->state == W_IDLE && !p->stopping && !p->draining && now >= w->retry_ns) {
			if (starts++ >= STARTS_PER_TURN) {
				p->backlog = 1;
				continue;
			}
			if (pool_start_worker(p, w) < 0) {
				pool_warn(p, "cannot start worker %ld: %s", w->index, p->err->msg);
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

static int pool_setup(struct pool *p)
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
	p->want = o->workers;
	snprintf(p->size, sizeof(p->size), "%ld", p->want);
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
	if (o->advertise)
		snprintf(p->addr, sizeof(p->addr), "%s", o->advertise);
	p->ep = epoll_create1(EPOLL_CLOEXEC);
	if (p->ep < 0)
		return core_error_errno(p->err, errno, "epoll");
	if (o->hosts_file) {
		/* SIGHUP re-reads the hosts file: under nohup too. */
		signal(SIGHUP, SIG_DFL);
		if (stat(o->hosts_file, &p->hosts_st) == 0)
			p->hosts_seen = p->hosts_st;
	}
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
	ret = core_jsonl_reader_new_fn(&p->in, pool_input_read, p, o->in_name, p->err);
	if (ret < 0)
		return ret;
	core_jsonl_set_max(p->in, o->frame_max);
	if (o->joblog) {
		ret = fiber_joblog_open(&p->jl, o->joblog, o->resume, &p->logged, p->err);
		if (ret < 0)
			return ret;
	}
	for (i = 0; i < o->workers; i++) {
		const char *name = NULL;

		if (o->backend->hosts.n > 0) {
			size_t h;
			long lr, ls;

			fiber_hosts_place(&o->backend->hosts, i, o->workers, &h, &lr, &ls);
			name = o->backend->hosts.v[h].name;
		}
		if (!pool_worker_add(p, name))
			return core_error_set(p->err, -ENOMEM, "out of memory");
	}
	if (o->heartbeat_s >= 0)
		p->hb_bound_ns = (int64_t)((o->heartbeat_s > 0 ? o->heartbeat_s :
					    FIBER_HEARTBEAT_DEFAULT_S) * 1e9);
	/* The first start is tried here, so that a backend error is reported at once. */
	ret = pool_start_worker(p, p->w[0]);
	if (ret < 0)
		return ret;
	p->backlog = 1;		/* the loop starts the others, a few per turn */
	return 0;
}

static void pool_teardown(struct pool *p)
{
	int64_t deadline = core_clock_mono_ns() + STOP_GRACE_NS;
	long i;

	p->stopping = 1;
	if (p->w)
		pool_stop_workers(p);
	/* Reap what we started; whatever outlives the grace period is killed. */
	while (p->nkids > 0) {
		int st;
		pid_t pid = waitpid(-1, &st, WNOHANG);

		if (pid > 0) {
			pool_kid_del(p, pid);
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
	for (i = 0; i < p->nw; i++) {
		pool_stop_proc(p, p->w[i], SIGKILL);
		fiber_proc_release(&p->w[i]->proc);
		core_ring_release(&p->w[i]->fifo);
		free(p->w[i]->slot_host);
		free(p->w[i]);
	}
	while (p->pending)
		pool_conn_close(p, p->pending);
	pool_conn_free_closed(p);
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
	ret = pool_setup(&p);
	if (ret < 0) {
		pool_fail(&p, ret);
		goto out;
	}
	for (;;) {
		if (pool_want_input(&p))
			pool_read_input(&p);
		if (p.live_slots == 0 && !p.stopping)
			pool_fail_waiting(&p);
		/*
		 * First a task for every idle worker; then tasks ahead (prefetch),
		 * keeping back one for each worker still starting, so that the
		 * first workers up do not take the work of the others.
		 */
		for (k = 0, starting = 0; k < p.nw; k++)
			starting += (p.w[k]->state == W_STARTING || p.w[k]->state == W_IDLE) &&
				    !p.w[k]->leaving;
		for (k = 0; k < p.nw && !p.stopping; k++)
			pool_dispatch(&p, p.w[k], 1, 0);
		for (k = 0; k < p.nw && !p.stopping; k++)
			pool_dispatch(&p, p.w[k], pool_window(&p), (size_t)starting);
		pool_emit(&p);
		pool_leaving_stop(&p);
		if (p.stopping)
			break;
		if (p.in_eof && p.q.base == p.q.next && !p.draining) {
			p.draining = 1;
			pool_stop_workers(&p);
		}
		if (p.draining && pool_all_gone(&p))
			break;
		n = epoll_wait(p.ep, ev, 256, (pool_want_input(&p) && !p.in_poll) || p.backlog ? 0 : TICK_MS);
		if (n < 0 && errno != EINTR) {
			pool_fail(&p, core_error_errno(err, errno, "epoll_wait"));
			break;
		}
		for (i = 0; i < n; i++) {
			struct ev *e = ev[i].data.ptr;

			if (e->kind == EV_LISTEN)
				pool_accept_conns(&p);
			else if (e->kind == EV_INPUT)
				p.in_ready = 1;
			else if (e->kind == EV_SIGNAL)
				pool_on_signal(&p);
			else if (e->kind == EV_CONN && !p.stopping)
				pool_conn_event(&p, (struct conn *)e, ev[i].events);
		}
		pool_conn_free_closed(&p);
		p.backlog = 0;
		pool_tick(&p);
		/*
		 * Journal what finished before any new task goes out: a worker's
		 * slot is free again only once its result is on disk, so at most
		 * workers x prefetch tasks run unjournalled at any time.
		 */
		pool_emit(&p);
		if (o->progress)
			o->progress(o->progress_ctx, stats, p.in_eof);
	}
out:
	pool_emit(&p);
	pool_teardown(&p);
	return p.failed < 0 ? p.failed : 0;
}
