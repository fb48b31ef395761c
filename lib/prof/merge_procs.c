#include "prof/merge_procs.h"
#include "core/grow.h"

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

int prof_merge_new(struct prof_merge **out)
{
	*out = calloc(1, sizeof(**out));
	return *out ? 0 : -ENOMEM;
}

void prof_merge_free(struct prof_merge *m)
{
	size_t i;

	if (!m)
		return;
	for (i = 0; i < m->nprocs; i++) {
		free(m->procs[i].command);
		free(m->procs[i].detail);
		free(m->procs[i].weak_detail);
	}
	for (i = 0; i < m->nthreads; i++)
		free(m->threads[i].name);
	free(m->procs);
	free(m->threads);
	prof_cpufrac_release(&m->frac);
	free(m);
}

struct proc *prof_merge_proc_get(struct prof_merge *m, int64_t pid)
{
	size_t i;
	struct proc *p;

	for (i = m->nprocs; i-- > 0;)
		if (m->procs[i].pid == pid)
			return &m->procs[i];
	if (CORE_GROW(m->procs, m->capprocs, m->nprocs + 1) < 0)
		return NULL;
	p = &m->procs[m->nprocs++];
	memset(p, 0, sizeof(*p));
	p->pid = pid;
	p->ppid = -1;
	return p;
}

struct thread *prof_merge_thread_get(struct prof_merge *m, int64_t pid, int64_t tid)
{
	size_t i;
	struct thread *t;

	for (i = m->nthreads; i-- > 0;)
		if (m->threads[i].pid == pid && m->threads[i].tid == tid)
			return &m->threads[i];
	if (CORE_GROW(m->threads, m->capthreads, m->nthreads + 1) < 0)
		return NULL;
	t = &m->threads[m->nthreads++];
	memset(t, 0, sizeof(*t));
	t->pid = pid;
	t->tid = tid;
	return t;
}

int prof_merge_set_str(char **dst, const char *s)
{
	char *c;

	if (!s)
		return 0;
	if (!(c = strdup(s)))
		return -ENOMEM;
	free(*dst);
	*dst = c;
	return 0;
}

int prof_merge_process(struct prof_merge *m, const struct prof_process_info *info)
{
	struct proc *p = prof_merge_proc_get(m, info->pid);

	if (!p)
		return -ENOMEM;
	if (info->ppid >= 0)
		p->ppid = info->ppid;
	if (info->weak) {
		if (info->start_ns)
			p->weak_start = info->start_ns;
		if (info->end_ns)
			p->weak_end = info->end_ns;
		if (!p->command && info->command) {
			if (prof_merge_set_str(&p->command, info->command) < 0)
				return -ENOMEM;
			p->command_provisional = 1;
		}
		return prof_merge_set_str(&p->weak_detail, info->detail);
	}
	if (info->start_ns) {
		p->start = info->start_ns;
		p->outside_start = 1;
	}
	if (info->end_ns) {
		p->end = info->end_ns;
		p->outside_end = 1;
	}
	if (prof_merge_set_str(&p->command, info->command) < 0 || prof_merge_set_str(&p->detail, info->detail) < 0)
		return -ENOMEM;
	return 0;
}

int prof_merge_thread(struct prof_merge *m, int64_t pid, int64_t tid,
		      int64_t first, int64_t last, const char *name)
{
	struct thread *t = prof_merge_thread_get(m, pid, tid);

	if (!t)
		return -ENOMEM;
	if (!t->first || first < t->first)
		t->first = first;
	if (last > t->seen_last)
		t->seen_last = last;
	if (!t->name && name && *name)
		return prof_merge_set_str(&t->name, name);
	return 0;
}

int64_t prof_merge_proc_end(const struct proc *p)
{
	if (p->end)
		return p->end;
	return p->weak_end > p->last ? p->weak_end : p->last;
}

int64_t prof_merge_thread_end_of(struct prof_merge *m, const struct proc *p, int64_t tid)
{
	struct thread *t = prof_merge_thread_get(m, p->pid, tid);

	if (t && t->end)
		return t->end;
	if (t && t->seen_last)
		return t->seen_last > t->last ? t->seen_last : t->last;
	return prof_merge_proc_end(p);
}

int prof_merge_has_segments(const struct prof_merge *m, int64_t pid)
{
	size_t i;

	for (i = 0; i < m->nprocs; i++)
		if (m->procs[i].pid == pid)
			return m->procs[i].segments;
	return 0;
}

int prof_merge_finish(struct prof_merge *m, struct prof_trace_writer *w)
{
	size_t i;
	int ret;

	for (i = 0; i < m->nprocs; i++) {
		struct proc *p = &m->procs[i];
		struct prof_event ev = PROF_EVENT_INIT;

		ev.kind = PROF_KIND_PROCESS;
		ev.has = PROF_EV_PID;
		ev.pid = p->pid;
		if (p->start || p->weak_start) {
			ev.has |= PROF_EV_START;
			ev.start_ns = p->start ? p->start : p->weak_start;
		}
		if (prof_merge_proc_end(p)) {
			ev.has |= PROF_EV_END;
			ev.end_ns = prof_merge_proc_end(p);
			if ((ev.has & PROF_EV_START) && ev.end_ns < ev.start_ns)
				ev.end_ns = ev.start_ns;
		}
		if (p->detail)
			ev.detail = p->detail;
		else if (p->weak_detail && strcmp(p->weak_detail, "ended"))
			ev.detail = p->weak_detail;
		else if (p->last)
			ev.detail = kill((pid_t)p->pid, 0) == 0 ? "running" : "killed";
		else if (p->weak_detail)
			ev.detail = p->weak_detail;
		else
			ev.detail = kill((pid_t)p->pid, 0) == 0 ? "running" : "killed";
		ev.name = p->command;
		if (p->ppid >= 0) {
			ev.has |= PROF_EV_VALUE;
			ev.value = (double)p->ppid;
		}
		if ((ret = prof_trace_write(w, &ev)) < 0)
			return ret;
	}
	for (i = 0; i < m->nthreads; i++) {
		struct thread *t = &m->threads[i];
		struct proc *p = prof_merge_proc_get(m, t->pid);
		struct prof_event ev = PROF_EVENT_INIT;

		if (!p)
			return -ENOMEM;
		if (!t->first)
			continue;	/* only exit records: no thread events */
		ev.kind = PROF_KIND_THREAD;
		ev.has = PROF_EV_PID | PROF_EV_TID | PROF_EV_START | PROF_EV_END;
		ev.pid = t->pid;
		ev.tid = t->tid;
		ev.start_ns = t->first;
		ev.end_ns = prof_merge_thread_end_of(m, p, t->tid);
		if (ev.end_ns < ev.start_ns)
			ev.end_ns = ev.start_ns;
		ev.name = t->name;
		if ((ret = prof_trace_write(w, &ev)) < 0)
			return ret;
	}
	return 0;
}
