#include "prof/recorder.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "core/clock.h"
#include "prof/cpusample.h"
#include "prof/trace.h"

/* Buffer states: the owner flushes in BUSY; a final flush claims it for good. */
enum { TB_IDLE, TB_BUSY, TB_CLAIMED };

struct tbuf {
	struct tbuf *next;
	_Atomic int state;
	_Atomic size_t len;	/* committed bytes of records */
	size_t cap;		/* room for records; 0 once claimed */
	uint32_t tid;
	int depth;		/* open pushes, over all domains */
	struct prof_cpus_thread *cs;	/* its CPU sampling slot, or NULL */
	unsigned char *data;	/* chunk header, then records */
};

struct domain {
	struct domain *next;
	uint32_t id;
	char name[];
};

static pthread_once_t once = PTHREAD_ONCE_INIT;
static _Atomic int active;		/* 1 recording, 0 not */
static _Atomic int inactive;		/* 1 once init decided not to record */
static int spool_fd = -1;
static char *spool_dir;
static uint32_t cur_pid;
static size_t buf_cap;
static _Atomic(struct tbuf *) tbufs;
/* Held from a buffer's allocation to its push on tbufs, and across fork,
 * so that a child never inherits a buffer that no list holds. */
static pthread_mutex_t tbuf_lock = PTHREAD_MUTEX_INITIALIZER;
static _Atomic uint64_t next_range_id = 1;
static pthread_mutex_t domain_lock = PTHREAD_MUTEX_INITIALIZER;
static struct domain *domains;
static uint32_t next_domain_id = 1;
static pthread_key_t thread_key;
static void (*_Atomic finish_hook)(int sig);
static _Atomic int finish_sig;	/* the signal prof_rec_finish runs for, or 0 */
/*
 * Initial-exec: read without __tls_get_addr, which may allocate on a
 * thread's first access (not async-signal-safe, and the SIGPROF handler
 * reads this) and whose dynamic TLS a leak checker cannot walk in the
 * sampler's thread.  Its 8 bytes come from the static TLS surplus glibc
 * keeps for libraries loaded later, as the injection library may be.
 */
static __thread struct tbuf *cur __attribute__((tls_model("initial-exec")));

static const int fatal_signals[] = { SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT,
	SIGTERM, SIGINT, SIGHUP, SIGQUIT };
static struct sigaction old_actions[NSIG];

static uint32_t gettid_(void)
{
	return (uint32_t)syscall(SYS_gettid);
}

/* write(2) all of it; async-signal-safe. */
static int write_all(int fd, const void *p, size_t n)
{
	const char *c = p;

	while (n > 0) {
		ssize_t w = write(fd, c, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		c += w;
		n -= (size_t)w;
	}
	return 0;
}

static void write_chunk(struct tbuf *tb, size_t len)
{
	struct prof_spool_chunk *h = (void *)tb->data;

	if (len == 0 || spool_fd < 0)
		return;
	h->magic = PROF_SPOOL_MAGIC;
	h->size = (uint32_t)len;
	h->pid = cur_pid;
	h->tid = tb->tid;
	write_all(spool_fd, tb->data, sizeof(*h) + len);
}

/* A record written on its own, outside any buffer (exit, signals). */
static void write_single(uint32_t tid, enum prof_spool_type type, uint8_t arg,
			 uint64_t u, const char *text)
{
	struct {
		struct prof_spool_chunk h;
		struct prof_spool_rec r;
		char text[64];
	} c;
	size_t len = text ? strlen(text) : 0;

	if (spool_fd < 0)
		return;
	if (len >= sizeof(c.text))
		len = sizeof(c.text) - 1;
	memset(&c, 0, sizeof(c));
	c.r.size = (uint16_t)(text ? prof_spool_rec_size(len) : sizeof(c.r));
	c.r.type = (uint8_t)type;
	c.r.arg = arg;
	c.r.t = core_clock_real_ns();
	c.r.u = u;
	if (text)
		memcpy(c.text, text, len);
	c.h.magic = PROF_SPOOL_MAGIC;
	c.h.size = c.r.size;
	c.h.pid = cur_pid;
	c.h.tid = tid;
	write_all(spool_fd, &c, sizeof(c.h) + c.r.size);
}

/* The owner writes its full buffer out; -1 once the buffer was claimed. */
static int tbuf_flush(struct tbuf *tb)
{
	int expect = TB_IDLE;

	if (!atomic_compare_exchange_strong(&tb->state, &expect, TB_BUSY)) {
		tb->cap = 0;
		return -1;
	}
	write_chunk(tb, atomic_load_explicit(&tb->len, memory_order_relaxed));
	atomic_store_explicit(&tb->len, 0, memory_order_release);
	atomic_store(&tb->state, TB_IDLE);
	return 0;
}

static void add_thread_name(struct tbuf *tb);
static void seg_at(struct tbuf *tb, int64_t t);

static void thread_end(void *arg)
{
	struct tbuf *tb = arg;
	int expect = TB_IDLE;
	int64_t t = core_clock_real_ns();

	seg_at(tb, t);
	prof_cpus_thread_done(tb->cs);
	prof_rec_add(PROF_REC_THREAD_END, 0, 0, 0, NULL, 0);
	cur = NULL;
	if (atomic_compare_exchange_strong(&tb->state, &expect, TB_CLAIMED)) {
		write_chunk(tb, atomic_load(&tb->len));
		free(tb->data);
		tb->data = NULL;
	}
}

static struct tbuf *tbuf_new(void)
{
	struct tbuf *tb;

	pthread_mutex_lock(&tbuf_lock);
	tb = calloc(1, sizeof(*tb));
	if (tb && !(tb->data = malloc(sizeof(struct prof_spool_chunk) + buf_cap))) {
		free(tb);
		tb = NULL;
	}
	if (!tb) {
		pthread_mutex_unlock(&tbuf_lock);
		return NULL;
	}
	tb->cap = buf_cap;
	tb->tid = gettid_();
	tb->next = atomic_load(&tbufs);
	while (!atomic_compare_exchange_weak(&tbufs, &tb->next, tb))
		;
	pthread_mutex_unlock(&tbuf_lock);
	cur = tb;
	pthread_setspecific(thread_key, tb);
	tb->cs = prof_cpus_thread_own(0);
	add_thread_name(tb);
	return tb;
}

static void init(void);

static inline struct tbuf *tbuf_get(void)
{
	struct tbuf *tb = cur;

	if (__builtin_expect(tb != NULL, 1))
		return tb;
	if (atomic_load_explicit(&inactive, memory_order_relaxed))
		return NULL;	/* the common case outside rlprof-record */
	pthread_once(&once, init);
	if (!atomic_load_explicit(&active, memory_order_acquire))
		return NULL;
	return cur ? cur : tbuf_new();	/* init may have made it */
}

int prof_rec_active(void)
{
	pthread_once(&once, init);
	return atomic_load(&active);
}

/* Room for `need` bytes of record, or NULL. */
static inline unsigned char *tbuf_room(struct tbuf *tb, size_t need)
{
	size_t len = atomic_load_explicit(&tb->len, memory_order_relaxed);

	if (__builtin_expect(len + need > tb->cap, 0)) {
		if (need > buf_cap || tbuf_flush(tb) < 0)
			return NULL;
		len = 0;
	}
	return tb->data + sizeof(struct prof_spool_chunk) + len;
}

static inline void tbuf_commit(struct tbuf *tb, size_t size)
{
	size_t len = atomic_load_explicit(&tb->len, memory_order_relaxed);

	atomic_store_explicit(&tb->len, len + size, memory_order_release);
}

static inline void add_at(struct tbuf *tb, int64_t t, enum prof_spool_type type,
			  uint32_t domain, uint64_t u, uint8_t arg, const char *text,
			  size_t len)
{
	size_t size;
	struct prof_spool_rec *r;

	if (len > PROF_SPOOL_TEXT_MAX)
		len = PROF_SPOOL_TEXT_MAX;
	size = text ? prof_spool_rec_size(len) : sizeof(*r);
	r = (void *)tbuf_room(tb, size);
	if (!r)
		return;
	r->size = (uint16_t)size;
	r->type = (uint8_t)type;
	r->arg = arg;
	r->domain = domain;
	r->t = t;
	r->u = u;
	if (text) {
		char *d = (char *)(r + 1);

		memcpy(d, text, len);
		memset(d + len, 0, size - sizeof(*r) - len);
	}
	tbuf_commit(tb, size);
}

/* Close the thread's CPU segment at t (before a boundary record at t). */
static void seg_at(struct tbuf *tb, int64_t t)
{
	struct prof_spool_seg seg;
	int64_t start;

	if (tb && tb->cs && prof_cpus_segment(tb->cs, t, &seg, &start))
		add_at(tb, start, PROF_REC_SEG, 0, 0, 0, (const char *)&seg, sizeof(seg));
}

/* A segment of another thread, written by the calling one. */
static void emit_seg(int64_t start, const struct prof_spool_seg *seg)
{
	struct tbuf *tb = tbuf_get();

	if (tb && seg)
		add_at(tb, start, PROF_REC_SEG, 0, 0, 0, (const char *)seg, sizeof(*seg));
}

/* A CPU sample of another thread (or of this one), written by the calling
 * one (--full-detail); cat -1: ns samples were lost. */
static void emit_sample(int64_t t, uint32_t tid, int cat, uint32_t ns, const char *file)
{
	struct tbuf *tb = tbuf_get();
	char msg[128];
	int n;

	if (!tb)
		return;
	if (cat < 0) {
		n = snprintf(msg, sizeof(msg), "%u CPU samples of thread %u have no row "
			     "(more than 256 in 50 ms)", ns, tid);
		add_at(tb, t, PROF_REC_WARNING, 0, 0, 0, msg, (size_t)n);
		return;
	}
	add_at(tb, t, PROF_REC_SAMPLE, ns, tid, (uint8_t)cat, file, strlen(file));
}

static inline void add(struct tbuf *tb, enum prof_spool_type type, uint32_t domain,
		       uint64_t u, uint8_t arg, const char *text, size_t len)
{
	add_at(tb, core_clock_real_ns(), type, domain, u, arg, text, len);
}

void prof_rec_add(enum prof_spool_type type, uint32_t domain, uint64_t u,
		  uint8_t arg, const char *text, size_t len)
{
	struct tbuf *tb = tbuf_get();

	if (tb)
		add(tb, type, domain, u, arg, text, len);
}

void prof_rec_add_at(int64_t t, enum prof_spool_type type, uint32_t domain,
		     uint64_t u, uint8_t arg, const char *text, size_t len)
{
	struct tbuf *tb = tbuf_get();

	if (tb)
		add_at(tb, t, type, domain, u, arg, text, len);
}

void prof_rec_set_finish_hook(void (*hook)(int sig))
{
	atomic_store(&finish_hook, hook);
}

size_t prof_rec_utf8(char *dst, size_t cap, const wchar_t *w)
{
	size_t n = 0;

	for (; w && *w && n + 5 <= cap; w++) {
		uint32_t c = (uint32_t)*w;

		if (c < 0x80) {
			dst[n++] = (char)c;
		} else if (c < 0x800) {
			dst[n++] = (char)(0xc0 | c >> 6);
			dst[n++] = (char)(0x80 | (c & 0x3f));
		} else if (c < 0x10000) {
			dst[n++] = (char)(0xe0 | c >> 12);
			dst[n++] = (char)(0x80 | ((c >> 6) & 0x3f));
			dst[n++] = (char)(0x80 | (c & 0x3f));
		} else if (c < 0x110000) {
			dst[n++] = (char)(0xf0 | c >> 18);
			dst[n++] = (char)(0x80 | ((c >> 12) & 0x3f));
			dst[n++] = (char)(0x80 | ((c >> 6) & 0x3f));
			dst[n++] = (char)(0x80 | (c & 0x3f));
		}
	}
	if (cap > 0)
		dst[n] = 0;
	return n;
}

int prof_rec_push(uint32_t domain, const char *name)
{
	struct tbuf *tb = tbuf_get();

	int64_t t;

	if (!tb)
		return -1;
	t = core_clock_real_ns();
	seg_at(tb, t);
	add_at(tb, t, PROF_REC_PUSH, domain, 0, 0, name ? name : "", name ? strlen(name) : 0);
	return tb->depth++;
}

int prof_rec_pop(uint32_t domain)
{
	struct tbuf *tb = tbuf_get();

	int64_t t;

	if (!tb)
		return -1;
	t = core_clock_real_ns();
	seg_at(tb, t);
	add_at(tb, t, PROF_REC_POP, domain, 0, 0, NULL, 0);
	return tb->depth > 0 ? --tb->depth : -1;
}

uint64_t prof_rec_range_id(void)
{
	return atomic_fetch_add(&next_range_id, 1);
}

uint32_t prof_rec_domain(const char *name)
{
	struct domain *d;
	uint32_t id = 0;
	size_t len;

	if (!name || !prof_rec_active())
		return 0;
	len = strnlen(name, PROF_SPOOL_TEXT_MAX);
	pthread_mutex_lock(&domain_lock);
	for (d = domains; d; d = d->next)
		if (!strncmp(d->name, name, len) && d->name[len] == 0)
			break;
	if (!d && (d = malloc(sizeof(*d) + len + 1))) {
		d->id = next_domain_id++;
		memcpy(d->name, name, len);
		d->name[len] = 0;
		d->next = domains;
		domains = d;
		prof_rec_add(PROF_REC_DOMAIN, 0, d->id, 0, d->name, len);
	}
	if (d)
		id = d->id;
	pthread_mutex_unlock(&domain_lock);
	return id;
}

static void add_thread_name(struct tbuf *tb)
{
	char name[17] = "";

	if (prctl(PR_GET_NAME, name, 0, 0, 0) == 0)
		add(tb, PROF_REC_THREAD, 0, 0, 0, name, strlen(name));
}

void prof_rec_finish(void)
{
	void (*hook)(int sig) = atomic_exchange(&finish_hook, NULL);
	struct tbuf *tb;
	int64_t t;

	if (!atomic_load(&active))
		return;
	if (hook)
		hook(atomic_load(&finish_sig));
	tb = cur;
	t = core_clock_real_ns();
	/* The open CPU segments of every thread end here. */
	seg_at(tb, t);
	if (tb)
		prof_cpus_drain(t);
	for (tb = atomic_load(&tbufs); tb; tb = tb->next) {
		int expect = TB_IDLE;

		if (atomic_compare_exchange_strong(&tb->state, &expect, TB_CLAIMED))
			write_chunk(tb, atomic_load_explicit(&tb->len, memory_order_acquire));
	}
}

static void on_exit_handler(int status, void *arg)
{
	struct tbuf *tb = cur;

	(void)arg;

	prof_cpus_settle();
	write_single(tb ? tb->tid : gettid_(), PROF_REC_EXIT, 0, (uint64_t)status & 0xff, NULL);
	prof_rec_finish();
}

/* A fault (or abort) ends the process whoever handles it: write out first,
 * then let the program's own handler (a sanitizer, faulthandler) run. */
static int is_fault(int sig, const siginfo_t *si)
{
	return sig == SIGABRT || (si->si_code > 0 && (sig == SIGSEGV || sig == SIGBUS ||
						     sig == SIGILL || sig == SIGFPE));
}

static void on_signal(int sig, siginfo_t *si, void *uc)
{
	struct sigaction *old = &old_actions[sig];
	struct tbuf *tb = cur;
	int saved = errno;

	if (old->sa_handler == SIG_DFL || is_fault(sig, si)) {
		write_single(tb ? tb->tid : gettid_(), PROF_REC_EXIT, 1, (uint64_t)sig, NULL);
		atomic_store(&finish_sig, sig);
		prof_rec_finish();
	}
	if (old->sa_handler != SIG_DFL) {
		/* The program handles it: let it, and let it exit normally. */
		if (old->sa_flags & SA_SIGINFO)
			old->sa_sigaction(sig, si, uc);
		else
			old->sa_handler(sig);
		errno = saved;
		return;
	}
	sigaction(sig, old, NULL);
	/* A fault repeats when the handler returns; others are raised again
	 * and arrive on return, since sig is blocked while we run. */
	if (!is_fault(sig, si) || sig == SIGABRT)
		raise(sig);
	errno = saved;
}

static void install_signals(void)
{
	struct sigaction sa;
	size_t i;

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_signal;
	sa.sa_flags = SA_SIGINFO | SA_RESTART | SA_ONSTACK;
	sigemptyset(&sa.sa_mask);
	for (i = 0; i < sizeof(fatal_signals) / sizeof(fatal_signals[0]); i++) {
		int s = fatal_signals[i];

		if (sigaction(s, NULL, &old_actions[s]) != 0 ||
		    old_actions[s].sa_handler == SIG_IGN)
			continue;
		sigaction(s, &sa, NULL);
	}
}

static int spool_open(void)
{
	char path[PATH_MAX];
	int n;

	for (n = 0; n < 1000; n++) {
		int fd;

		snprintf(path, sizeof(path), "%s/%u.%d.spool", spool_dir, cur_pid, n);
		fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_APPEND | O_CLOEXEC, 0600);
		if (fd >= 0 || errno != EEXIST)
			return fd;
	}
	return -1;
}

/* Start of this process in CLOCK_REALTIME ns, from /proc/self/stat. */
static int64_t process_start_ns(void)
{
	char buf[1024], *p;
	unsigned long long ticks;
	int64_t now, start;
	struct timespec boot;
	ssize_t n;
	int fd = open("/proc/self/stat", O_RDONLY | O_CLOEXEC), i;

	if (fd < 0)
		return core_clock_real_ns();
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0 || !(p = strrchr(buf, ')')))
		return core_clock_real_ns();
	buf[n] = 0;
	/* Field 22 is starttime; p is at the end of field 2. */
	for (i = 2; i < 22 && p; i++)
		p = strchr(p + 1, ' ');
	if (!p || sscanf(p + 1, "%llu", &ticks) != 1 ||
	    clock_gettime(CLOCK_BOOTTIME, &boot) != 0)
		return core_clock_real_ns();
	now = core_clock_real_ns();
	start = now - ((int64_t)boot.tv_sec * 1000000000 + boot.tv_nsec) +
		(int64_t)(ticks * (1000000000ULL / (unsigned long long)sysconf(_SC_CLK_TCK)));
	return start < now ? start : now;	/* good to a clock tick */
}

static void add_proc(int forked, int64_t start)
{
	char cmd[PROF_SPOOL_TEXT_MAX];
	ssize_t n = 0, i;
	int fd = open("/proc/self/cmdline", O_RDONLY | O_CLOEXEC);
	struct tbuf *tb = cur ? cur : tbuf_new();

	if (fd >= 0) {
		n = read(fd, cmd, sizeof(cmd) - 1);
		close(fd);
	}
	if (n < 0)
		n = 0;
	while (n > 0 && cmd[n - 1] == 0)
		n--;
	for (i = 0; i < n; i++)
		if (cmd[i] == 0)
			cmd[i] = ' ';
	if (tb)
		add_at(tb, start, PROF_REC_PROC, 0, (uint64_t)getppid(), (uint8_t)forked,
		       cmd, (size_t)n);
}

/* The helper thread takes tbuf_lock inside its own: the same order here. */
static void atfork_prepare(void)
{
	prof_cpus_before_fork();
	pthread_mutex_lock(&tbuf_lock);
}

static void atfork_parent(void)
{
	pthread_mutex_unlock(&tbuf_lock);
	prof_cpus_after_fork_parent();
}

static void atfork_child(void)
{
	struct tbuf *tb, *self = cur;
	int64_t t = core_clock_real_ns();

	pthread_mutex_unlock(&tbuf_lock);
	cur_pid = (uint32_t)getpid();
	if (spool_fd >= 0)
		close(spool_fd);
	spool_fd = spool_open();
	/* Threads other than this one do not exist here; their records, and
	 * what this thread buffered before fork, belong to the parent. */
	for (tb = atomic_load(&tbufs); tb; tb = tb->next)
		if (tb != self)
			atomic_store(&tb->state, TB_CLAIMED);
	prof_cpus_after_fork();
	if (self) {
		atomic_store(&self->len, 0);
		self->tid = cur_pid;
		atomic_store(&self->state, TB_IDLE);
		self->cs = prof_cpus_thread_own(t);
	}
	if (spool_fd < 0) {
		atomic_store(&active, 0);
		atomic_store(&inactive, 1);
		cur = NULL;
		return;
	}
	add_proc(1, t);
	if (self)
		add_thread_name(self);
}

static void init_try(void)
{
	const char *dir = getenv(PROF_SPOOL_ENV), *kb = getenv(PROF_REC_BUFFER_ENV);
	long k = kb ? strtol(kb, NULL, 10) : 0;
	int64_t start;
	const char *why = NULL;

	if (!dir || !*dir || !(spool_dir = strdup(dir)))
		return;
	buf_cap = (size_t)(k >= 4 && k <= 1048576 ? k : 256) * 1024;
	cur_pid = (uint32_t)getpid();
	start = process_start_ns();
	spool_fd = spool_open();
	if (spool_fd < 0 || pthread_key_create(&thread_key, thread_end) != 0)
		return;
	pthread_atfork(atfork_prepare, atfork_parent, atfork_child);
	on_exit(on_exit_handler, NULL);
	install_signals();
	atomic_store(&active, 1);
	prof_cpus_start(emit_seg, emit_sample, &why);
	add_proc(0, start);
	if (why)
		prof_rec_add(PROF_REC_WARNING, 0, 0, 0, why, strlen(why));
}

static void init(void)
{
	init_try();
	if (!atomic_load(&active))
		atomic_store(&inactive, 1);
}
