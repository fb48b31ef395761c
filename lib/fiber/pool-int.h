/*
 * The pool's insides, shared by its modules (not an API):
 *   pool.c         the event loop, signals, deadlines, set-up and teardown
 *   pool-input.c   task input, bad lines, resume from the joblog
 *   pool-output.c  how a task ends: records, joblog, output (-k spill)
 *   pool-conn.c    connections: admission, handshake, buffers
 *   pool-worker.c  workers: start, frames, dispatch, loss, stop
 *   pool-hosts.c   elastic hosts: the hosts file re-read, workers join and leave
 */
#ifndef FIBER_POOL_INT_H
#define FIBER_POOL_INT_H

#include "fiber/pool.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <jansson.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/clock.h"
#include "core/grow.h"
#include "core/input.h"
#include "core/json.h"
#include "core/map.h"
#include "core/ring.h"
#include "core/utf8.h"
#include "fiber/heartbeat.h"
#include "fiber/joblog.h"
#include "fiber/net.h"
#include "fiber/proc.h"
#include "fiber/record.h"
#include "fiber/spill.h"
#include "fiber/task.h"
#include "fiber/taskq.h"
#include "fiber/wire.h"

#define AUTH_TIMEOUT_NS (10 * 1000000000LL)
/* A connection that has not said HELLO with a live worker's token by then is dropped. */
#define HELLO_TIMEOUT_NS (2 * 1000000000LL)
#define START_TIMEOUT_S 120.0
#define ORDER_MEMORY_DEFAULT ((size_t)64 << 20)
#define STOP_GRACE_NS (5 * 1000000000LL)
#define SLOT_MAX_FAILS 5
#define TICK_MS 100
/* Starts per turn of the loop, so that handshakes are served meanwhile. */
#define STARTS_PER_TURN 16

/* EV_CLOSED: a connection closed while events for it may still be in hand. */
enum { EV_LISTEN = 1, EV_INPUT, EV_SIGNAL, EV_CONN, EV_CLOSED };
enum { W_IDLE, W_STARTING, W_READY, W_STOPPING, W_GONE };

struct ev {
	int kind;
};


struct worker;

struct conn {
	struct ev ev;
	int fd;
	int stage;		/* 0 wants HELLO, 1 wants AUTH, 2 attached */
	int vouched;		/* its HELLO named the token of a worker we started */
	int watching_out;
	uint64_t token;
	uint8_t nonce_w[FIBER_NONCE_LEN], nonce_m[FIBER_NONCE_LEN];
	int64_t deadline;
	struct core_buf in, out;
	/*
	 * A long task's body is sent from the task's own line, not copied
	 * into `out`: it goes after the first body_before pending bytes of
	 * `out` (its frame header last among them), before the rest.
	 * body_own: this connection's copy, made when the task ended while
	 * its body was still being sent (pool_conn_unborrow).
	 */
	const char *body;
	char *body_own;
	size_t body_len, body_sent, body_before;
	struct worker *w;
	struct conn *next, *prev;	/* unattached connections */
};
/* Task bodies from this size on are borrowed by the connection, not copied. */
#define POOL_BODY_BORROW_MIN ((size_t)64 << 10)

struct worker {
	long index;
	int state;
	uint64_t token;
	struct fiber_proc proc;
	struct conn *c;
	char *slot_host;		/* from the hosts file (owned), or NULL */
	char host[256];
	struct core_ring fifo;		/* tasks sent, oldest first */
	int64_t head_start_ns, since_ns, retry_ns;	/* head_start_ns 0: not started */
	int ready;		/* the command said it is ready (READY) */
	int leaving;		/* its host left the hosts file: no new tasks, then STOP */
	int fails;
	char exit_kind;
	int exit_status;
	char reason[256];
	char last_why[160];	/* the reason of its last loss */
	struct fiber_heartbeat hb;	/* while connected */
};

struct pool {
	const struct fiber_pool_opts *o;
	double task_ns_avg;	/* recent tasks' mean run time (pool-window.c); 0: none yet */
	struct fiber_pool_stats *st;
	struct core_error *err;
	int ep, lfd, sfd;
	struct ev ev_listen, ev_input, ev_signal;
	char addr[320], secret[FIBER_SECRET_HEX_LEN + 1], size[32];
	struct worker **w;	/* every worker ever made, by number; never moved */
	long nw;
	size_t w_cap;
	long leaving_ready;	/* ready workers leaving, not yet told to STOP */
	long want;		/* workers wanted now: -n, or the hosts file's slots */
	long live_slots;
	struct conn *pending;
	struct conn *closed;	/* closed, freed once no event can name them */
	long npending;
	pid_t *kids;
	size_t nkids, kids_cap;
	/* input */
	struct core_jsonl_reader *in;
	int in_reads;		/* read(2) calls the reader may still make */
	long lineno;
	int in_eof, in_ready, in_poll;
	struct fiber_taskq q;
	uint64_t *done;
	size_t ndone, done_cap;
	struct core_map seen, logged;
	struct fiber_joblog jl;
	long unfinished;	/* tasks read and not done */
	size_t held;		/* -k: bytes of records waiting in memory */
	struct fiber_spill spill;
	int stopping, draining, failed;
	int warned_idle;
	char last_loss[160];	/* why the last worker was lost, for "no workers left" */
	int backlog;		/* workers still waiting to be started */
	int64_t stop_ns;
	int64_t hb_bound_ns;	/* --heartbeat; 0: none */
	int64_t tick_ns;	/* the last pool_tick */
	/* elastic hosts (pool-hosts.c) */
	int reload;		/* SIGHUP: re-read the hosts file */
	int64_t hosts_check_ns;	/* next look at the file's status */
	struct stat hosts_st, hosts_seen;	/* loaded; last seen (a change must settle) */
};

/* pool.c: one-line warnings; a fatal error stops everything, keeping the first message. */
void pool_warn(struct pool *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void pool_note(struct pool *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int pool_fail(struct pool *p, int code);

/* pool-input.c: lines become tasks (or "invalid" records, or resumed records). */
int pool_take_line(struct pool *p, json_t *v, const char *line, size_t len, const char *bad);
ssize_t pool_input_read(void *ctx, char *buf, size_t n);
int pool_read_input(struct pool *p);
int pool_want_input(const struct pool *p);

/* pool-output.c: the one way a task ends, and writing records out (journal first). */
int pool_task_done(struct pool *p, struct fiber_task *t);
void pool_task_finish(struct pool *p, struct fiber_task *t, const char *status,
		      const char *result, size_t len, const char *error, struct worker *w,
		      int64_t start_ns);
int pool_emit(struct pool *p);
void pool_fail_waiting(struct pool *p);

/* pool-conn.c: unauthenticated connections, admission, the handshake. */
void pool_pending_unlink(struct pool *p, struct conn *c);
void pool_conn_close(struct pool *p, struct conn *c);
void pool_conn_free_closed(struct pool *p);
int pool_conn_flush(struct pool *p, struct conn *c);
/* Queue a TASK frame of t on c: 0, -EBUSY (c is still sending a long body), -ENOMEM. */
int pool_conn_put_task(struct conn *c, const struct fiber_task *t);
/* A task line about to be freed: connections still sending it take a copy. */
int pool_conn_unborrow(struct pool *p, const char *line);
void pool_conn_handshake(struct pool *p, struct conn *c);
void pool_conn_event(struct pool *p, struct conn *c, uint32_t events);
int pool_make_room(struct pool *p);
void pool_accept_conns(struct pool *p);

/* pool-worker.c: starting, feeding, losing and stopping workers. */
void pool_kid_add(struct pool *p, pid_t pid);
void pool_kid_del(struct pool *p, pid_t pid);
int pool_start_worker(struct pool *p, struct worker *w);
void pool_stop_proc(struct pool *p, struct worker *w, int sig);
void pool_worker_lost(struct pool *p, struct worker *w, const char *why, int timed_out);
int pool_worker_frames(struct pool *p, struct worker *w);
void pool_worker_write_failed(struct pool *p, struct worker *w);
void pool_dispatch(struct pool *p, struct worker *w, long upto, size_t keep);
void pool_reap(struct pool *p);
void pool_stop_workers(struct pool *p);
int pool_all_gone(const struct pool *p);
/* A new worker (state W_IDLE, started by pool_tick) on `host` (may be NULL). */
struct worker *pool_worker_add(struct pool *p, const char *host);

/*
 * pool-hosts.c: with o->hosts_file, SIGHUP (p->reload) or a change of the
 * file that has settled re-reads it; hosts (or slots) added get new
 * workers, the workers of hosts removed leave (pool_worker_retire).
 */
#define HOSTS_CHECK_NS 500000000LL
void pool_hosts_watch(struct pool *p, int64_t now);
void pool_hosts_reload(struct pool *p, const char *why);
/*
 * A worker whose host was removed: one not yet ready (or starting, or
 * waiting to start) gives its tasks back without an attempt counted and
 * stops; a ready one gets no new task, finishes those it holds, then
 * stops (pool_leaving_stop).  It is not replaced.
 */
void pool_worker_retire(struct pool *p, struct worker *w);
/* Ready workers leaving whose tasks are all answered are told to STOP. */
void pool_leaving_stop(struct pool *p);

/*
 * The prefetch window (pool-window.c): with prefetch_max, tasks sent ahead
 * to a worker grow from prefetch up to prefetch_max so that each worker
 * has about POOL_WINDOW_NS of work queued: trivial tasks are pipelined,
 * long ones stay at prefetch.
 */
#define POOL_WINDOW_NS 1000000.0
void pool_window_note(struct pool *p, int64_t ns);
long pool_window(const struct pool *p);

#endif
