#include "prof/sample.h"
#include "core/grow.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/clock.h"
#include "core/spawn.h"
#include "core/sys.h"

struct sthread {
	int64_t pid, tid, first, last;
	int64_t since;		/* blocked since, 0 when running */
	int64_t at, prev_at;	/* this sample's time and the one before */
	int64_t run;		/* CPU time so far (ns), -1 before the first */
	int fd;			/* /proc/PID/task/TID/stat */
	int sfd;		/* /proc/PID/task/TID/schedstat, -1 without */
	int gone;
	int recheck;		/* its process's command line may predate an exec */
	char name[17];
};

struct sproc {
	int64_t pid, ppid, start, last;
	char *command;
	char detail[40];
	int gone;
};

struct span {
	int64_t pid, tid, start, end;
};

struct prof_sampler {
	pid_t root;
	struct sthread *threads;
	size_t nthreads, capthreads;
	struct sproc *procs;
	size_t nprocs, capprocs;
	struct span *waits;
	size_t nwaits, capwaits;
	pid_t *queue;
	size_t capqueue;
	int64_t boot_real;	/* CLOCK_REALTIME at boot, for start times */
	int (*measured)(void *ctx, int64_t pid);	/* prof_sampler_finish */
	void *measured_ctx;
};

int prof_sampler_new(struct prof_sampler **out, pid_t root)
{
	struct prof_sampler *s = calloc(1, sizeof(*s));

	if (!s)
		return -ENOMEM;
	s->root = root;
	s->boot_real = core_clock_real_ns() - core_clock_ns(CLOCK_BOOTTIME);
	*out = s;
	return 0;
}

void prof_sampler_free(struct prof_sampler *s)
{
	size_t i;

	if (!s)
		return;
	for (i = 0; i < s->nthreads; i++) {
		if (s->threads[i].fd >= 0)
			close(s->threads[i].fd);
		if (s->threads[i].sfd >= 0)
			close(s->threads[i].sfd);
	}
	for (i = 0; i < s->nprocs; i++)
		free(s->procs[i].command);
	free(s->threads);
	free(s->procs);
	free(s->waits);
	free(s->queue);
	free(s);
}

/* Fields after the command name of a stat line: state is [0]. */
static const char *stat_rest(const char *buf)
{
	const char *p = strrchr(buf, ')');

	return p && p[1] == ' ' ? p + 2 : NULL;
}

static struct sproc *proc_find(struct prof_sampler *s, int64_t pid)
{
	size_t i;

	for (i = 0; i < s->nprocs; i++)
		if (s->procs[i].pid == pid)
			return &s->procs[i];
	return NULL;
}

/*
 * The command line, read again when exec changes it.  Returns 0 when one
 * was read: during an exec the new image's is empty for a moment.
 */
static int proc_read_command(struct sproc *p)
{
	char path[64], buf[4096];
	ssize_t n, i;

	snprintf(path, sizeof(path), "/proc/%lld/cmdline", (long long)p->pid);
	n = core_sys_read_file(path, buf, sizeof(buf));
	while (n > 0 && buf[n - 1] == 0)
		n--;
	for (i = 0; i < n; i++)
		if (buf[i] == 0)
			buf[i] = ' ';
	if (n <= 0)
		return -1;
	buf[n] = 0;
	free(p->command);
	p->command = strdup(buf);
	return 0;
}

static struct sproc *proc_add(struct prof_sampler *s, int64_t pid, int64_t now)
{
	char path[64], buf[4096];
	const char *rest;
	struct sproc *p;
	unsigned long long start = 0;
	int ppid = -1;

	if (CORE_GROW(s->procs, s->capprocs, s->nprocs + 1) < 0)
		return NULL;
	p = &s->procs[s->nprocs++];
	memset(p, 0, sizeof(*p));
	p->pid = pid;
	p->ppid = -1;
	p->last = now;
	snprintf(path, sizeof(path), "/proc/%lld/stat", (long long)pid);
	if (core_sys_read_file(path, buf, sizeof(buf)) > 0 && (rest = stat_rest(buf)) &&
	    sscanf(rest, "%*c %d %*d %*d %*d %*d %*u %*u %*u %*u %*u %*u %*u %*d %*d "
		   "%*d %*d %*d %*d %llu", &ppid, &start) == 2) {
		p->ppid = ppid;
		p->start = s->boot_real +
			   (int64_t)(start * (1000000000ULL / (unsigned long long)sysconf(_SC_CLK_TCK)));
		/* The estimate is good to a clock tick: it was alive now. */
		if (p->start > now)
			p->start = now;
	}
	proc_read_command(p);
	return p;
}

static struct sthread *thread_find(struct prof_sampler *s, int64_t pid, int64_t tid)
{
	size_t i;

	for (i = 0; i < s->nthreads; i++)
		if (s->threads[i].tid == tid && s->threads[i].pid == pid && !s->threads[i].gone)
			return &s->threads[i];
	return NULL;
}

static int wait_add(struct prof_sampler *s, const struct sthread *t, int64_t end)
{
	struct span *w;

	if (CORE_GROW(s->waits, s->capwaits, s->nwaits + 1) < 0)
		return -ENOMEM;
	w = &s->waits[s->nwaits++];
	w->pid = t->pid;
	w->tid = t->tid;
	w->start = t->since;
	w->end = end;
	return 0;
}

/*
 * CPU time the thread used since the previous sample, in ns, from
 * schedstat; -1 when unknown.  Remembers this sample's time and total.
 */
static int64_t thread_ran(struct sthread *t, int64_t now)
{
	char buf[128];
	long long run;
	int64_t ran = -1;
	ssize_t n = t->sfd >= 0 ? pread(t->sfd, buf, sizeof(buf) - 1, 0) : -1;

	t->prev_at = t->at;
	t->at = now;
	if (n <= 0)
		return -1;
	buf[n] = 0;
	if (sscanf(buf, "%lld", &run) != 1)
		return -1;
	if (t->run >= 0 && run >= t->run)
		ran = run - t->run;
	t->run = run;
	return ran;
}

/* Sample one thread; a new one is opened first. */
static int thread_sample(struct prof_sampler *s, int64_t pid, int64_t tid, int64_t now)
{
	struct sthread *t = thread_find(s, pid, tid);
	char buf[1024];
	const char *rest;
	int64_t ran;
	ssize_t n;

	if (!t) {
		char path[96];

		if (CORE_GROW(s->threads, s->capthreads, s->nthreads + 1) < 0)
			return -ENOMEM;
		t = &s->threads[s->nthreads++];
		memset(t, 0, sizeof(*t));
		t->pid = pid;
		t->tid = tid;
		t->first = now;
		snprintf(path, sizeof(path), "/proc/%lld/task/%lld/stat", (long long)pid,
			 (long long)tid);
		t->fd = open(path, O_RDONLY | O_CLOEXEC);
		snprintf(path, sizeof(path), "/proc/%lld/task/%lld/schedstat", (long long)pid,
			 (long long)tid);
		t->sfd = open(path, O_RDONLY | O_CLOEXEC);
		t->run = -1;
	}
	t->last = now;
	n = t->fd >= 0 ? pread(t->fd, buf, sizeof(buf) - 1, 0) : -1;
	if (n <= 0)
		return 0;
	buf[n] = 0;
	ran = thread_ran(t, now);
	{
		/* The name, which exec changes: then the command line too. */
		const char *open_ = strchr(buf, '('), *close_ = strrchr(buf, ')');
		char name[sizeof(t->name)];
		struct sproc *p;
		size_t len;

		if (open_ && close_ && close_ > open_) {
			len = (size_t)(close_ - open_ - 1);
			if (len >= sizeof(name))
				len = sizeof(name) - 1;
			memcpy(name, open_ + 1, len);
			name[len] = 0;
			/*
			 * An exec between the first reads of cmdline and stat
			 * is no change of name: the first sample reads it again.
			 */
			if (strcmp(name, t->name) || !t->name[0])
				t->recheck = tid == pid;
			memcpy(t->name, name, len + 1);
			if (t->recheck && (p = proc_find(s, pid)))
				t->recheck = proc_read_command(p) < 0;
		}
	}
	if (!(rest = stat_rest(buf)))
		return 0;
	/*
	 * CPU time since the last sample refines the ends: a thread found
	 * running again woke at the latest `ran` ns ago; one found blocked
	 * blocked at the earliest `ran` ns after the last sample.
	 */
	if (rest[0] == 'R') {
		if (t->since) {
			int64_t woke = ran >= 0 ? now - ran : now;

			if (woke < t->since)
				woke = t->since;
			if (wait_add(s, t, woke) < 0)
				return -ENOMEM;
		}
		t->since = 0;
	} else if (rest[0] != 'Z' && rest[0] != 'X' && !t->since) {
		t->since = now;
		if (ran >= 0 && t->prev_at && t->prev_at + ran < now)
			t->since = t->prev_at + ran;
	}
	return 0;
}

static void thread_gone(struct prof_sampler *s, struct sthread *t, int64_t now)
{
	if (t->since)
		wait_add(s, t, now);
	t->since = 0;
	t->gone = 1;
	if (t->fd >= 0)
		close(t->fd);
	if (t->sfd >= 0)
		close(t->sfd);
	t->fd = t->sfd = -1;
}

/* Add the children of every thread of pid to the queue. */
static int sample_process(struct prof_sampler *s, pid_t pid, size_t *qn, int64_t now)
{
	char path[64];
	DIR *d;
	struct dirent *e;
	int ret = 0;

	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	if (!(d = opendir(path)))
		return 0;
	while (!ret && (e = readdir(d))) {
		char cpath[96], buf[4096], *p, *end;
		long tid = strtol(e->d_name, &end, 10);

		if (*end || tid <= 0)
			continue;
		ret = thread_sample(s, pid, tid, now);
		snprintf(cpath, sizeof(cpath), "/proc/%d/task/%ld/children", (int)pid, tid);
		if (ret || core_sys_read_file(cpath, buf, sizeof(buf)) <= 0)
			continue;
		for (p = buf; *p;) {
			long c = strtol(p, &end, 10);

			if (end == p)
				break;
			p = end;
			if (CORE_GROW(s->queue, s->capqueue, *qn + 1) < 0) {
				ret = -ENOMEM;
				break;
			}
			s->queue[(*qn)++] = (pid_t)c;
		}
	}
	closedir(d);
	return ret;
}

int prof_sampler_poll(struct prof_sampler *s)
{
	int64_t now = core_clock_real_ns();
	size_t qn = 0, qi, i;
	int ret = 0;

	if (CORE_GROW(s->queue, s->capqueue, 1) < 0)
		return -ENOMEM;
	s->queue[qn++] = s->root;
	for (qi = 0; !ret && qi < qn; qi++) {
		pid_t pid = s->queue[qi];
		struct sproc *p = proc_find(s, pid);

		if (!p && !(p = proc_add(s, pid, now)))
			return -ENOMEM;
		p->last = now;
		ret = sample_process(s, pid, &qn, now);
	}
	/* Threads not seen this time have ended. */
	for (i = 0; i < s->nthreads; i++)
		if (!s->threads[i].gone && s->threads[i].last != now)
			thread_gone(s, &s->threads[i], now);
	return ret;
}

void prof_sampler_reaped(struct prof_sampler *s, pid_t pid, int status)
{
	struct sproc *p = proc_find(s, pid);

	if (p)
		core_spawn_status_text(status, p->detail, sizeof(p->detail));
}

void prof_sampler_measured(struct prof_sampler *s, int (*measured)(void *ctx, int64_t pid),
			   void *ctx)
{
	s->measured = measured;
	s->measured_ctx = ctx;
}

int prof_sampler_finish(struct prof_sampler *s, struct prof_merge *m,
			struct prof_trace_writer *w)
{
	int64_t now = core_clock_real_ns();
	int ret;
	size_t i;

	for (i = 0; i < s->nthreads; i++)
		if (!s->threads[i].gone)
			thread_gone(s, &s->threads[i], now);
	for (i = 0; i < s->nwaits; i++) {
		struct prof_event ev = PROF_EVENT_INIT;

		if (s->measured && s->measured(s->measured_ctx, s->waits[i].pid))
			continue;
		ev.kind = PROF_KIND_CPU;
		ev.has = PROF_EV_PID | PROF_EV_TID | PROF_EV_START | PROF_EV_END;
		ev.pid = s->waits[i].pid;
		ev.tid = s->waits[i].tid;
		ev.start_ns = s->waits[i].start;
		ev.end_ns = s->waits[i].end;
		ev.category = PROF_CAT_WAIT;
		if ((ret = prof_trace_write(w, &ev)) < 0)
			return ret;
	}
	for (i = 0; i < s->nprocs; i++) {
		struct sproc *p = &s->procs[i];
		struct prof_process_info info = { p->pid, p->ppid, p->start, p->last,
			p->command, p->detail[0] ? p->detail : "ended", 1 };

		if (p->pid == s->root)
			continue;	/* the caller knows it better */
		if (prof_merge_process(m, &info) < 0)
			return -ENOMEM;
	}
	for (i = 0; i < s->nthreads; i++) {
		struct sthread *t = &s->threads[i];

		if (prof_merge_thread(m, t->pid, t->tid, t->first, t->last, t->name) < 0)
			return -ENOMEM;
	}
	return 0;
}
