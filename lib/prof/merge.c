#include "prof/merge.h"
#include "prof/merge_procs.h"
#include "prof/cupti_merge.h"
#include "core/grow.h"

#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "core/spawn.h"
#include "prof/merge_cpu.h"
#include "prof/spool.h"

/* An open range or phase while replaying one file. */
struct open {
	int64_t tid, t;
	uint32_t domain;
	uint64_t id;
	char *name;
};

struct stack {
	int64_t tid;
	uint32_t domain;
	struct open *v;
	size_t n, cap;
};

struct cpu_state {
	int64_t tid, t;
	int cat;
};

/* Replay state of one spool file. */
struct replay {
	struct stack *stacks;
	size_t nstacks, capstacks;
	struct open *ranges;
	size_t nranges, capranges;
	struct cpu_state *cpus;
	size_t ncpus, capcpus;
	struct open phase;
	int has_phase;
	char **domains;		/* by id */
	size_t ndomains;
};


static struct stack *stack_get(struct replay *rp, int64_t tid, uint32_t domain);

/* The name of the innermost open push/pop operation of thread tid, or "". */
static const char *innermost(const struct replay *rp, int64_t tid)
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
static int seg_of(const struct prof_spool_rec *rec, struct prof_spool_seg *seg)
{
	if (rec->size < sizeof(*rec) + sizeof(*seg))
		return 0;
	memcpy(seg, rec + 1, sizeof(*seg));
	return seg->end >= rec->t && seg->cpu >= 0 && seg->runnable >= 0 &&
	       seg->cpu + seg->runnable <= seg->end - rec->t;
}

/* Pass 1 of push/pop and segments: what each operation's samples say. */
static int collect_seg(struct prof_merge *m, struct replay *rp, int64_t pid, int64_t tid,
		       const struct prof_spool_rec *rec)
{
	struct prof_spool_seg seg;
	struct stack *s;
	struct thread *t;

	switch (rec->type) {
	case PROF_REC_PUSH:
		if (!(s = stack_get(rp, tid, rec->domain)) || CORE_GROW(s->v, s->cap, s->n + 1) < 0)
			return -ENOMEM;
		s->v[s->n] = (struct open){ tid, rec->t, rec->domain, 0,
					    strdup(prof_spool_rec_text(rec)) };
		if (!s->v[s->n].name)
			return -ENOMEM;
		s->n++;
		return 0;
	case PROF_REC_POP:
		if (!(s = stack_get(rp, tid, rec->domain)))
			return -ENOMEM;
		if (s->n)
			free(s->v[--s->n].name);
		return 0;
	case PROF_REC_SEG:
		if (!seg_of(rec, &seg))
			return 0;
		if (!(t = prof_merge_thread_get(m, pid, seg.tid)))
			return -ENOMEM;
		if (!t->first || rec->t < t->first)
			t->first = rec->t;
		if (seg.end > t->last)
			t->last = seg.end;
		return prof_cpufrac_add(&m->frac, pid, innermost(rp, seg.tid), &seg);
	default:
		return 0;
	}
}

/* Empty the stacks that pass 1 filled. */
static void stacks_clear(struct replay *rp)
{
	size_t i;

	for (i = 0; i < rp->nstacks; i++)
		while (rp->stacks[i].n)
			free(rp->stacks[i].v[--rp->stacks[i].n].name);
}

/* Pass 1 over a file: processes, threads, domains. */
static int collect(struct prof_merge *m, struct prof_spool_reader *r,
		   struct replay *rp, struct core_error *err)
{
	const struct prof_spool_rec *rec;
	int ret;

	while ((ret = prof_spool_read(r, err)) > 0) {
		int64_t pid = r->chunk.pid, tid = r->chunk.tid;
		struct proc *p = prof_merge_proc_get(m, pid);
		struct thread *t = prof_merge_thread_get(m, pid, tid);

		if (!p || !t)
			return -ENOMEM;
		for (rec = NULL; (rec = prof_spool_next(r, rec));) {
			const char *text = prof_spool_rec_text(rec);
			char buf[64];

			if (rec->type != PROF_REC_PROC && rec->type != PROF_REC_EXIT) {
				if (!t->first || rec->t < t->first)
					t->first = rec->t;
				if (rec->t > t->last)
					t->last = rec->t;
			}
			if (rec->t > p->last && rec->type != PROF_REC_PROC)
				p->last = rec->t;
			if (collect_seg(m, rp, pid, tid, rec) < 0)
				return -ENOMEM;
			switch (rec->type) {
			case PROF_REC_PROC:
				if (!p->outside_start && (!p->start || rec->t < p->start))
					p->start = rec->t;
				if (p->ppid < 0 || rec->arg)
					p->ppid = (int64_t)rec->u;
				p->forked |= rec->arg == 1;
				/* A fork()ed child's record names its parent's
				 * command, sampling may have seen it before exec:
				 * the record of an image it exec'd knows better. */
				if (*text && (!p->command || (p->command_provisional && rec->arg != 1))) {
					if (prof_merge_set_str(&p->command, text) < 0)
						return -ENOMEM;
					p->command_provisional = rec->arg == 1;
				}
				break;
			case PROF_REC_EXIT:
				p->exited = 1;
				if (!p->outside_end)
					p->end = rec->t;
				if (rec->arg == 1)
					core_spawn_signal_text((int)rec->u, buf, sizeof(buf));
				else
					core_spawn_status_text(W_EXITCODE((int)(rec->u & 0xff), 0), buf, sizeof(buf));
				if (!p->outside_end && prof_merge_set_str(&p->detail, buf) < 0)
					return -ENOMEM;
				break;
			case PROF_REC_THREAD:
				if (prof_merge_set_str(&t->name, text) < 0)
					return -ENOMEM;
				break;
			case PROF_REC_THREAD_END:
				t->end = rec->t;
				break;
			case PROF_REC_START: {
				struct open o = { tid, rec->t, rec->domain, rec->u, strdup(text) };

				if (!o.name || CORE_GROW(rp->ranges, rp->capranges, rp->nranges + 1) < 0) {
					free(o.name);
					return -ENOMEM;
				}
				rp->ranges[rp->nranges++] = o;
				break;
			}
			case PROF_REC_DOMAIN:
				if (rec->u < 1u << 20 && rec->u >= rp->ndomains) {
					size_t had = rp->ndomains;

					if (CORE_GROW(rp->domains, rp->ndomains, rec->u + 1) < 0)
						return -ENOMEM;
					memset(rp->domains + had, 0, (rp->ndomains - had) * sizeof(*rp->domains));
				}
				if (rec->u < rp->ndomains && prof_merge_set_str(&rp->domains[rec->u], text) < 0)
					return -ENOMEM;
				break;
			default:
				break;
			}
		}
	}
	return ret;
}

static const char *domain_name(const struct replay *rp, uint32_t id)
{
	return id < rp->ndomains && rp->domains[id] ? rp->domains[id] : "";
}

static struct stack *stack_get(struct replay *rp, int64_t tid, uint32_t domain)
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

static int emit_warning(struct prof_trace_writer *w, int64_t pid, int64_t tid,
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


/* One record of pass 2. */
static int replay_rec(struct prof_merge *m, struct replay *rp, struct prof_trace_writer *w,
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
		if (!(s = stack_get(rp, tid, rec->domain)) ||
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
		if (!(s = stack_get(rp, tid, rec->domain)))
			return -ENOMEM;
		if (s->n == 0) {
			if (p->forked && tid == p->pid)
				return 0;
			return emit_warning(w, p->pid, tid, rec->t,
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
		return emit_warning(w, p->pid, tid, rec->t, domain_name(rp, rec->domain),
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
		return emit_warning(w, p->pid, tid, rec->t, NULL, text);
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

		if (!seg_of(rec, &seg))
			return 0;
		return prof_cpufrac_write(&m->frac, w, p->pid, rec->t,
					  innermost(rp, seg.tid), &seg);
	}
	default:
		(void)m;
		ret = prof_cupti_merge_rec(w, p->pid, tid, rec);
		return ret < 0 ? ret : 0;
	}
}

/* End of a file: close what is still open. */
static int replay_end(struct prof_merge *m, struct replay *rp, struct prof_trace_writer *w,
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
static void replay_release(struct replay *rp)
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

static int merge_file(struct prof_merge *m, const char *path, struct prof_trace_writer *w,
		      struct core_error *err)
{
	struct replay rp;
	struct prof_spool_reader r;
	struct core_error torn = CORE_ERROR_INIT;
	const struct prof_spool_rec *rec;
	FILE *fp = fopen(path, "rb");
	int64_t pid = -1;
	int ret, wret = 0;

	if (!fp)
		return core_error_errno(err, errno, "cannot open '%s'", path);
	memset(&rp, 0, sizeof(rp));
	prof_spool_reader_init(&r, fp, path);
	ret = collect(m, &r, &rp, &torn);
	if (ret == -ENOMEM)
		goto out;
	stacks_clear(&rp);
	rewind(fp);
	prof_spool_reader_release(&r);
	prof_spool_reader_init(&r, fp, path);
	while (!wret && (ret = prof_spool_read(&r, NULL)) > 0) {
		struct proc *p = prof_merge_proc_get(m, r.chunk.pid);

		if (!p) {
			ret = -ENOMEM;
			break;
		}
		pid = p->pid;
		for (rec = NULL; !wret && (rec = prof_spool_next(&r, rec));)
			wret = replay_rec(m, &rp, w, p, r.chunk.tid, rec);
	}
	if (!wret && pid >= 0)
		wret = replay_end(m, &rp, w, pid);
	if (!wret && torn.code && pid >= 0)
		wret = emit_warning(w, pid, 0, 0, NULL,
				    "the recorded data ends with a torn write; later events are lost");
	ret = wret;
out:
	prof_spool_reader_release(&r);
	replay_release(&rp);
	fclose(fp);
	if (ret == -ENOMEM)
		return core_error_set(err, -ENOMEM, "out of memory");
	if (ret < 0)
		return core_error_errno(err, -ret, "writing the trace failed");
	return 0;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The spool files of dir, sorted, in *names; their count or -errno. */
static int list_dir(const char *dir, char ***names, struct core_error *err)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	size_t n = 0, cap = 0;

	*names = NULL;
	if (!d)
		return core_error_errno(err, errno, "cannot read '%s'", dir);
	while ((e = readdir(d))) {
		size_t len = strlen(e->d_name);

		if (len < 7 || strcmp(e->d_name + len - 6, ".spool"))
			continue;
		if (CORE_GROW(*names, cap, n + 1) < 0 ||
		    asprintf(&(*names)[n], "%s/%s", dir, e->d_name) < 0) {
			closedir(d);
			while (n)
				free((*names)[--n]);
			free(*names);
			*names = NULL;
			return core_error_set(err, -ENOMEM, "out of memory");
		}
		n++;
	}
	closedir(d);
	if (n)
		qsort(*names, n, sizeof(**names), by_name);
	return (int)n;
}

int prof_merge_scan(struct prof_merge *m, const char *dir, struct core_error *err)
{
	char **names;
	int n = list_dir(dir, &names, err), i, ret = 0;

	if (n < 0)
		return n;
	for (i = 0; i < n; i++) {
		FILE *fp = ret ? NULL : fopen(names[i], "rb");
		struct prof_spool_reader r;
		const struct prof_spool_rec *rec;
		int found = 0;

		if (fp) {
			prof_spool_reader_init(&r, fp, names[i]);
			while (!found && prof_spool_read(&r, NULL) > 0) {
				for (rec = NULL; !found && (rec = prof_spool_next(&r, rec));)
					found = rec->type == PROF_REC_SEG;
				if (found) {
					struct proc *p = prof_merge_proc_get(m, r.chunk.pid);

					if (!p)
						ret = core_error_set(err, -ENOMEM, "out of memory");
					else
						p->segments = 1;
				}
			}
			prof_spool_reader_release(&r);
			fclose(fp);
		}
		free(names[i]);
	}
	free(names);
	return ret;
}


int prof_merge_dir(struct prof_merge *m, const char *dir, struct prof_trace_writer *w,
		   struct core_error *err)
{
	char **names;
	int n = list_dir(dir, &names, err), i, ret = 0;

	if (n < 0)
		return n;
	for (i = 0; i < n; i++) {
		if (!ret)
			ret = merge_file(m, names[i], w, err);
		free(names[i]);
	}
	free(names);
	return ret;
}

