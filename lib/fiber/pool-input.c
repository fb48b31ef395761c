#include "fiber/pool-int.h"

/*
 * One input line (parsed as `v` unless --lines): a new task, or an old
 * record with --resume.  `bad`: the line is not a task (invalid JSON, too
 * long); it becomes a task of status "invalid" with that reason.
 */
/* A journalled record with status "ok" (--resume-failed runs the others again). */
static int pool_record_ok(const char *rec)
{
	json_t *v = core_jsonl_decode(rec, strlen(rec), NULL);
	const char *status = json_string_value(json_object_get(v, "status"));
	int ok = status && strcmp(status, "ok") == 0;

	json_decref(v);
	return ok;
}

int pool_take_line(struct pool *p, json_t *v, const char *line, size_t len, const char *bad)
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
		return pool_fail(p, ret);
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
		return pool_fail(p, ret);
	}
	t = calloc(1, sizeof(*t));
	if (!t || fiber_taskq_add(&p->q, t) < 0) {
		free(t);
		free(key);
		json_decref(id);
		return pool_fail(p, core_error_set(p->err, -ENOMEM, "out of memory"));
	}
	t->id = id;
	t->lineno = p->lineno;
	p->st->tasks++;
	p->unfinished++;
	e = core_map_find(&p->logged, key, strlen(key));
	free(key);
	if (e && e->value.p && p->o->resume_failed && !pool_record_ok(e->value.p)) {
		free(e->value.p);	/* run again; its new record is appended */
		e->value.p = NULL;
	}
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
		return pool_task_done(p, t);
	}
	if (bad) {
		p->st->invalid++;
		pool_task_finish(p, t, "invalid", NULL, 0, bad, NULL, 0);
		return 0;
	}
	/* The reader's own copy when the line is long: no second one. */
	t->line = line ? core_jsonl_take_text(p->in, &t->len) : NULL;
	if (!t->line)
		return pool_fail(p, core_error_set(p->err, -ENOMEM, "out of memory"));
	return fiber_taskq_push(&p->q, t->seq, 0) < 0 ? pool_fail(p, core_error_set(p->err, -ENOMEM, "out of memory")) : 0;
}

/* The input reader's read function: at most one read(2) per pool_read_input(). */
ssize_t pool_input_read(void *ctx, char *buf, size_t n)
{
	struct pool *p = ctx;

	if (!p->in_reads)
		return -EAGAIN;
	p->in_reads--;
	return core_read_fd(p->o->in_fd, buf, n);
}

/* Read what input is there and take its whole lines. */
int pool_read_input(struct pool *p)
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
			/* Only the id is built; the task goes on as its text. */
			ret = core_jsonl_read_member(p->in, "id", &v, p->err);
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
				return pool_fail(p, -EINVAL);
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
				pool_warn(p, "'%s': line %ld skipped: %s", p->o->in_name, core_jsonl_line(p->in), why);
				continue;
			}
			pool_take_line(p, NULL, NULL, 0, why);
			continue;
		}
		if (ret < 0 && ret != -ENOMEM)
			return pool_fail(p, core_error_errno(p->err, -ret, "cannot read '%s'", p->o->in_name));
		if (ret < 0)
			return pool_fail(p, ret);
		if (ret == 0) {
			p->in_eof = 1;
			break;
		}
		pool_take_line(p, v, line, len, NULL);
		v = NULL;
	}
	if (p->in_eof && p->in_poll) {
		epoll_ctl(p->ep, EPOLL_CTL_DEL, p->o->in_fd, NULL);
		p->in_poll = 0;
	}
	return 0;
}

int pool_want_input(const struct pool *p)
{
	size_t limit = (size_t)(p->want * p->o->prefetch * 4);

	if (limit < 65536)
		limit = 65536;
	/* Tasks not done, not the span of the window: a slow task stalls no one. */
	return !p->in_eof && !p->stopping && !p->draining && p->in_ready &&
	       (size_t)p->unfinished < limit;
}
