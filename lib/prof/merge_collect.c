/* Pass 1 of the merge over one spool file (prof/merge_replay.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "core/grow.h"
#include "core/spawn.h"
#include "prof/merge_replay.h"

/* Push/pop and segments: what each operation's samples say. */
static int collect_seg(struct prof_merge *m, struct replay *rp, int64_t pid, int64_t tid,
		       const struct prof_spool_rec *rec)
{
	struct prof_spool_seg seg;
	struct stack *s;
	struct thread *t;

	switch (rec->type) {
	case PROF_REC_PUSH:
		if (!(s = prof_merge_stack(rp, tid, rec->domain)) ||
		    CORE_GROW(s->v, s->cap, s->n + 1) < 0)
			return -ENOMEM;
		s->v[s->n] = (struct open){ tid, rec->t, rec->domain, 0,
					    strdup(prof_spool_rec_text(rec)) };
		if (!s->v[s->n].name)
			return -ENOMEM;
		s->n++;
		return 0;
	case PROF_REC_POP:
		if (!(s = prof_merge_stack(rp, tid, rec->domain)))
			return -ENOMEM;
		if (s->n)
			free(s->v[--s->n].name);
		return 0;
	case PROF_REC_SEG:
		if (!prof_merge_seg_of(rec, &seg))
			return 0;
		if (!(t = prof_merge_thread_get(m, pid, seg.tid)))
			return -ENOMEM;
		if (!t->first || rec->t < t->first)
			t->first = rec->t;
		if (seg.end > t->last)
			t->last = seg.end;
		return prof_cpufrac_add(&m->frac, pid, prof_merge_innermost(rp, seg.tid), &seg);
	default:
		return 0;
	}
}

int prof_merge_collect(struct prof_merge *m, struct prof_spool_reader *r,
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
