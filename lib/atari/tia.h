/*
 * TIA (Television Interface Adaptor) of the Atari 2600: video, collisions
 * and input ports.  Audio is not emulated (ALE does not expose it).
 *
 * The TIA runs at 3 colour clocks per CPU cycle, 228 colour clocks per
 * scan line (68 of horizontal blank, 160 visible).  The emulator catches
 * the TIA up lazily: the system bus passes, with every access, the CPU
 * cycle (counted from power-on) at which the access happens on the bus, and
 * the TIA renders everything up to that point first.
 *
 * State is a plain struct: no pointers, so an environment is cloned and
 * restored by copying it, and arrays of it live on a GPU.  The frame buffer
 * is not part of the state: callers pass it (160 x ATARI_FB_LINES palette
 * indices, NTSC palette in atari_palette_ntsc) or NULL to skip drawing
 * (frames that an agent never sees).
 *
 * Every function is HOSTDEV: compiled for the CPU and for CUDA devices.
 */
#ifndef ATARI_TIA_H
#define ATARI_TIA_H

#include <stdint.h>

#include "atari/hostdev.h"

#define ATARI_SCREEN_WIDTH 160
#define ATARI_SCREEN_HEIGHT 210	/* the rows ALE's getScreen returns */
#define ATARI_FB_LINES 320	/* lines kept per frame, from the end of VSYNC */

struct atari_tia {
	/*
	 * Implementation-defined fields: registers, object positions and
	 * counters, collision latches, input latches, the line and colour
	 * clock of the beam, the CPU cycle rendered up to, frame state.
	 * Must stay pointer-free.
	 */
	uint64_t cycle;		/* CPU cycle the TIA has been brought up to */
	uint32_t frame;		/* frames completed since reset */
	uint8_t frame_done;	/* set when a frame completed; the caller clears it */
	uint8_t reserved_[3];
	/* ... further fields are added by the implementation ... */
};

/* Power-on state. */
HOSTDEV void atari_tia_reset(struct atari_tia *t);

/* Render up to CPU cycle `cycle` into `fb` (may be NULL). */
HOSTDEV void atari_tia_sync(struct atari_tia *t, uint64_t cycle, uint8_t *fb);

/* Register read (address bits 0-3 select the register) at `cycle`. */
HOSTDEV uint8_t atari_tia_read(struct atari_tia *t, uint16_t addr,
			       uint64_t cycle, uint8_t *fb);

/* Register write (address bits 0-5 select the register) at `cycle`. */
HOSTDEV void atari_tia_write(struct atari_tia *t, uint16_t addr, uint8_t value,
			     uint64_t cycle, uint8_t *fb);

/*
 * After a write to WSYNC: the CPU cycle at which the CPU resumes (the
 * start of the next scan line).  RDY stays low until then.
 */
HOSTDEV uint64_t atari_tia_wsync_until(const struct atari_tia *t, uint64_t cycle);

/*
 * Inputs: the fire buttons (INPT4 player 0, INPT5 player 1; 1 = pressed)
 * and the paddle pots (INPT0-3), given as resistance in the range 0-1 of
 * the full pot; the TIA turns them into the capacitor charge time.
 */
HOSTDEV void atari_tia_set_fire(struct atari_tia *t, int player, int pressed);
HOSTDEV void atari_tia_set_paddle(struct atari_tia *t, int pot, float resistance);

/* NTSC palette: index -> 0xRRGGBB, 128 entries indexed by colour >> 1. */
extern const uint32_t atari_palette_ntsc[128];

#endif
