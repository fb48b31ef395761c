/*
 * Liveness of a worker's connection, as the master sees it: an
 * application heartbeat on top of the wire protocol (wire.h).
 *
 * The master sends PING to a connected worker's agent every bound / 4;
 * the agent answers PONG at once, whatever its command is doing, so a
 * long task is never taken for a dead host.  Anything that arrives from
 * the worker counts as heard.  A worker not heard for `bound` is lost:
 * its host vanished (link down, processes stopped, a frozen machine),
 * which TCP alone may not notice for minutes, or ever (the kernel of a
 * host whose processes are stopped still acknowledges).
 *
 * So a vanished host is noticed between bound and bound plus one turn of
 * the pool's loop (100 ms) after it was last heard.  A master that was
 * itself held up (its loop stalled longer than bound / 2) gives every
 * worker a fresh bound (fiber_heartbeat_heard for each), instead of
 * blaming them for its own silence.
 *
 * Pure bookkeeping on the caller's monotonic clock: no I/O, no threads.
 */
#ifndef FIBER_HEARTBEAT_H
#define FIBER_HEARTBEAT_H

#include <stdint.h>

#define FIBER_HEARTBEAT_DEFAULT_S 30.0

struct fiber_heartbeat {
	int64_t bound_ns;	/* 0: no heartbeat (never lost, never pings) */
	int64_t heard_ns;	/* when the peer was last heard */
	int64_t pinged_ns;	/* when we last sent PING */
	uint64_t pings;		/* PINGs sent (their sequence numbers) */
};

enum { FIBER_HB_NONE, FIBER_HB_PING, FIBER_HB_LOST };

/* Start watching a peer from `now`, losing it after `bound_ns` of silence. */
void fiber_heartbeat_start(struct fiber_heartbeat *h, int64_t bound_ns, int64_t now);

/* Something arrived from the peer. */
void fiber_heartbeat_heard(struct fiber_heartbeat *h, int64_t now);

/*
 * What to do at `now`: FIBER_HB_LOST when the peer has been silent for
 * longer than the bound, FIBER_HB_PING when a PING is due (it is then
 * counted as sent), else FIBER_HB_NONE.
 */
int fiber_heartbeat_check(struct fiber_heartbeat *h, int64_t now);

#endif
