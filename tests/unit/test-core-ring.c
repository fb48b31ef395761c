/* core/ring.h: order across wrap-around and growth, both ends. */
#include <errno.h>
#include <stdint.h>

#include "core/ring.h"
#include "test.h"

static void test_fifo(void)
{
	struct core_ring r = CORE_RING_INIT;
	uint64_t next_in = 0, next_out = 0;
	int ok = 1, round;

	TEST_EQ_LONG(core_ring_count(&r), 0, "a new ring is empty");
	TEST_EQ_LONG(core_ring_push(&r, 7), 0, "push");
	TEST_OK(r.cap == 16 && core_ring_at(&r, 0) == 7, "the first array holds 16");
	TEST_EQ_LONG(core_ring_pop(&r), 7, "pop");
	/* Keep 10 items in a ring of 16 for many rounds: the head wraps. */
	for (round = 0; round < 10; round++)
		core_ring_push(&r, next_in++);
	for (round = 0; round < 1000; round++) {
		ok &= core_ring_pop(&r) == next_out++;
		ok &= core_ring_push(&r, next_in++) == 0;
	}
	TEST_OK(ok, "first in, first out across wrap-around");
	TEST_EQ_LONG(r.cap, 16, "a steady ring does not grow");
	/* Grow while wrapped: the order survives the unwrapping copy. */
	for (round = 0; round < 100; round++)
		ok &= core_ring_push(&r, next_in++) == 0;
	TEST_OK(ok && core_ring_count(&r) == 110 && r.cap == 128, "growth from a wrapped ring");
	for (round = 0; round < 110; round++)
		ok &= core_ring_at(&r, (size_t)round) == next_out + (uint64_t)round;
	TEST_OK(ok, "at(i) counts from the front");
	while (core_ring_count(&r))
		ok &= core_ring_pop(&r) == next_out++;
	TEST_OK(ok && next_out == next_in, "every item popped in order");
	core_ring_release(&r);
	TEST_OK(!r.v && !r.cap && !r.n && !r.head, "release empties");
}

static void test_front(void)
{
	struct core_ring r = CORE_RING_INIT;
	int ok = 1, i;

	/* Push at the front of an empty ring: the head wraps below 0. */
	core_ring_push_front(&r, 1);
	core_ring_push(&r, 2);
	core_ring_push_front(&r, 0);
	TEST_OK(core_ring_count(&r) == 3 && core_ring_at(&r, 0) == 0 && core_ring_at(&r, 1) == 1 &&
		core_ring_at(&r, 2) == 2, "front, back, front: 0 1 2");
	TEST_EQ_LONG(r.head, 14, "the head went round the end");
	/* Fill from the front through growth. */
	for (i = 3; i < 40; i++)
		ok &= core_ring_push_front(&r, (uint64_t)i) == 0;
	TEST_OK(ok && core_ring_count(&r) == 40, "40 items");
	for (i = 39; i >= 3; i--)
		ok &= core_ring_pop(&r) == (uint64_t)i;
	TEST_OK(ok, "pushed at the front, popped last in first out");
	TEST_OK(core_ring_pop(&r) == 0 && core_ring_pop(&r) == 1 && core_ring_pop(&r) == 2,
		"then the older items in their order");
	core_ring_clear(&r);
	TEST_EQ_LONG(core_ring_count(&r), 0, "clear");
	core_ring_release(&r);
}

static void test_reserve(void)
{
	struct core_ring r = CORE_RING_INIT;
	uint64_t *v;
	int i;

	TEST_EQ_LONG(core_ring_reserve(&r, 100), 0, "reserve 100");
	TEST_EQ_LONG(r.cap, 128, "rounded up to a power of two");
	v = r.v;
	for (i = 0; i < 100; i++)
		core_ring_push(&r, (uint64_t)i);
	TEST_OK(r.v == v && r.cap == 128, "pushes within the reserve do not reallocate");
	TEST_EQ_LONG(core_ring_reserve(&r, 50), 0, "reserving less is a no-op");
	TEST_EQ_LONG(r.cap, 128, "capacity kept");
	TEST_EQ_LONG(core_ring_reserve(&r, SIZE_MAX), -ENOMEM, "an impossible reserve");
	TEST_OK(r.cap == 128 && core_ring_count(&r) == 100 && core_ring_at(&r, 99) == 99,
		"a failed reserve changes nothing");
	core_ring_release(&r);
}

int main(void)
{
	test_fifo();
	test_front();
	test_reserve();
	return test_done();
}
