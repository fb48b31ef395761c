/* lib/fiber internals: the heartbeat's bookkeeping (PINGs due, a silent
 * peer lost after the bound, never before) and PING/PONG frames. */
#include <string.h>

#include "core/buf.h"
#include "fiber/heartbeat.h"
#include "fiber/wire.h"
#include "test.h"

#define S 1000000000LL

static void test_bound(void)
{
	struct fiber_heartbeat h;
	int64_t t = 5 * S;
	int pings = 0, i;

	fiber_heartbeat_start(&h, 2 * S, t);
	TEST_EQ_LONG(fiber_heartbeat_check(&h, t), FIBER_HB_NONE, "nothing due at the start");
	/* A silent peer: PINGs every bound / 4, lost only past the bound. */
	for (i = 1; i <= 20; i++) {
		int r = fiber_heartbeat_check(&h, t + i * S / 10);

		if (i <= 20 && r == FIBER_HB_PING)
			pings++;
		TEST_OK(r != FIBER_HB_LOST, "not lost within the bound (%d/10 s)", i);
	}
	TEST_EQ_LONG(pings, 4, "a PING every bound / 4 while silent");
	TEST_EQ_LONG(h.pings, 4, "counted");
	TEST_EQ_LONG(fiber_heartbeat_check(&h, t + 2 * S + 1), FIBER_HB_LOST, "lost just past the bound");
	/* Heard: a fresh bound from then. */
	fiber_heartbeat_heard(&h, t + 2 * S);
	TEST_OK(fiber_heartbeat_check(&h, t + 3 * S) != FIBER_HB_LOST, "heard: not lost");
	TEST_EQ_LONG(fiber_heartbeat_check(&h, t + 4 * S + 1), FIBER_HB_LOST, "silent again: lost");
	/* Hearing from the past never moves the clock back. */
	fiber_heartbeat_heard(&h, t);
	TEST_EQ_LONG(h.heard_ns, t + 2 * S, "heard time only moves forward");
}

static void test_off(void)
{
	struct fiber_heartbeat h;

	fiber_heartbeat_start(&h, 0, 0);
	TEST_EQ_LONG(fiber_heartbeat_check(&h, 1000 * S), FIBER_HB_NONE, "bound 0: never pings, never lost");
}

static void test_frames(void)
{
	struct core_buf b = CORE_BUF_INIT;
	struct fiber_frame f;

	TEST_EQ_LONG(fiber_frame_put(&b, FIBER_PING, 7, NULL, 0), 0, "PING");
	TEST_EQ_LONG(fiber_frame_put(&b, FIBER_PONG, 7, NULL, 0), 0, "PONG");
	TEST_EQ_LONG(fiber_frame_next(&b, 16, &f), 1, "PING is a known type");
	TEST_OK(f.type == FIBER_PING && f.seq == 7 && f.len == 0, "PING 7, no body");
	TEST_EQ_LONG(fiber_frame_next(&b, 16, &f), 1, "PONG is a known type");
	TEST_OK(f.type == FIBER_PONG && f.seq == 7, "PONG answers 7");
	core_buf_release(&b);
}

int main(void)
{
	test_bound();
	test_off();
	test_frames();
	return test_done();
}
