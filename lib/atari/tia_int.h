/*
 * What the two halves of the TIA share (tia.c: registers, timing and
 * inputs; tia_draw.c: the picture): object bits, beam constants, a few
 * pure helpers, and the step into the drawing code.  Internal to them.
 *
 * The CUDA backend compiles the emulator as one unit: each half ends with
 * TIA_INT_UNDEF defined and this header included again, which takes the
 * macros back so that no other file sees them; the functions stay (a
 * second inclusion defines them no more).
 */
#ifdef TIA_INT_UNDEF
#undef TIA_P0
#undef TIA_M0
#undef TIA_P1
#undef TIA_M1
#undef TIA_BL
#undef TIA_PF
#undef HBLANK
#undef LINE
#undef MAX_LINES
#undef MAX_LINES_PAL
#undef NO_CLOCK
#undef FB_SIZE
#undef TIA_INT_UNDEF
#else
#include <stdint.h>

#include "atari/tia.h"

/* Object bits of atari_tia.enabled. */
#define TIA_P0 0x01
#define TIA_M0 0x02
#define TIA_P1 0x04
#define TIA_M1 0x08
#define TIA_BL 0x10
#define TIA_PF 0x20

#define HBLANK 68
#define LINE ATARI_TIA_LINE
#define MAX_LINES ATARI_TIA_MAX_LINES
#define MAX_LINES_PAL ATARI_TIA_MAX_LINES_PAL
#define NO_CLOCK UINT64_MAX
#define FB_SIZE (ATARI_SCREEN_WIDTH * ATARI_FB_LINES)

#ifndef ATARI_TIA_INT_FUNCS
#define ATARI_TIA_INT_FUNCS

/* Copies drawn in each NUSIZ mode: bit k for a copy 16 * k pixels on. */
static inline HOSTDEV unsigned copies(unsigned mode)
{
	switch (mode) {
	case 1: return 0x03;
	case 2: return 0x05;
	case 3: return 0x07;
	case 4: return 0x11;
	case 6: return 0x15;
	default: return 0x01;
	}
}

static inline HOSTDEV uint8_t reverse8(uint8_t b)
{
	b = (uint8_t)((b & 0xf0) >> 4 | (b & 0x0f) << 4);
	b = (uint8_t)((b & 0xcc) >> 2 | (b & 0x33) << 2);
	return (uint8_t)((b & 0xaa) >> 1 | (b & 0x55) << 1);
}

/* Pixels from an object at `pos` to pixel x, 0-159. */
static inline HOSTDEV unsigned dist(unsigned x, unsigned pos)
{
	return x >= pos ? x - pos : x + 160 - pos;
}

/* Draw the picture from where it stands up to colour clock `clock`, which
 * is past it and inside the display window (tia_draw.c). */
HOSTDEV void atari_tia_draw_to(struct atari_tia *t, uint64_t clock, uint8_t *fb);

/* Bring the picture up to colour clock `clock`: the cheap tests here, on
 * every register access; the drawing out of line. */
static inline HOSTDEV void render(struct atari_tia *t, uint64_t clock, uint8_t *fb)
{
	if (clock < t->start_display || t->last_update >= t->stop_display ||
	    t->last_update >= clock)
		return;
	atari_tia_draw_to(t, clock, fb);
}

#endif
#endif
