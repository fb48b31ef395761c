#include "fiber/memlimit.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "core/sys.h"

#define GROUP_PREFIX "fiberrun-"

unsigned long long fiber_memlimit_from_env(void)
{
	const char *s = getenv("FIBERRUN_MEM_LIMIT");

	return s ? strtoull(s, NULL, 10) : 0;
}

static int write_at(const char *dir, const char *file, const char *text)
{
	char path[PATH_MAX + 64];
	int fd, ret;

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	ret = core_sys_write_all(fd, text, strlen(text));
	if (close(fd) < 0 && ret == 0)
		ret = -errno;
	return ret;
}

/* `word` in a list separated by spaces or commas. */
static int has_word(const char *list, const char *word)
{
	size_t n = strlen(word);

	while (*list) {
		size_t k = strcspn(list, " ,\n");

		if (k == n && strncmp(list, word, n) == 0)
			return 1;
		list += k;
		list += strspn(list, " ,\n");
	}
	return 0;
}

/*
 * Our own group's folder: the mount of cgroup2 (v2) or of the v1
 * hierarchy with the memory controller, and our path in it.
 */
static int own_group(int v2, char *out, size_t size)
{
	char line[4096], mnt[PATH_MAX] = "", root[PATH_MAX] = "", path[PATH_MAX] = "";
	FILE *f = fopen("/proc/self/mountinfo", "re");
	size_t rl;

	if (!f)
		return -1;
	while (!mnt[0] && fgets(line, sizeof(line), f)) {
		char r[PATH_MAX], m[PATH_MAX], type[64], opts[1024];
		char *dash = strstr(line, " - ");

		if (!dash || sscanf(line, "%*s %*s %*s %4095s %4095s", r, m) != 2 ||
		    sscanf(dash + 3, "%63s %*s %1023s", type, opts) != 2)
			continue;
		if (v2 ? strcmp(type, "cgroup2") == 0 :
			 strcmp(type, "cgroup") == 0 && has_word(opts, "memory")) {
			snprintf(mnt, sizeof(mnt), "%s", m);
			snprintf(root, sizeof(root), "%s", r);
		}
	}
	fclose(f);
	f = fopen("/proc/self/cgroup", "re");
	if (!mnt[0] || !f) {
		if (f)
			fclose(f);
		return -1;
	}
	while (!path[0] && fgets(line, sizeof(line), f)) {
		char *c1 = strchr(line, ':'), *c2 = c1 ? strchr(c1 + 1, ':') : NULL;

		if (!c2)
			continue;
		*c2 = '\0';
		line[strcspn(line, ":")] = '\0';
		if (v2 ? strcmp(line, "0") == 0 && c2 == c1 + 1 : has_word(c1 + 1, "memory")) {
			c2[1 + strcspn(c2 + 1, "\n")] = '\0';
			snprintf(path, sizeof(path), "%s", c2 + 1);
		}
	}
	fclose(f);
	/* The mount shows the hierarchy from `root` on. */
	rl = strcmp(root, "/") == 0 ? 0 : strlen(root);
	if (path[0] != '/' || strncmp(path, root, rl) != 0 || (path[rl] != '/' && path[rl] != '\0'))
		return -1;
	if ((size_t)snprintf(out, size, "%s%s", mnt, path + rl) >= size)
		return -1;
	rl = strlen(out);
	if (rl > 1 && out[rl - 1] == '/')
		out[rl - 1] = '\0';
	return 0;
}

/* Groups of ours left by processes that are gone: removed when empty. */
static void sweep(const char *parent)
{
	DIR *d = opendir(parent);
	struct dirent *e;

	if (!d)
		return;
	while ((e = readdir(d))) {
		char path[PATH_MAX + 256];
		long pid;
		unsigned n;
		int end = 0;

		if (sscanf(e->d_name, GROUP_PREFIX "%ld-%u%n", &pid, &n, &end) != 2 ||
		    e->d_name[end] || pid <= 0 || pid == (long)getpid() ||
		    kill((pid_t)pid, 0) == 0 || errno != ESRCH)
			continue;
		snprintf(path, sizeof(path), "%s/%s", parent, e->d_name);
		rmdir(path);
	}
	closedir(d);
}

/* A process can join the group (what the permissions do not tell for certain). */
static int can_join(int procs_fd)
{
	pid_t p = fork();
	int st = 0;

	if (p == 0)
		_exit(write(procs_fd, "0", 1) == 1 ? 0 : 1);
	if (p < 0)
		return 0;
	while (waitpid(p, &st, 0) < 0 && errno == EINTR)
		;
	return WIFEXITED(st) && WEXITSTATUS(st) == 0;
}

static int make_group(struct fiber_memlimit *m, const char *parent, int v2)
{
	static unsigned seq;
	char path[PATH_MAX + 64], num[32];
	int made = 0;

	sweep(parent);
	if ((size_t)snprintf(m->dir, sizeof(m->dir), "%s/" GROUP_PREFIX "%ld-%u", parent,
			     (long)getpid(), seq++) >= sizeof(m->dir) || mkdir(m->dir, 0755) < 0)
		goto fail;
	made = 1;
	snprintf(num, sizeof(num), "%llu", m->bytes);
	if (write_at(m->dir, v2 ? "memory.max" : "memory.limit_in_bytes", num) < 0)
		goto fail;
	/* Swap would only postpone the end: the limit holds for both (best effort). */
	if (v2)
		write_at(m->dir, "memory.swap.max", "0");
	else
		write_at(m->dir, "memory.memsw.limit_in_bytes", num);
	snprintf(path, sizeof(path), "%s/cgroup.procs", m->dir);
	m->procs_fd = open(path, O_WRONLY | O_CLOEXEC);
	if (m->procs_fd < 0 || !can_join(m->procs_fd))
		goto fail;
	m->kind = v2 ? FIBER_MEMLIMIT_CGROUP2 : FIBER_MEMLIMIT_CGROUP1;
	m->owned = 1;
	if (fiber_memlimit_kills(m) < 0 && v2) {
		/* No oom_kill count: no certainty, no use. */
		fiber_memlimit_release(m);
		m->kind = FIBER_MEMLIMIT_RLIMIT;
		return -1;
	}
	return 0;
fail:
	if (m->procs_fd >= 0)
		close(m->procs_fd);
	m->procs_fd = -1;
	/* Only ours: a folder of that name that was there is someone else's. */
	if (made)
		fiber_memlimit_remove(m->dir, 100);
	m->dir[0] = '\0';
	return -1;
}

/*
 * cgroup v2: a group with processes hands no controller down, so a group
 * below ours works only where ours is the root; else beside ours, where
 * our parent hands memory down and lets us move a process from ours.
 */
static int try_v2(struct fiber_memlimit *m)
{
	char own[PATH_MAX], cand[PATH_MAX], path[PATH_MAX + 64], text[256];
	int i;

	if (own_group(1, own, sizeof(own)) < 0)
		return -1;
	snprintf(cand, sizeof(cand), "%s", own);
	for (i = 0; i < 2; i++) {
		char *slash;

		snprintf(path, sizeof(path), "%s/cgroup.subtree_control", cand);
		if (core_sys_read_file(path, text, sizeof(text)) >= 0 && has_word(text, "memory")) {
			snprintf(path, sizeof(path), "%s/cgroup.procs", cand);
			if (access(path, W_OK) == 0 && make_group(m, cand, 1) == 0)
				return 0;
		}
		slash = strrchr(cand, '/');
		if (!slash || slash == cand)
			break;
		*slash = '\0';
		/* Not above the mount. */
		snprintf(path, sizeof(path), "%s/cgroup.controllers", cand);
		if (access(path, F_OK) < 0)
			break;
	}
	return -1;
}

static int try_v1(struct fiber_memlimit *m)
{
	char own[PATH_MAX];

	if (own_group(0, own, sizeof(own)) < 0)
		return -1;
	return make_group(m, own, 0);
}

void fiber_memlimit_init(struct fiber_memlimit *m, unsigned long long bytes)
{
	m->bytes = bytes;
	m->kind = FIBER_MEMLIMIT_NONE;
	m->procs_fd = -1;
	m->dir[0] = '\0';
	m->owned = 0;
	if (!bytes)
		return;
	m->kind = FIBER_MEMLIMIT_RLIMIT;
	if (getenv("FIBERRUN_MEM_LIMIT_RLIMIT"))
		return;
	if (try_v2(m) < 0)
		try_v1(m);
}

void fiber_memlimit_attach(struct fiber_memlimit *m, unsigned long long bytes, const char *dir)
{
	char path[PATH_MAX + 64];

	*m = (struct fiber_memlimit)FIBER_MEMLIMIT_INIT;
	m->bytes = bytes;
	if (!bytes)
		return;
	m->kind = FIBER_MEMLIMIT_RLIMIT;
	if (!dir || !*dir || strlen(dir) >= sizeof(m->dir))
		return;
	snprintf(m->dir, sizeof(m->dir), "%s", dir);
	snprintf(path, sizeof(path), "%s/memory.events", dir);
	m->kind = access(path, F_OK) == 0 ? FIBER_MEMLIMIT_CGROUP2 : FIBER_MEMLIMIT_CGROUP1;
	snprintf(path, sizeof(path), "%s/cgroup.procs", dir);
	m->procs_fd = open(path, O_WRONLY | O_CLOEXEC);
	if (m->procs_fd < 0) {
		m->kind = FIBER_MEMLIMIT_RLIMIT;
		m->dir[0] = '\0';
	}
}

void fiber_memlimit_spawn(const struct fiber_memlimit *m, struct core_spawn *sp)
{
	if (m->kind == FIBER_MEMLIMIT_RLIMIT)
		sp->limit_as = m->bytes;
	else if (m->procs_fd >= 0)
		sp->cgroup_fd = m->procs_fd;
}

long fiber_memlimit_kills(const struct fiber_memlimit *m)
{
	char path[PATH_MAX + 64], text[1024], *at;

	if (m->kind != FIBER_MEMLIMIT_CGROUP1 && m->kind != FIBER_MEMLIMIT_CGROUP2)
		return -1;
	snprintf(path, sizeof(path), "%s/%s", m->dir,
		 m->kind == FIBER_MEMLIMIT_CGROUP2 ? "memory.events" : "memory.oom_control");
	if (core_sys_read_file(path, text, sizeof(text)) < 0)
		return -1;
	for (at = text; (at = strstr(at, "oom_kill ")); at++)
		if (at == text || at[-1] == '\n')
			return strtol(at + 9, NULL, 10);
	return -1;
}

void fiber_memlimit_tail_add(struct fiber_memlimit_tail *t, const char *p, size_t n)
{
	if (n >= sizeof(t->b)) {
		p += n - sizeof(t->b);
		n = sizeof(t->b);
	}
	if (t->n + n > sizeof(t->b)) {
		size_t drop = t->n + n - sizeof(t->b);

		memmove(t->b, t->b + drop, t->n - drop);
		t->n -= drop;
	}
	memcpy(t->b + t->n, p, n);
	t->n += n;
}

ssize_t fiber_memlimit_tail_pass(struct fiber_memlimit_tail *t, int fd)
{
	char buf[4096];
	ssize_t n = read(fd, buf, sizeof(buf));

	if (n < 0)
		return -errno;
	core_sys_write_all(2, buf, (size_t)n);
	fiber_memlimit_tail_add(t, buf, (size_t)n);
	return n;
}

/* Its last line is "MemoryError" (or "MemoryError: ..."). */
static int memory_error(const struct fiber_memlimit_tail *t)
{
	size_t end = t ? t->n : 0, start;

	while (end > 0 && strchr("\n\r ", t->b[end - 1]))
		end--;
	start = end;
	while (start > 0 && t->b[start - 1] != '\n')
		start--;
	return end - start >= 11 && memcmp(t->b + start, "MemoryError", 11) == 0 &&
	       (end - start == 11 || t->b[start + 11] == ':');
}

int fiber_memlimit_explain(const struct fiber_memlimit *m, long before, int wstatus,
			   const struct fiber_memlimit_tail *tail, const char *who,
			   char *buf, size_t size)
{
	int sig = WIFSIGNALED(wstatus) ? WTERMSIG(wstatus) : 0;
	long kills = fiber_memlimit_kills(m);
	char st[64];

	buf[0] = '\0';
	if (m->kind == FIBER_MEMLIMIT_NONE)
		return 0;
	if (kills >= 0 && before >= 0 && kills > before) {
		if (sig == SIGKILL)
			snprintf(buf, size, "out of memory: the %s was killed by the kernel at its "
				 "--mem-limit of %llu bytes (memory cgroup)", who, m->bytes);
		else
			snprintf(buf, size, "out of memory: the kernel killed a process of the %s at its "
				 "--mem-limit of %llu bytes (memory cgroup), and the %s ended with %s",
				 who, m->bytes, who, core_spawn_status_text(wstatus, st, sizeof(st)));
		return 2;
	}
	if (m->kind == FIBER_MEMLIMIT_RLIMIT && wstatus != 0 && memory_error(tail)) {
		snprintf(buf, size, "out of memory: the %s raised MemoryError at its --mem-limit of "
			 "%llu bytes (RLIMIT_AS), and ended with %s", who, m->bytes,
			 core_spawn_status_text(wstatus, st, sizeof(st)));
		return 2;
	}
	if (m->kind == FIBER_MEMLIMIT_RLIMIT &&
	    (sig == SIGSEGV || sig == SIGBUS || sig == SIGABRT || sig == SIGKILL)) {
		snprintf(buf, size, "the %s ended with %s, perhaps out of memory: its address space "
			 "was limited to %llu bytes by --mem-limit (RLIMIT_AS)", who,
			 core_spawn_signal_text(sig, st, sizeof(st)), m->bytes);
		return 1;
	}
	if (m->kind != FIBER_MEMLIMIT_RLIMIT && kills < 0 && sig == SIGKILL) {
		/* A kernel that does not count its kills (cgroup v1 before Linux 4.13). */
		snprintf(buf, size, "the %s ended with signal SIGKILL, perhaps out of memory: its "
			 "memory cgroup was limited to %llu bytes by --mem-limit", who, m->bytes);
		return 1;
	}
	return 0;
}

/* Kill what is in the group.  Async-signal-safe. */
static void kill_members(const char *dir)
{
	char path[PATH_MAX + 64], text[4096];
	size_t i;
	ssize_t n = -1;
	long pid = 0;
	int fd;

	/* No snprintf here: only calls a signal handler may make. */
	for (i = 0; dir[i] && i < PATH_MAX; i++)
		path[i] = dir[i];
	memcpy(path + i, "/cgroup.procs", 14);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd >= 0) {
		n = read(fd, text, sizeof(text) - 1);
		close(fd);
	}
	for (i = 0; n > 0 && i < (size_t)n; i++) {
		if (text[i] >= '0' && text[i] <= '9') {
			pid = pid * 10 + (text[i] - '0');
		} else {
			if (pid > 0)
				kill((pid_t)pid, SIGKILL);
			pid = 0;
		}
	}
}

int fiber_memlimit_remove(const char *dir, int tries)
{
	struct timespec pause = { 0, 2000000 };

	while (rmdir(dir) < 0) {
		if (errno != EBUSY || tries-- <= 0)
			return -1;
		kill_members(dir);
		nanosleep(&pause, NULL);
	}
	return 0;
}

void fiber_memlimit_release(struct fiber_memlimit *m)
{
	if (m->procs_fd >= 0)
		close(m->procs_fd);
	m->procs_fd = -1;
	/* Processes leave the group as they end: wait a little for them (up to 2 s). */
	if (m->dir[0] && m->owned)
		fiber_memlimit_remove(m->dir, 1000);
	m->dir[0] = '\0';
	m->owned = 0;
}
