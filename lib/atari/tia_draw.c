/*
 * The TIA's picture (see atari/tia.h; its registers and timing are in
 * tia.c).  The frame is drawn lazily up to the colour clock of each
 * access, a chunk of a scan line at a time.  Objects are kept as their
 * position and the state of their copy logic, so a pixel is a pure
 * function of the registers: no tables, nothing outside the struct.
 */
#include <string.h>

#include "atari/tia_int.h"

/*
 * The line masks are written a 64-bit word at a time and read back soon
 * after; gcc's straight-line vectorizer would read pairs of them as one
 * 128-bit load, which cannot take its data from the two stores still in
 * flight and waits for them (a store-forwarding stall: a sixth of Space
 * Invaders' time).  Whole-word code is as short here.
 */
#if defined(__GNUC__) && !defined(__clang__) && !defined(__CUDACC__)
#pragma GCC optimize("no-tree-slp-vectorize")
#endif

#ifdef __CUDA_ARCH__
#define DRAW_NOINLINE
#else
#define DRAW_NOINLINE __attribute__((noinline))
#endif

/* The 15 collision latches set by the objects in `en`. */
#define COLLISIONS(en) ((uint16_t)( \
	(((en) >> 1 & 1) & ((en) >> 2 & 1)) | (((en) >> 1 & 1) & ((en) & 1)) << 1 | \
	(((en) >> 3 & 1) & ((en) & 1)) << 2 | (((en) >> 3 & 1) & ((en) >> 2 & 1)) << 3 | \
	(((en) & 1) & ((en) >> 5 & 1)) << 4 | (((en) & 1) & ((en) >> 4 & 1)) << 5 | \
	(((en) >> 2 & 1) & ((en) >> 5 & 1)) << 6 | (((en) >> 2 & 1) & ((en) >> 4 & 1)) << 7 | \
	(((en) >> 1 & 1) & ((en) >> 5 & 1)) << 8 | (((en) >> 1 & 1) & ((en) >> 4 & 1)) << 9 | \
	(((en) >> 3 & 1) & ((en) >> 5 & 1)) << 10 | (((en) >> 3 & 1) & ((en) >> 4 & 1)) << 11 | \
	(((en) >> 4 & 1) & ((en) >> 5 & 1)) << 12 | (((en) & 1) & ((en) >> 2 & 1)) << 13 | \
	(((en) >> 1 & 1) & ((en) >> 3 & 1)) << 14))

#ifndef __CUDA_ARCH__
#define COLLISIONS4(b) COLLISIONS(b), COLLISIONS((b) + 1), COLLISIONS((b) + 2), COLLISIONS((b) + 3)
#define COLLISIONS16(b) COLLISIONS4(b), COLLISIONS4((b) + 4), COLLISIONS4((b) + 8), \
	COLLISIONS4((b) + 12)
static const uint16_t collision_table[64] = {
	COLLISIONS16(0), COLLISIONS16(16), COLLISIONS16(32), COLLISIONS16(48),
};
#undef COLLISIONS16
#undef COLLISIONS4
#endif

/* P0 bit 0, M0 1, P1 2, M1 3, BL 4, PF 5 (the TIA_* bits); a table on the host. */
static HOSTDEV uint16_t collisions(unsigned en)
{
#ifdef __CUDA_ARCH__
	return COLLISIONS(en & 0x3f);
#else
	return collision_table[en & 0x3f];
#endif
}
#undef COLLISIONS

/* The latches the objects shown can set that are not set yet. */
static HOSTDEV unsigned latches_open(const struct atari_tia *t)
{
	return collisions(t->enabled) & ~(unsigned)t->collision & 0x7fff;
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

/* OR the pixels `lo` (bit r: pixel x + r) and `hi` (bit r: pixel x + 64 + r),
 * at most 72 in all, in from pixel x < 160, wrapping at the end of the line. */
static HOSTDEV void mask_place(uint64_t *m, unsigned x, uint64_t lo, uint64_t hi)
{
	unsigned b = x & 63;
	/* The pattern shifted by x & 63: words w0-w2 go to line words x / 64
	 * on; what passes pixel 159 (bit 32 of word 2) wraps to pixel 0. */
	uint64_t w0 = lo << b, w1 = hi << b | (b ? lo >> (64 - b) : 0);
	uint64_t w2 = b ? hi >> (64 - b) : 0;

	if (x < 64) {
		m[0] |= w0 | w2 >> 32;
		m[1] |= w1;
		m[2] |= w2 & 0xffffffffull;
	} else if (x < 128) {
		m[0] |= w1 >> 32 | w2 << 32;
		m[1] |= w0 | w2 >> 32;
		m[2] |= w1 & 0xffffffffull;
	} else {
		m[0] |= w0 >> 32 | w1 << 32;
		m[1] |= w1 >> 32 | w2 << 32;
		m[2] |= (w0 & 0xffffffffull) | w2 >> 32;
	}
}

/* Copies `set` (bit k: a copy 16 * k pixels on) of an 8-pixel pattern at x. */
static HOSTDEV void mask_copies(uint64_t *m, unsigned x, uint64_t pat, unsigned set)
{
	uint64_t at = (uint64_t)(set & 1) | (uint64_t)(set & 2) << 15 |
		      (uint64_t)(set & 4) << 30 | (uint64_t)(set & 8) << 45;

	mask_place(m, x, pat * at, (set & 16) ? pat : 0);
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
		mask_place(m, pos + 1 < 160 ? pos + 1 : pos + 1 - 160, wide, 0);
		return;
	}
	mask_copies(m, pos, pat, copies(mode) & (skip ? ~1u : ~0u));
}

static HOSTDEV void missile_mask(uint64_t *m, unsigned pos, unsigned nusiz,
				 unsigned m0_mode)
{
	unsigned size = (nusiz >> 4) & 3;

	if (m0_mode == 2)
		return;
	if (m0_mode == 1)
		size |= 1;
	mask_copies(m, pos, (1ull << (1u << size)) - 1, copies(nusiz & 7));
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

static HOSTDEV unsigned lowest_bit(uint64_t v)
{
#ifdef __CUDA_ARCH__
	return (unsigned)__ffsll((long long)v) - 1;
#else
	return (unsigned)__builtin_ctzll(v);
#endif
}

/* The masks of the objects `need` (TIA_* bits) as the registers stand:
 * those stale are rebuilt, or set to 0 where the object is not enabled. */
static HOSTDEV const struct line_masks *line_masks(struct atari_tia *t, unsigned need)
{
	struct line_masks *lm = (struct line_masks *)t->masks;
	unsigned stale = t->masks_stale & need, objs = t->enabled & stale;

	if (!stale)
		return lm;
	for (unsigned s = stale; s; s &= s - 1) {
		uint64_t *m = lm->m[lowest_bit(s)];

		m[0] = m[1] = m[2] = 0;
	}
	t->masks_stale = (uint8_t)(t->masks_stale & ~stale);
	if (objs & TIA_P0)
		player_mask(lm->m[0], t->cur_grp0, t->posp0, t->nusiz0 & 7, t->p0_skip);
	if (objs & TIA_M0)
		missile_mask(lm->m[1], t->posm0, t->nusiz0, t->m0_mode);
	if (objs & TIA_P1)
		player_mask(lm->m[2], t->cur_grp1, t->posp1, t->nusiz1 & 7, t->p1_skip);
	if (objs & TIA_M1)
		missile_mask(lm->m[3], t->posm1, t->nusiz1, 0);
	if (objs & TIA_BL)
		mask_place(lm->m[4], t->posbl, (1ull << (1u << ((t->ctrlpf >> 4) & 3))) - 1, 0);
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

/* Word w of the 160-bit mask of pixels [0, k). */
static HOSTDEV uint64_t below(unsigned k, unsigned w)
{
	int d = (int)k - 64 * (int)w;

	return d <= 0 ? 0 : d >= 64 ? ~0ull : (1ull << d) - 1;
}

/* Pixels [x, x + n) of a line as a 160-bit mask. */
static HOSTDEV void range_mask(unsigned x, unsigned n, uint64_t r[3])
{
	for (unsigned w = 0; w < 3; w++)
		r[w] = below(x + n, w) & ~below(x, w);
}

/*
 * The two objects (TIA_* bit numbers) of each collision latch, 3 bits a
 * latch: M0-P1, M0-P0, M1-P0, M1-P1, P0-PF, P0-BL, P1-PF, P1-BL, M0-PF,
 * M0-BL, M1-PF, M1-BL, BL-PF, P0-P1, M0-M1.
 */
#define PAIR_FIRST 0104331122003311ull
#define PAIR_SECOND 0325454545452002ull

static HOSTDEV unsigned pair_first(unsigned latch)
{
	return (unsigned)(PAIR_FIRST >> (3 * latch)) & 7;
}

static HOSTDEV unsigned pair_second(unsigned latch)
{
	return (unsigned)(PAIR_SECOND >> (3 * latch)) & 7;
}

/* The objects the latches `want` look at. */
static HOSTDEV unsigned pair_objects(unsigned want)
{
	unsigned objs = 0;

	for (; want; want &= want - 1)
		objs |= 1u << pair_first(lowest_bit(want)) | 1u << pair_second(lowest_bit(want));
	return objs;
}

/* Pixels [x, x + n) of a line, wrapping at its end (n >= 160: all). */
static HOSTDEV void run_mask(unsigned x, unsigned n, uint64_t r[3])
{
	uint64_t wrap[3];

	if (n >= 160) {
		range_mask(0, 160, r);
		return;
	}
	range_mask(x, x + n <= 160 ? n : 160 - x, r);
	if (x + n > 160) {
		range_mask(0, x + n - 160, wrap);
		r[0] |= wrap[0];
		r[1] |= wrap[1];
		r[2] |= wrap[2];
	}
}

/* Latches among `want` set by the objects' pixels in the run of n pixels
 * from pixel x (run_mask), without drawing.  Most pairs never meet on the
 * line: the run is looked at only for those that do. */
static HOSTDEV uint16_t mask_collisions(const struct line_masks *lm, unsigned x, unsigned n,
					unsigned want)
{
	uint64_t r[3];
	unsigned c = 0, have_r = 0;

	for (; want; want &= want - 1) {
		unsigned latch = lowest_bit(want);
		const uint64_t *a = lm->m[pair_first(latch)], *b = lm->m[pair_second(latch)];
		uint64_t o0 = a[0] & b[0], o1 = a[1] & b[1], o2 = a[2] & b[2];

		if (!(o0 | o1 | o2))
			continue;
		if (!have_r) {
			run_mask(x, n, r);
			have_r = 1;
		}
		if ((o0 & r[0]) | (o1 & r[1]) | (o2 & r[2]))
			c |= 1u << latch;
	}
	return (uint16_t)c;
}

#undef PAIR_FIRST
#undef PAIR_SECOND

/* The pixels of word w of a line mask left of the middle (score mode
 * colours the playfield's halves apart). */
static HOSTDEV uint64_t left_half(unsigned w)
{
	return w == 0 ? ~0ull : w == 1 ? 0xffffull : 0;
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
		uint64_t left = left_half(w);

		if (!r[w])
			continue;	/* no pixel of the run in this word */
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

/* Pixels [x, x + n) of the line join those whose collisions wait: the
 * beam draws them right after those, or those are latched first (the
 * masks are the same for both, so the latches come out the same). */
static HOSTDEV void pend(struct atari_tia *t, unsigned x, unsigned n)
{
	unsigned end = (unsigned)t->collide_x + t->collide_n;

	if (t->collide_n >= 160)
		return;
	if (t->collide_n && x != (end >= 160 ? end - 160 : end))
		atari_tia_latch(t);
	if (!t->collide_n) {
		t->collide_x = (uint16_t)x;
		t->collide_n = (uint16_t)n;
	} else {
		t->collide_n = (uint16_t)(t->collide_n + n < 160 ? t->collide_n + n : 160);
	}
}

/* Draw n pixels of the current line from pixel x. */
static HOSTDEV void draw(struct atari_tia *t, unsigned n, unsigned x, uint8_t *fb)
{
	uint8_t *p = 0;

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
		const struct line_masks *lm = line_masks(t, TIA_PF);
		uint64_t r[3];

		memset(p, t->colubk, n);
		range_mask(x, n, r);
		for (unsigned w = 0; w < 3; w++) {
			uint64_t bits = lm->m[5][w] & r[w];
			uint64_t left = left_half(w);

			if (!(t->ctrlpf & 0x02)) {
				fill_runs(p, x, w, bits, t->colupf);
				continue;
			}
			fill_runs(p, x, w, bits & left, t->colup0);
			fill_runs(p, x, w, bits & ~left, t->colup1);
		}
		return;
	}
	if (p) {
		mask_draw(t, line_masks(t, 0x3f), x, n, p);
		return;
	}
	/* Not drawn: the collisions wait (atari_tia_collide), unless every
	 * latch these objects can set is set already. */
	if (latches_open(t))
		pend(t, x, n);
}

HOSTDEV void atari_tia_latch(struct atari_tia *t)
{
	unsigned want = latches_open(t);

	if (want)
		t->collision |= mask_collisions(line_masks(t, pair_objects(want)),
						t->collide_x, t->collide_n, want);
	t->collide_x = 0;
	t->collide_n = 0;
}

HOSTDEV void atari_tia_settle(struct atari_tia *t)
{
	atari_tia_collide(t);
	line_masks(t, 0x3f);
}

/* What the beam does at the end of each drawn scan line. */
static HOSTDEV void line_end(struct atari_tia *t)
{
	if (!(t->p0_skip | t->p1_skip | t->cosmic) && t->pf_reflect == (t->ctrlpf & 0x01))
		return;		/* the most common: nothing changes */
	unsigned stale = (t->p0_skip ? TIA_P0 : 0) | (t->p1_skip ? TIA_P1 : 0) |
			 (t->cosmic ? TIA_M0 : 0) |
			 ((t->pf_reflect ^ (t->ctrlpf & 0x01)) ? TIA_PF : 0);

	if (stale)	/* the masks change: their collisions first */
		atari_tia_collide(t);
	t->masks_stale = (uint8_t)(t->masks_stale | stale);
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

/*
 * Move the beam over its next chunk up to `clock`, which ends at the end
 * of its line at the latest: returns the chunk's last colour clock in the
 * line plus one, *from its first.  clocks_to_eol becomes LINE where
 * `clock` lies past the line's end (the line is over), and 0 where the
 * chunk ends on it at `clock` (the line is over with the next chunk).
 */
static inline HOSTDEV unsigned beam_step(struct atari_tia *t, uint64_t clock, unsigned *from)
{
	unsigned eol = t->clocks_to_eol, n;

	*from = LINE - eol;
	if (clock - t->last_update > eol) {
		n = eol;
		eol = LINE;
	} else {
		n = (unsigned)(clock - t->last_update);
		eol -= n;
	}
	t->last_update += n;
	t->clocks_to_eol = (uint16_t)eol;
	return *from + n;
}

/* Draw up to `clock` (atari_tia_draw_to), a chunk of a line at a time. */
static HOSTDEV DRAW_NOINLINE void draw_chunks(struct atari_tia *t, uint64_t clock, uint8_t *fb)
{
	do {
		unsigned from, n = beam_step(t, clock, &from);

		n -= from;
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

/* The beam went over colour clocks [from, to) of its line, drawing
 * nothing: the frame buffer's position moves on, the HMOVE bar ends. */
static inline HOSTDEV void beam_moved(struct atari_tia *t, unsigned from, unsigned to)
{
	if (to > HBLANK)
		t->fb_pos += to - (from > HBLANK ? from : HBLANK);
	if (from < HBLANK + 8 && to >= HBLANK + 8)
		t->hmove_blank = 0;
}

/* Move the beam up to `clock` where nothing is drawn (atari_tia_draw_to). */
static HOSTDEV DRAW_NOINLINE void beam_to(struct atari_tia *t, uint64_t clock)
{
	do {
		unsigned from, to = beam_step(t, clock, &from);

		beam_moved(t, from, to);
		if (t->clocks_to_eol == LINE)
			line_end(t);
	} while (t->last_update < clock);
}

/*
 * Without a frame buffer, with the drawing off or no collision left to
 * latch among the objects shown, nothing is drawn: the beam only moves,
 * inline while it stays on its line.
 */
HOSTDEV void atari_tia_draw_to(struct atari_tia *t, uint64_t clock, uint8_t *fb)
{
	if (clock > t->stop_display)
		clock = t->stop_display;
	if (fb || (!(t->vblank & 0x02) && latches_open(t))) {
		draw_chunks(t, clock, fb);
	} else if (clock - t->last_update > t->clocks_to_eol) {
		beam_to(t, clock);
	} else {
		unsigned from, to = beam_step(t, clock, &from);

		beam_moved(t, from, to);
	}
}

#undef DRAW_NOINLINE
#define TIA_INT_UNDEF
#include "atari/tia_int.h"
