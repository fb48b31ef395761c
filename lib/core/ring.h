/*
 * A ring buffer of uint64_t: a queue (push at the back, pop at the front)
 * that can also take an item at the front, and grows as needed.
 *
 *	struct core_ring r = CORE_RING_INIT;
 *	if (core_ring_push(&r, seq) < 0) return -ENOMEM;
 *	while (core_ring_count(&r))
 *		use(core_ring_pop(&r));
 *	core_ring_release(&r);
 *
 * The capacity is 0 or a power of two (16 at first, doubling when full);
 * items keep their order across growth.  core_ring_at(r, 0) is the front.
 *
 * Ownership: the ring owns its array; core_ring_release frees it.
 * Errors: -ENOMEM from the pushes (the ring is unchanged then); popping
 * or peeking an empty ring, or at(i) with i >= count, is a bug the ring
 * does not check.  Thread-safety: none.
 */
#ifndef CORE_RING_H
#define CORE_RING_H

#include <stddef.h>
#include <stdint.h>

struct core_ring {
	uint64_t *v;
	size_t head, n, cap;	/* items are v[(head + i) & (cap - 1)], i < n */
};

#define CORE_RING_INIT { NULL, 0, 0, 0 }

/* Make room for n items in all, so that pushes up to n cannot fail:
 * 0 or -ENOMEM. */
int core_ring_reserve(struct core_ring *r, size_t n);
/* Add x at the back: 0 or -ENOMEM. */
int core_ring_push(struct core_ring *r, uint64_t x);
/* Add x at the front (it is popped next): 0 or -ENOMEM. */
int core_ring_push_front(struct core_ring *r, uint64_t x);

static inline size_t core_ring_count(const struct core_ring *r)
{
	return r->n;
}

/* The i-th item from the front. */
static inline uint64_t core_ring_at(const struct core_ring *r, size_t i)
{
	return r->v[(r->head + i) & (r->cap - 1)];
}

/* Remove and return the front item. */
static inline uint64_t core_ring_pop(struct core_ring *r)
{
	uint64_t x = r->v[r->head];

	r->head = (r->head + 1) & (r->cap - 1);
	r->n--;
	return x;
}

/* Drop every item (the memory stays). */
static inline void core_ring_clear(struct core_ring *r)
{
	r->head = r->n = 0;
}

/* Free the array; the ring is empty (CORE_RING_INIT) again. */
void core_ring_release(struct core_ring *r);

#endif
