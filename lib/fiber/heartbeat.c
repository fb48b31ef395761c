#include "fiber/heartbeat.h"

void fiber_heartbeat_start(struct fiber_heartbeat *h, int64_t bound_ns, int64_t now)
{
	h->bound_ns = bound_ns > 0 ? bound_ns : 0;
	h->heard_ns = h->pinged_ns = now;
	h->pings = 0;
}

void fiber_heartbeat_heard(struct fiber_heartbeat *h, int64_t now)
{
	if (now > h->heard_ns)
		h->heard_ns = now;
}

int fiber_heartbeat_check(struct fiber_heartbeat *h, int64_t now)
{
	if (!h->bound_ns)
		return FIBER_HB_NONE;
	if (now - h->heard_ns > h->bound_ns)
		return FIBER_HB_LOST;
	if (now - h->pinged_ns >= h->bound_ns / 4) {
		h->pinged_ns = now;
		h->pings++;
		return FIBER_HB_PING;
	}
	return FIBER_HB_NONE;
}
