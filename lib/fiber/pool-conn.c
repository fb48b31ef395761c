#include "fiber/pool-int.h"

/* Take an unauthenticated connection off the pending list. */
void pool_pending_unlink(struct pool *p, struct conn *c)
{
	if (c->prev)
		c->prev->next = c->next;
	else
		p->pending = c->next;
	if (c->next)
		c->next->prev = c->prev;
	p->npending--;
}

void pool_conn_close(struct pool *p, struct conn *c)
{
	if (c->stage < 2)
		pool_pending_unlink(p, c);
	epoll_ctl(p->ep, EPOLL_CTL_DEL, c->fd, NULL);
	close(c->fd);
	core_buf_release(&c->in);
	core_buf_release(&c->out);
	free(c->body_own);
	if (c->w)
		c->w->c = NULL;
	/*
	 * Not freed yet: the batch of events in hand may name it further on
	 * (a signal or another connection's event closed it).
	 */
	c->ev.kind = EV_CLOSED;
	c->fd = -1;
	c->next = p->closed;
	p->closed = c;
}

void pool_conn_free_closed(struct pool *p)
{
	while (p->closed) {
		struct conn *c = p->closed;

		p->closed = c->next;
		free(c);
	}
}

int pool_conn_put_task(struct conn *c, const struct fiber_task *t)
{
	int ret;

	if (t->len < POOL_BODY_BORROW_MIN)
		return fiber_frame_put(&c->out, FIBER_TASK, t->seq, t->line, t->len);
	if (c->body)
		return -EBUSY;
	ret = fiber_frame_put_head(&c->out, FIBER_TASK, t->seq, t->len);
	if (ret < 0)
		return ret;
	c->body = t->line;
	c->body_len = t->len;
	c->body_sent = 0;
	c->body_before = core_buf_pending(&c->out);
	return 0;
}

int pool_conn_unborrow(struct pool *p, const char *line)
{
	long i;

	for (i = 0; i < p->nw; i++) {
		struct conn *c = p->w[i]->c;
		char *copy;

		if (!c || c->body != line || c->body_own)
			continue;
		copy = malloc(c->body_len - c->body_sent + 1);
		if (!copy)
			return -ENOMEM;
		memcpy(copy, c->body + c->body_sent, c->body_len - c->body_sent);
		c->body = c->body_own = copy;
		c->body_len -= c->body_sent;
		c->body_sent = 0;
	}
	return 0;
}

/* Count n bytes written: `out`'s first body_before, the body, then the rest of `out`. */
static void conn_written(struct conn *c, size_t n)
{
	size_t k = n < c->body_before ? n : c->body_before;

	if (c->body) {
		core_buf_consume(&c->out, k);
		c->body_before -= k;
		n -= k;
		k = c->body_len - c->body_sent;
		k = n < k ? n : k;
		c->body_sent += k;
		n -= k;
		if (c->body_sent == c->body_len) {
			free(c->body_own);
			c->body = c->body_own = NULL;
		}
	}
	core_buf_consume(&c->out, n);
}

/* Write what is queued until it is all written or the socket is full. */
static int conn_write(struct conn *c)
{
	for (;;) {
		size_t pend = core_buf_pending(&c->out), before = c->body ? c->body_before : pend;
		const char *data = c->out.data + c->out.off;
		struct iovec iov[3];
		int n = 0;
		ssize_t k;

		if (before)
			iov[n++] = (struct iovec){ (void *)data, before };
		if (c->body) {
			iov[n++] = (struct iovec){ (void *)(c->body + c->body_sent), c->body_len - c->body_sent };
			if (pend > before)
				iov[n++] = (struct iovec){ (void *)(data + before), pend - before };
		}
		if (!n)
			return 0;
		k = writev(c->fd, iov, n);
		if (k < 0) {
			if (errno == EINTR)
				continue;
			if (errno == EAGAIN || errno == EWOULDBLOCK)
				return 0;
			return -errno;
		}
		conn_written(c, (size_t)k);
	}
}

int pool_conn_flush(struct pool *p, struct conn *c)
{
	int ret = conn_write(c);
	int want = core_buf_pending(&c->out) > 0 || c->body;

	if (ret < 0)
		return ret;
	if (want != c->watching_out) {
		struct epoll_event e = { EPOLLIN | (want ? EPOLLOUT : 0), { .ptr = &c->ev } };

		epoll_ctl(p->ep, EPOLL_CTL_MOD, c->fd, &e);
		c->watching_out = want;
	}
	return 0;
}

/* Handshake frames from a connection not yet authenticated. */
void pool_conn_handshake(struct pool *p, struct conn *c)
{
	struct fiber_frame f;
	char body[FIBER_CHALLENGE_LEN];
	long i;
	int ret = 0;

	while (c->stage < 2 && (ret = fiber_frame_next(&c->in, FIBER_AUTH_FRAME_MAX, &f)) > 0) {
		if (c->stage == 0 && f.type == FIBER_HELLO && f.len == FIBER_NONCE_LEN) {
			c->token = f.seq;
			for (i = 0; i < p->nw; i++)
				if (p->w[i]->token == c->token && p->w[i]->state == W_STARTING && !p->w[i]->c) {
					/* A worker of ours, most likely: the whole handshake may take its time. */
					c->vouched = 1;
					c->deadline = core_clock_mono_ns() + AUTH_TIMEOUT_NS;
				}
			memcpy(c->nonce_w, f.body, FIBER_NONCE_LEN);
			if (fiber_auth_challenge(p->secret, c->nonce_w, c->nonce_m, body) < 0)
				break;
			fiber_frame_put(&c->out, FIBER_CHALLENGE, 0, body, sizeof(body));
			c->stage = 1;
			if (pool_conn_flush(p, c) < 0)
				break;
			continue;
		}
		if (c->stage == 1 && f.type == FIBER_AUTH &&
		    fiber_auth_worker_ok(p->secret, c->nonce_m, c->nonce_w, c->token, f.body, f.len)) {
			struct worker *w = NULL;
			size_t hl = f.len - FIBER_SHA256_LEN, k;

			for (i = 0; i < p->nw; i++)
				if (p->w[i]->token == c->token)
					w = p->w[i];
			if (w && w->state == W_GONE) {
				/* A worker stopped while it was connecting: the run is ending. */
				pool_conn_close(p, c);
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
			pool_pending_unlink(p, c);
			c->stage = 2;
			c->w = w;
			w->c = c;
			w->state = W_READY;
			if (p->o->backend->ops == &fiber_backend_sbatch)
				w->since_ns = core_clock_mono_ns();	/* its queue time is not start-up */
			core_ring_clear(&w->fifo);
			fiber_heartbeat_start(&w->hb, p->hb_bound_ns, core_clock_mono_ns());
			fiber_frame_put(&c->out, FIBER_WELCOME, (uint64_t)w->index, NULL, 0);
			if (pool_conn_flush(p, c) < 0)
				pool_worker_write_failed(p, w);
			else if (core_buf_pending(&c->in) > 0)
				pool_worker_frames(p, w);
			return;
		}
		break;
	}
	if (c->stage < 2 && ret != 0) {
		p->st->rejected++;
		pool_warn(p, "rejected a connection that failed authentication");
		pool_conn_close(p, c);
	}
}

void pool_conn_event(struct pool *p, struct conn *c, uint32_t events)
{
	struct worker *w = c->w;
	ssize_t n = 0;

	if (events & EPOLLOUT) {
		if (pool_conn_flush(p, c) < 0) {
			if (w)
				pool_worker_write_failed(p, w);
			else
				pool_conn_close(p, c);
			return;
		}
	}
	if (!(events & (EPOLLIN | EPOLLHUP | EPOLLERR)))
		return;
	n = core_buf_read_fd(&c->in, c->fd, c->stage < 2 ? FIBER_AUTH_FRAME_MAX : 1 << 16);
	if (n == -EAGAIN)
		return;
	if (n > 0) {
		if (c->stage < 2) {
			pool_conn_handshake(p, c);
		} else {
			fiber_heartbeat_heard(&w->hb, core_clock_mono_ns());
			pool_worker_frames(p, w);
		}
		return;
	}
	if (!w) {
		pool_conn_close(p, c);
		return;
	}
	/* End of the connection: take what is still buffered first. */
	pool_worker_frames(p, w);
	if (w->c == c) {
		char why[300];

		if (w->reason[0])
			snprintf(why, sizeof(why), "%s", w->reason);
		else
			snprintf(why, sizeof(why), "connection closed");
		pool_worker_lost(p, w, why, 0);
	}
}

/*
 * A write to w's connection failed.  The worker may have ended after
 * saying why: its EXIT frame can still be unread here, ahead of the reset
 * that the write met.  Take what can still be read first.
 */
void pool_worker_write_failed(struct pool *p, struct worker *w)
{
	struct conn *c = w->c;
	char why[300];

	while (c && w->c == c && core_buf_read_fd(&c->in, c->fd, 1 << 16) > 0)
		pool_worker_frames(p, w);
	if (!c || w->c != c)
		return;		/* the frames read ended it */
	snprintf(why, sizeof(why), "%s", w->reason[0] ? w->reason : "connection failed");
	pool_worker_lost(p, w, why, 0);
}

/*
 * Admission: an unauthenticated connection costs one slot of a bounded
 * list.  When the list is full, the oldest connection that has not named
 * a live worker's token (tokens are secret: a stranger cannot) makes room,
 * so that idle or hostile connections can never keep a worker out.
 */
int pool_make_room(struct pool *p)
{
	struct conn *c, *victim = NULL;

	for (c = p->pending; c; c = c->next)
		if (!c->vouched)
			victim = c;	/* the list is newest first: the last is the oldest */
	if (!victim)
		return 0;
	p->st->rejected++;
	pool_conn_close(p, victim);
	return 1;
}

void pool_accept_conns(struct pool *p)
{
	for (;;) {
		int fd = accept4(p->lfd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
		struct epoll_event e = { EPOLLIN, { 0 } };
		int64_t now = core_clock_mono_ns();
		struct conn *c;

		if (fd < 0)
			return;
		if (p->stopping || (p->npending >= 2 * p->nw + 64 && !pool_make_room(p)) ||
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
