/*
 * The in-process recorder: what runs inside the program being profiled.
 * The NVTX injection library, the C API (prof/rlprof.h) and the Python
 * module all record through it.
 *
 * It switches itself on, once per process image, when the environment
 * names a spool folder (PROF_SPOOL_ENV, set by rlprof-record); otherwise
 * every call returns at once.  Design, for low overhead and robustness:
 *
 * - Each thread appends records to its own buffer (RLPROF_BUFFER_KB KiB,
 *   default 256): no locks, no system calls; timestamps come from
 *   clock_gettime(CLOCK_REALTIME), a vDSO call.  A full buffer goes to the
 *   process's spool file with one write(2) (see prof/spool.h).
 * - At exit (any thread calling exit()), at a thread's end, and on a fatal
 *   signal (SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, and SIGTERM, SIGINT,
 *   SIGHUP, SIGQUIT when the program leaves them at their default action)
 *   every buffer is written out with write(2) only, with a record saying how
 *   the process ended; then the signal takes its default action.
 * - In a fork()ed child the buffers of the parent are dropped (the parent
 *   writes them) and the child gets its own spool file.
 * - Names are copied, so callers may free them once a call returns; text is
 *   cut to PROF_SPOOL_TEXT_MAX bytes.
 *
 * Domains are small integers: 0 is the default domain; others come from
 * prof_rec_domain().  Push/pop stacks are per thread and domain; they are
 * paired by rlprof-record, not here, so unbalanced calls cost nothing and
 * are reported in the trace.
 *
 * Not recorded: what a process buffered when it calls exec() or _exit()
 * (call prof_rec_finish() first), or when it is killed by SIGKILL.
 */
#ifndef PROF_RECORDER_H
#define PROF_RECORDER_H

#include <stddef.h>
#include <stdint.h>
#include <wchar.h>

#include "prof/spool.h"

#define PROF_REC_BUFFER_ENV "RLPROF_BUFFER_KB"

/* 1 when this process is being recorded (initializes on first use). */
int prof_rec_active(void);

/* Append one record of `type` (prof/spool.h) to the calling thread's
 * buffer.  `text` may be NULL; `len` is its length in bytes. */
void prof_rec_add(enum prof_spool_type type, uint32_t domain, uint64_t u,
		  uint8_t arg, const char *text, size_t len);

/* The same with the record's time given (CLOCK_REALTIME ns), for events
 * that others timed (CUPTI's activity records). */
void prof_rec_add_at(int64_t t, enum prof_spool_type type, uint32_t domain,
		     uint64_t u, uint8_t arg, const char *text, size_t len);

/*
 * A function that prof_rec_finish calls first, before it writes the
 * buffers out (at exit and on the fatal-signal paths), so that events
 * others hold (CUPTI's activity buffers) get recorded: `sig` is 0 at exit
 * or prof_rec_finish, else the signal.  One hook per process; NULL removes
 * it.  The hook may add records from any thread.
 */
void prof_rec_set_finish_hook(void (*hook)(int sig));

/* Convert a wide (UTF-32) string to UTF-8 in dst (cap >= 1 bytes, always
 * NUL-terminated, cut at a character boundary); returns its length. */
size_t prof_rec_utf8(char *dst, size_t cap, const wchar_t *w);

/* Push and pop on the calling thread's stack of `domain`; return the
 * nesting level of the range opened or closed (0 outermost), counted over
 * all domains of the thread, or -1 when not recording. */
int prof_rec_push(uint32_t domain, const char *name);
int prof_rec_pop(uint32_t domain);

/* A process-wide unique, non-zero id for start/end ranges. */
uint64_t prof_rec_range_id(void);

/* The id of the domain named `name`, the same for the same name; the
 * first call records its name.  0 when not recording. */
uint32_t prof_rec_domain(const char *name);

/* Write out every thread's buffer and stop recording in this process
 * image, as at exit: call it before exec() or _exit(). */
void prof_rec_finish(void);

#endif
