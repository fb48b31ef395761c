/*
 * TCP endpoints for the master and the agents.
 *
 * Addresses are "HOST:PORT", "[V6ADDR]:PORT" or "HOST" (port 0: any free
 * port).  The master listens on loopback (127.0.0.1) unless told
 * otherwise.  Sockets are close-on-exec; fiber_net_listen's is
 * non-blocking.
 */
#ifndef FIBER_NET_H
#define FIBER_NET_H

#include "core/error.h"

/*
 * Listen on `addr`.  Returns the socket or a negative code; *port gets the
 * port actually bound.
 */
int fiber_net_listen(const char *addr, int *port, struct core_error *err);

/*
 * Connect to `addr` (a port is required), trying each resolved address,
 * within `timeout_ms`.  Returns a blocking socket with TCP_NODELAY set, or
 * a negative code.
 */
int fiber_net_connect(const char *addr, int timeout_ms, struct core_error *err);

/*
 * Split "HOST:PORT" / "[V6]:PORT" / "HOST" into host (malloc'd, without
 * brackets) and port string (malloc'd, "0" when absent).  0 or -EINVAL.
 */
int fiber_net_split(const char *addr, char **host, char **port);

/*
 * TCP_NODELAY, and keepalive probes that declare a silent peer dead after
 * about 30 seconds (a host that vanished without closing its connections).
 */
void fiber_net_tune(int fd);

/* Set O_NONBLOCK (on = 1) or clear it.  0 or -errno. */
int fiber_fd_nonblock(int fd, int on);

#endif
