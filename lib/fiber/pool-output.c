#include "fiber/pool-int.h"

/* Mark t done (its record is set) and queue it for output. */
int pool_task_done(struct pool *p, struct fiber_task *t)
{
	size_t limit = p->o->order_memory ? p->o->order_memory : ORDER_MEMORY_DEFAULT;

	t->state = FIBER_TASK_DONE;
	if (t->line && t->len >= POOL_BODY_BORROW_MIN && pool_conn_unborrow(p, t->line) < 0)
		return pool_fail(p, core_error_set(p->err, -ENOMEM, "out of memory"));
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
			return pool_fail(p, ret);
		t->spill_len = len;
		free(t->record);
		t->record = NULL;
		return 0;
	}
	if (CORE_GROW(p->done, p->done_cap, p->ndone + 1) < 0)
		return pool_fail(p, core_error_set(p->err, -ENOMEM, "out of memory"));
	p->done[p->ndone++] = t->seq;
	return 0;
}

/*
 * The one way a task ends.  `result` (len bytes; NULL for none) and
 * `error` are borrowed; `w` may be NULL; `start_ns` is when the last
 * attempt began (0: it never began).
 */
void pool_task_finish(struct pool *p, struct fiber_task *t, const char *status,
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
	if (start_ns)
		pool_window_note(p, core_clock_mono_ns() - start_ns);
	t->record = fiber_record_make(&r);
	if (!t->record) {
		pool_fail(p, core_error_set(p->err, -ENOMEM, "out of memory"));
		return;
	}
	n = strlen(t->record);
	if (p->jl.fd >= 0 && fiber_joblog_add(&p->jl, t->record, n) < 0)
		pool_fail(p, core_error_set(p->err, -ENOMEM, "out of memory"));
	if (strcmp(status, "ok") == 0)
		p->st->ok++;
	else
		p->st->failed++;
	pool_task_done(p, t);
}

/* Joblog first, then the output: what the user saw is in the journal. */
int pool_emit(struct pool *p)
{
	FILE *out = p->o->out;
	size_t i;
	int ret = fiber_joblog_commit(&p->jl, p->err);

	if (ret < 0)
		return pool_fail(p, ret);
	if (p->o->keep_order) {
		struct fiber_task *t;

		while (p->q.base < p->q.next && (t = fiber_taskq_at(&p->q, p->q.base)) &&
		       t->state == FIBER_TASK_DONE) {
			if (!t->record) {
				ret = fiber_spill_get(&p->spill, t->spill_off, t->spill_len, &t->record, p->err);
				if (ret < 0)
					return pool_fail(p, ret);
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
		return pool_fail(p, core_error_errno(p->err, errno ? errno : EIO, "writing output failed"));
	}
	return 0;
}

/* No worker left: every task still waiting fails. */
void pool_fail_waiting(struct pool *p)
{
	while (core_ring_count(&p->q.ready) > 0) {
		struct fiber_task *t = fiber_taskq_at(&p->q, fiber_taskq_pop(&p->q));

		char why[200];

		snprintf(why, sizeof(why), "no workers left%s%s%s", p->last_loss[0] ? " (last: " : "",
			 p->last_loss, p->last_loss[0] ? ")" : "");
		pool_task_finish(p, t, "failed", NULL, 0, why, NULL, 0);
		p->st->abandoned++;
	}
}
