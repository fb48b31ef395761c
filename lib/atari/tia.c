/*
 * TIA video, collisions and inputs (see atari/tia.h).  The beam model
 * follows the reference: the frame is drawn lazily up to the colour clock
 * of each access, a chunk of a scan line at a time.  Objects are kept as
 * their position and the state of their copy logic, so a pixel is a pure
 * function of the registers: no tables, nothing outside the struct.
 */
#include <string.h>

#include "atari/tia.h"

/* Registers whose writes change nothing drawn until a later write:
 * WSYNC, RSYNC, audio (15-1A), HMxx (20-24), HMCLR and the unused 2D-3F. */
#define WRITES_UNSEEN 0xffffe81f07e0000cull

/* Object bits of atari_tia.enabled. */
#define TIA_P0 0x01
#define TIA_M0 0x02
#define TIA_P1 0x04
#define TIA_M1 0x08
#define TIA_BL 0x10
#define TIA_PF 0x20

#define HBLANK 68
#define LINE 228
#define MAX_LINES 290		/* NTSC: a write past this line ends the frame */
#define MAX_LINES_PAL 342
#define NO_CLOCK UINT64_MAX
#define FB_SIZE (ATARI_SCREEN_WIDTH * ATARI_FB_LINES)

/* Copies drawn in each NUSIZ mode: bit k for a copy 16 * k pixels on. */
static HOSTDEV unsigned copies(unsigned mode)
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

static HOSTDEV uint8_t reverse8(uint8_t b)
{
	b = (uint8_t)((b & 0xf0) >> 4 | (b & 0x0f) << 4);
	b = (uint8_t)((b & 0xcc) >> 2 | (b & 0x33) << 2);
	return (uint8_t)((b & 0xaa) >> 1 | (b & 0x55) << 1);
}

/* Pixels from an object at `pos` to pixel x, 0-159. */
static HOSTDEV unsigned dist(unsigned x, unsigned pos)
{
	return x >= pos ? x - pos : x + 160 - pos;
}

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

/* Playfield bit (0-19 of atari_tia.pf) shown at pixel x. */
static HOSTDEV unsigned pf_bit(unsigned x, unsigned reflect)
{
	if (x >= 80) {
		x -= 80;
		if (reflect)
			x = 79 - x;
	}
	unsigned q = x >> 2;

	return q < 4 ? q : q < 12 ? 15 - q : q;
}

/*
 * Motion HMOVE gives an object with motion nibble n, written at CPU cycle
 * x of the line: 8 - (n ^ 8) pixels right in horizontal blank; written in
 * cycles 2-20 the move is clamped, from cycle 55 on late extra clocks move
 * objects left, in between nothing moves.
 */
static HOSTDEV int hmove_motion(unsigned x, unsigned n)
{
	int u = (int)(n ^ 8), m = 8 - u;

	if (x < 2 || x == 75)
		return m;
	if (x <= 20) {
		int lo = (int)x - 10 - ((int)x - 2) / 4;

		return m > lo ? m : lo;
	}
	if (x < 55)
		return 0;
	int k = ((int)x - 54) - ((int)x - 54) / 4;

	return 15 - u - k < 0 ? 15 - u - k : 0;
}

/* The 15 collision latches set by the objects in `en`. */
static HOSTDEV uint16_t collisions(unsigned en)
{
	unsigned p0 = en & 1, m0 = (en >> 1) & 1, p1 = (en >> 2) & 1;
	unsigned m1 = (en >> 3) & 1, bl = (en >> 4) & 1, pf = (en >> 5) & 1;

	return (uint16_t)((m0 & p1) | (m0 & p0) << 1 | (m1 & p0) << 2 | (m1 & p1) << 3 |
			  (p0 & pf) << 4 | (p0 & bl) << 5 | (p1 & pf) << 6 | (p1 & bl) << 7 |
			  (m0 & pf) << 8 | (m0 & bl) << 9 | (m1 & pf) << 10 | (m1 & bl) << 11 |
			  (bl & pf) << 12 | (p0 & p1) << 13 | (m0 & m1) << 14);
}

/* Colour of a pixel showing the objects `en`, x < 80 on the left half. */
static HOSTDEV uint8_t pixel_colour(const struct atari_tia *t, unsigned en,
				    unsigned left)
{
	if (t->ctrlpf & 0x04) {
		if (en & (TIA_PF | TIA_BL))
			return t->colupf;
		if (en & (TIA_P0 | TIA_M0))
			return t->colup0;
		if (en & (TIA_P1 | TIA_M1))
			return t->colup1;
		return t->colubk;
	}
	/* 0 background, 1 playfield, 2 player 0, 3 player 1; in score mode
	 * the left playfield takes player 0's colour and stays above player 1. */
	unsigned c = 0;

	if (en & TIA_BL)
		c = 1;
	if (en & TIA_PF)
		c = (t->ctrlpf & 0x02) ? (left ? 2 : 3) : 1;
	if (en & (TIA_P1 | TIA_M1))
		c = c != 2 ? 3 : 2;
	if (en & (TIA_P0 | TIA_M0))
		c = 2;
	return c == 0 ? t->colubk : c == 1 ? t->colupf : c == 2 ? t->colup0 : t->colup1;
}

/*
 * The pixels of each object on the current line, as 160-bit masks (bit x
 * of word x / 64 for pixel x), cached in atari_tia.masks.
 */
struct line_masks {
	uint64_t m[6][3];	/* P0, M0, P1, M1, BL, PF */
};

/* OR `width` (at most 32) pixels `bits` (bit 0 first) in from pixel x,
 * wrapping at the end of the line. */
static HOSTDEV void mask_or(uint64_t *m, unsigned x, uint64_t bits, unsigned width)
{
	unsigned w, b;

	if (x >= 160)
		x -= 160;
	if (x + width > 160) {
		unsigned k = 160 - x;

		m[0] |= bits >> k;
		bits &= (1ull << k) - 1;
		width = k;
	}
	w = x >> 6;
	b = x & 63;
	m[w] |= bits << b;
	if (b + width > 64)
		m[w + 1] |= bits >> (64 - b);
}

static HOSTDEV void player_mask(uint64_t *m, unsigned g, unsigned pos, unsigned mode,
				unsigned skip)
{
	uint64_t pat = reverse8((uint8_t)g);	/* bit r: pixel pos + r */

	if (!g)
		return;
	if (mode == 5 || mode == 7) {
		/* Double and quad width: one copy, starting a pixel late. */
		unsigned w = mode == 5 ? 2 : 4;
		uint64_t wide = 0;

		if (skip)
			return;
		for (unsigned r = 0; r < 8; r++)
			if ((pat >> r) & 1)
				wide |= ((1ull << w) - 1) << (r * w);
		mask_or(m, pos + 1, wide, 8 * w);
		return;
	}
	unsigned set = copies(mode);

	for (unsigned k = skip ? 1 : 0; k < 5; k++)
		if ((set >> k) & 1)
			mask_or(m, pos + 16 * k, pat, 8);
}

static HOSTDEV void missile_mask(uint64_t *m, unsigned pos, unsigned nusiz,
				 unsigned m0_mode)
{
	unsigned size = (nusiz >> 4) & 3, set = copies(nusiz & 7);

	if (m0_mode == 2)
		return;
	if (m0_mode == 1)
		size |= 1;
	for (unsigned k = 0; k < 5; k++)
		if ((set >> k) & 1)
			mask_or(m, pos + 16 * k, (1ull << (1u << size)) - 1, 1u << size);
}

/* Bits 0-15 of v spread to every fourth bit, each repeated 4 times: the
 * pixels of 16 playfield bits. */
static HOSTDEV uint64_t spread4(uint64_t v)
{
	v &= 0xffff;
	v = (v | (v << 24)) & 0x000000ff000000ffull;
	v = (v | (v << 12)) & 0x000f000f000f000full;
	v = (v | (v << 6)) & 0x0303030303030303ull;
	v = (v | (v << 3)) & 0x1111111111111111ull;
	return v * 0xf;
}

/* The playfield's pixels: its 20 bits in the order they are shown (PF0
 * bits 4-7, PF1 bits 7-0, PF2 bits 0-7), 4 pixels each, on the left half;
 * the same or reflected on the right half. */
static HOSTDEV void pf_mask(uint64_t *m, uint32_t pf, unsigned reflect)
{
	uint32_t left = (pf & 0xff00f) | ((uint32_t)reverse8((uint8_t)(pf >> 4)) << 4), right = left;

	if (reflect)
		right = (uint32_t)reverse8((uint8_t)left) << 12 |
			(uint32_t)reverse8((uint8_t)(left >> 8)) << 4 |
			(uint32_t)reverse8((uint8_t)(left >> 16)) >> 4;
	m[0] = spread4(left);
	m[1] = spread4(left >> 16) | spread4(right) << 16;
	m[2] = spread4(right >> 12);
}

/* The masks of the enabled objects, rebuilt when a register changed. */
static HOSTDEV const struct line_masks *line_masks(struct atari_tia *t)
{
	struct line_masks *lm = (struct line_masks *)t->masks;
	unsigned objs = t->enabled & t->masks_stale;

	if (!t->masks_stale)
		return lm;
	for (unsigned o = 0; o < 6; o++)
		if ((t->masks_stale >> o) & 1)
			lm->m[o][0] = lm->m[o][1] = lm->m[o][2] = 0;
	t->masks_stale = 0;
	if (objs & TIA_P0)
		player_mask(lm->m[0], t->cur_grp0, t->posp0, t->nusiz0 & 7, t->p0_skip);
	if (objs & TIA_M0)
		missile_mask(lm->m[1], t->posm0, t->nusiz0, t->m0_mode);
	if (objs & TIA_P1)
		player_mask(lm->m[2], t->cur_grp1, t->posp1, t->nusiz1 & 7, t->p1_skip);
	if (objs & TIA_M1)
		missile_mask(lm->m[3], t->posm1, t->nusiz1, 0);
	if (objs & TIA_BL)
		mask_or(lm->m[4], t->posbl, (1ull << (1u << ((t->ctrlpf >> 4) & 3))) - 1,
			1u << ((t->ctrlpf >> 4) & 3));
	if (objs & TIA_PF)
		pf_mask(lm->m[5], t->pf, t->pf_reflect);
	return lm;
}

/* Objects showing at pixel x. */
static HOSTDEV unsigned mask_objects(const struct line_masks *lm, unsigned x)
{
	unsigned w = x >> 6, b = x & 63;

	return (unsigned)((lm->m[0][w] >> b) & 1) |
		(unsigned)(((lm->m[1][w] >> b) & 1) << 1) |
		(unsigned)(((lm->m[2][w] >> b) & 1) << 2) |
		(unsigned)(((lm->m[3][w] >> b) & 1) << 3) |
		(unsigned)(((lm->m[4][w] >> b) & 1) << 4) |
		(unsigned)(((lm->m[5][w] >> b) & 1) << 5);
}

/* Pixels [x, x + n) of a line as a 160-bit mask. */
static HOSTDEV void range_mask(unsigned x, unsigned n, uint64_t r[3])
{
	for (unsigned w = 0; w < 3; w++) {
		unsigned lo = 64 * w, hi = lo + 64;
		unsigned from = x > lo ? x : lo, to = x + n < hi ? x + n : hi;

		r[w] = 0;
		if (from < to)
			r[w] = (to - from == 64 ? ~0ull : ((1ull << (to - from)) - 1)) << (from - lo);
	}
}

static HOSTDEV unsigned lowest_bit(uint64_t v)
{
#ifdef __CUDA_ARCH__
	return (unsigned)__ffsll((long long)v) - 1;
#else
	return (unsigned)__builtin_ctzll(v);
#endif
}

/* Latches among `want` set by the objects' pixels in [x, x + n), without
 * drawing. */
static HOSTDEV uint16_t mask_collisions(const struct line_masks *lm, unsigned x,
					unsigned n, unsigned want)
{
	uint64_t r[3], a[6][3];
	unsigned c = 0;

	range_mask(x, n, r);
	for (unsigned o = 0; o < 6; o++)
		for (unsigned w = 0; w < 3; w++)
			a[o][w] = lm->m[o][w] & r[w];
#define PAIR(i, j, latch) \
	if ((want & (latch)) && ((a[i][0] & a[j][0]) | (a[i][1] & a[j][1]) | (a[i][2] & a[j][2]))) \
		c |= (latch)
	PAIR(1, 2, 0x0001);	/* M0-P1 */
	PAIR(1, 0, 0x0002);	/* M0-P0 */
	PAIR(3, 0, 0x0004);	/* M1-P0 */
	PAIR(3, 2, 0x0008);	/* M1-P1 */
	PAIR(0, 5, 0x0010);	/* P0-PF */
	PAIR(0, 4, 0x0020);	/* P0-BL */
	PAIR(2, 5, 0x0040);	/* P1-PF */
	PAIR(2, 4, 0x0080);	/* P1-BL */
	PAIR(1, 5, 0x0100);	/* M0-PF */
	PAIR(1, 4, 0x0200);	/* M0-BL */
	PAIR(3, 5, 0x0400);	/* M1-PF */
	PAIR(3, 4, 0x0800);	/* M1-BL */
	PAIR(4, 5, 0x1000);	/* BL-PF */
	PAIR(0, 2, 0x2000);	/* P0-P1 */
	PAIR(1, 3, 0x4000);	/* M0-M1 */
#undef PAIR
	return (uint16_t)c;
}

/* Set the pixels of `bits` (pixel 64 * w + b for bit b) to `colour`, a run
 * of consecutive pixels at a time; p holds the pixels from pixel x on. */
static HOSTDEV void fill_runs(uint8_t *p, unsigned x, unsigned w, uint64_t bits, uint8_t colour)
{
	while (bits) {
		unsigned s = lowest_bit(bits);
		uint64_t rest = ~(bits >> s);
		unsigned len = rest ? lowest_bit(rest) : 64 - s;

		memset(p + (64 * w + s - x), colour, len);
		bits &= s + len >= 64 ? 0 : ~0ull << (s + len);
	}
}

/* Draw the objects' pixels in [x, x + n) over the background at p: the
 * pixels of one object alone in runs of its colour, those where objects
 * overlap one at a time (and they collide). */
static HOSTDEV void mask_draw(struct atari_tia *t, const struct line_masks *lm,
			      unsigned x, unsigned n, uint8_t *p)
{
	uint64_t r[3], seen = 0;
	unsigned last = 64, last_left = 2;
	uint8_t colour = 0;

	memset(p, t->colubk, n);
	range_mask(x, n, r);
	for (unsigned w = 0; w < 3; w++) {
		uint64_t ones = 0, multi = 0;
		/* The pixels left of the middle (score mode colours the
		 * playfield's halves apart). */
		uint64_t left = w == 0 ? ~0ull : w == 1 ? 0xffffull : 0;

		for (unsigned o = 0; o < 6; o++) {
			uint64_t a = lm->m[o][w] & r[w];

			multi |= ones & a;
			ones |= a;
		}
		if (!ones)
			continue;
		for (unsigned o = 0; o < 6; o++) {
			uint64_t alone = lm->m[o][w] & r[w] & ~multi;

			if (alone & left)
				fill_runs(p, x, w, alone & left, pixel_colour(t, 1u << o, 1));
			if (alone & ~left)
				fill_runs(p, x, w, alone & ~left, pixel_colour(t, 1u << o, 0));
		}
		while (multi) {
			unsigned px = 64 * w + lowest_bit(multi);
			unsigned en = mask_objects(lm, px), lft = px < 80;

			multi &= multi - 1;
			seen |= 1ull << en;
			if (en != last || lft != last_left) {
				colour = pixel_colour(t, en, lft);
				last = en;
				last_left = lft;
			}
			p[px - x] = colour;
		}
	}
	/* Combinations of two objects or more collide. */
	seen &= 0xfffffffefffefee8ull;
	while (seen) {
		t->collision |= collisions(lowest_bit(seen));
		seen &= seen - 1;
	}
}

/* Draw n pixels of the current line from pixel x. */
static HOSTDEV void draw(struct atari_tia *t, unsigned n, unsigned x, uint8_t *fb)
{
	uint8_t *p = 0;
	unsigned i;

	if (fb && t->fb_pos + n <= FB_SIZE)
		p = fb + t->fb_pos;
	t->fb_pos += n;
	if (t->vblank & 0x02) {
		if (p)
			memset(p, 0, n);
		return;
	}
	unsigned objs = t->enabled & 0x3f;

	if (objs == 0) {
		if (p)
			memset(p, t->colubk, n);
		return;
	}
	if (objs == TIA_PF) {
		/* The playfield alone keeps the score colours even with
		 * playfield priority, as the reference draws it. */
		if (!p)
			return;
		for (i = 0; i < n; i++) {
			unsigned px = x + i;

			if ((t->pf >> pf_bit(px, t->pf_reflect)) & 1)
				p[i] = (t->ctrlpf & 0x02) ?
					(px < 80 ? t->colup0 : t->colup1) : t->colupf;
			else
				p[i] = t->colubk;
		}
		return;
	}
	unsigned want = collisions(objs) & ~(unsigned)t->collision & 0x7fff;

	if (!p && !want)
		return;		/* nothing to draw, no latch left to set */

	const struct line_masks *lm = line_masks(t);

	if (p)
		mask_draw(t, lm, x, n, p);
	else
		t->collision |= mask_collisions(lm, x, n, want);
}

/* What the beam does at the end of each drawn scan line. */
static HOSTDEV void line_end(struct atari_tia *t)
{
	t->masks_stale = (uint8_t)(t->masks_stale | (t->p0_skip ? TIA_P0 : 0) |
				   (t->p1_skip ? TIA_P1 : 0) | (t->cosmic ? TIA_M0 : 0) |
				   ((t->pf_reflect ^ (t->ctrlpf & 0x01)) ? TIA_PF : 0));
	t->pf_reflect = t->ctrlpf & 0x01;
	t->p0_skip = 0;
	t->p1_skip = 0;
	if (t->cosmic) {
		unsigned k = (t->cosmic_count + 1) & 3;
		int pos = (int)t->posm0 - (k == 0 ? 18 : k == 1 ? 33 : k == 2 ? 0 : 17);

		t->cosmic_count = (uint8_t)k;
		if (pos < 0)
			pos += 160;
		t->posm0 = (uint8_t)pos;
		t->m0_mode = t->cosmic_count == 1 ? 1 : t->cosmic_count == 2 ? 2 : 0;
	}
}

/* Bring the picture up to colour clock `clock`. */
static HOSTDEV void render(struct atari_tia *t, uint64_t clock, uint8_t *fb)
{
	if (clock < t->start_display || t->last_update >= t->stop_display ||
	    t->last_update >= clock)
		return;
	if (clock > t->stop_display)
		clock = t->stop_display;
	do {
		unsigned from = LINE - t->clocks_to_eol, n;

		if (clock > t->last_update + t->clocks_to_eol) {
			n = t->clocks_to_eol;
			t->clocks_to_eol = LINE;
		} else {
			n = (unsigned)(clock - t->last_update);
			t->clocks_to_eol = (uint16_t)(t->clocks_to_eol - n);
		}
		t->last_update += n;
		if (from < HBLANK) {
			unsigned skip = HBLANK - from < n ? HBLANK - from : n;

			from += skip;
			n -= skip;
		}
		uint32_t start = t->fb_pos;

		if (n)
			draw(t, n, from - HBLANK, fb);
		if (t->hmove_blank && from < HBLANK + 8) {
			uint32_t blanks = HBLANK + 8 - from;

			if (fb) {
				if (start + blanks > FB_SIZE)
					blanks = start < FB_SIZE ? FB_SIZE - start : 0;
				memset(fb + start, 0, blanks);
			}
			if (n + from >= HBLANK + 8)
				t->hmove_blank = 0;
		}
		if (t->clocks_to_eol == LINE)
			line_end(t);
	} while (t->last_update < clock);
}

/* Colour clock within the scan line; frame_start is on a line start
 * (and after a frame ended by a WSYNC write, past the clock of the write). */
static HOSTDEV unsigned line_clock(const struct atari_tia *t, uint64_t clock)
{
	if (clock >= t->frame_start && clock - t->frame_start <= UINT32_MAX)
		return (uint32_t)(clock - t->frame_start) % LINE;
	return (unsigned)((clock % LINE + LINE - t->frame_start % LINE) % LINE);
}

/* Scan line of the frame at `clock`. */
static HOSTDEV uint64_t frame_line(const struct atari_tia *t, uint64_t clock)
{
	return clock > t->frame_start ? (clock - t->frame_start) / LINE : 0;
}

/* Display window of the frame. */
static HOSTDEV void set_display(struct atari_tia *t)
{
	t->start_display = t->frame_start + (uint64_t)LINE * t->ystart;
	t->stop_display = t->start_display + (uint64_t)LINE * t->height;
}

/* Start drawing the next frame; `cycle` ended the previous one. */
static HOSTDEV void frame_start(struct atari_tia *t, uint64_t cycle)
{
	uint64_t clock = 3 * cycle;

	t->frame_lines = (uint16_t)frame_line(t, clock);
	t->frame_start = clock - line_clock(t, clock);
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
}

HOSTDEV uint32_t atari_tia_scanline(const struct atari_tia *t, uint64_t cycle)
{
	return (uint32_t)frame_line(t, 3 * cycle);
}

HOSTDEV void atari_tia_sync(struct atari_tia *t, uint64_t cycle, uint8_t *fb)
{
	render(t, 3 * cycle, fb);
	if (cycle > t->cycle)
		t->cycle = cycle;
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

	atari_tia_sync(t, cycle, fb);
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

/* Colour clocks a write to each register waits before it takes effect
 * (-1: the playfield registers, whose delay depends on the cycle). */
static HOSTDEV int write_delay(unsigned addr, unsigned hpos)
{
	switch (addr) {
	case 0x01: case 0x0b: case 0x0c: case 0x1b: case 0x1c:
		return 1;
	case 0x04: case 0x05: case 0x12: case 0x13:
		return 8;
	case 0x0d: case 0x0e: case 0x0f: {
		unsigned phase = (hpos / 3) & 3;	/* 4, 5, 2, 3 clocks */

		return (int)(phase < 2 ? 4 + phase : phase);
	}
	default:
		return 0;
	}
}

static HOSTDEV void update_players(struct atari_tia *t)
{
	uint8_t g0 = t->vdelp0 ? t->dgrp0 : t->grp0;
	uint8_t g1 = t->vdelp1 ? t->dgrp1 : t->grp1;

	t->cur_grp0 = t->refp0 ? reverse8(g0) : g0;
	t->cur_grp1 = t->refp1 ? reverse8(g1) : g1;
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

	/* Reset while a copy is drawn: the reference lets it finish. */
	if (when == 1)
		render(t, clock + 11, fb);
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
	t->posp0 = wrap160(t->posp0 + hmove_motion(x, t->hmp0));
	t->posp1 = wrap160(t->posp1 + hmove_motion(x, t->hmp1));
	t->posm0 = wrap160(t->posm0 + hmove_motion(x, t->hmm0));
	t->posm1 = wrap160(t->posm1 + hmove_motion(x, t->hmm1));
	t->posbl = wrap160(t->posbl + hmove_motion(x, t->hmbl));
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
	case 0x2a: return 0x3f;				/* HMOVE */
	default: return 0;
	}
}

HOSTDEV void atari_tia_write(struct atari_tia *t, uint16_t addr, uint8_t value,
			     uint64_t cycle, uint8_t *fb)
{
	uint64_t clock = 3 * cycle, line = 0;
	unsigned hpos;
	int frame_end = 0;

	/* line_clock() and frame_line() in one division, 32-bit when the
	 * frame is not absurdly long. */
	if (clock < t->frame_start) {
		hpos = line_clock(t, clock);
	} else if (clock - t->frame_start <= UINT32_MAX) {
		uint32_t d = (uint32_t)(clock - t->frame_start);

		line = d / LINE;
		hpos = d - (uint32_t)line * LINE;
	} else {
		line = (clock - t->frame_start) / LINE;
		hpos = (unsigned)((clock - t->frame_start) % LINE);
	}
	addr &= 0x3f;
	if (line > (t->pal ? MAX_LINES_PAL : MAX_LINES))
		frame_end = 1;
	/* What a write changes is drawn from its clock on: the picture is
	 * brought up to it first, unless the write changes nothing drawn. */
	if (frame_end || !((WRITES_UNSEEN >> addr) & 1))
		render(t, clock + (uint64_t)write_delay(addr, hpos), fb);
	if (cycle > t->cycle)
		t->cycle = cycle;
	t->masks_stale |= stale_masks(addr);

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
	case 0x06: t->colup0 = (uint8_t)((value & 0xfe) | t->colour_loss); break;
	case 0x07: t->colup1 = (uint8_t)((value & 0xfe) | t->colour_loss); break;
	case 0x08: t->colupf = (uint8_t)((value & 0xfe) | t->colour_loss); break;
	case 0x09: t->colubk = (uint8_t)((value & 0xfe) | t->colour_loss); break;
	case 0x0a:		/* CTRLPF */
		t->ctrlpf = value;
		if (hpos < HBLANK + 79)
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
	case 0x0d:		/* PF0 */
		t->pf = (t->pf & 0xffff0) | ((value >> 4) & 0x0f);
		update_enabled(t);
		break;
	case 0x0e:		/* PF1 */
		t->pf = (t->pf & 0xff00f) | ((uint32_t)value << 4);
		update_enabled(t);
		break;
	case 0x0f:		/* PF2 */
		t->pf = (t->pf & 0x00fff) | ((uint32_t)value << 12);
		update_enabled(t);
		break;
	case 0x10:		/* RESP0 */
		reset_player(t, 0, hpos, clock, fb);
		break;
	case 0x11:		/* RESP1 */
		reset_player(t, 1, hpos, clock, fb);
		break;
	case 0x12:		/* RESM0 */
		t->posm0 = (uint8_t)(hpos < HBLANK ? 2 : (hpos - HBLANK + 4) % 160);
		/* The reference's fix-ups for a reset just after HMOVE. */
		if (clock - t->last_hmove == 20 * 3 && hpos == 69)
			t->posm0 = 8;
		t->m0_mode = 0;
		break;
	case 0x13:		/* RESM1 */
		t->posm1 = (uint8_t)(hpos < HBLANK ? 2 : (hpos - HBLANK + 4) % 160);
		if (clock - t->last_hmove == 3 * 3 && hpos == 18)
			t->posm1 = 3;
		break;
	case 0x14:		/* RESBL */
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
	case 0x1b:		/* GRP0 */
		t->grp0 = value;
		t->dgrp1 = t->grp1;
		update_players(t);
		break;
	case 0x1c:		/* GRP1 */
		t->grp1 = value;
		t->dgrp0 = t->grp0;
		t->denabl = t->enabl;
		update_players(t);
		update_enabled(t);
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
	case 0x20: t->hmp0 = value >> 4; break;
	case 0x21: t->hmp1 = value >> 4; break;
	case 0x22:		/* HMM0, and the "Cosmic Ark" starfield bug */
		if (clock == t->last_hmove + 21 * 3 && t->hmm0 == 7 && (value >> 4) == 6) {
			t->cosmic = 1;
			t->cosmic_count = 0;
		}
		t->hmm0 = value >> 4;
		break;
	case 0x23: t->hmm1 = value >> 4; break;
	case 0x24: t->hmbl = value >> 4; break;
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
		hmove(t, hpos, clock);
		break;
	case 0x2b:		/* HMCLR */
		t->hmp0 = t->hmp1 = t->hmm0 = t->hmm1 = t->hmbl = 0;
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

HOSTDEV uint64_t atari_tia_wsync_until(const struct atari_tia *t, uint64_t cycle)
{
	uint64_t into = line_clock(t, 3 * cycle) / 3;

	return into ? cycle + 76 - into : cycle;
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

/* The CUDA backend compiles the emulator as one unit: keep names local. */
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
#undef WRITES_UNSEEN
