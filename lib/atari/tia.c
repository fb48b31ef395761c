/*
 * TIA registers, beam timing, collisions read back and inputs (see
 * atari/tia.h); the picture is drawn in tia_draw.c.  The beam model follows
 * the reference: a write takes effect after the delay of its register,
 * once the picture is brought up to that colour clock.
 */
#include <string.h>

#include "atari/tia_int.h"

/* Registers whose writes change nothing drawn until a later write:
 * WSYNC, RSYNC, audio (15-1A), HMxx (20-24), HMCLR and the unused 2D-3F. */
#define WRITES_UNSEEN 0xffffe81f07e0000cull

/* Where a player reset lands relative to the copies at the old position:
 * -1 in a copy's 4-pixel start delay, 1 while a copy is drawn, else 0. */
static HOSTDEV int reset_when(unsigned mode, unsigned oldx, unsigned newx)
{
	unsigned d = dist(newx, oldx);
	unsigned width = mode == 5 ? 16 : mode == 7 ? 32 : 8;
	unsigned set = copies(mode);

	for (unsigned k = 0; k < 5; k++) {
		unsigned c = 16 * k;

		if (!((set >> k) & 1))
			continue;
		if (d >= c && d < c + 4)
			return -1;
		if (d >= c + 4 && d < c + 4 + width)
			return 1;
	}
	return 0;
}

/*
 * Motion HMOVE gives an object with motion nibble n, written at CPU cycle
 * x of the line: m = 8 - (n ^ 8) pixels right in horizontal blank;
 * written in cycles 2-20 the move is clamped from below, from cycle 55 on
 * late extra clocks move objects left, in between nothing moves.  As
 * min(max(m + add, lo), hi), with add, lo and hi set once per HMOVE
 * (hmove_at) for its five objects.
 */
struct hmove_clamp {
	int add, lo, hi;
};

static HOSTDEV struct hmove_clamp hmove_at(unsigned x)
{
	struct hmove_clamp c = { 0, -16, 16 };

	if (x < 2 || x == 75)
		return c;
	if (x <= 20) {
		c.lo = (int)x - 10 - ((int)x - 2) / 4;
	} else if (x < 55) {
		c.lo = c.hi = 0;
	} else {
		c.add = 7 - (((int)x - 54) - ((int)x - 54) / 4);
		c.hi = 0;
	}
	return c;
}

/* Cycles x where hmove_at may move an object whose motion nibble is 0:
 * where it clamps from above 0 (13-20) or adds clocks (55-74). */
static HOSTDEV int hmove_moves_still(unsigned x)
{
	return (x >= 13 && x <= 20) || (x >= 55 && x <= 74);
}

static HOSTDEV int hmove_motion(struct hmove_clamp c, unsigned n)
{
	int v = 8 - (int)(n ^ 8) + c.add;

	v = v < c.lo ? c.lo : v;
	return v > c.hi ? c.hi : v;
}

/* Scan line of the frame at `clock`. */
static HOSTDEV uint64_t frame_line(const struct atari_tia *t, uint64_t clock)
{
	return clock > t->frame_start ? (clock - t->frame_start) / LINE : 0;
}

/* Display window of the frame, and where it ends at the latest. */
static HOSTDEV void set_display(struct atari_tia *t)
{
	t->start_display = t->frame_start + (uint64_t)LINE * t->ystart;
	t->stop_display = t->start_display + (uint64_t)LINE * t->height;
	t->frame_limit = t->frame_start + (uint64_t)LINE * ((t->pal ? MAX_LINES_PAL : MAX_LINES) + 1);
}

/* Start drawing the next frame; `cycle` ended the previous one. */
static HOSTDEV void frame_start(struct atari_tia *t, uint64_t cycle)
{
	uint64_t clock = 3 * cycle;

	t->frame_lines = (uint16_t)frame_line(t, clock);
	t->frame_start = clock - atari_tia_line_clock(t, clock);
	if (t->pal) {
		/* Colour loss follows the parity of the last frame's lines. */
		uint8_t loss = t->frame_lines & 1;

		t->colour_loss = loss;
		t->colup0 = (uint8_t)((t->colup0 & 0xfe) | loss);
		t->colup1 = (uint8_t)((t->colup1 & 0xfe) | loss);
		t->colupf = (uint8_t)((t->colupf & 0xfe) | loss);
		t->colubk = (uint8_t)((t->colubk & 0xfe) | loss);
	}
	t->clocks_to_eol = LINE;
	t->fb_pos = 0;
	t->frame_cycle0 = cycle;
	t->greyed = 0;
	t->unfinished = 0;
	set_display(t);
	t->last_update = t->start_display;
	t->frame++;
	t->frame_done = 1;
}

HOSTDEV void atari_tia_reset(struct atari_tia *t)
{
	/* An unfinished frame survives a reset, as in the reference. */
	uint8_t unfinished = t->unfinished, greyed = t->greyed, pal = t->pal;

	memset(t, 0, sizeof(*t));
	t->unfinished = unfinished;
	t->greyed = greyed;
	t->pal = pal;
	t->ystart = ATARI_TIA_YSTART;
	t->height = ATARI_SCREEN_HEIGHT;
	t->hmove_blanks = 1;
	t->vsync_finish = NO_CLOCK;
	t->clocks_to_eol = LINE;
	t->masks_stale = 0x3f;
	for (int i = 0; i < 4; i++)
		t->pot_mode[i] = 2;
	set_display(t);
	/* A new frame draws from its first row; a frame left unfinished
	 * carries on after the reset from scan line 0 (the reference's
	 * quirk): rows 0 to ystart - 1 come first. */
	t->last_update = unfinished ? 0 : t->start_display;
}

HOSTDEV int atari_tia_configure(struct atari_tia *t, int ystart, int height,
				int hmove_blanks)
{
	if (ystart < 0 || height < 1 || ystart + height > ATARI_FB_LINES)
		return -1;
	t->ystart = (uint16_t)ystart;
	t->height = (uint16_t)height;
	t->hmove_blanks = hmove_blanks != 0;
	if (t->last_update == t->start_display) {
		set_display(t);
		t->last_update = t->start_display;
	} else {
		set_display(t);
	}
	return 0;
}

HOSTDEV void atari_tia_set_format(struct atari_tia *t, int pal)
{
	t->pal = pal != 0;
	if (!t->pal)
		t->colour_loss = 0;
	set_display(t);
}

HOSTDEV uint32_t atari_tia_scanline(const struct atari_tia *t, uint64_t cycle)
{
	return (uint32_t)frame_line(t, 3 * cycle);
}

HOSTDEV void atari_tia_sync(struct atari_tia *t, uint64_t cycle, uint8_t *fb)
{
	render(t, 3 * cycle, fb);
	atari_tia_seen(t, cycle);
}

static HOSTDEV uint8_t pot_read(const struct atari_tia *t, int pot, uint64_t cycle)
{
	if (t->pot_mode[pot] == 1)
		return 0x80;
	if (t->pot_mode[pot] == 2 || t->dump)
		return 0;
	/* The reference counts cycles from the start of each frame in 32
	 * bits and compares unsigned: a pot released in an earlier frame
	 * more than its charge time before this one reads as uncharged. */
	uint32_t now = (uint32_t)(cycle - t->frame_cycle0);
	uint32_t off = (uint32_t)(t->dump_off_cycle - t->frame_cycle0);

	return now > off + t->pot_time[pot] ? 0x80 : 0;
}

HOSTDEV uint8_t atari_tia_read(struct atari_tia *t, uint16_t addr,
			       uint64_t cycle, uint8_t *fb)
{
	uint16_t c;

	/* Only the collision latches depend on the picture. */
	t->last_access = ATARI_TIA_READ;
	if ((addr & 0x0f) < 0x08) {
		atari_tia_sync(t, cycle, fb);
		atari_tia_collide(t);
	} else {
		atari_tia_seen(t, cycle);
	}
	c = t->collision;
	switch (addr & 0x0f) {
	case 0x00: return (uint8_t)((c & 0x0001 ? 0x80 : 0) | (c & 0x0002 ? 0x40 : 0));
	case 0x01: return (uint8_t)((c & 0x0004 ? 0x80 : 0) | (c & 0x0008 ? 0x40 : 0));
	case 0x02: return (uint8_t)((c & 0x0010 ? 0x80 : 0) | (c & 0x0020 ? 0x40 : 0));
	case 0x03: return (uint8_t)((c & 0x0040 ? 0x80 : 0) | (c & 0x0080 ? 0x40 : 0));
	case 0x04: return (uint8_t)((c & 0x0100 ? 0x80 : 0) | (c & 0x0200 ? 0x40 : 0));
	case 0x05: return (uint8_t)((c & 0x0400 ? 0x80 : 0) | (c & 0x0800 ? 0x40 : 0));
	case 0x06: return (uint8_t)(c & 0x1000 ? 0x80 : 0);
	case 0x07: return (uint8_t)((c & 0x2000 ? 0x80 : 0) | (c & 0x4000 ? 0x40 : 0));
	case 0x08: case 0x09: case 0x0a: case 0x0b:
		return pot_read(t, (addr & 0x0f) - 8, cycle);
	case 0x0c: return t->fire[0] ? 0 : 0x80;
	case 0x0d: return t->fire[1] ? 0 : 0x80;
	default: return 0;
	}
}

/* Colour clocks a write to a playfield register at `clock` waits before
 * it takes effect: 4, 5, 2 or 3 by the CPU cycle. */
static HOSTDEV unsigned pf_delay(const struct atari_tia *t, uint64_t clock)
{
	unsigned phase = (atari_tia_line_clock(t, clock) / 3) & 3;

	return phase < 2 ? 4 + phase : phase;
}

/* Colour clocks a write to register `addr` at `clock` waits before it
 * takes effect. */
static HOSTDEV unsigned write_delay(const struct atari_tia *t, unsigned addr, uint64_t clock)
{
	switch (addr) {
	case 0x01: case 0x0b: case 0x0c: case 0x1b: case 0x1c:
		return 1;
	case 0x04: case 0x05: case 0x12: case 0x13:
		return 8;
	case 0x0d: case 0x0e: case 0x0f:
		return pf_delay(t, clock);
	default:
		return 0;
	}
}

HOSTDEV void atari_tia_catch_up(struct atari_tia *t, uint8_t *fb)
{
	uint64_t clock = 3 * t->cycle;

	if (t->last_access == ATARI_TIA_READ)
		render(t, clock, fb);
	else
		render(t, clock + write_delay(t, t->last_access, clock), fb);
}

/* A player's graphics as shown: g, reflected when refp is set. */
static HOSTDEV uint8_t shown(uint8_t g, uint8_t refp)
{
	return refp ? reverse8(g) : g;
}

static HOSTDEV void update_players(struct atari_tia *t)
{
	t->cur_grp0 = shown(t->vdelp0 ? t->dgrp0 : t->grp0, t->refp0);
	t->cur_grp1 = shown(t->vdelp1 ? t->dgrp1 : t->grp1, t->refp1);
	t->enabled = (uint8_t)((t->enabled & ~(TIA_P0 | TIA_P1)) |
			       (t->cur_grp0 ? TIA_P0 : 0) | (t->cur_grp1 ? TIA_P1 : 0));
}

static HOSTDEV void update_enabled(struct atari_tia *t)
{
	unsigned e = t->enabled & (TIA_P0 | TIA_P1);

	if (t->enam0 && !t->resmp0)
		e |= TIA_M0;
	if (t->enam1 && !t->resmp1)
		e |= TIA_M1;
	if (t->vdelbl ? t->denabl : t->enabl)
		e |= TIA_BL;
	if (t->pf)
		e |= TIA_PF;
	t->enabled = (uint8_t)e;
}

static HOSTDEV uint8_t wrap160(int pos)
{
	if (pos >= 160)
		pos -= 160;
	else if (pos < 0)
		pos += 160;
	return (uint8_t)pos;
}

static HOSTDEV void reset_player(struct atari_tia *t, int which, unsigned hpos,
				 uint64_t clock, uint8_t *fb)
{
	unsigned newx = hpos < HBLANK ? 3 : (hpos - HBLANK + 5) % 160;
	uint8_t *pos = which ? &t->posp1 : &t->posp0;
	uint8_t *skip = which ? &t->p1_skip : &t->p0_skip;
	int when = reset_when((which ? t->nusiz1 : t->nusiz0) & 7, *pos, newx);

	/* Reset while a copy is drawn: the reference lets it finish.  The
	 * collisions of those pixels are latched before the player moves
	 * (without a frame buffer they would wait for masks rebuilt at the
	 * new position). */
	if (when == 1) {
		render(t, clock + 11, fb);
		atari_tia_collide(t);
		t->masks_stale |= TIA_P0 | TIA_P1;
	}
	*pos = (uint8_t)newx;
	*skip = when != -1;
}

static HOSTDEV void reset_missile_to_player(unsigned nusiz,
					     uint8_t posp, uint8_t *posm)
{
	unsigned mode = nusiz & 7;
	unsigned middle = mode == 5 ? 8 : mode == 7 ? 16 : 4;

	*posm = (uint8_t)((posp + middle) % 160);
}

static HOSTDEV void hmove(struct atari_tia *t, unsigned hpos, uint64_t clock)
{
	unsigned x = hpos / 3;

	if (t->hmove_blanks && (x <= 20 || x == 75))
		t->hmove_blank = 1;
	/* With every motion register 0, nothing moves but where HMOVE itself
	 * moves objects: most games write HMCLR after their positioning. */
	if ((t->hmp0 | t->hmp1 | t->hmm0 | t->hmm1 | t->hmbl) || hmove_moves_still(x)) {
		struct hmove_clamp c = hmove_at(x);

		t->posp0 = wrap160(t->posp0 + hmove_motion(c, t->hmp0));
		t->posp1 = wrap160(t->posp1 + hmove_motion(c, t->hmp1));
		t->posm0 = wrap160(t->posm0 + hmove_motion(c, t->hmm0));
		t->posm1 = wrap160(t->posm1 + hmove_motion(c, t->hmm1));
		t->posbl = wrap160(t->posbl + hmove_motion(c, t->hmbl));
	}
	t->p0_skip = 0;
	t->p1_skip = 0;
	t->m0_mode = 0;
	t->last_hmove = clock;
	t->cosmic = 0;
}

/* The objects whose masks a write to `addr` may change (TIA_* bits). */
static HOSTDEV unsigned stale_masks(unsigned addr)
{
	switch (addr) {
	case 0x04: return TIA_P0 | TIA_M0;		/* NUSIZ0 */
	case 0x05: return TIA_P1 | TIA_M1;		/* NUSIZ1 */
	case 0x0a: return TIA_BL | TIA_PF;		/* CTRLPF */
	case 0x0b: case 0x10: case 0x25: return TIA_P0 | TIA_P1;	/* REFP0 RESP0 VDELP0 */
	case 0x0c: case 0x11: case 0x26: return TIA_P0 | TIA_P1;	/* REFP1 RESP1 VDELP1 */
	case 0x0d: case 0x0e: case 0x0f: return TIA_PF;	/* PF0-2 */
	case 0x12: case 0x1d: case 0x28: return TIA_M0;	/* RESM0 ENAM0 RESMP0 */
	case 0x13: case 0x1e: case 0x29: return TIA_M1;	/* RESM1 ENAM1 RESMP1 */
	case 0x14: case 0x1f: case 0x27: return TIA_BL;	/* RESBL ENABL VDELBL */
	case 0x1b: case 0x1c: return TIA_P0 | TIA_P1 | TIA_BL;	/* GRP0 GRP1 */
	case 0x2a: return TIA_P0 | TIA_M0 | TIA_P1 | TIA_M1 | TIA_BL;	/* HMOVE */
	default: return 0;
	}
}

/* The graphics the players show, p0 and p1 (cur_grp0, cur_grp1). */
struct players_shown {
	uint8_t p0, p1;
};

/* What the players show once `value` is written to GRP0 or GRP1 (`addr`):
 * a write to either also copies the other's register into its delayed
 * one. */
static inline HOSTDEV struct players_shown graphics_shown(const struct atari_tia *t, unsigned addr,
							 uint8_t value)
{
	struct players_shown s;
	uint8_t g0 = addr == 0x1b ? value : t->grp0, g1 = addr == 0x1c ? value : t->grp1;

	s.p0 = shown(t->vdelp0 ? (addr == 0x1c ? t->grp0 : t->dgrp0) : g0, t->refp0);
	s.p1 = shown(t->vdelp1 ? (addr == 0x1b ? t->grp1 : t->dgrp1) : g1, t->refp1);
	return s;
}

/*
 * The objects whose masks writing `value` to GRP0 or GRP1 (`addr`)
 * changes: stale_masks, or none where the players show the same bytes
 * after it and the ball's delayed enable stays (with VDELPx or REFPx a
 * changed register can leave them).  *s: what the players show after it.
 * A write that changes no register at all does not come here
 * (atari_tia_write_way).
 */
static inline HOSTDEV unsigned graphics_stale(const struct atari_tia *t, unsigned addr,
					      uint8_t value, struct players_shown *s)
{
	*s = graphics_shown(t, addr, value);
	if (s->p0 == t->cur_grp0 && s->p1 == t->cur_grp1 &&
	    (addr == 0x1b || !t->vdelbl || t->denabl == t->enabl))
		return 0;
	return stale_masks(addr);
}

/* GRP0 or GRP1 (`addr`) set to `value`; the players then show s
 * (graphics_shown). */
static inline HOSTDEV void graphics_written(struct atari_tia *t, unsigned addr, uint8_t value,
					    struct players_shown s)
{
	if (addr == 0x1b) {
		t->grp0 = value;
		t->dgrp1 = t->grp1;
	} else {
		t->grp1 = value;
		t->dgrp0 = t->grp0;
		t->denabl = t->enabl;
	}
	t->cur_grp0 = s.p0;
	t->cur_grp1 = s.p1;
	t->enabled = (uint8_t)((t->enabled & ~(TIA_P0 | TIA_P1)) |
			       (s.p0 ? TIA_P0 : 0) | (s.p1 ? TIA_P1 : 0));
	if (addr == 0x1c)
		update_enabled(t);
}

/* COLUP0, COLUP1, COLUPF or COLUBK (`addr`) written with `value`. */
static inline HOSTDEV void colour_written(struct atari_tia *t, unsigned addr, uint8_t value)
{
	uint8_t c = (uint8_t)((value & 0xfe) | t->colour_loss);

	switch (addr) {
	case 0x06: t->colup0 = c; break;
	case 0x07: t->colup1 = c; break;
	case 0x08: t->colupf = c; break;
	default: t->colubk = c; break;
	}
}

/*
 * A write before the frame's end that changes nothing drawn: a vertical
 * delay or a reflection that leaves what its object shows as it is
 * (VDELP0, VDELP1, VDELBL, REFP0, REFP1), and with no frame buffer, a
 * colour (COLUP0-COLUBK, or CTRLPF's score and priority bits alone; the
 * collisions do not look at them).  It sets the register without
 * bringing the picture up to it.  Returns 0, having done nothing, where
 * the write changes more.
 */
static inline HOSTDEV int unseen_written(struct atari_tia *t, unsigned addr, uint8_t value,
					 uint64_t cycle, const uint8_t *fb)
{
	switch (addr) {
	case 0x06: case 0x07: case 0x08: case 0x09:	/* COLUP0-COLUBK */
		if (fb)
			return 0;
		colour_written(t, addr, value);
		break;
	case 0x0a:		/* CTRLPF: the reflection and the ball's size stay */
		if (fb || ((value ^ t->ctrlpf) & 0x31) || (value & 0x01) != t->pf_reflect)
			return 0;
		t->ctrlpf = value;
		break;
	case 0x0b:		/* REFP0 */
		if (reverse8(t->cur_grp0) != t->cur_grp0)
			return 0;
		t->refp0 = (value & 0x08) != 0;
		break;
	case 0x0c:		/* REFP1 */
		if (reverse8(t->cur_grp1) != t->cur_grp1)
			return 0;
		t->refp1 = (value & 0x08) != 0;
		break;
	case 0x25:		/* VDELP0 */
		if (shown(value & 0x01 ? t->dgrp0 : t->grp0, t->refp0) != t->cur_grp0)
			return 0;
		t->vdelp0 = value & 0x01;
		break;
	case 0x26:		/* VDELP1 */
		if (shown(value & 0x01 ? t->dgrp1 : t->grp1, t->refp1) != t->cur_grp1)
			return 0;
		t->vdelp1 = value & 0x01;
		break;
	case 0x27:		/* VDELBL */
		if (!(value & 0x01 ? t->denabl : t->enabl) != !(t->vdelbl ? t->denabl : t->enabl))
			return 0;
		t->vdelbl = value & 0x01;
		break;
	default:
		return 0;
	}
	atari_tia_seen(t, cycle);
	return 1;
}

/* Any write, in full (atari_tia_write_reg). */
static HOSTDEV void write_reg(struct atari_tia *t, uint16_t addr, uint8_t value, uint64_t cycle,
			      uint8_t *fb)
{
	uint64_t clock = 3 * cycle;
	unsigned stale;
	int frame_end = atari_tia_past_frame(t, clock);
	struct players_shown players = { 0, 0 };

	addr &= 0x3f;
	/* What a write changes is drawn from its clock on: the picture is
	 * brought up to it first, unless the write changes nothing drawn. */
	if (frame_end || !((WRITES_UNSEEN >> addr) & 1))
		render(t, clock + write_delay(t, addr, clock), fb);
	atari_tia_seen(t, cycle);
	/* Collisions waiting on the masks as they stand are latched before
	 * the masks or the latches change. */
	stale = addr == 0x1b || addr == 0x1c ? graphics_stale(t, addr, value, &players) :
					       stale_masks(addr);
	if (stale || addr == 0x2c)
		atari_tia_collide(t);
	t->masks_stale |= stale;

	switch (addr) {
	case 0x00:		/* VSYNC */
		t->vsync = value;
		if (value & 0x02) {
			t->vsync_finish = clock + LINE;
		} else if (clock >= t->vsync_finish) {
			t->vsync_finish = NO_CLOCK;
			frame_end = 1;
		}
		break;
	case 0x01:		/* VBLANK */
		if (!(t->vblank & 0x80) && (value & 0x80))
			t->dump = 1;
		if ((t->vblank & 0x80) && !(value & 0x80)) {
			t->dump = 0;
			t->dump_off_cycle = cycle;
		}
		t->vblank = value;
		break;
	case 0x04:		/* NUSIZ0 */
		t->nusiz0 = value;
		t->p0_skip = 0;
		t->m0_mode = 0;
		break;
	case 0x05:		/* NUSIZ1 */
		t->nusiz1 = value;
		t->p1_skip = 0;
		break;
	case 0x06: case 0x07: case 0x08: case 0x09:
		colour_written(t, addr, value);
		break;
	case 0x0a:		/* CTRLPF */
		t->ctrlpf = value;
		if (atari_tia_line_clock(t, clock) < HBLANK + 79)
			t->pf_reflect = value & 0x01;
		break;
	case 0x0b:		/* REFP0 */
		if (!(value & 0x08) != !t->refp0) {
			t->refp0 = (value & 0x08) != 0;
			t->cur_grp0 = reverse8(t->cur_grp0);
		}
		break;
	case 0x0c:		/* REFP1 */
		if (!(value & 0x08) != !t->refp1) {
			t->refp1 = (value & 0x08) != 0;
			t->cur_grp1 = reverse8(t->cur_grp1);
		}
		break;
	case 0x0d: case 0x0e: case 0x0f:	/* PF0-2 */
		t->pf = atari_tia_pf_written(t->pf, addr, value);
		update_enabled(t);
		break;
	case 0x10:		/* RESP0 */
		reset_player(t, 0, atari_tia_line_clock(t, clock), clock, fb);
		break;
	case 0x11:		/* RESP1 */
		reset_player(t, 1, atari_tia_line_clock(t, clock), clock, fb);
		break;
	case 0x12: {		/* RESM0 */
		unsigned hpos = atari_tia_line_clock(t, clock);

		t->posm0 = (uint8_t)(hpos < HBLANK ? 2 : (hpos - HBLANK + 4) % 160);
		/* The reference's fix-ups for a reset just after HMOVE. */
		if (clock - t->last_hmove == 20 * 3 && hpos == 69)
			t->posm0 = 8;
		t->m0_mode = 0;
		break;
	}
	case 0x13: {		/* RESM1 */
		unsigned hpos = atari_tia_line_clock(t, clock);

		t->posm1 = (uint8_t)(hpos < HBLANK ? 2 : (hpos - HBLANK + 4) % 160);
		if (clock - t->last_hmove == 3 * 3 && hpos == 18)
			t->posm1 = 3;
		break;
	}
	case 0x14: {		/* RESBL */
		unsigned hpos = atari_tia_line_clock(t, clock);

		t->posbl = (uint8_t)(hpos < HBLANK ? 2 : (hpos - HBLANK + 4) % 160);
		if (clock - t->last_hmove == 18 * 3 && (hpos == 60 || hpos == 69))
			t->posbl = 10;
		else if (clock - t->last_hmove == 3 * 3 && hpos == 18)
			t->posbl = 3;
		else if (clock - t->last_hmove == 7 * 3 && hpos == 30)
			t->posbl = 6;
		else if (clock - t->last_hmove == 6 * 3 && hpos == 27)
			t->posbl = 5;
		break;
	}
	case 0x1b: case 0x1c:	/* GRP0, GRP1 */
		graphics_written(t, addr, value, players);
		break;
	case 0x1d:		/* ENAM0 */
		t->enam0 = value & 0x02;
		update_enabled(t);
		break;
	case 0x1e:		/* ENAM1 */
		t->enam1 = value & 0x02;
		update_enabled(t);
		break;
	case 0x1f:		/* ENABL */
		t->enabl = value & 0x02;
		update_enabled(t);
		break;
	case 0x22:		/* HMM0, and the "Cosmic Ark" starfield bug */
		if (clock == t->last_hmove + 21 * 3 && t->hmm0 == 7 && (value >> 4) == 6) {
			t->cosmic = 1;
			t->cosmic_count = 0;
		}
		t->hmm0 = value >> 4;
		break;
	case 0x20: case 0x21: case 0x23: case 0x24: case 0x2b:
		atari_tia_motion_written(t, addr, value);
		break;
	case 0x25:		/* VDELP0 */
		t->vdelp0 = value & 0x01;
		update_players(t);
		break;
	case 0x26:		/* VDELP1 */
		t->vdelp1 = value & 0x01;
		update_players(t);
		break;
	case 0x27:		/* VDELBL */
		t->vdelbl = value & 0x01;
		update_enabled(t);
		break;
	case 0x28:		/* RESMP0 */
		if (t->resmp0 && !(value & 0x02)) {
			reset_missile_to_player(t->nusiz0, t->posp0, &t->posm0);
			t->m0_mode = 0;
		}
		t->resmp0 = value & 0x02;
		update_enabled(t);
		break;
	case 0x29:		/* RESMP1 */
		if (t->resmp1 && !(value & 0x02))
			reset_missile_to_player(t->nusiz1, t->posp1, &t->posm1);
		t->resmp1 = value & 0x02;
		update_enabled(t);
		break;
	case 0x2a:		/* HMOVE */
		hmove(t, atari_tia_line_clock(t, clock), clock);
		break;
	case 0x2c:		/* CXCLR */
		t->collision = 0;
		break;
	default:		/* WSYNC (the bus halts the CPU), RSYNC, audio */
		break;
	}
	/* The next frame starts where the CPU resumes: after the halt when
	 * the write that ended the frame was to WSYNC. */
	if (frame_end)
		frame_start(t, addr == 0x02 ? atari_tia_wsync_until(t, cycle) : cycle);
}

/* GRP0 or GRP1 (`addr`), before the frame's end: write_reg's steps for
 * them, without its switches; atari_tia_write_grp0 and
 * atari_tia_write_grp1 make one each. */
static ATARI_TIA_INLINE HOSTDEV void write_graphics(struct atari_tia *t, unsigned addr,
						    uint8_t value, uint64_t cycle, uint8_t *fb)
{
	struct players_shown players;
	unsigned stale;

	render(t, 3 * cycle + 1, fb);
	atari_tia_seen(t, cycle);
	stale = graphics_stale(t, addr, value, &players);
	if (stale) {
		atari_tia_collide(t);
		t->masks_stale |= stale;
	}
	graphics_written(t, addr, value, players);
}

HOSTDEV void atari_tia_write_grp0(struct atari_tia *t, uint8_t value, uint64_t cycle, uint8_t *fb)
{
	write_graphics(t, 0x1b, value, cycle, fb);
}

HOSTDEV void atari_tia_write_grp1(struct atari_tia *t, uint8_t value, uint64_t cycle, uint8_t *fb)
{
	write_graphics(t, 0x1c, value, cycle, fb);
}

/* PF0, PF1 or PF2 (`addr`), before the frame's end: write_reg's steps
 * for them. */
HOSTDEV void atari_tia_write_pf(struct atari_tia *t, unsigned addr, uint8_t value,
				uint64_t cycle, uint8_t *fb)
{
	uint64_t clock = 3 * cycle;

	render(t, clock + pf_delay(t, clock), fb);
	atari_tia_seen(t, cycle);
	atari_tia_collide(t);
	t->masks_stale |= stale_masks(addr);
	t->pf = atari_tia_pf_written(t->pf, addr, value);
	update_enabled(t);
}

/* HMOVE, before the frame's end: write_reg's steps for it. */
HOSTDEV void atari_tia_write_hmove(struct atari_tia *t, uint64_t cycle, uint8_t *fb)
{
	uint64_t clock = 3 * cycle;

	render(t, clock, fb);
	atari_tia_seen(t, cycle);
	atari_tia_collide(t);
	t->masks_stale |= stale_masks(0x2a);
	hmove(t, atari_tia_line_clock(t, clock), clock);
}

/* Any write; before the frame's end, those that change nothing drawn
 * skip the drawing (unseen_written). */
HOSTDEV void atari_tia_write_reg(struct atari_tia *t, uint16_t addr, uint8_t value,
				 uint64_t cycle, uint8_t *fb)
{
	if (atari_tia_past_frame(t, 3 * cycle) || !unseen_written(t, addr & 0x3f, value, cycle, fb))
		write_reg(t, addr, value, cycle, fb);
}

HOSTDEV void atari_tia_grey_out(struct atari_tia *t, uint64_t cycle, uint8_t *fb)
{
	t->unfinished = 1;
	if (t->greyed)
		return;
	t->greyed = 1;
	if (!fb)
		return;
	uint64_t line = frame_line(t, 3 * cycle);

	if (line < t->ystart)
		line = t->ystart;
	for (uint64_t s = line; s < (uint64_t)t->ystart + t->height; s++) {
		uint8_t *row = fb + (s - t->ystart) * ATARI_SCREEN_WIDTH;

		for (int i = 0; i < ATARI_SCREEN_WIDTH; i++)
			row[i] = (uint8_t)((row[i] & 0x0f) >> 1);
	}
}

HOSTDEV void atari_tia_set_fire(struct atari_tia *t, int player, int pressed)
{
	if (player == 0 || player == 1)
		t->fire[player] = pressed != 0;
}

HOSTDEV void atari_tia_set_pot(struct atari_tia *t, int pot, int32_t ohms)
{
	if (pot < 0 || pot > 3)
		return;
	if (ohms <= ATARI_POT_GROUNDED) {
		t->pot_mode[pot] = 1;
	} else if (ohms == ATARI_POT_OPEN) {
		t->pot_mode[pot] = 2;
	} else {
		/* RC charge time, as the reference computes it. */
		double time = 1.6 * ohms * 0.01E-6;

		t->pot_mode[pot] = 0;
		t->pot_time[pot] = (uint32_t)(time * 1.19E6);
	}
}

HOSTDEV void atari_tia_set_paddle(struct atari_tia *t, int pot, float resistance)
{
	if (!(resistance > 0.0f))
		resistance = 0.0f;
	if (resistance > 1.0f)
		resistance = 1.0f;
	atari_tia_set_pot(t, pot, (int32_t)(resistance * 1000000.0f + 0.5f));
}

#undef WRITES_UNSEEN
#define TIA_INT_UNDEF
#include "atari/tia_int.h"
