/*
 * The task pool (`fiberrun --pool`): reads tasks from an input stream,
 * keeps `workers` agents busy through a backend, and writes one result
 * record per task (man/man5/fiberrun-protocol.5).
 *
 * Guarantees:
 *   - every task read ends in exactly one record: "ok", "error" (the
 *     worker answered with an error), "failed" (its workers were lost
 *     `retries` times), "timeout" (its last attempt ran longer than
 *     `timeout_s` from when a ready worker took it) or "invalid" (its
 *     line is not a task; see on_bad_input);
 *   - a task whose worker is lost goes back to the front of the queue;
 *     only the attempt that was running counts, tasks merely queued at
 *     that worker (prefetch) do not;
 *   - lost workers are replaced; a worker slot that fails `retries` times
 *     in a row without finishing a task is given up, and when every slot
 *     is given up the remaining tasks fail;
 *   - with a joblog, records are fsynced there before they are written
 *     out, and before their worker gets another task (so at most
 *     workers x prefetch tasks are in flight unjournalled, the bound on
 *     re-runs per kill of the master); with `resume` tasks already in the
 *     joblog are not run: their records are written out again, so the
 *     output is complete;
 *   - input is read while fewer than max(65536, 4 x workers x prefetch)
 *     tasks are unfinished: a slow task stalls no other worker; with
 *     keep_order, records waiting for their turn beyond order_memory
 *     bytes wait in a temporary file.
 *
 * The pool owns the process's SIGCHLD, SIGINT, SIGTERM and SIGHUP while it
 * runs (blocked, read through a signalfd).  SIGINT, SIGTERM and SIGHUP stop
 * it cleanly: no new tasks, workers stopped, finished records written.
 *
 * Elastic hosts (hosts_file set): SIGHUP re-reads the hosts file instead
 * of stopping the run, and so does a change of the file once it has been
 * left alone for HOSTS_CHECK_NS (a file renamed over it: at the next look).  The
 * workers wanted on each host are placed again by fiber_hosts_place over
 * the new list (workers_auto: as many as its slots); a host with more
 * gets new workers, a host with fewer (or removed) has its newest workers
 * leave: they take no new task, finish those they hold (at most their
 * prefetch window; none runs twice), and stop.  A file that cannot be
 * read or lists no host is warned about and the hosts stay as they are.
 */
#ifndef FIBER_POOL_H
#define FIBER_POOL_H

#include <stdio.h>

#include "core/error.h"
#include "fiber/backend.h"

/* What a bad input line (invalid JSON, over --max-line) becomes. */
enum { FIBER_BAD_INPUT_FAIL, FIBER_BAD_INPUT_SKIP, FIBER_BAD_INPUT_ABORT };

struct fiber_pool_stats;

struct fiber_pool_opts {
	long workers;		/* number of workers */
	long prefetch;		/* tasks in flight per worker */
	long prefetch_max;	/* above prefetch: grow up to this for short tasks (auto) */
	long retries;		/* attempts per task */
	double timeout_s;	/* per task; 0 for none */
	int keep_order;		/* records in input order */
	int lines;		/* plain lines instead of JSON Lines */
	const char *joblog;	/* or NULL */
	int resume;
	char *const *argv;	/* the worker command */
	struct fiber_backend *backend;
	const char *bind;	/* listen address, "127.0.0.1:0" by default */
	int in_fd;		/* tasks */
	const char *in_name;	/* for messages */
	FILE *out;		/* records */
	size_t frame_max;	/* longest task or result line */
	int proto2;		/* worker protocol 2; 0: the lines protocol */
	double start_timeout_s;	/* start to ready, per worker; 0: 120 s */
	int on_bad_input;	/* FIBER_BAD_INPUT_* */
	size_t order_memory;	/* -k: records held in memory, beyond it on disk; 0: 64 MiB */
	const char *advertise;	/* HOST:PORT the workers connect to; NULL: the bound address */
	double heartbeat_s;	/* a connected worker silent this long is lost; 0: 30 s, < 0: never */
	int resume_failed;	/* with resume: run again tasks whose record is not "ok" */
	const char *hosts_file;	/* elastic: the file backend->hosts came from; NULL: fixed hosts */
	int workers_auto;	/* with hosts_file: workers follow the file's slots (no -n) */
	/*
	 * Called once per turn of the event loop (about every 100 ms at
	 * least), with the counts so far and whether the input has ended
	 * (then stats->tasks is the total); may be NULL.
	 */
	void (*progress)(void *ctx, const struct fiber_pool_stats *stats, int input_done);
	void *progress_ctx;
	/* Called with one-line warnings (a worker lost...); may be NULL. */
	void (*warn)(void *ctx, const char *msg);
	/* Called with one-line notes (the hosts file re-read), with warn_ctx; may be NULL. */
	void (*note)(void *ctx, const char *msg);
	void *warn_ctx;
};

struct fiber_pool_stats {
	long tasks, ok, failed, resumed;	/* failed: every status but ok */
	long invalid, skipped;		/* bad input lines: records, dropped */
	long workers_started, workers_lost, rejected;
	long workers_missing;	/* lost: fiberrun would not start on their host (127) */
	long abandoned;		/* failed with "no workers left" */
	long reloads, workers_joined, workers_left;	/* elastic hosts */
	int signal;		/* the signal that stopped the run, or 0 */
	int fatal_status;	/* 126/127: the worker command cannot run */
};

/*
 * Run to the end of input (or a stopping signal).  Returns 0 when the run
 * went through (see stats for failed tasks and signals), or a negative
 * code with err set (bad input, joblog or output error, the worker command
 * cannot run: then stats->fatal_status is 126 or 127).
 */
int fiber_pool_run(const struct fiber_pool_opts *o, struct fiber_pool_stats *stats,
		   struct core_error *err);

#endif
