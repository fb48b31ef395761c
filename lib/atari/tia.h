/*
 * TIA (Television Interface Adaptor) of the Atari 2600: video, collisions
 * and input ports.  Audio is not emulated (ALE does not expose it).
 *
 * The TIA runs at 3 colour clocks per CPU cycle, 228 colour clocks per
 * scan line (68 of horizontal blank, 160 visible).  The emulator catches
 * the TIA up lazily: the system bus passes, with every access, the CPU
 * cycle at which the access happens on the bus, and the TIA renders
 * everything up to that point first.  (tia.c holds the registers, timing
 * and inputs, tia_draw.c the picture; tia_int.h what they share.)
 *
 * Behaviour is that of the TIA inside the Arcade Learning Environment (a
 * Stella-derived emulator), quirks included, so that frames are identical:
 *
 *  - Cycles.  A `cycle` argument is the number of CPU cycles since the
 *    TIA was reset, counting the cycle of the access itself: the bus adds
 *    one to its count and then makes the access, so the first access after
 *    a reset is at cycle 1.  The system resets its count to 0 whenever it
 *    resets the TIA.  Scan lines start at the multiples of 76 cycles.
 *  - Register writes take effect after the chip's delays, in colour
 *    clocks: VBLANK, REFPx, GRPx 1; NUSIZx, RESMx 8; PF0-2 4, 5, 2 or 3
 *    depending on the CPU cycle within the line; all others at once.
 *    Objects are positioned at RESPx + 5, RESMx/RESBL + 4 pixels (3 and 2
 *    during horizontal blank); HMOVE applies the motion registers at once,
 *    with the per-cycle table of the reference for late HMOVEs, and
 *    blanks the first 8 pixels of the line ("HMOVE bars") when it is
 *    written in cycles 0-20 or 75 of a line (unless disabled with
 *    atari_tia_configure()).  RESMPx, VDELxx, score mode and playfield
 *    priority, and the "Cosmic Ark" missile bug behave as in the reference.
 *  - Frames.  A frame ends when VSYNC is turned off at least one scan line
 *    after it was turned on, or when a register is written more than 290
 *    scan lines into the frame (342 on PAL); frame_done is then set and `frame`
 *    counted.  The next frame starts at the beginning of the scan line of
 *    that write (of the line the CPU resumes on when the write was to
 *    WSYNC: the reference starts it from the cycle count after the
 *    instruction).  The frame buffer holds scan lines `ystart` to
 *    `ystart + height - 1` of the frame (34 and 210 by default: ALE's
 *    getScreen rows), 160 pixels each, palette indices (colour register
 *    values with bit 0 clear).  Only the beam's path is written: rows the
 *    frame does not reach keep what the buffer held.  ALE keeps two
 *    buffers, clears both at every reset and starts each new frame (after
 *    a completed one, or after a reset) in the other one; a frame left
 *    unfinished (atari_tia_grey_out) carries on in the same buffer, even
 *    across a reset, and then draws from scan line 0 (row r is scan line
 *    r: the reference's quirk).  Pixels are drawn, and collisions
 *    detected, only inside the drawn rows and outside VBLANK, as the
 *    reference does.
 *  - Display settings per game (Stella's properties as ALE ships them):
 *    YStart 40 for Q*bert, 30 for Up'n Down, 26 for Carnival (Height 214)
 *    and Pooyan (Height 220); Height 230 for Journey Escape; HMOVE bars
 *    off for Asteroids, Battle Zone, Dark Chambers and Ms. Pac-Man; the
 *    other Atari-57 games use the defaults (ALE's screen is then 210 rows,
 *    otherwise `height` rows).
 *  - Reads.  Collision and input registers return bits 7-6; bits 5-0 are
 *    0 and the bus fills them with what was last on the data bus (the
 *    reference does).  INPT4-5 read the fire buttons (bit 7 clear while
 *    pressed); the input latch of VBLANK bit 6 is not emulated (nor is it
 *    in the reference).  INPT0-3 read the paddle pots: bit 7 is set once
 *    the pot's capacitor has charged, a time proportional to the pot's
 *    resistance after VBLANK bit 7 (dump to ground) was cleared.
 *
 * State is a plain struct: no pointers, so an environment is cloned and
 * restored by copying it, and arrays of it live on a GPU.  The frame buffer
 * is not part of the state: callers pass it (160 x ATARI_FB_LINES palette
 * indices; row r is getScreen's row r) or NULL to skip drawing (frames
 * that an agent never sees); collisions and positions are the same either
 * way.
 *
 * Every function is HOSTDEV: compiled for the CPU and for CUDA devices.
 */
#ifndef ATARI_TIA_H
#define ATARI_TIA_H

#include <stdint.h>

#include "core/hostdev.h"

#define ATARI_SCREEN_WIDTH 160
#define ATARI_SCREEN_HEIGHT 210	/* the rows ALE's getScreen returns */
#define ATARI_PAL_HEIGHT 250	/* ... for a PAL game that sets no height */
#define ATARI_FB_LINES 320	/* rows a frame buffer must have */
#define ATARI_TIA_YSTART 34	/* first scan line of the screen (default) */
#define ATARI_TIA_LINE 228	/* colour clocks per scan line */
#define ATARI_TIA_MAX_LINES 290	/* NTSC: a write past this line ends the frame */
#define ATARI_TIA_MAX_LINES_PAL 342

/* Pot resistances for atari_tia_set_pot(), in ohms. */
#define ATARI_POT_GROUNDED 0		/* reads as charged at once */
#define ATARI_POT_OPEN 0x7fffffff	/* never charges (a joystick) */

struct atari_tia {
	uint64_t cycle;		/* CPU cycle the TIA has been brought up to */
	uint32_t frame;		/* frames completed since reset */
	uint8_t frame_done;	/* set when a frame completed; the caller clears it */
	uint8_t reserved_[3];

	/* Beam and frame, in colour clocks since reset. */
	uint64_t frame_start;	/* first clock of the frame's scan line 0 */
	uint64_t start_display;	/* first clock drawn */
	uint64_t stop_display;	/* clock after the last one drawn */
	uint64_t frame_limit;	/* a write from this clock on ends the frame */
	uint64_t last_update;	/* clock rendered up to */
	uint64_t vsync_finish;	/* VSYNC may end the frame from here on */
	uint64_t last_hmove;	/* clock of the last HMOVE write */
	uint64_t frame_cycle0;	/* CPU cycle the frame's cycle count starts at */
	uint64_t dump_off_cycle; /* CPU cycle VBLANK stopped dumping the pots */
	uint32_t fb_pos;	/* next pixel written in the frame buffer */
	uint32_t pf;		/* PF0-2 as 20 bits, in playfield order */
	uint32_t pot_time[4];	/* charge time of each pot in CPU cycles */
	uint16_t clocks_to_eol;	/* colour clocks left in the line being drawn */
	uint16_t ystart, height; /* scan lines of the frame drawn */
	uint16_t collision;	/* the 15 latches, one bit each */
	uint8_t pot_mode[4];	/* 0 timed, 1 grounded, 2 open */

	/* Registers. */
	uint8_t vsync, vblank, nusiz0, nusiz1;
	uint8_t colup0, colup1, colupf, colubk;
	uint8_t ctrlpf, refp0, refp1, grp0, grp1, dgrp0, dgrp1;
	uint8_t enam0, enam1, enabl, denabl;
	uint8_t hmp0, hmp1, hmm0, hmm1, hmbl;
	uint8_t vdelp0, vdelp1, vdelbl, resmp0, resmp1;

	/* Objects: positions (0-159) and the state of their drawing. */
	uint8_t posp0, posp1, posm0, posm1, posbl;
	uint8_t cur_grp0, cur_grp1;	/* graphics shown, delayed and reflected */
	uint8_t enabled;	/* objects enabled, TIA_* bits of tia.c */
	uint8_t p0_skip, p1_skip; /* first copy hidden until the line ends */
	uint8_t m0_mode;	/* Cosmic Ark bug: 0 normal, 1 wide, 2 hidden */
	uint8_t cosmic, cosmic_count;
	uint8_t pf_reflect;	/* reflection the playfield is drawn with */
	uint8_t hmove_blank;	/* HMOVE bar pending on the line drawn */
	uint8_t hmove_blanks;	/* HMOVE bars emulated (game setting) */
	uint8_t dump;		/* VBLANK bit 7: pots grounded */
	uint8_t fire[2];	/* fire buttons pressed */
	uint8_t greyed;		/* this frame was greyed out */
	uint8_t unfinished;	/* the frame ran out of instructions */
	uint8_t pal;		/* PAL console (atari_tia_set_format) */
	uint8_t colour_loss;	/* PAL: bit 0 forced into the colours */
	uint16_t frame_lines;	/* scan lines of the last completed frame */
	uint8_t masks_stale;	/* masks must be rebuilt before use */
	uint8_t last_access;	/* register of the access at `cycle`; ATARI_TIA_READ: a read */
	/* Pixels drawn with the masks as they stand but not looked at, whose
	 * collisions are yet to be latched (atari_tia_collide): collide_n
	 * pixels on from pixel collide_x (0-159), wrapping at the line's end;
	 * 160 or more is the whole line. */
	uint16_t collide_x, collide_n;
	/* Pixels of each object on a line (P0, M0, P1, M1, BL, PF; bit x of
	 * word x / 64 for pixel x): a function of the registers above, kept
	 * between writes and rebuilt when masks_stale is set. */
	uint64_t masks[6][3];
};

/*
 * Power-on state, at cycle 0, with the default display settings.  Whether
 * the frame in progress was left unfinished survives (see Frames above),
 * and so does the TV format: `t` must be zeroed, or reset before, the
 * first time.
 */
HOSTDEV void atari_tia_reset(struct atari_tia *t);

/*
 * Game settings (Stella's Display.YStart, Display.Height and
 * Emulation.HmoveBlanks properties): the frame buffer shows scan lines
 * ystart to ystart + height - 1.  Call after atari_tia_reset(); height is
 * at most ATARI_FB_LINES - ystart.  Returns 0, or -1 when out of range.
 */
HOSTDEV int atari_tia_configure(struct atari_tia *t, int ystart, int height,
				int hmove_blanks);

/*
 * TV format, as ALE detects it (a game whose frames have more than 285
 * scan lines in at least 15 of frames 30-59 after power-on is PAL): a PAL
 * console ends frames at 342 scan lines instead of 290, and sets bit 0 of
 * every colour (grey in the palette) during a frame that follows one of
 * an odd number of scan lines ("colour loss").  ALE's PAL screens are 250
 * rows when the game sets no height.  Kept across resets.  frame_lines
 * holds the scan lines of the last completed frame, and
 * atari_tia_scanline() the scan line the beam is on in the current one
 * (what the detection counts after each frame, finished or not).
 */
HOSTDEV void atari_tia_set_format(struct atari_tia *t, int pal);
HOSTDEV uint32_t atari_tia_scanline(const struct atari_tia *t, uint64_t cycle);

/* Render up to CPU cycle `cycle` into `fb` (may be NULL). */
HOSTDEV void atari_tia_sync(struct atari_tia *t, uint64_t cycle, uint8_t *fb);

/* Register read (address bits 0-3 select the register) at `cycle`. */
HOSTDEV uint8_t atari_tia_read(struct atari_tia *t, uint16_t addr,
			       uint64_t cycle, uint8_t *fb);

/* The register writes' fast path is inlined into the bus. */
#ifdef __CUDACC__
#define ATARI_TIA_INLINE __forceinline__
#else
#define ATARI_TIA_INLINE inline __attribute__((always_inline))
#endif

/* An access at `cycle` has reached the TIA: `cycle` counts the latest. */
static inline HOSTDEV void atari_tia_seen(struct atari_tia *t, uint64_t cycle)
{
	if (cycle > t->cycle)
		t->cycle = cycle;
}

/* Colour clock `clock` within its scan line; frame_start is on a line
 * start (and after a frame ended by a WSYNC write, past the clock of the
 * write). */
static inline HOSTDEV unsigned atari_tia_line_clock(const struct atari_tia *t, uint64_t clock)
{
	if (clock >= t->frame_start && clock - t->frame_start <= UINT32_MAX)
		return (uint32_t)(clock - t->frame_start) % ATARI_TIA_LINE;
	return (unsigned)((clock % ATARI_TIA_LINE + ATARI_TIA_LINE - t->frame_start % ATARI_TIA_LINE) %
			  ATARI_TIA_LINE);
}

/* Colour clock `clock` is past the frame's last scan line: a register
 * write there ends the frame. */
static inline HOSTDEV int atari_tia_past_frame(const struct atari_tia *t, uint64_t clock)
{
	return clock >= t->frame_limit;
}

/* The playfield's 20 bits after `value` is written to PF0 ($0D), PF1
 * ($0E) or PF2 ($0F). */
static ATARI_TIA_INLINE HOSTDEV uint32_t atari_tia_pf_written(uint32_t pf, unsigned addr, uint8_t value)
{
	switch (addr) {
	case 0x0d: return (pf & 0xffff0) | ((value >> 4) & 0x0f);
	case 0x0e: return (pf & 0xff00f) | ((uint32_t)value << 4);
	default: return (pf & 0x00fff) | ((uint32_t)value << 12);
	}
}

/*
 * The ways a register write takes (atari_tia_write_way).  A write that
 * leaves every register as it was and ends no frame needs no drawing,
 * since the picture before and after it comes from the same registers:
 * games write most bytes again on every line (the playfield, the
 * graphics, the enable bits), most often unchanged, and WSYNC (the bus
 * halts the CPU), RSYNC, the audio registers and $2D-$3F hold nothing
 * here.  Of the others, before the frame's end, the most frequent take
 * shorter ways than atari_tia_write_reg: the motion registers but HMM0,
 * and HMCLR, change nothing drawn nor any mask; the playfield's, GRP0,
 * GRP1 and HMOVE have functions of their own.
 */
enum atari_tia_way {
	ATARI_TIA_SAME,		/* changes nothing */
	ATARI_TIA_REG,		/* atari_tia_write_reg */
	ATARI_TIA_PF,		/* atari_tia_write_pf */
	ATARI_TIA_GRP0,		/* atari_tia_write_grp0 */
	ATARI_TIA_GRP1,		/* atari_tia_write_grp1 */
	ATARI_TIA_HMOVE,	/* atari_tia_write_hmove */
	ATARI_TIA_MOTION,	/* atari_tia_motion_written */
};

/* The way writing `value` to register `addr` (0-$3F) at `cycle` takes. */
static ATARI_TIA_INLINE HOSTDEV enum atari_tia_way atari_tia_write_way(const struct atari_tia *t,
									unsigned addr, uint8_t value,
									uint64_t cycle)
{
	enum atari_tia_way reg = ATARI_TIA_REG, same = ATARI_TIA_SAME;

	/* A write after the frame's last scan line ends the frame. */
	if (atari_tia_past_frame(t, 3 * cycle))
		return reg;
	switch (addr) {
	case 0x02: case 0x03: case 0x15: case 0x16: case 0x17: case 0x18:
	case 0x19: case 0x1a:
		return same;
	case 0x01: return value == t->vblank ? same : reg;
	case 0x06: return ((value & 0xfe) | t->colour_loss) == t->colup0 ? same : reg;
	case 0x07: return ((value & 0xfe) | t->colour_loss) == t->colup1 ? same : reg;
	case 0x08: return ((value & 0xfe) | t->colour_loss) == t->colupf ? same : reg;
	case 0x09: return ((value & 0xfe) | t->colour_loss) == t->colubk ? same : reg;
	case 0x0a: return value == t->ctrlpf && (value & 0x01) == t->pf_reflect ? same : reg;
	case 0x0b: return !(value & 0x08) == !t->refp0 ? same : reg;
	case 0x0c: return !(value & 0x08) == !t->refp1 ? same : reg;
	case 0x0d: case 0x0e: case 0x0f:
		return atari_tia_pf_written(t->pf, addr, value) == t->pf ? same : ATARI_TIA_PF;
	case 0x1b: return value == t->grp0 && t->dgrp1 == t->grp1 ? same : ATARI_TIA_GRP0;
	case 0x1c:
		return value == t->grp1 && t->dgrp0 == t->grp0 && t->denabl == t->enabl ?
		       same : ATARI_TIA_GRP1;
	case 0x1d: return (value & 0x02) == t->enam0 ? same : reg;
	case 0x1e: return (value & 0x02) == t->enam1 ? same : reg;
	case 0x1f: return (value & 0x02) == t->enabl ? same : reg;
	case 0x20: case 0x21: case 0x23: case 0x24: case 0x2b:
		return ATARI_TIA_MOTION;
	case 0x22: return value >> 4 == t->hmm0 ? same : reg;
	case 0x25: return (value & 0x01) == t->vdelp0 ? same : reg;
	case 0x26: return (value & 0x01) == t->vdelp1 ? same : reg;
	case 0x27: return (value & 0x01) == t->vdelbl ? same : reg;
	case 0x28: return (value & 0x02) == t->resmp0 ? same : reg;
	case 0x29: return (value & 0x02) == t->resmp1 ? same : reg;
	case 0x2a: return ATARI_TIA_HMOVE;
	default: return addr >= 0x2d ? same : reg;
	}
}

/* The ways out of line (tia.c): any write in full, and before the
 * frame's end, PF0-2 (`addr`), GRP0, GRP1 and HMOVE. */
HOSTDEV void atari_tia_write_reg(struct atari_tia *t, uint16_t addr, uint8_t value,
				 uint64_t cycle, uint8_t *fb);
HOSTDEV void atari_tia_write_pf(struct atari_tia *t, unsigned addr, uint8_t value,
				uint64_t cycle, uint8_t *fb);
HOSTDEV void atari_tia_write_grp0(struct atari_tia *t, uint8_t value, uint64_t cycle, uint8_t *fb);
HOSTDEV void atari_tia_write_grp1(struct atari_tia *t, uint8_t value, uint64_t cycle, uint8_t *fb);
HOSTDEV void atari_tia_write_hmove(struct atari_tia *t, uint64_t cycle, uint8_t *fb);

/* HMP0, HMP1, HMM1, HMBL or HMCLR (`addr`) written with `value`. */
static ATARI_TIA_INLINE HOSTDEV void atari_tia_motion_written(struct atari_tia *t, unsigned addr,
							      uint8_t value)
{
	switch (addr) {
	case 0x20: t->hmp0 = value >> 4; break;
	case 0x21: t->hmp1 = value >> 4; break;
	case 0x23: t->hmm1 = value >> 4; break;
	case 0x24: t->hmbl = value >> 4; break;
	default: t->hmp0 = t->hmp1 = t->hmm0 = t->hmm1 = t->hmbl = 0; break;	/* HMCLR */
	}
}

/* Register write (address bits 0-5 select the register) at `cycle`. */
static ATARI_TIA_INLINE HOSTDEV void atari_tia_write(struct atari_tia *t, uint16_t addr,
						     uint8_t value, uint64_t cycle, uint8_t *fb)
{
	unsigned a = addr & 0x3f;

	switch (atari_tia_write_way(t, a, value, cycle)) {
	case ATARI_TIA_SAME:
		atari_tia_seen(t, cycle);
		break;
	case ATARI_TIA_PF:
		atari_tia_write_pf(t, a, value, cycle, fb);
		break;
	case ATARI_TIA_GRP0:
		atari_tia_write_grp0(t, value, cycle, fb);
		break;
	case ATARI_TIA_GRP1:
		atari_tia_write_grp1(t, value, cycle, fb);
		break;
	case ATARI_TIA_HMOVE:
		atari_tia_write_hmove(t, cycle, fb);
		break;
	case ATARI_TIA_MOTION:
		atari_tia_seen(t, cycle);
		atari_tia_motion_written(t, a, value);
		break;
	default:
		atari_tia_write_reg(t, addr, value, cycle, fb);
		break;
	}
	t->last_access = (uint8_t)a;
}

/*
 * Bring the picture up to where the last register access left it, as the
 * reference does on every access: writes that change nothing and reads
 * of the inputs skip the drawing, which a frame that runs out of
 * instructions (atari_tia_grey_out) must not see.
 */
#define ATARI_TIA_READ 0x40
HOSTDEV void atari_tia_catch_up(struct atari_tia *t, uint8_t *fb);

/*
 * After a write to WSYNC at `cycle`: the cycle count once the CPU resumes,
 * at the start of the next scan line (`cycle` itself when the write falls
 * on a line start); the next access is at that count + 1.  RDY stays low
 * until then.  As in the reference, only a write following a read cycle
 * halts the CPU (the second write of a read-modify-write does not).
 */
static inline HOSTDEV uint64_t atari_tia_wsync_until(const struct atari_tia *t, uint64_t cycle)
{
	uint64_t into = atari_tia_line_clock(t, 3 * cycle) / 3;

	return into ? cycle + 76 - into : cycle;
}

/* The last frame completed drew the whole display window (it did not end
 * before its bottom row). */
static inline HOSTDEV int atari_tia_frame_whole(const struct atari_tia *t)
{
	return t->frame_lines >= (unsigned)t->ystart + t->height;
}

/*
 * Latch the collisions of the pixels drawn without a frame buffer, which
 * wait until their masks would change or a collision register is read or
 * cleared (tia_draw.c).  The check inline, the latching out of line
 * (atari_tia_latch).
 */
HOSTDEV void atari_tia_latch(struct atari_tia *t);

static inline HOSTDEV void atari_tia_collide(struct atari_tia *t)
{
	if (t->collide_n)
		atari_tia_latch(t);
}

/*
 * Latch the collisions waiting and bring every object's line mask up to
 * date (a latch rebuilds only the masks it looks at): the state then
 * depends on the registers only.  The machine calls it after each frame,
 * so that a frame's state does not depend on whether it was drawn.
 */
HOSTDEV void atari_tia_settle(struct atari_tia *t);

/*
 * When the CPU ran the reference's per-frame budget of instructions
 * without completing a frame: ALE then greys out, once, the rows of the
 * frame the beam has not reached (colour index c becomes (c & 15) >> 1)
 * and carries on with the same frame.  `cycle` is the current cycle.
 */
HOSTDEV void atari_tia_grey_out(struct atari_tia *t, uint64_t cycle, uint8_t *fb);

/*
 * Inputs: the fire buttons (INPT4 player 0, INPT5 player 1; 1 = pressed)
 * and the paddle pots (INPT0-3), given as resistance in the range 0-1 of
 * the full pot (1 megohm); the TIA turns them into the capacitor charge
 * time.  atari_tia_set_pot() takes the resistance in ohms as ALE's paddle
 * events carry it, ATARI_POT_GROUNDED or ATARI_POT_OPEN (the default: an
 * unconnected pot, or a joystick, never charges).
 */
HOSTDEV void atari_tia_set_fire(struct atari_tia *t, int player, int pressed);
HOSTDEV void atari_tia_set_paddle(struct atari_tia *t, int pot, float resistance);
HOSTDEV void atari_tia_set_pot(struct atari_tia *t, int pot, int32_t ohms);

/*
 * Palettes as ALE converts screens: 0xRRGGBB by colour >> 1 (128 entries),
 * and the grey level of its grayscale observations; NTSC, and PAL for the
 * games ALE detects as PAL.  Device code cannot read the arrays: it calls
 * the functions, which work in both.
 */
extern const uint32_t atari_palette_ntsc[128];
extern const uint32_t atari_palette_pal[128];
HOSTDEV uint32_t atari_palette_rgb(uint8_t colour);
HOSTDEV uint8_t atari_palette_grey(uint8_t colour);
HOSTDEV uint32_t atari_palette_pal_rgb(uint8_t colour);
HOSTDEV uint8_t atari_palette_pal_grey(uint8_t colour);

#endif
