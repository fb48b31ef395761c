/*
 * splitmix64: the small, fast generator of pseudo-random 64-bit numbers
 * that the toolkit uses wherever it needs reproducible randomness (the
 * emulator's sticky actions and no-op starts, random action traces,
 * benchmark actions, examples).  Header-only and HOSTDEV, so that the CPU
 * and the CUDA build draw the same numbers from the same seed.
 *
 *	uint64_t state = seed;
 *	uint64_t x = core_splitmix64(&state);
 *
 * The sequence is part of the toolkit's contract (seeds documented in man
 * pages, CPU/GPU parity tests): it must never change.  From state s it
 * returns mix(s + 0x9e3779b97f4a7c15) and advances s by that constant.
 * core_splitmix64_unit maps the next number to a double in [0, 1) with 53
 * random bits.
 *
 * The state is the caller's; no function keeps any.  Thread-safety: as
 * safe as the state: one state per thread.
 */
#ifndef CORE_SPLITMIX_H
#define CORE_SPLITMIX_H

#include <stdint.h>

#include "core/hostdev.h"

static inline HOSTDEV uint64_t core_splitmix64(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static inline HOSTDEV double core_splitmix64_unit(uint64_t *state)
{
	return (double)(core_splitmix64(state) >> 11) * (1.0 / 9007199254740992.0);
}

#endif
