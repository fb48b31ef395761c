/*
 * MT19937, the Mersenne Twister of C++'s std::mt19937, which ALE draws all
 * its random numbers from: the emulator's (RAM and timer at power-on and
 * reset, seeded with ATARI_SYSTEM_SEED) and the environment's (sticky
 * actions, seeded with ALE's random_seed).  Header-only and HOSTDEV; the
 * state is a plain struct (2.5 KiB), cloned by copy.
 *
 *	struct atari_mt mt;
 *	atari_mt_seed(&mt, 42);
 *	uint32_t x = atari_mt_next(&mt);	// std::mt19937(42)() == x
 */
#ifndef ATARI_MT_H
#define ATARI_MT_H

#include <stdint.h>

#include "core/hostdev.h"

#define ATARI_MT_N 624

struct atari_mt {
	uint32_t s[ATARI_MT_N];
	uint32_t i;		/* next word of s; ATARI_MT_N: twist first */
};

static inline HOSTDEV void atari_mt_seed(struct atari_mt *mt, uint32_t seed)
{
	mt->s[0] = seed;
	for (uint32_t i = 1; i < ATARI_MT_N; i++)
		mt->s[i] = 1812433253u * (mt->s[i - 1] ^ (mt->s[i - 1] >> 30)) + i;
	mt->i = ATARI_MT_N;
}

static inline HOSTDEV uint32_t atari_mt_next(struct atari_mt *mt)
{
	uint32_t y;

	if (mt->i >= ATARI_MT_N) {
		for (int i = 0; i < ATARI_MT_N; i++) {
			y = (mt->s[i] & 0x80000000u) | (mt->s[(i + 1) % ATARI_MT_N] & 0x7fffffffu);
			mt->s[i] = mt->s[(i + 397) % ATARI_MT_N] ^ (y >> 1) ^
				   ((y & 1) ? 0x9908b0dfu : 0);
		}
		mt->i = 0;
	}
	y = mt->s[mt->i++];
	y ^= y >> 11;
	y ^= (y << 7) & 0x9d2c5680u;
	y ^= (y << 15) & 0xefc60000u;
	y ^= y >> 18;
	return y;
}

/* ALE's Random::nextDouble: the next number over 2^32, in [0, 1). */
static inline HOSTDEV double atari_mt_unit(struct atari_mt *mt)
{
	return atari_mt_next(mt) / 4294967296.0;
}

#endif
