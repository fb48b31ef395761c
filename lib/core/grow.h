/*
 * Growing arrays.
 *
 *	if (CORE_GROW(items, cap, n + 1) < 0)
 *		return -ENOMEM;
 *	items[n++] = x;
 *
 * CORE_GROW(p, cap, need) makes room for at least `need` elements in the
 * array `p` (any object pointer lvalue, NULL at first), whose capacity is
 * `cap` elements (a size_t lvalue), doubling from 16.  The element size
 * comes from the pointer's type, so it cannot disagree with it.  Returns 0,
 * or -ENOMEM with p and cap unchanged.  New elements are not initialised.
 *
 * core_grow() is the function behind it, for callers that only have a
 * void pointer and an element size.  Neither is thread-safe on one array.
 */
#ifndef CORE_GROW_H
#define CORE_GROW_H

#include <stddef.h>
#include <string.h>

int core_grow(void **p, size_t *cap, size_t need, size_t elem);

#define CORE_GROW(p, cap, need) \
	((need) <= (cap) ? 0 : core_grow_typed((void *)&(p), &(cap), (need), sizeof(*(p))))

/* Like core_grow() but takes the address of any object pointer (copied
 * through memcpy, so no pointer is accessed through another type). */
static inline int core_grow_typed(void *pp, size_t *cap, size_t need, size_t elem)
{
	void *p;
	int rc;

	memcpy(&p, pp, sizeof(p));
	rc = core_grow(&p, cap, need, elem);
	memcpy(pp, &p, sizeof(p));
	return rc;
}

#endif
