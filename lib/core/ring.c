#include "core/ring.h"

#include <errno.h>
#include <stdlib.h>

#define RING_FIRST 16

/* Grow the array to hold n items, unwrapping the items to its start. */
static int ring_grow(struct core_ring *r, size_t n)
{
	size_t cap = r->cap ? r->cap : RING_FIRST, i;
	uint64_t *v;

	while (cap < n) {
		if (cap > SIZE_MAX / 2 / sizeof(*v))
			return -ENOMEM;
		cap *= 2;
	}
	if (cap > SIZE_MAX / sizeof(*v))
		return -ENOMEM;
	v = malloc(cap * sizeof(*v));
	if (!v)
		return -ENOMEM;
	for (i = 0; i < r->n; i++)
		v[i] = core_ring_at(r, i);
	free(r->v);
	r->v = v;
	r->cap = cap;
	r->head = 0;
	return 0;
}

int core_ring_reserve(struct core_ring *r, size_t n)
{
	return n <= r->cap ? 0 : ring_grow(r, n);
}

int core_ring_push(struct core_ring *r, uint64_t x)
{
	if (r->n == r->cap && ring_grow(r, r->n + 1) < 0)
		return -ENOMEM;
	r->v[(r->head + r->n++) & (r->cap - 1)] = x;
	return 0;
}

int core_ring_push_front(struct core_ring *r, uint64_t x)
{
	if (r->n == r->cap && ring_grow(r, r->n + 1) < 0)
		return -ENOMEM;
	r->head = (r->head - 1) & (r->cap - 1);
	r->v[r->head] = x;
	r->n++;
	return 0;
}

void core_ring_release(struct core_ring *r)
{
	free(r->v);
	*r = (struct core_ring)CORE_RING_INIT;
}
