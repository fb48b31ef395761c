/*
 * Growing arrays.
 *
 *	if (core_grow((void **)&items, &cap, n + 1, sizeof(*items)) < 0)
 *		return -ENOMEM;
 *	items[n++] = x;
 *
 * Makes room for at least `need` elements of `elem` bytes in *p, whose
 * capacity is *cap elements, doubling from 16.  Returns 0, or -ENOMEM with
 * *p and *cap unchanged.
 */
#ifndef CORE_GROW_H
#define CORE_GROW_H

#include <stddef.h>

int core_grow(void **p, size_t *cap, size_t need, size_t elem);

#endif
