/* Pass 2 of the merge over one spool file, and the replay state both
 * passes share (prof/merge_replay.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "core/grow.h"
#include "prof/cupti_merge.h"
#include "prof/merge_replay.h"

/* The name of the innermost open push/pop operation of thread tid, or "". */
const char *prof_merge_innermost(const struct replay *rp, int64_t tid)
{
	const struct open *best = NULL;
	size_t i;

	for (i = 0; i < rp->nstacks; i++) {
		const struct stack *s = &rp->stacks[i];

		if (s->tid == tid && s->n && (!best || s->v[s->n - 1].t >= best->t))
			best = &s->v[s->n - 1];
	}
	return best ? best->name : "";
}

/* A segment record's payload, or 0 when it is too short. */
int prof_merge_seg_of(const struct prof_spool_rec *rec, struct prof_spool_seg *seg)
{
	if (rec->size < sizeof(*rec) + sizeof(*seg))
		return 0;
	memcpy(seg, rec + 1, sizeof(*seg));
	return seg->end >= rec->t && seg->cpu >= 0 && seg->runnable >= 0 &&
	       seg->cpu + seg->runnable <= seg->end - rec->t;
}

static const char *domain_name(const struct replay *rp, uint32_t id)
{
	return id < rp->ndomains && rp->domains[id] ? rp->domains[id] : "";
}

struct stack *prof_merge_stack(struct replay *rp, int64_t tid, uint32_t domain)
{
	size_t i;
	struct stack *s;

	for (i = 0; i < rp->nstacks; i++)
		if (rp->stacks[i].tid == tid && rp->stacks[i].domain == domain)
			return &rp->stacks[i];
	if (CORE_GROW(rp->stacks, rp->capstacks, rp->nstacks + 1) < 0)
		return NULL;
	s = &rp->stacks[rp->nstacks++];
	memset(s, 0, sizeof(*s));
	s->tid = tid;
	s->domain = domain;
	return s;
}

static struct cpu_state *cpu_get(struct replay *rp, int64_t tid)
{
	size_t i;
	struct cpu_state *c;

	for (i = 0; i < rp->ncpus; i++)
		if (rp->cpus[i].tid == tid)
			return &rp->cpus[i];
	if (CORE_GROW(rp->cpus, rp->capcpus, rp->ncpus + 1) < 0)
		return NULL;
	c = &rp->cpus[rp->ncpus++];
	c->tid = tid;
	c->t = 0;
	c->cat = PROF_CAT_NONE;
	return c;
}

static int emit_op(struct prof_trace_writer *w, const struct replay *rp, int64_t pid,
		   const struct open *o, int64_t end, long depth, const char *detail)
{
	struct prof_event ev = PROF_EVENT_INIT;

	ev.kind = PROF_KIND_OP;
	ev.has = PROF_EV_PID | PROF_EV_TID | PROF_EV_START | PROF_EV_END;
	ev.pid = pid;
	ev.tid = o->tid;
	ev.start_ns = o->t;
	ev.end_ns = end < o->t ? o->t : end;
	ev.name = o->name;
	ev.domain = domain_name(rp, o->domain);
	if (depth >= 0) {
		ev.has |= PROF_EV_VALUE;
		ev.value = (double)depth;
	}
	ev.detail = detail;
	return prof_trace_write(w, &ev);
}

int prof_merge_warning(struct prof_trace_writer *w, int64_t pid, int64_t tid,
			int64_t t, const char *domain, const char *what)
{
	struct prof_event ev = PROF_EVENT_INIT;

	ev.kind = PROF_KIND_WARNING;
	ev.has = PROF_EV_PID | (tid ? PROF_EV_TID : 0) | (t ? PROF_EV_START : 0);
	ev.pid = pid;
	ev.tid = tid;
	ev.start_ns = t;
	ev.domain = domain;
	ev.detail = what;
	return prof_trace_write(w, &ev);
}

static int emit_cpu(struct prof_trace_writer *w, int64_t pid, const struct cpu_state *c,
		    int64_t end)
{
	struct prof_event ev = PROF_EVENT_INIT;

	if (c->cat == PROF_CAT_NONE || end <= c->t)
		return 0;
	ev.kind = PROF_KIND_CPU;
	ev.has = PROF_EV_PID | PROF_EV_TID | PROF_EV_START | PROF_EV_END;
	ev.pid = pid;
	ev.tid = c->tid;
	ev.start_ns = c->t;
	ev.end_ns = end;
	ev.category = (enum prof_category)c->cat;
	return prof_trace_write(w, &ev);
}

static int emit_phase(struct prof_trace_writer *w, int64_t pid, const struct open *o,
		      int64_t end)
{
	struct prof_event ev = PROF_EVENT_INIT;

	ev.kind = PROF_KIND_PHASE;
	ev.has = PROF_EV_PID | PROF_EV_TID | PROF_EV_START | PROF_EV_END;
	ev.pid = pid;
	ev.tid = o->tid;
	ev.start_ns = o->t;
	ev.end_ns = end < o->t ? o->t : end;
	ev.name = o->name;
	return prof_trace_write(w, &ev);
}


/* Empty the stacks that pass 1 filled. */
void prof_merge_replay_clear(struct replay *rp)
{
	size_t i;

	for (i = 0; i < rp->nstacks; i++)
		while (rp->stacks[i].n)
			free(rp->stacks[i].v[--rp->stacks[i].n].name);
}

/* One record of pass 2. */
int prof_merge_replay_rec(struct prof_merge *m, struct replay *rp, struct prof_trace_writer *w,
		      const struct proc *p, int64_t tid, const struct prof_spool_rec *rec)
{
	const char *text = prof_spool_rec_text(rec);
	struct prof_event ev = PROF_EVENT_INIT;
	struct stack *s;
	struct cpu_state *c;
	struct open o;
	size_t i;
	int ret;

	ev.pid = p->pid;
	ev.tid = tid;
	ev.has = PROF_EV_PID | PROF_EV_TID | PROF_EV_START | PROF_EV_END;
	ev.start_ns = ev.end_ns = rec->t;
	switch (rec->type) {
	case PROF_REC_PUSH:
		if (!(s = prof_merge_stack(rp, tid, rec->domain)) ||
		    CORE_GROW(s->v, s->cap, s->n + 1) < 0)
			return -ENOMEM;
		o.tid = tid;
		o.t = rec->t;
		o.domain = rec->domain;
		o.id = 0;
		if (!(o.name = strdup(text)))
			return -ENOMEM;
		s->v[s->n++] = o;
		return 0;
	case PROF_REC_POP:
		if (!(s = prof_merge_stack(rp, tid, rec->domain)))
			return -ENOMEM;
		if (s->n == 0) {
			if (p->forked && tid == p->pid)
				return 0;
			return prof_merge_warning(w, p->pid, tid, rec->t,
					    domain_name(rp, rec->domain), "unbalanced pop");
		}
		s->n--;
		ret = emit_op(w, rp, p->pid, &s->v[s->n], rec->t, (long)s->n, NULL);
		free(s->v[s->n].name);
		return ret;
	case PROF_REC_START:
		return 0;	/* collected in pass 1: ends may come first */
	case PROF_REC_END:
		for (i = rp->nranges; i-- > 0;)
			if (rp->ranges[i].id == rec->u) {
				o = rp->ranges[i];
				rp->ranges[i] = rp->ranges[--rp->nranges];
				ret = emit_op(w, rp, p->pid, &o, rec->t, -1, NULL);
				free(o.name);
				return ret;
			}
		return prof_merge_warning(w, p->pid, tid, rec->t, domain_name(rp, rec->domain),
				    "end of a range that was not started");
	case PROF_REC_MARK:
		ev.kind = PROF_KIND_MARK;
		ev.name = text;
		ev.domain = domain_name(rp, rec->domain);
		return prof_trace_write(w, &ev);
	case PROF_REC_PHASE:
		if (rp->has_phase) {
			ret = emit_phase(w, p->pid, &rp->phase, rec->t);
			free(rp->phase.name);
			rp->has_phase = 0;
			if (ret < 0)
				return ret;
		}
		if (!*text)
			return 0;
		rp->phase.tid = tid;
		rp->phase.t = rec->t;
		if (!(rp->phase.name = strdup(text)))
			return -ENOMEM;
		rp->has_phase = 1;
		return 0;
	case PROF_REC_CPU:
		if (!(c = cpu_get(rp, tid)))
			return -ENOMEM;
		if ((ret = emit_cpu(w, p->pid, c, rec->t)) < 0)
			return ret;
		c->cat = rec->arg < PROF_CAT_COUNT ? rec->arg : PROF_CAT_NONE;
		c->t = rec->t;
		return 0;
	case PROF_REC_COUNTER:
		ev.kind = PROF_KIND_COUNTER;
		ev.name = text;
		ev.has |= PROF_EV_VALUE;
		memcpy(&ev.value, &rec->u, sizeof(ev.value));
		return prof_trace_write(w, &ev);
	case PROF_REC_META:
		ev.kind = PROF_KIND_META;
		ev.has = PROF_EV_PID | PROF_EV_TID;
		ev.name = text;
		ev.detail = text + strlen(text) + 1;
		if (ev.detail >= (const char *)rec + rec->size ||
		    !memchr(ev.detail, 0, (size_t)((const char *)rec + rec->size - ev.detail)))
			ev.detail = "";
		return prof_trace_write(w, &ev);
	case PROF_REC_WARNING:
		return prof_merge_warning(w, p->pid, tid, rec->t, NULL, text);
	case PROF_REC_SAMPLE:
		ev.kind = PROF_KIND_SAMPLE;
		ev.tid = (int64_t)rec->u;
		ev.name = text;
		ev.category = prof_seg_category(rec->arg);
		ev.has |= PROF_EV_VALUE;
		ev.value = (double)rec->domain;
		return prof_trace_write(w, &ev);
	case PROF_REC_SEG: {
		struct prof_spool_seg seg;

		if (!prof_merge_seg_of(rec, &seg))
			return 0;
		return prof_cpufrac_write(&m->frac, w, p->pid, rec->t,
					  prof_merge_innermost(rp, seg.tid), &seg);
	}
	default:
		(void)m;
		ret = prof_cupti_merge_rec(w, p->pid, tid, rec);
		return ret < 0 ? ret : 0;
	}
}

/* End of a file: close what is still open. */
int prof_merge_replay_end(struct prof_merge *m, struct replay *rp, struct prof_trace_writer *w,
		      int64_t pid)
{
	struct proc *p = prof_merge_proc_get(m, pid);
	size_t i, j;
	int ret = 0;

	if (!p)
		return -ENOMEM;
	ret = prof_cpufrac_flush(&m->frac, w);
	for (i = 0; i < rp->nstacks; i++) {
		struct stack *s = &rp->stacks[i];

		for (j = s->n; j-- > 0;) {
			if (!ret)
				ret = emit_op(w, rp, pid, &s->v[j],
					      prof_merge_thread_end_of(m, p, s->tid), (long)j, "unclosed");
			free(s->v[j].name);
		}
		s->n = 0;
	}
	for (i = 0; i < rp->nranges; i++) {
		if (!ret)
			ret = emit_op(w, rp, pid, &rp->ranges[i], prof_merge_proc_end(p),
				      -1, "unclosed");
		free(rp->ranges[i].name);
	}
	rp->nranges = 0;
	for (i = 0; i < rp->ncpus; i++)
		if (!ret)
			ret = emit_cpu(w, pid, &rp->cpus[i], prof_merge_thread_end_of(m, p, rp->cpus[i].tid));
	rp->ncpus = 0;
	if (rp->has_phase) {
		if (!ret)
			ret = emit_phase(w, pid, &rp->phase, prof_merge_proc_end(p));
		free(rp->phase.name);
		rp->has_phase = 0;
	}
	return ret;
}

/* Frees what is still open too (after an error, replay_end did not run). */
void prof_merge_replay_release(struct replay *rp)
{
	size_t i, j;

	for (i = 0; i < rp->nstacks; i++) {
		for (j = 0; j < rp->stacks[i].n; j++)
			free(rp->stacks[i].v[j].name);
		free(rp->stacks[i].v);
	}
	for (i = 0; i < rp->nranges; i++)
		free(rp->ranges[i].name);
	if (rp->has_phase)
		free(rp->phase.name);
	for (i = 0; i < rp->ndomains; i++)
		free(rp->domains[i]);
	free(rp->stacks);
	free(rp->ranges);
	free(rp->cpus);
	free(rp->domains);
}
