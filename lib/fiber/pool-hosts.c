#include "fiber/pool-int.h"

static int same_file(const struct stat *a, const struct stat *b)
{
	return a->st_dev == b->st_dev && a->st_ino == b->st_ino && a->st_size == b->st_size &&
	       a->st_mtim.tv_sec == b->st_mtim.tv_sec && a->st_mtim.tv_nsec == b->st_mtim.tv_nsec &&
	       a->st_ctim.tv_sec == b->st_ctim.tv_sec && a->st_ctim.tv_nsec == b->st_ctim.tv_nsec;
}

void pool_hosts_watch(struct pool *p, int64_t now)
{
	struct stat st;

	if (!p->o->hosts_file || p->stopping || p->draining)
		return;
	if (p->reload) {
		p->reload = 0;
		pool_hosts_reload(p, "SIGHUP");
		return;
	}
	if (now < p->hosts_check_ns)
		return;
	p->hosts_check_ns = now + HOSTS_CHECK_NS;
	/* A file gone for a moment (removed, then written again) changes nothing yet. */
	if (stat(p->o->hosts_file, &st) < 0 || same_file(&st, &p->hosts_st))
		return;
	/*
	 * A new file renamed over the old one is whole: read it now.  One
	 * written in place may be half written: read it once it has stayed
	 * the same for one look.
	 */
	if (st.st_ino == p->hosts_st.st_ino && st.st_dev == p->hosts_st.st_dev &&
	    !same_file(&st, &p->hosts_seen)) {
		p->hosts_seen = st;
		return;
	}
	pool_hosts_reload(p, "it changed");
}

/* Live and staying: counts toward its host's workers. */
static int staying(const struct worker *w)
{
	return !w->leaving && w->state != W_GONE && w->state != W_STOPPING;
}

/* How soon a worker leaves, lower first: one not working yet before one that is. */
static int leave_rank(const struct worker *w)
{
	if (w->state == W_IDLE)
		return 0;
	if (w->state == W_STARTING)
		return 1;
	if (!w->ready)
		return 2;
	return 3;
}

void pool_worker_retire(struct pool *p, struct worker *w)
{
	size_t i;

	if (!staying(w))
		return;
	w->leaving = 1;
	p->live_slots--;
	if (w->state == W_READY && w->ready) {
		/* It holds tasks that may be running: it finishes them (pool_leaving_stop). */
		p->leaving_ready++;
		return;
	}
	/*
	 * Not ready: it has started no task (fiberrun-protocol(5)).  It is
	 * stopped at once (not with STOP: once ready it would run what it
	 * holds), and its tasks go to other workers without an attempt.
	 */
	pool_stop_proc(p, w, SIGTERM);
	if (w->c)
		pool_conn_close(p, w->c);
	for (i = core_ring_count(&w->fifo); i-- > 0;) {
		struct fiber_task *t = fiber_taskq_at(&p->q, core_ring_at(&w->fifo, i));

		t->state = FIBER_TASK_QUEUED;
		t->attempts--;
		fiber_taskq_push(&p->q, t->seq, 1);
	}
	core_ring_clear(&w->fifo);
	w->head_start_ns = 0;
	w->state = W_GONE;
	p->st->workers_left++;
}

void pool_leaving_stop(struct pool *p)
{
	long i;

	for (i = 0; p->leaving_ready > 0 && i < p->nw; i++) {
		struct worker *w = p->w[i];

		if (!w->leaving || w->state != W_READY || core_ring_count(&w->fifo) > 0)
			continue;
		p->leaving_ready--;
		w->state = W_STOPPING;
		w->since_ns = core_clock_mono_ns();
		if (fiber_frame_put(&w->c->out, FIBER_STOP, 0, NULL, 0) < 0 ||
		    pool_conn_flush(p, w->c) < 0)
			pool_worker_write_failed(p, w);
	}
}

/* Append "NAME xN" to a list of at most `size` bytes. */
static void list_add(char *list, size_t size, const char *name, long n)
{
	size_t len = strlen(list);

	if (len + 8 >= size)
		return;
	snprintf(list + len, size - len, "%s%s x%ld", len ? ", " : "", name, n);
	if (strlen(list) + 4 >= size)
		snprintf(list + size - 5, 5, "...");
}

void pool_hosts_reload(struct pool *p, const char *why)
{
	const char *file = p->o->hosts_file;
	struct fiber_backend *b = p->o->backend;
	struct fiber_hosts h = FIBER_HOSTS_INIT;
	struct core_error err = CORE_ERROR_INIT;
	char joined[200] = "", left[200] = "";
	long n, i, *want = NULL;
	size_t k, j, *first = NULL;
	struct stat st;

	/* The status before the read: a change made during it is seen next time. */
	if (stat(file, &st) == 0)
		p->hosts_st = p->hosts_seen = st;
	p->st->reloads++;
	if (fiber_hosts_load(&h, file, &err) < 0) {
		pool_warn(p, "hosts file not re-read (%s): %s; the hosts stay as they were", why, err.msg);
		goto out;
	}
	n = p->o->workers_auto ? fiber_hosts_slots(&h) : p->o->workers;
	if (n > 100000) {
		pool_warn(p, "hosts file not re-read (%s): '%s' has %ld slots, more than 100000 workers",
			  why, file, n);
		goto out;
	}
	want = calloc(h.n, sizeof(*want));
	first = calloc(h.n, sizeof(*first));
	if (!want || !first) {
		pool_warn(p, "hosts file not re-read (%s): out of memory", why);
		goto out;
	}
	/* One count per host name: a name on several lines adds up. */
	for (k = 0; k < h.n; k++) {
		for (j = 0; j < k && strcmp(h.v[j].name, h.v[k].name) != 0; j++)
			;
		first[k] = j;
	}
	for (i = 0; i < n; i++) {
		long lr, ls;

		fiber_hosts_place(&h, i, n, &k, &lr, &ls);
		want[first[k]]++;
	}
	/* Hosts no longer listed: every worker leaves. */
	for (i = 0; i < p->nw; i++) {
		struct worker *w = p->w[i];

		for (k = 0; w->slot_host && k < h.n && strcmp(h.v[k].name, w->slot_host) != 0; k++)
			;
		if (staying(w) && w->slot_host && k == h.n) {
			pool_worker_retire(p, w);
			p->w[i]->leaving = 2;	/* counted below */
		}
	}
	for (i = 0; i < p->nw; i++) {
		long gone = 0;
		long m;

		if (p->w[i]->leaving != 2)
			continue;
		for (m = i; m < p->nw; m++)
			if (p->w[m]->leaving == 2 && strcmp(p->w[m]->slot_host, p->w[i]->slot_host) == 0) {
				p->w[m]->leaving = 1;
				gone++;
			}
		list_add(left, sizeof(left), p->w[i]->slot_host, gone);
	}
	/* Listed hosts: as many workers as placed there now. */
	for (k = 0; k < h.n; k++) {
		long have = 0, rank;

		if (first[k] != k)
			continue;
		for (i = 0; i < p->nw; i++)
			have += staying(p->w[i]) && p->w[i]->slot_host &&
				strcmp(p->w[i]->slot_host, h.v[k].name) == 0;
		if (have < want[k]) {
			list_add(joined, sizeof(joined), h.v[k].name, want[k] - have);
			for (; have < want[k]; have++)
				if (!pool_worker_add(p, h.v[k].name)) {
					pool_warn(p, "out of memory adding workers on %s", h.v[k].name);
					break;
				}
			p->backlog = 1;
		} else if (have > want[k]) {
			list_add(left, sizeof(left), h.v[k].name, have - want[k]);
			/* The newest of those working least leave first. */
			for (rank = 0; rank <= 3 && have > want[k]; rank++)
				for (i = p->nw; i-- > 0 && have > want[k];)
					if (staying(p->w[i]) && p->w[i]->slot_host &&
					    strcmp(p->w[i]->slot_host, h.v[k].name) == 0 &&
					    leave_rank(p->w[i]) == rank) {
						pool_worker_retire(p, p->w[i]);
						have--;
					}
		}
	}
	pool_note(p, "hosts file re-read (%s): %zu host%s, %ld worker%s%s%s%s%s", why, h.n,
		  h.n == 1 ? "" : "s", n, n == 1 ? "" : "s", joined[0] ? "; joining: " : "", joined,
		  left[0] ? "; leaving: " : "", left);
	p->want = n;
	snprintf(p->size, sizeof(p->size), "%ld", n);
	fiber_hosts_release(&b->hosts);
	b->hosts = h;
	h = (struct fiber_hosts)FIBER_HOSTS_INIT;
out:
	free(want);
	free(first);
	fiber_hosts_release(&h);
}
