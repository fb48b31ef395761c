#include "prof/cpusample.h"

#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <link.h>
#include <linux/perf_event.h>
#include <pthread.h>
#include <semaphore.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <time.h>
#include <ucontext.h>
#include <unistd.h>

#include "core/clock.h"
#include "prof/catmap.h"

#define NSLOTS 512			/* threads sampled at once, a power of 2 */
#define SCAN_NS 50000000		/* helper: list threads */
#define DRAIN_EVERY 4			/* helper: segments of other threads, in scans */
#define SCHED_MIN_NS 50000		/* off-CPU time worth reading schedstat */
#define SHORT_NS 100000			/* shorter segments are assumed on a CPU */
#define TIMER_MAGIC 0x524c5053
#define RING 256			/* --full-detail: per thread, between drains */

struct range {
	uintptr_t lo, hi;
	int cat;			/* PROF_SEG_*, INHERIT or INTERPRETER */
};

#define INHERIT (-1)
#define INTERPRETER (-2)

struct table {
	struct table *older;		/* freed two rebuilds later */
	size_t n;
	struct range v[];
};

struct prof_cpus_thread {
	_Atomic int32_t tid;		/* 0 free, -1 deleted */
	_Atomic int busy;		/* a segment is being closed */
	_Atomic int owned;		/* 1: the thread writes its segments; 2: done */
	int seen;			/* helper: seen in the last scan */
	int has_timer;
	timer_t timer;
	int perf_fd;			/* the sampling event, else the timer */
	int sched_fd;
	int64_t t0, cpu0, delay0;
	int64_t full;			/* end of the last segment that read the clock */
	int64_t credited;		/* CPU ns given to short segments since */
	int64_t last_u, last_s;		/* handler: rusage at the last sample */
	int last_cat;
	_Atomic int64_t w[PROF_SEG_NCAT];
	_Atomic uint32_t samples;
	/* --full-detail: the handler appends at head, the helper takes from tail. */
	_Atomic uint32_t head, tail, lost;
};

/* One sample kept for its row (--full-detail). */
struct sample {
	int64_t t;
	uintptr_t ip;
	uint32_t ns;
	int32_t cat;
};

static struct prof_cpus_thread slots[NSLOTS];
/* Untouched (so unmapped) unless --full-detail: RING per slot. */
static struct sample rings[NSLOTS][RING];
static void (*emit_sample)(int64_t t, uint32_t tid, int cat, uint32_t ns, const char *file);
static char exe_name[256];		/* the main program's file, for samples */
static _Atomic(struct table *) table;
static struct prof_catmap catmap = PROF_CATMAP_INIT;
static void (*emit_seg)(int64_t start, const struct prof_spool_seg *);
static long period_us;
static int use_perf;			/* perf events asked for (else POSIX timers) */
static _Atomic int running;
static pthread_t helper;
static _Atomic pid_t helper_tid;
/* Posted once the helper thread has its name and row in the trace. */
static sem_t helper_ready;
static int helper_started;
static pthread_mutex_t slot_lock = PTHREAD_MUTEX_INITIALIZER;
/* Held by the helper thread whenever it is not asleep, and across fork, so
 * that a child never inherits a lock (ours, libc's or a sanitizer's) that
 * the helper held mid-work. */
static pthread_mutex_t helper_lock = PTHREAD_MUTEX_INITIALIZER;
static unsigned long long dl_count;
/* The code of CPython's eval loop: interpreter code it called runs Python. */
static _Atomic uintptr_t eval_lo, eval_len;

static pid_t gettid_(void)
{
	return (pid_t)syscall(SYS_gettid);
}

/* The CPU clock of thread `tid` of this process (Linux's encoding). */
static clockid_t thread_clock(pid_t tid)
{
	return (clockid_t)(((unsigned)~tid << 3) | 6);
}

static int64_t clock_ns(clockid_t c)
{
	struct timespec ts;

	if (clock_gettime(c, &ts) != 0)
		return -1;
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static int seg_cat(int cat)
{
	switch (cat) {
	case PROF_CAT_PYTHON: return PROF_SEG_PYTHON;
	case PROF_CAT_SIMULATOR: return PROF_SEG_SIMULATOR;
	case PROF_CAT_BACKEND: return PROF_SEG_BACKEND;
	case PROF_CAT_CUDA_API: return PROF_SEG_CUDA_API;
	case PROF_CATMAP_INHERIT: return INHERIT;
	case PROF_CATMAP_INTERPRETER: return INTERPRETER;
	default: return PROF_SEG_NATIVE;
	}
}

/* --- the table of executable mappings ------------------------------- */

struct build {
	struct range *v;
	size_t n, cap;
	char exe[PATH_MAX];
};

static int phdr_add(struct dl_phdr_info *info, size_t size, void *arg)
{
	struct build *b = arg;
	const char *name = info->dlpi_name;
	int cat = -2, i;

	(void)size;
	if (!name || !*name)
		name = b->exe;
	for (i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];

		if (ph->p_type != PT_LOAD || !(ph->p_flags & PF_X))
			continue;
		if (cat == -2)
			cat = seg_cat(prof_catmap_classify(&catmap, name));
		if (b->n == b->cap) {
			size_t cap = b->cap ? 2 * b->cap : 256;
			struct range *v = realloc(b->v, cap * sizeof(*v));

			if (!v)
				return 1;
			b->v = v;
			b->cap = cap;
		}
		b->v[b->n].lo = info->dlpi_addr + ph->p_vaddr;
		b->v[b->n].hi = b->v[b->n].lo + ph->p_memsz;
		b->v[b->n++].cat = cat;
	}
	return 0;
}

static int by_lo(const void *a, const void *b)
{
	const struct range *x = a, *y = b;

	return x->lo < y->lo ? -1 : x->lo > y->lo;
}

static int count_objects(struct dl_phdr_info *info, size_t size, void *arg)
{
	if (size >= offsetof(struct dl_phdr_info, dlpi_subs) + sizeof(info->dlpi_subs))
		*(unsigned long long *)arg = info->dlpi_adds + info->dlpi_subs;
	return 1;
}

/* Where the eval loop is, once an interpreter is loaded (dladdr1 gives
 * its symbol's size). */
static void eval_find(void)
{
	void *f = dlsym(RTLD_DEFAULT, "_PyEval_EvalFrameDefault");
	const ElfW(Sym) *sym = NULL;
	Dl_info info;

	if (!f || !dladdr1(f, &info, (void **)&sym, RTLD_DL_SYMENT) || !sym || !sym->st_size)
		return;
	atomic_store(&eval_len, 0);
	atomic_store(&eval_lo, (uintptr_t)f);
	atomic_store(&eval_len, (uintptr_t)sym->st_size);
}

/* The address is in the eval loop's code. */
static inline int in_eval(uintptr_t a)
{
	return a - atomic_load_explicit(&eval_lo, memory_order_relaxed) <
	       atomic_load_explicit(&eval_len, memory_order_relaxed);
}

/* Rebuild the table when the set of loaded objects changed. */
static void table_update(int force)
{
	struct build b;
	struct table *t, *old;
	unsigned long long count = 0;
	ssize_t n;

	dl_iterate_phdr(count_objects, &count);
	if (!force && count == dl_count)
		return;
	dl_count = count;
	memset(&b, 0, sizeof(b));
	n = readlink("/proc/self/exe", b.exe, sizeof(b.exe) - 1);
	b.exe[n > 0 ? n : 0] = 0;
	dl_iterate_phdr(phdr_add, &b);
	eval_find();
	if (b.n)
		qsort(b.v, b.n, sizeof(*b.v), by_lo);
	t = malloc(sizeof(*t) + b.n * sizeof(*b.v));
	if (t) {
		t->n = b.n;
		if (b.n)
			memcpy(t->v, b.v, b.n * sizeof(*b.v));
		/* Handlers may still read the previous table; free the one
		 * before it, two scans (>= 20 ms) old. */
		old = atomic_load(&table);
		t->older = old;
		if (old && old->older) {
			free(old->older);
			old->older = NULL;
		}
		atomic_store(&table, t);
	}
	free(b.v);
}

#define NO_MAPPING (-3)

/* The category of the code at ip: PROF_SEG_*, INHERIT, INTERPRETER or
 * NO_MAPPING. */
static int ip_lookup(uintptr_t ip)
{
	const struct table *t = atomic_load_explicit(&table, memory_order_acquire);
	size_t lo = 0, hi;

	if (!t)
		return NO_MAPPING;
	hi = t->n;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (t->v[mid].lo <= ip)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo > 0 && ip < t->v[lo - 1].hi)
		return t->v[lo - 1].cat;
	return NO_MAPPING;
}

static int ip_cat(uintptr_t ip)
{
	int cat = ip_lookup(ip);

	return cat == NO_MAPPING ? PROF_SEG_NATIVE : cat;
}

/* Read n bytes at addr of our own memory; bytes read, or -1 (no fault). */
static ssize_t stack_read(uintptr_t addr, void *to, size_t n)
{
	struct iovec local = { to, n }, remote = { (void *)addr, n };

	return process_vm_readv(getpid(), &local, 1, &remote, 1, 0);
}

/*
 * The word is a return address: the instruction before it is a call.
 * Without this test, a stack slot that holds a pointer into code as data
 * (a function pointer, a jump-table target, left by an earlier call deeper
 * in the stack) decides the category: the interpreter's code, whose frames
 * sit where numpy's and torch's ran a moment before, counted as theirs.
 */
static int after_call(uintptr_t w)
{
#if defined(__x86_64__)
	unsigned char c[8];
	int k;

	if (stack_read(w - 8, c, 8) != 8)
		return 0;
	if (c[3] == 0xe8)	/* call rel32 */
		return 1;
	/* call r/m64: 0xff, a ModRM byte with reg 2, then SIB and
	 * displacement: the instruction must end at w. */
	for (k = 2; k <= 7; k++) {
		unsigned char m = c[8 - k + 1];
		int mod = m >> 6, rm = m & 7, len = 2;

		if (c[8 - k] != 0xff || ((m >> 3) & 7) != 2)
			continue;
		if (mod != 3 && rm == 4) {
			len++;
			if (mod == 0 && k >= 3 && (c[8 - k + 2] & 7) == 5)
				len += 4;
		}
		if (mod == 0 && rm == 5)
			len += 4;
		else if (mod == 1)
			len += 1;
		else if (mod == 2)
			len += 4;
		if (len == k)
			return 1;
	}
	return 0;
#elif defined(__aarch64__)
	uint32_t insn;

	if (stack_read(w - 4, &insn, 4) != 4)
		return 0;
	return (insn & 0xfc000000u) == 0x94000000u ||	/* bl */
	       (insn & 0xfffffc1fu) == 0xd63f0000u;	/* blr */
#else
	(void)w;
	return 1;
#endif
}

/*
 * What a word of the stack says about whom the code above it works for,
 * when it is a return address: a category (PROF_SEG_*; python for the eval
 * loop), or -1 when it says nothing (code that works for its caller,
 * interpreter code outside the eval loop, no code, no return address);
 * *interp is set for interpreter code.
 */
static int word_cat(uintptr_t w, int *interp)
{
	int cat;

	if (in_eval(w))
		return after_call(w) ? PROF_SEG_PYTHON : -1;
	cat = ip_lookup(w);
	if (cat == INTERPRETER)
		*interp = 1;
	return cat >= 0 && after_call(w) ? cat : -1;
}

#define SCAN_WORDS 256
#define FRAME_MAX 32			/* frame-pointer links followed */
#define FRAME_SPAN (1 << 20)		/* how far above sp a frame may be */

/*
 * Follow the frame-pointer chain from bp: the category of the first return
 * address that has one, or -1.  Code built with frame pointers (the
 * sanitizer runtimes, whose interceptors keep frames of kilobytes) is
 * walked this way; where bp is an ordinary register, the checks (above sp,
 * aligned, growing, within FRAME_SPAN) end the walk at once, and a word
 * that passes them by chance must still point into classified code.
 */
static int frame_cat(uintptr_t sp, uintptr_t bp, int *interp)
{
	uintptr_t fr[2];
	int i;

	for (i = 0; i < FRAME_MAX; i++) {
		int cat;

		if (bp < sp || bp - sp > FRAME_SPAN || (bp & 7) ||
		    stack_read(bp, fr, sizeof(fr)) != (ssize_t)sizeof(fr))
			return -1;
		if ((cat = word_cat(fr[1], interp)) >= 0)
			return cat;
		if (fr[0] <= bp)
			return -1;
		bp = fr[0];
	}
	return -1;
}

/*
 * Code that works for its caller (inherit, and interpreter code outside
 * the eval loop): the caller's category, from the first word on the stack
 * above sp that decides one (word_cat), else from the frame-pointer chain;
 * python when only interpreter code was seen (its eval loop is further
 * up), else -1.  So the interpreter's code counts as python when Python
 * code runs it and as numpy's or torch's when they call it.  The stack is
 * read with process_vm_readv, which fails instead of faulting at the
 * stack's end.
 */
static int caller_cat(uintptr_t sp, uintptr_t bp, int interp)
{
	uintptr_t words[SCAN_WORDS];
	ssize_t n;
	size_t i;
	int cat;

	if (!sp)
		return interp ? PROF_SEG_PYTHON : -1;
	n = stack_read(sp, words, sizeof(words));
	if (n <= 0) {
		/* Near the stack's top: try what is left of its page. */
		size_t len = 4096 - (sp & 4095);

		n = stack_read(sp, words, len < sizeof(words) ? len : sizeof(words));
	}
	for (i = 0; n > 0 && i < (size_t)n / sizeof(*words); i++)
		if ((cat = word_cat(words[i], &interp)) >= 0)
			return cat;
	if ((cat = frame_cat(sp, bp, &interp)) >= 0)
		return cat;
	return interp ? PROF_SEG_PYTHON : -1;
}

/* --- slots ----------------------------------------------------------- */

static struct prof_cpus_thread *slot_find(pid_t tid)
{
	size_t h = ((size_t)tid * 2654435761u) & (NSLOTS - 1), i;

	for (i = 0; i < NSLOTS; i++, h = (h + 1) & (NSLOTS - 1)) {
		int32_t t = atomic_load_explicit(&slots[h].tid, memory_order_acquire);

		if (t == tid)
			return &slots[h];
		if (t == 0)
			return NULL;
	}
	return NULL;
}

static int read_delay(struct prof_cpus_thread *s, int64_t *delay)
{
	char buf[96];
	ssize_t n;
	long long run, d;

	if (s->sched_fd < 0)
		return -1;
	n = pread(s->sched_fd, buf, sizeof(buf) - 1, 0);
	if (n <= 0)
		return -1;
	buf[n] = 0;
	if (sscanf(buf, "%lld %lld", &run, &d) != 2)
		return -1;
	*delay = d;
	return 0;
}

/* Start time of thread tid (CLOCK_REALTIME ns), from its stat: to a tick. */
static int64_t thread_start(pid_t tid)
{
	char path[64], buf[1024], *p;
	unsigned long long ticks;
	struct timespec boot;
	int fd, i;
	ssize_t n;

	snprintf(path, sizeof(path), "/proc/self/task/%d/stat", (int)tid);
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return 0;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return 0;
	buf[n] = 0;
	if (!(p = strrchr(buf, ')')))
		return 0;
	for (i = 2; i < 22 && p; i++)
		p = strchr(p + 1, ' ');
	if (!p || sscanf(p + 1, "%llu", &ticks) != 1 ||
	    clock_gettime(CLOCK_BOOTTIME, &boot) != 0)
		return 0;
	return core_clock_real_ns() - ((int64_t)boot.tv_sec * 1000000000 + boot.tv_nsec) +
	       (int64_t)(ticks * (1000000000ULL / (unsigned long long)sysconf(_SC_CLK_TCK)));
}

/*
 * A software event counting the thread's CPU time in user mode
 * (PERF_COUNT_SW_TASK_CLOCK) that sends SIGPROF to that thread every
 * period: it runs on a high-resolution timer, where a POSIX CPU timer
 * fires only on the scheduler's tick (4 ms at HZ=250, whatever the
 * period asked).  Disabled until the slot is ready; -1 when the kernel
 * refuses (perf_event_paranoid above 2, seccomp, no perf events).
 */
static int perf_open(pid_t tid)
{
	struct perf_event_attr a;
	struct f_owner_ex owner = { F_OWNER_TID, tid };
	int fd;

	if (!use_perf)
		return -1;
	memset(&a, 0, sizeof(a));
	a.type = PERF_TYPE_SOFTWARE;
	a.size = sizeof(a);
	a.config = PERF_COUNT_SW_TASK_CLOCK;
	a.sample_period = (uint64_t)period_us * 1000;
	a.wakeup_events = 1;
	a.disabled = 1;
	a.exclude_kernel = 1;
	a.exclude_hv = 1;
	fd = (int)syscall(SYS_perf_event_open, &a, tid, -1, -1, PERF_FLAG_FD_CLOEXEC);
	if (fd < 0)
		return -1;
	if (fcntl(fd, F_SETOWN_EX, &owner) != 0 || fcntl(fd, F_SETSIG, SIGPROF) != 0 ||
	    fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_ASYNC) != 0) {
		close(fd);
		return -1;
	}
	return fd;
}

/* A slot for tid with its timer; called with slot_lock held. */
static struct prof_cpus_thread *slot_add(pid_t tid, int64_t start, int timer)
{
	size_t h = ((size_t)tid * 2654435761u) & (NSLOTS - 1), i;
	struct prof_cpus_thread *s = NULL;
	struct sigevent sev;
	struct itimerspec its;
	char path[64];
	int64_t now = core_clock_real_ns(), cpu;

	for (i = 0; i < NSLOTS; i++, h = (h + 1) & (NSLOTS - 1)) {
		int32_t t = atomic_load(&slots[h].tid);

		if (t == tid)
			return &slots[h];
		if (t <= 0 && !s)
			s = &slots[h];
		if (t == 0)
			break;
	}
	if (!s)
		return NULL;
	s->perf_fd = timer ? perf_open(tid) : -1;
	memset(&sev, 0, sizeof(sev));
	sev.sigev_notify = SIGEV_THREAD_ID;
	sev.sigev_signo = SIGPROF;
	sev.sigev_value.sival_int = TIMER_MAGIC;
	sev._sigev_un._tid = tid;
	s->has_timer = timer && s->perf_fd < 0 &&
		       timer_create(thread_clock(tid), &sev, &s->timer) == 0;
	snprintf(path, sizeof(path), "/proc/self/task/%d/schedstat", (int)tid);
	s->sched_fd = open(path, O_RDONLY | O_CLOEXEC);
	cpu = clock_ns(thread_clock(tid));
	if (cpu < 0)
		cpu = 0;
	if (!start) {
		/* The thread began no later than its CPU and wait times ago. */
		int64_t d = 0;

		start = thread_start(tid);
		read_delay(s, &d);
		if (!start || start > now - cpu - d)
			start = now - cpu - d;
	}
	s->t0 = start;
	s->full = start;
	s->credited = 0;
	s->cpu0 = 0;
	s->delay0 = 0;
	s->last_u = s->last_s = 0;
	s->last_cat = PROF_SEG_NATIVE;
	for (i = 0; i < PROF_SEG_NCAT; i++)
		atomic_store(&s->w[i], 0);
	atomic_store(&s->samples, 0);
	atomic_store(&s->head, 0);
	atomic_store(&s->tail, 0);
	atomic_store(&s->lost, 0);
	atomic_store(&s->owned, 0);
	atomic_store(&s->busy, 0);
	s->seen = 1;
	atomic_store_explicit(&s->tid, tid, memory_order_release);
	if (s->perf_fd >= 0)
		ioctl(s->perf_fd, PERF_EVENT_IOC_ENABLE, 0);
	if (s->has_timer) {
		its.it_interval.tv_sec = period_us / 1000000;
		its.it_interval.tv_nsec = (period_us % 1000000) * 1000;
		its.it_value = its.it_interval;
		timer_settime(s->timer, 0, &its, NULL);
	}
	return s;
}

static void slot_free(struct prof_cpus_thread *s)
{
	if (s->has_timer)
		timer_delete(s->timer);
	s->has_timer = 0;
	if (s->perf_fd >= 0)
		close(s->perf_fd);
	s->perf_fd = -1;
	if (s->sched_fd >= 0)
		close(s->sched_fd);
	s->sched_fd = -1;
	atomic_store(&s->tid, -1);
}

/* --- the handler ----------------------------------------------------- */

/* --full-detail, in the handler: the sample into its thread's ring (the
 * thread is the ring's only writer), or counted as lost when full. */
static void keep_sample(struct prof_cpus_thread *s, uintptr_t ip, int cat, int64_t ns)
{
	uint32_t h = atomic_load_explicit(&s->head, memory_order_relaxed);
	struct sample *e;

	if (h - atomic_load_explicit(&s->tail, memory_order_acquire) >= RING) {
		atomic_fetch_add_explicit(&s->lost, 1, memory_order_relaxed);
		return;
	}
	e = &rings[s - slots][h % RING];
	e->t = core_clock_real_ns();
	e->ip = ip;
	e->ns = ns > UINT32_MAX ? UINT32_MAX : (uint32_t)ns;
	e->cat = cat;
	atomic_store_explicit(&s->head, h + 1, memory_order_release);
}

static void on_sigprof(int sig, siginfo_t *si, void *ucv)
{
	ucontext_t *uc = ucv;
	struct prof_cpus_thread *s;
	struct rusage ru;
	uintptr_t ip, sp, bp;
	int64_t u, st, cpu;
	int saved = errno, cat;

	(void)sig;
	if (si->si_code == SI_TIMER ? si->si_value.sival_int != TIMER_MAGIC :
	    si->si_code != POLL_IN)
		goto out;
	if (!(s = slot_find(gettid_())) ||
	    (si->si_code == POLL_IN && (s->perf_fd < 0 || si->si_fd != s->perf_fd)))
		goto out;
#if defined(__x86_64__)
	ip = (uintptr_t)uc->uc_mcontext.gregs[REG_RIP];
	sp = (uintptr_t)uc->uc_mcontext.gregs[REG_RSP];
	bp = (uintptr_t)uc->uc_mcontext.gregs[REG_RBP];
#elif defined(__aarch64__)
	ip = (uintptr_t)uc->uc_mcontext.pc;
	sp = (uintptr_t)uc->uc_mcontext.sp;
	bp = (uintptr_t)uc->uc_mcontext.regs[29];
#else
	ip = sp = bp = 0;
	(void)uc;
#endif
	if (in_eval(ip))
		cat = PROF_SEG_PYTHON;
	else if ((cat = ip_cat(ip)) < 0)
		cat = caller_cat(sp, bp, cat == INTERPRETER);
	if (cat < 0)
		cat = s->last_cat;
	else
		s->last_cat = cat;
	/*
	 * The thread's CPU clock, not getrusage's sum: the latter is the
	 * runtime the kernel last accounted (at its tick, a context switch, a
	 * read of the clock), so between ticks it gives one sample the time
	 * of several, and most often the first sample after an operation
	 * boundary (which reads the clock).  User time is the clock less the
	 * system time, whose split the kernel takes from its ticks.
	 */
	if ((cpu = clock_ns(CLOCK_THREAD_CPUTIME_ID)) < 0 || getrusage(RUSAGE_THREAD, &ru) != 0)
		goto out;
	st = (int64_t)ru.ru_stime.tv_sec * 1000000000 + ru.ru_stime.tv_usec * 1000;
	u = cpu - st;
	if (emit_sample)
		keep_sample(s, ip, cat, u > s->last_u ? u - s->last_u : 0);
	if (u > s->last_u)
		atomic_fetch_add_explicit(&s->w[cat], u - s->last_u, memory_order_relaxed);
	if (st > s->last_s)
		atomic_fetch_add_explicit(&s->w[PROF_SEG_SYSTEM], st - s->last_s,
					  memory_order_relaxed);
	if (u > s->last_u)
		s->last_u = u;
	if (st > s->last_s)
		s->last_s = st;
	atomic_fetch_add_explicit(&s->samples, 1, memory_order_relaxed);
out:
	errno = saved;
}

/* --- segments -------------------------------------------------------- */

/* Close s's segment at now, the thread having used `cpu` ns in all. */
static int64_t seg_fill(struct prof_cpus_thread *s, int64_t now, int64_t cpu,
			struct prof_spool_seg *o)
{
	int64_t start = s->t0, wall = now - s->t0, dc, off, run = 0, delay;
	int i;

	if (wall < 0)
		wall = 0;
	if (cpu < 0) {
		/* A short segment: on a CPU all along, as far as we know. */
		dc = wall;
		s->credited += wall;
	} else {
		/* What the clock says since the last full segment, less what
		 * short segments were given (a debt when they were given too
		 * much: it is paid by later segments). */
		dc = cpu - s->cpu0;
		if (dc < 0)
			dc = 0;
		if (dc > wall)
			dc = wall;	/* the rest goes to the next segment */
		s->credited = 0;
		s->full = now;
	}
	off = wall - dc;
	if (off > SCHED_MIN_NS && read_delay(s, &delay) == 0) {
		run = delay - s->delay0;
		if (run < 0)
			run = 0;
		if (run > off)
			run = off;
		s->delay0 += run;
	}
	memset(o, 0, sizeof(*o));
	o->end = s->t0 + wall;
	o->cpu = dc;
	o->runnable = run;
	o->tid = (uint32_t)atomic_load(&s->tid);
	o->samples = atomic_exchange_explicit(&s->samples, 0, memory_order_relaxed);
	for (i = 0; i < PROF_SEG_NCAT; i++)
		o->w[i] = atomic_exchange_explicit(&s->w[i], 0, memory_order_relaxed);
	s->t0 += wall;
	s->cpu0 += dc;
	return start;
}

int prof_cpus_segment(struct prof_cpus_thread *t, int64_t now, struct prof_spool_seg *seg,
		      int64_t *start)
{
	int expect = 0;

	if (!t || atomic_load(&t->owned) != 1 ||
	    !atomic_compare_exchange_strong(&t->busy, &expect, 1))
		return 0;
	/* Reading the thread's CPU clock is a system call: not for short
	 * segments (since the last one that read it). */
	*start = seg_fill(t, now, now - t->full < SHORT_NS ? -1 :
			  clock_ns(CLOCK_THREAD_CPUTIME_ID), seg);
	atomic_store(&t->busy, 0);
	return 1;
}

struct prof_cpus_thread *prof_cpus_thread_own(int64_t start)
{
	struct prof_cpus_thread *s;
	pid_t tid = gettid_();

	if (!atomic_load(&running) || tid == atomic_load(&helper_tid))
		return NULL;
	pthread_mutex_lock(&slot_lock);
	s = slot_add(tid, start, 1);
	if (s)
		atomic_store(&s->owned, 1);
	pthread_mutex_unlock(&slot_lock);
	return s;
}

void prof_cpus_thread_done(struct prof_cpus_thread *t)
{
	if (t)
		atomic_store(&t->owned, 2);
}

/* --full-detail: the file of the code at ip, as its base name. */
static const char *ip_file(uintptr_t ip)
{
	Dl_info info;
	const char *f, *slash;

	if (!dladdr((void *)ip, &info))
		return "[unknown]";
	f = info.dli_fname && *info.dli_fname ? info.dli_fname : exe_name;
	slash = strrchr(f, '/');
	return slash ? slash + 1 : f;
}

/* --full-detail: the rows of s's kept samples; called with slot_lock held.
 * Samples that found no room are said in one warning. */
static void drain_samples(struct prof_cpus_thread *s)
{
	int32_t tid = atomic_load(&s->tid);
	uint32_t t = atomic_load_explicit(&s->tail, memory_order_relaxed);
	uint32_t h = atomic_load_explicit(&s->head, memory_order_acquire), lost;

	if (!emit_sample || tid <= 0)
		return;
	for (; t != h; t++) {
		const struct sample *e = &rings[s - slots][t % RING];

		emit_sample(e->t, (uint32_t)tid, e->cat, e->ns, ip_file(e->ip));
	}
	atomic_store_explicit(&s->tail, t, memory_order_release);
	if ((lost = atomic_exchange(&s->lost, 0)))
		emit_sample(core_clock_real_ns(), (uint32_t)tid, -1, lost, NULL);
}

static void drain_all_samples(void)
{
	size_t i;

	for (i = 0; i < NSLOTS; i++)
		drain_samples(&slots[i]);
}

/* Segments of threads that do not write their own; `all`: every slot. */
static void drain(int64_t now, int all, int gone_only)
{
	size_t i;

	for (i = 0; i < NSLOTS; i++) {
		struct prof_cpus_thread *s = &slots[i];
		struct prof_spool_seg seg;
		int32_t tid = atomic_load(&s->tid);
		int expect = 0, owned = atomic_load(&s->owned);
		int64_t cpu;

		if (tid <= 0 || owned == 2 || (owned == 1 && !all) || now <= s->t0)
			continue;
		if (gone_only && s->seen)
			continue;
		if (!atomic_compare_exchange_strong(&s->busy, &expect, 1))
			continue;
		cpu = clock_ns(thread_clock(tid));
		if (cpu < 0) {
			/* Gone: its samples tell what it used. */
			int k;

			cpu = s->cpu0;
			for (k = 0; k < PROF_SEG_NCAT; k++)
				cpu += atomic_load(&s->w[k]);
		}
		if (cpu > s->cpu0 || all || gone_only) {
			int64_t start = seg_fill(s, now, cpu, &seg);

			seg.tid = (uint32_t)tid;
			emit_seg(start, &seg);
		}
		atomic_store(&s->busy, 0);
	}
}

void prof_cpus_drain(int64_t now)
{
	if (!atomic_load(&running) || pthread_mutex_trylock(&slot_lock) != 0)
		return;
	drain_all_samples();
	drain(now, 1, 0);
	pthread_mutex_unlock(&slot_lock);
}

/* --- the helper thread ----------------------------------------------- */

static void scan(void)
{
	DIR *d = opendir("/proc/self/task");
	struct dirent *e;
	size_t i;

	if (!d)
		return;
	for (i = 0; i < NSLOTS; i++)
		slots[i].seen = 0;
	while ((e = readdir(d))) {
		pid_t tid = (pid_t)atoi(e->d_name);
		struct prof_cpus_thread *s;

		if (tid <= 0)
			continue;
		if ((s = slot_find(tid)))
			s->seen = 1;
		else
			slot_add(tid, 0, 1);
	}
	closedir(d);
}

static void *helper_main(void *arg)
{
	struct timespec ts = { 0, SCAN_NS };
	unsigned long n = 0;
	sigset_t set;

	(void)arg;
	sigemptyset(&set);
	sigaddset(&set, SIGPROF);
	pthread_sigmask(SIG_BLOCK, &set, NULL);
	pthread_setname_np(pthread_self(), "rlprof-sampler");
	atomic_store(&helper_tid, gettid_());
	pthread_mutex_lock(&helper_lock);
	emit_seg(0, NULL);	/* its name goes in the trace */
	/* Its own CPU time is in the trace too (as native, unsampled). */
	pthread_mutex_lock(&slot_lock);
	slot_add(gettid_(), core_clock_real_ns(), 0);
	pthread_mutex_unlock(&slot_lock);
	pthread_mutex_unlock(&helper_lock);
	sem_post(&helper_ready);
	while (atomic_load(&running)) {
		size_t i;

		nanosleep(&ts, NULL);
		pthread_mutex_lock(&helper_lock);
		table_update(0);
		pthread_mutex_lock(&slot_lock);
		scan();
		drain_all_samples();
		/* Threads gone since the last scan: their last segment. */
		drain(core_clock_real_ns(), 0, 1);
		for (i = 0; i < NSLOTS; i++)
			if (atomic_load(&slots[i].tid) > 0 && !slots[i].seen)
				slot_free(&slots[i]);
		if (++n % DRAIN_EVERY == 0)
			drain(core_clock_real_ns(), 0, 0);
		pthread_mutex_unlock(&slot_lock);
		pthread_mutex_unlock(&helper_lock);
	}
	return NULL;
}

static int helper_start(void)
{
	pthread_attr_t a;
	sigset_t all, old;
	int ret;

	pthread_attr_init(&a);
	pthread_attr_setdetachstate(&a, PTHREAD_CREATE_DETACHED);
	pthread_attr_setstacksize(&a, 256 * 1024);
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	sem_init(&helper_ready, 0, 0);
	ret = pthread_create(&helper, &a, helper_main, NULL);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	pthread_attr_destroy(&a);
	helper_started = ret == 0;
	return ret;
}

int prof_cpus_start(void (*emit)(int64_t, const struct prof_spool_seg *),
		    void (*sample)(int64_t, uint32_t, int, uint32_t, const char *), const char **why)
{
	const char *us = getenv(PROF_CPU_SAMPLE_ENV), *map = getenv(PROF_CATEGORIES_ENV);
	const char *rows = getenv(PROF_CPU_ROWS_ENV);
	const char *timer = getenv(PROF_CPU_TIMER_ENV);
	struct sigaction sa, old;
	long p = us ? strtol(us, NULL, 10) : 0;
	int line = 0;
	size_t i;

	*why = NULL;
	if (p <= 0)
		return 0;
	period_us = p < 50 ? 50 : p > 1000000 ? 1000000 : p;
	if (map && *map && prof_catmap_load(&catmap, map, &line) < 0) {
		*why = "cannot read the category map; CPU sampling is off";
		prof_catmap_release(&catmap);
		return -1;
	}
	if (sigaction(SIGPROF, NULL, &old) != 0 || old.sa_handler != SIG_DFL ||
	    (old.sa_flags & SA_SIGINFO)) {
		*why = "SIGPROF is in use; CPU sampling is off";
		return -1;
	}
	for (i = 0; i < NSLOTS; i++)
		slots[i].sched_fd = slots[i].perf_fd = -1;
	emit_seg = emit;
	if (rows && !strcmp(rows, "1")) {
		ssize_t n = readlink("/proc/self/exe", exe_name, sizeof(exe_name) - 1);

		exe_name[n > 0 ? n : 0] = 0;
		emit_sample = sample;
	}
	use_perf = timer && !strcmp(timer, "perf");
	table_update(1);
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_sigprof;
	sa.sa_flags = SA_SIGINFO | SA_RESTART;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGPROF, &sa, NULL);
	atomic_store(&running, 1);
	if (helper_start() != 0) {
		*why = "cannot start the sampler's thread; threads that do not record are not sampled";
		return 1;
	}
	return 1;
}

void prof_cpus_settle(void)
{
	struct timespec until;
	int saved = errno, ret;

	if (!atomic_load(&running) || !helper_started)
		return;
	/* Bounded: a helper that cannot run must not hang the exit. */
	clock_gettime(CLOCK_REALTIME, &until);
	until.tv_sec += 2;
	while ((ret = sem_timedwait(&helper_ready, &until)) != 0 && errno == EINTR)
		;
	if (ret == 0)
		sem_post(&helper_ready);	/* for the next caller */
	errno = saved;
}

void prof_cpus_before_fork(void)
{
	/* A helper still starting may be inside malloc, outside our lock. */
	prof_cpus_settle();
	pthread_mutex_lock(&helper_lock);
}

void prof_cpus_after_fork_parent(void)
{
	pthread_mutex_unlock(&helper_lock);
}

void prof_cpus_after_fork(void)
{
	size_t i;

	pthread_mutex_unlock(&helper_lock);
	if (!atomic_load(&running))
		return;
	/* Timers are not inherited; the slots of the parent's threads are
	 * stale (their fds we close). */
	for (i = 0; i < NSLOTS; i++) {
		if (slots[i].sched_fd >= 0)
			close(slots[i].sched_fd);
		slots[i].sched_fd = -1;
		if (slots[i].perf_fd >= 0)
			close(slots[i].perf_fd);
		slots[i].perf_fd = -1;
		slots[i].has_timer = 0;
		atomic_store(&slots[i].tid, 0);
		atomic_store(&slots[i].busy, 0);
	}
	pthread_mutex_init(&slot_lock, NULL);
	atomic_store(&helper_tid, 0);
	helper_start();
}
