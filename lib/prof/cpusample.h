/*
 * The CPU sampler of the recorder: which code each thread runs, and how
 * its wall time splits into on a CPU, runnable and blocked.
 *
 * Sampling: every thread of the process gets a POSIX timer on its CPU
 * clock (timer_create with SIGEV_THREAD_ID) that sends it SIGPROF every
 * period of CPU time it uses (PROF_CPU_SAMPLE_ENV microseconds, default
 * 1000).  The kernel checks such timers at its scheduler tick, so there is
 * a sample every tick at most (4 ms at HZ=250), whatever the period, and
 * no interrupt of its own.  With PROF_CPU_TIMER_ENV "perf" the thread gets
 * a perf event counting its user CPU time instead (PERF_COUNT_SW_TASK_CLOCK,
 * on a high-resolution timer: the period asked, at the cost of a timer
 * interrupt per sample, which in a virtual machine costs far more than
 * the handler), or the POSIX timer where perf events are refused.
 * The handler reads the interrupted instruction pointer, finds the
 * executable mapping that holds it (a sorted table built with
 * dl_iterate_phdr, rebuilt when a library is loaded or unloaded) and its
 * category (prof/catmap.h).  Code of an "inherit" file (the C library,
 * OpenMP) takes its caller's category: that of the first word on the stack
 * (256 words from the stack pointer, then the frame-pointer chain) that
 * points into code of a category, else the thread's last category.  Code of
 * an "interpreter" file (libpython) is python when the first such word is
 * in CPython's eval loop (or none is found), else that word's category: the
 * interpreter working for numpy or torch counts as theirs.  The handler
 * then adds the user CPU time the thread used since its last sample to
 * that category and the system time to "system" (getrusage
 * RUSAGE_THREAD: exact in sum, split between user and system by the
 * kernel's tick sampling).
 *
 * Segments: a thread's time is cut into segments at its operation
 * boundaries (push, pop, its end, the process's exit).  A segment gets
 * the thread's CPU time from its CPU clock (exact), its time runnable from
 * /proc/self/task/TID/schedstat (read only when the segment was off a CPU
 * for more than 50 us; what is not read then goes to a later segment), and
 * the sample weights that arrived in it.  Both are system calls: a
 * boundary less than 100 us after the last one that read the clock reads
 * nothing and counts its segment as on a CPU; the next full segment gets
 * the clock's time less what those were given (so sums stay exact, and a
 * block inside a short segment moves to the next full one).  Threads
 * that never record (a library's worker threads) are found by a helper
 * thread that lists /proc/self/task every 50 ms; it writes their segments
 * every 200 ms when they used CPU.  The helper thread ("rlprof-sampler")
 * is not sampled; its own CPU time is written as native, so that a
 * process's CPU time in the trace is all the kernel counts.
 *
 *	prof_cpus_start(emit)          once, in the recorder's init
 *	t = prof_cpus_thread_own()     a recording thread; NULL when off
 *	prof_cpus_segment(t, now, &seg, &start)   at each boundary; 1: emit
 *	prof_cpus_settle()             at a normal exit, before the drain
 *	prof_cpus_drain(now)           at exit, from the exiting thread
 *	prof_cpus_before_fork()        fork's prepare handler: the helper
 *	                               thread waits asleep until
 *	prof_cpus_after_fork_parent()  in the parent, or
 *	prof_cpus_after_fork()         in a fork()ed child (a new helper)
 */
#ifndef PROF_CPUSAMPLE_H
#define PROF_CPUSAMPLE_H

#include <stdint.h>

#include "prof/spool.h"

#define PROF_CPU_SAMPLE_ENV "RLPROF_CPU_SAMPLE_US"
#define PROF_CATEGORIES_ENV "RLPROF_CATEGORIES"
/* "perf": sample with perf events where they work (default: POSIX CPU timers). */
#define PROF_CPU_TIMER_ENV "RLPROF_CPU_TIMER"
/* "1": each sample also becomes a row (rlprof-record --full-detail). */
#define PROF_CPU_ROWS_ENV "RLPROF_CPU_SAMPLE_ROWS"

struct prof_cpus_thread;

/* Start sampling, when PROF_CPU_SAMPLE_ENV is above 0 and SIGPROF is
 * free; `emit` writes a segment record from the calling thread (the
 * helper's or the exiting one's); emit(0, NULL) just makes the calling
 * thread known to the recorder.  With PROF_CPU_ROWS_ENV "1", `sample`
 * writes each sample likewise (at most 50 ms after it was taken: the
 * handler keeps it in its thread's ring of 256): its time, thread,
 * category (PROF_SEG_*) and CPU ns, and the base name of the file of its
 * code; sample(t, tid, -1, n, NULL) says that n samples of the thread
 * found its ring full.  Returns 1 when sampling, 0 when off, -1 when it
 * could not start (`why` says: the category map, SIGPROF). */
int prof_cpus_start(void (*emit)(int64_t start, const struct prof_spool_seg *seg),
		    void (*sample)(int64_t t, uint32_t tid, int cat, uint32_t ns, const char *file),
		    const char **why);

/* The calling thread's slot, making one (and its timer) if needed; the
 * thread then writes its own segments.  `start`: when its first segment
 * starts (0: now). */
struct prof_cpus_thread *prof_cpus_thread_own(int64_t start);

/* Close the thread's segment at `now` into *seg, its start in *start: 1
 * when there is one. */
int prof_cpus_segment(struct prof_cpus_thread *t, int64_t now, struct prof_spool_seg *seg,
		      int64_t *start);

/* The calling thread ends: no more segments of its slot. */
void prof_cpus_thread_done(struct prof_cpus_thread *t);

/* Write the open segment of every other thread (the process exits). */
void prof_cpus_drain(int64_t now);

/* Waits (2 s at most) until the helper thread has put its row in the trace,
 * so that a program that ends (or forks) before the thread first ran still
 * has it.  Not
 * from a signal handler; not from the recorder's init (the helper's first
 * record waits for init to end). */
void prof_cpus_settle(void);

void prof_cpus_before_fork(void);
void prof_cpus_after_fork_parent(void);
void prof_cpus_after_fork(void);

#endif
