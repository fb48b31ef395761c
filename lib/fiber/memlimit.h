/*
 * --mem-limit on a worker's host: a memory cgroup for the processes it
 * limits, else RLIMIT_AS, and what their end says about memory.
 *
 *	struct fiber_memlimit m = FIBER_MEMLIMIT_INIT;
 *	fiber_memlimit_init(&m, bytes);
 *	fiber_memlimit_spawn(&m, &sp);		(for each command it starts)
 *	before = fiber_memlimit_kills(&m);
 *	... core_spawn_start(&sp, ...), waitpid(sp.pid, &st, 0) ...
 *	if (fiber_memlimit_explain(&m, before, st, &tail, "command", why, sizeof(why)) > 0) ...
 *	fiber_memlimit_release(&m);
 *
 * The group: under cgroup v2, a new group beside or below our own (the
 * first whose parent hands the memory controller down and lets us move a
 * process there) with memory.max and memory.swap.max 0; under cgroup v1,
 * a group below our own in the memory hierarchy with
 * memory.limit_in_bytes (and memory.memsw.limit_in_bytes, where swap is
 * accounted).  It is named fiberrun-PID-N, PID ours: groups of processes
 * that are gone (an agent killed before it could remove them) are
 * removed by the next fiber_memlimit_init beside them.  A command joins
 * the group itself before it execs (core_spawn's cgroup_fd), so all it
 * starts is in it too.  Where no group can be made (no memory
 * controller, no permission), or FIBERRUN_MEM_LIMIT_RLIMIT is set (for
 * tests), the commands get RLIMIT_AS instead.  The agent makes the group;
 * the --each runner attaches to it (fiber_memlimit_attach) to put each
 * task's command in it, staying out of it itself.
 *
 * What the end tells: in a group, the kernel counts the processes it
 * killed for the limit (memory.events or memory.oom_control: oom_kill),
 * so a kill is known for certain.  RLIMIT_AS makes allocations fail;
 * what a program does then (MemoryError, a null pointer, abort) looks
 * like other failures.
 */
#ifndef FIBER_MEMLIMIT_H
#define FIBER_MEMLIMIT_H

#include <limits.h>
#include <stddef.h>
#include <sys/types.h>

#include "core/spawn.h"

enum fiber_memlimit_kind {
	FIBER_MEMLIMIT_NONE,
	FIBER_MEMLIMIT_RLIMIT,
	FIBER_MEMLIMIT_CGROUP1,
	FIBER_MEMLIMIT_CGROUP2,
};

struct fiber_memlimit {
	unsigned long long bytes;	/* the limit; 0: none */
	int kind;			/* enum fiber_memlimit_kind */
	int procs_fd;			/* the group's cgroup.procs, or -1 */
	char dir[PATH_MAX];		/* the group's folder, or "" */
	int owned;			/* ours to remove */
};

#define FIBER_MEMLIMIT_INIT { 0, FIBER_MEMLIMIT_NONE, -1, "", 0 }

/* FIBERRUN_MEM_LIMIT (bytes, set by --mem-limit), or 0. */
unsigned long long fiber_memlimit_from_env(void);

/*
 * Make the group for a limit of `bytes` (0: no limit, nothing is done).
 * Never fails: without a group, the limit is RLIMIT_AS.
 */
void fiber_memlimit_init(struct fiber_memlimit *m, unsigned long long bytes);

/*
 * Use the group `dir` that another process made and removes (the agent,
 * for the --each runner, whose commands join it one at a time): as
 * fiber_memlimit_init, but without making or removing a group; with dir
 * NULL or not a group, RLIMIT_AS.
 */
void fiber_memlimit_attach(struct fiber_memlimit *m, unsigned long long bytes, const char *dir);

/* Put the limit on a command about to be started. */
void fiber_memlimit_spawn(const struct fiber_memlimit *m, struct core_spawn *sp);

/* Processes the kernel has killed in the group for its limit; -1: not known. */
long fiber_memlimit_kills(const struct fiber_memlimit *m);

/*
 * The end of a command's standard error, where Python's last words are
 * (its traceback ends with a line "MemoryError" when an allocation failed).
 */
struct fiber_memlimit_tail {
	char b[256];
	size_t n;
};

void fiber_memlimit_tail_add(struct fiber_memlimit_tail *t, const char *p, size_t n);

/*
 * One read of a command's standard error (fd), passed on to ours and its
 * end kept in t: what read(2) gave, or -errno.
 */
ssize_t fiber_memlimit_tail_pass(struct fiber_memlimit_tail *t, int fd);

/*
 * Why the `who` ("command", "worker") that ended with the wait(2) status
 * `wstatus` ended, when memory explains it, into buf:
 * 2 and "out of memory: the WHO was killed by the kernel at its
 * --mem-limit of N bytes (memory cgroup)" (or "the kernel killed a
 * process of the WHO ..., and the WHO ended with exit 1") when the kernel
 * killed a process of the group for its limit since fiber_memlimit_kills()
 * returned `before`: certain; also 2 and "out of memory: the WHO raised
 * MemoryError at its --mem-limit of N bytes (RLIMIT_AS), and ended with
 * exit 1" under RLIMIT_AS when it ended with a failure status and the
 * last line of its standard error (`tail`, or NULL) is Python's
 * "MemoryError";
 * 1 and "the WHO ended with signal SIGSEGV, perhaps out of memory: its
 * address space was limited to N bytes by --mem-limit (RLIMIT_AS)" when,
 * under RLIMIT_AS, it was killed by SIGSEGV, SIGBUS, SIGABRT or SIGKILL:
 * how programs die when allocations fail, but not only then;
 * 0 and "" when memory does not explain it.
 */
int fiber_memlimit_explain(const struct fiber_memlimit *m, long before, int wstatus,
			   const struct fiber_memlimit_tail *tail, const char *who,
			   char *buf, size_t size);

/* Kill what is left in the group and remove it. */
void fiber_memlimit_release(struct fiber_memlimit *m);

/*
 * Remove the group `dir`, killing what is in it, trying `tries` more
 * times 2 ms apart while processes are still leaving it: 0 or -1.
 * Async-signal-safe, for a signal handler that ends the program.
 */
int fiber_memlimit_remove(const char *dir, int tries);

#endif
