#include <string.h>

/* Parts of the resize in SSE2 and SSSE3 on x86-64 hosts (observe_resized). */
#if defined(__SSE2__) && !defined(__CUDA_ARCH__)
#define OBSERVE_SSE 1
#include <tmmintrin.h>
#else
#define OBSERVE_SSE 0
#endif

#include "atari/env.h"
#include "core/splitmix.h"

#define PAL_LINES 285
#define MODE_TRIES 1024
/* Acts that set a mode after its reset (Video Cube's cube 50: some 800). */
#define MODE_ACTS 4096

/* Joystick lines of an action, as the 4 bits up, down, left, right. */
static HOSTDEV unsigned joy_bits(int a)
{
	const uint32_t up = 0x0c4c4, down = 0x32320, left = 0x29290, right = 0x14948;

	if (a < 0 || a >= ATARI_ACTIONS)
		return 0;
	return ((up >> a) & 1) | ((down >> a) & 1) << 1 | ((left >> a) & 1) << 2 |
	       ((right >> a) & 1) << 3;
}

static HOSTDEV int fire_of(int a)
{
	return a == ATARI_FIRE || (a >= ATARI_UPFIRE && a < ATARI_ACTIONS);
}

/* Paddle motion of an action: -1 right, +1 left, 0 none. */
static HOSTDEV int paddle_dir(int a)
{
	unsigned b = joy_bits(a);

	return (b & 8) ? -1 : (b & 4) ? 1 : 0;
}

static HOSTDEV int32_t paddle_max(const struct atari_game *g)
{
	return g->paddle_max ? g->paddle_max : ATARI_PADDLE_MAX;
}

static HOSTDEV void env_pots(struct atari_env *e, const struct atari_game *g, int grounded)
{
	struct atari_machine *m = &e->m;
	int swapped = g->controller == ATARI_PADDLES_SWAPPED;

	if (g->controller == ATARI_JOYSTICK) {
		for (int p = 0; p < 2; p++)
			atari_machine_set_pot(m, p, ATARI_POT_OPEN);
	} else {
		atari_machine_set_pot(m, swapped ? 1 : 0,
				      grounded ? ATARI_POT_GROUNDED : e->paddle[0]);
		atari_machine_set_pot(m, swapped ? 0 : 1,
				      grounded ? ATARI_POT_GROUNDED : e->paddle[1]);
	}
	/* ale-py leaves the right port's paddles grounded; multi-agent ALE
	 * sets them where players C and D, idle, hold them: at rest. */
	for (int p = 2; p < 4; p++)
		atari_machine_set_pot(m, p, !g->right_paddles ? ATARI_POT_OPEN :
				      g->reference == ATARI_REF_MULTI_AGENT && !grounded ?
				      e->paddle[1] : ATARI_POT_GROUNDED);
}

/* Set the controllers and switches for player A's action `a`. */
static HOSTDEV void env_inputs(struct atari_env *e, const struct atari_game *g,
			       const struct atari_env_config *cfg, int a, int reset,
			       int select)
{
	struct atari_machine *m = &e->m;
	uint8_t swcha = 0xff;

	if (g->controller == ATARI_JOYSTICK) {
		swcha = (uint8_t)~(joy_bits(a) << (g->swap_ports ? 0 : 4));
		atari_machine_set_fire(m, g->swap_ports ? 1 : 0, fire_of(a));
		atari_machine_set_fire(m, g->swap_ports ? 0 : 1, 0);
	} else {
		uint8_t bit = g->controller == ATARI_PADDLES_SWAPPED ? 0x40 : 0x80;

		if (fire_of(a))
			swcha = (uint8_t)(swcha & ~bit);
		atari_machine_set_fire(m, 0, 0);
		atari_machine_set_fire(m, 1, 0);
	}
	m->riot.swcha = swcha;
	m->riot.swchb = (uint8_t)(0x34 | 0x08 | (reset ? 0 : 0x01) | (select ? 0 : 0x02) |
				  ((e->difficulty & 1) ? 0x40 : 0) |
				  ((e->difficulty & 2) ? 0x80 : 0));
}

static HOSTDEV void env_frame(struct atari_env *e, const struct atari_rom *rom, uint8_t *fb)
{
	if (e->frame_complete)
		e->fb_cur ^= 1;
	e->frame_complete = (uint8_t)atari_machine_frame(&e->m, rom,
			fb ? fb + (size_t)e->fb_cur * ATARI_FB_SIZE : NULL);
}

/* ALE's emulate(): `n` frames of action `a` (or of the reset switch). */
static HOSTDEV void env_emulate(struct atari_env *e, const struct atari_rom *rom,
				const struct atari_game *g, const struct atari_env_config *cfg,
				int a, int reset, int n, uint8_t *fb)
{
	for (int i = 0; i < n; i++) {
		if (g->controller != ATARI_JOYSTICK) {
			int32_t p = e->paddle[0] + paddle_dir(a) * ATARI_PADDLE_DELTA;

			e->paddle[0] = p < ATARI_PADDLE_MIN ? ATARI_PADDLE_MIN :
				       p > paddle_max(g) ? paddle_max(g) : p;
			env_pots(e, g, 0);
		}
		env_inputs(e, g, cfg, reset ? ATARI_NOOP : a, reset, 0);
		env_frame(e, rom, fb);
		atari_game_step(g, e->m.riot.ram, e->m.cart.ram, &e->gs);
	}
}

/*
 * Multi-agent ALE draws the console's random numbers (RAM at power-on,
 * the RIOT timer at each reset) from its one generator, the one sticky
 * actions draw from (seeded with random_seed), where ale-py has a second
 * one with a fixed seed (the table of atari_rom).  The timer a reset drew
 * from the table is replaced by the environment's draw.
 */
static HOSTDEV void env_draw_timer(struct atari_env *e, const struct atari_game *g)
{
	if (g->reference == ATARI_REF_MULTI_AGENT)
		atari_riot_reset(&e->m.riot, (uint8_t)(25 + atari_mt_next(&e->rng) % 75));
}

static HOSTDEV void env_machine_reset(struct atari_env *e, const struct atari_rom *rom,
				      const struct atari_game *g, uint8_t *fb)
{
	atari_machine_reset(&e->m, rom);
	env_draw_timer(e, g);
	if (fb)
		memset(fb, 0, 2 * (size_t)ATARI_FB_SIZE);
}

static HOSTDEV void env_soft_reset(struct atari_env *e, const struct atari_rom *rom,
				   const struct atari_game *g,
				   const struct atari_env_config *cfg, uint8_t *fb)
{
	env_emulate(e, rom, g, cfg, ATARI_NOOP, 1, 4, fb);
	e->action[0] = e->action[1] = ATARI_NOOP;
}

/* The RAM shows the environment's mode selected. */
static HOSTDEV int env_mode_ok(const struct atari_env *e, const struct atari_game *g)
{
	return atari_game_mode_ok(g, e->mode, e->m.riot.ram, e->m.cart.ram);
}

/* ALE's pressSelect(n): SELECT held n frames, then a NOOP step. */
static HOSTDEV void env_press_select(struct atari_env *e, const struct atari_rom *rom,
				     const struct atari_game *g,
				     const struct atari_env_config *cfg, int n, uint8_t *fb)
{
	env_inputs(e, g, cfg, ATARI_NOOP, 0, 1);
	for (int i = 0; i < n; i++)
		env_frame(e, rom, fb);
	env_emulate(e, rom, g, cfg, ATARI_NOOP, 0, 1, fb);
	e->episode_frame++;
	e->frame++;
}

/* ALE's game_over(): the game ended, or the frame cap cut the episode. */
static HOSTDEV int env_over(const struct atari_env *e)
{
	return e->gs.terminal || e->truncated;
}

/*
 * ALE's act() with its frame_skip of 1, as Gymnasium drives it (which
 * repeats act() itself for its frameskip): one frame of `action`, or of
 * the action held when the sticky draw keeps it; the frame's reward.
 */
static HOSTDEV int env_ale_act(struct atari_env *e, const struct atari_rom *rom,
			       const struct atari_game *g, const struct atari_env_config *cfg,
			       int action, uint8_t *fb)
{
	/* ALE draws for player A, then for the others (idle). */
	if (atari_mt_unit(&e->rng) >= (double)cfg->repeat_action_probability)
		e->action[0] = (uint8_t)action;
	for (int p = atari_game_sticky_draws(g, e->mode); p > 1; p--)
		(void)atari_mt_unit(&e->rng);
	if (env_over(e))
		return 0;
	env_emulate(e, rom, g, cfg, e->action[0], 0, 1, fb);
	e->episode_frame++;
	e->frame++;
	if (cfg->max_frames > 0 && e->episode_frame >= (uint32_t)cfg->max_frames)
		e->truncated = 1;
	return e->gs.reward;
}

static HOSTDEV void env_ale_reset(struct atari_env *e, const struct atari_rom *rom,
				  const struct atari_game *g,
				  const struct atari_env_config *cfg, uint8_t *fb)
{
	e->episode_frame = 0;
	e->truncated = 0;
	e->life_lost = 0;
	e->paddle[0] = e->paddle[1] = (ATARI_PADDLE_MIN + paddle_max(g)) / 2;
	if (g->controller != ATARI_JOYSTICK)
		env_pots(e, g, 0);
	env_machine_reset(e, rom, g, fb);
	env_emulate(e, rom, g, cfg, ATARI_NOOP, 0, 60, fb);
	env_soft_reset(e, rom, g, cfg, fb);
	atari_game_reset(g, &e->gs);
	if (g->mode_addr >= 0) {
		if (g->mode_soft_first & 1)
			env_soft_reset(e, rom, g, cfg, fb);
		/* ALE's act(), with its sticky draws. */
		for (int i = 0; i < (g->mode_soft_first >> 8); i++)
			(void)env_ale_act(e, rom, g, cfg, ATARI_NOOP, fb);
		if (g->mode_soft_first & 2)
			env_press_select(e, rom, g, cfg, 2, fb);
		if (g->first_select)
			env_press_select(e, rom, g, cfg, g->first_select, fb);
		if (g->select_frames == -2) {
			int st[3] = { 0, 0, -1 }, a, t = 0;

			env_press_select(e, rom, g, cfg, 1, fb);
			while ((a = atari_game_menu_action(g, e->mode, e->m.riot.ram, st)) != -1 &&
			       t++ < MODE_TRIES) {
				if (a == -2)
					env_soft_reset(e, rom, g, cfg, fb);
				else
					(void)env_ale_act(e, rom, g, cfg, a, fb);
			}
		}
		for (int t = 0; g->select_frames != -2 && t < MODE_TRIES && !env_mode_ok(e, g); t++) {
			if (g->select_frames >= 0) {
				env_press_select(e, rom, g, cfg, g->select_frames, fb);
				continue;
			}
			env_press_select(e, rom, g, cfg, 2 + (int)(atari_mt_next(&e->rng) % 256), fb);
			(void)env_ale_act(e, rom, g, cfg, ATARI_NOOP, fb);
		}
		atari_game_mode_selected(g, e->mode, &e->gs);
		if (g->select_frames != -2)
			env_soft_reset(e, rom, g, cfg, fb);
		for (int t = 0, a; t < MODE_ACTS &&
		     (a = atari_game_mode_action(g, e->mode, e->m.riot.ram)) >= 0; t++)
			(void)env_ale_act(e, rom, g, cfg, a, fb);
	}
	env_soft_reset(e, rom, g, cfg, fb);
	for (int i = 0, a; (a = atari_game_start_action(g, i)) >= 0; i++)
		env_emulate(e, rom, g, cfg, a, a == ATARI_RESET, 1, fb);
	/* Multi-agent ALE ends with two NOOP frames (between them, player B
	 * repeats the starting actions: its games have none). */
	if (g->reference == ATARI_REF_MULTI_AGENT)
		env_emulate(e, rom, g, cfg, ATARI_NOOP, 0, 2, fb);
}

HOSTDEV void atari_env_load(struct atari_env *e, const struct atari_rom *rom,
			    const struct atari_game *g, const struct atari_env_config *cfg,
			    uint32_t index, uint8_t *fb)
{
	memset(e, 0, sizeof(*e));
	atari_mt_seed(&e->rng, (uint32_t)(cfg->seed + index));
	e->frame_complete = 1;
	atari_machine_power_on(&e->m, rom);
	if (g->reference == ATARI_REF_MULTI_AGENT) {
		/* RAM, then the timer of the power-on (replaced by the reset's). */
		for (int i = 0; i < 128; i++)
			e->m.riot.ram[i] = (uint8_t)atari_mt_next(&e->rng);
		(void)atari_mt_next(&e->rng);
		env_draw_timer(e, g);
	}
	atari_machine_configure(&e->m, g->ystart, g->height, !g->no_hmove_blanks);
	if (fb)
		memset(fb, 0, 2 * (size_t)ATARI_FB_SIZE);
	env_pots(e, g, 1);
	if (g->power_on_frames > 0) {
		/* ALE's TV format detection: PAL when at least 15 of frames
		 * 30-59 have more than 285 scan lines. */
		int pal = 0;

		for (int i = 0; i < g->power_on_frames; i++) {
			uint32_t lines;

			env_frame(e, rom, fb);
			lines = e->frame_complete ? e->m.tia.frame_lines :
				atari_tia_scanline(&e->m.tia, e->m.cycle);
			if (i >= 30 && lines > PAL_LINES)
				pal++;
		}
		if (pal >= 15) {
			atari_tia_set_format(&e->m.tia, 1);
			if (g->height == ATARI_SCREEN_HEIGHT)
				atari_machine_configure(&e->m, g->ystart, ATARI_PAL_HEIGHT,
							!g->no_hmove_blanks);
		}
		env_machine_reset(e, rom, g, fb);
	}
	if (g->pal)
		atari_tia_set_format(&e->m.tia, 1);
	/* Multi-agent ALE seeds its generator again once the console is made. */
	if (g->reference == ATARI_REF_MULTI_AGENT)
		atari_mt_seed(&e->rng, (uint32_t)(cfg->seed + index));
	e->difficulty = 0;
	e->mode = (uint16_t)atari_game_default_mode(g);
	env_ale_reset(e, rom, g, cfg, fb);
}

HOSTDEV void atari_env_init(struct atari_env *e, const struct atari_rom *rom,
			    const struct atari_game *g, const struct atari_env_config *cfg,
			    uint32_t index, uint8_t *fb)
{
	atari_env_load(e, rom, g, cfg, index, fb);
	atari_env_reset(e, rom, g, cfg, fb);
}

HOSTDEV void atari_env_reset(struct atari_env *e, const struct atari_rom *rom,
			     const struct atari_game *g, const struct atari_env_config *cfg,
			     uint8_t *fb)
{
	if (cfg->episodic_life && e->life_lost && !atari_env_game_over(e) && !e->truncated) {
		e->life_lost = 0;
		atari_env_step(e, rom, g, cfg, ATARI_NOOP, fb);
		return;
	}
	e->difficulty = (uint8_t)cfg->difficulty;
	e->mode = (uint16_t)(cfg->mode == ATARI_MODE_DEFAULT ? atari_game_default_mode(g) : cfg->mode);
	env_ale_reset(e, rom, g, cfg, fb);
	/* Noop starts are frames, as ALE's vector environment, EnvPool and
	 * Gymnasium's AtariPreprocessing make them. */
	if (cfg->noop_max > 0) {
		int n = 1 + (int)(atari_mt_next(&e->rng) % (uint32_t)cfg->noop_max);

		for (int i = 0; i < n; i++) {
			(void)env_ale_act(e, rom, g, cfg, ATARI_NOOP, fb);
			if (env_over(e))
				env_ale_reset(e, rom, g, cfg, fb);
		}
	}
	e->pool = 0;
}

HOSTDEV int atari_env_game_over(const struct atari_env *e)
{
	return e->gs.terminal;
}

HOSTDEV int atari_env_lives(const struct atari_env *e)
{
	return e->gs.terminal && !e->gs.keep_lives ? 0 : e->gs.lives;
}

HOSTDEV int atari_env_terminal(const struct atari_env *e, const struct atari_env_config *cfg)
{
	return env_over(e) || e->life_lost;
}

/* The frames of a step, the first `undrawn` of them not drawn. */
static HOSTDEV int env_frames(struct atari_env *e, const struct atari_rom *rom,
			      const struct atari_game *g, const struct atari_env_config *cfg,
			      int action, uint8_t *fb, int undrawn, int *short_frame)
{
	int sum = 0;

	for (int i = 0; i < cfg->frameskip; i++) {
		sum += env_ale_act(e, rom, g, cfg, action, i < undrawn ? NULL : fb);
		if (i >= undrawn && !atari_tia_frame_whole(&e->m.tia))
			*short_frame = 1;
	}
	return sum;
}

HOSTDEV int atari_env_step(struct atari_env *e, const struct atari_rom *rom,
			   const struct atari_game *g, const struct atari_env_config *cfg,
			   int action, uint8_t *fb)
{
	int sum, lives = e->gs.lives, undrawn = 0, short_frame = 0;
	uint32_t start = e->frame;

	if (action < 0 || action >= ATARI_ACTIONS || (g->illegal & (1u << action)))
		action = ATARI_NOOP;
#ifndef __CUDA_ARCH__
	/*
	 * Only the last two frames of a step are drawn (what an observation
	 * shows: the screen, and the frame before for max-pooling).  A frame
	 * left unfinished spoils that: it carries on into the next frame's
	 * call, drawing into the same buffer, and greys out the rest of it,
	 * what the frame two before left there.  So does a frame that ends
	 * before the bottom of the screen (Video Checkers, thinking, makes a
	 * few of 41 lines): the rows it leaves are the frame two before's.
	 * Then the step runs again from a copy taken before it, drawing
	 * every frame.  (A frame left
	 * unfinished by the step before and completed undrawn is drawn over
	 * whole by the step's last two frames.)  The GPU draws nothing.
	 */
	struct atari_env before;
	uint32_t done = e->m.tia.frame;

	if (fb && cfg->frameskip > 2) {
		before = *e;
		undrawn = cfg->frameskip - 2;
	}
#endif
	sum = env_frames(e, rom, g, cfg, action, fb, undrawn, &short_frame);
#ifndef __CUDA_ARCH__
	if (undrawn && (e->m.tia.frame - done != (uint32_t)cfg->frameskip || short_frame)) {
		*e = before;
		sum = env_frames(e, rom, g, cfg, action, fb, 0, &short_frame);
	}
#endif
	e->pool = e->frame - start >= 2;
	/* A multi-agent game's lives reach 0 or -1 with the game going on. */
	if (cfg->episodic_life && e->gs.lives < lives && (e->gs.lives > 0 || e->gs.keep_lives))
		e->life_lost = 1;
	return sum;
}

HOSTDEV const uint8_t *atari_env_screen(const struct atari_env *e, const uint8_t *fb)
{
	return fb + (size_t)e->fb_cur * ATARI_FB_SIZE;
}

HOSTDEV int atari_env_screen_height(const struct atari_env *e)
{
	return e->m.height;
}

int atari_env_probe_height(const struct atari_rom *rom, const struct atari_game *g,
			   const struct atari_env_config *cfg, uint32_t index)
{
	struct atari_env e;

	atari_env_load(&e, rom, g, cfg, index, NULL);
	return atari_env_screen_height(&e);
}

HOSTDEV int atari_env_obs_size(const struct atari_env_config *cfg, int height)
{
	int pixels = cfg->resize ? 84 * 84 : ATARI_SCREEN_WIDTH * height;

	switch (cfg->obs) {
	case ATARI_OBS_INDEX: case ATARI_OBS_GRAY: return pixels;
	case ATARI_OBS_RGB: return 3 * pixels;
	default: return 0;
	}
}

/*
 * Value of each palette index in channel `ch` of the observation, in the
 * palette of the console's TV format (ALE's, once it detected PAL).  Odd
 * indices come only from a PAL console's colour loss: ALE's RGB shows
 * them as the grey of the even colour, and its grayscale as the blue
 * byte of the next colour's RGB (the index after 255 being 0), as ale-py
 * 0.12 gives them in Air Raid, Adventure, Pac-Man and Klax.
 */
static HOSTDEV void channel_lut(int obs, int pal, int ch, uint8_t lut[256])
{
	for (int c = 0; c < 256; c++) {
		uint8_t i = (uint8_t)c;

		if (pal && (c & 1))
			lut[c] = obs == ATARI_OBS_GRAY ?
				 (uint8_t)atari_palette_pal_rgb((uint8_t)(c + 1)) :
				 obs == ATARI_OBS_RGB ? atari_palette_pal_grey(i) : i;
		else
			lut[c] = obs == ATARI_OBS_GRAY ?
				 (pal ? atari_palette_pal_grey(i) : atari_palette_grey(i)) :
				 obs == ATARI_OBS_RGB ?
				 (uint8_t)((pal ? atari_palette_pal_rgb(i) : atari_palette_rgb(i)) >>
					   (16 - 8 * ch)) :
				 i;
	}
}

/*
 * Area averaging to 84 pixels along an axis of `size` pixels, as OpenCV's
 * INTER_AREA computes it for 8-bit images (the resize of Gymnasium's
 * AtariPreprocessing and of EnvPool), to the bit.  Output pixel o covers
 * [o * scale, (o + 1) * scale) with scale = 1 / (84 / size) in doubles;
 * each input pixel it covers weighs, as a float, the part of it covered
 * over the cell's width (1 / scale for whole pixels; parts of 1e-3 or
 * less left out).  At most AREA_K input pixels per output pixel (size <=
 * ATARI_FB_LINES); the weights past an output pixel's count are 0.
 */
#define AREA_K (ATARI_FB_LINES / 84 + 2)
#define AREA_KX (ATARI_SCREEN_WIDTH / 84 + 2)
typedef char area_kx_is_x_row_terms[AREA_KX == 3 ? 1 : -1];

struct area_axis {
	uint16_t first[84];	/* first input pixel */
	uint8_t count[84];	/* input pixels covered */
	float w[AREA_K][84];	/* their weights: w[k][o] the k-th's of pixel o */
};

static HOSTDEV void area_axis(struct area_axis *a, int size)
{
	double scale = 1.0 / (84.0 / size);

	memset(a->w, 0, sizeof(a->w));
	for (int o = 0; o < 84; o++) {
		double from = o * scale, to = from + scale;
		double width = size - from < scale ? size - from : scale;
		/* Both are >= 0: casts floor them. */
		int lo = (int)from + ((double)(int)from < from), hi = (int)to, k = 0;

		hi = hi < size - 1 ? hi : size - 1;
		lo = lo < hi ? lo : hi;
		a->first[o] = (uint16_t)(lo - (lo - from > 1e-3));
		if (lo - from > 1e-3)
			a->w[k++][o] = (float)((lo - from) / width);
		for (int i = lo; i < hi && k < AREA_K; i++)
			a->w[k++][o] = (float)(1.0 / width);
		if (to - hi > 1e-3 && k < AREA_K) {
			double part = to - hi < 1.0 ? to - hi : 1.0;

			a->w[k++][o] = (float)((part < width ? part : width) / width);
		}
		a->count[o] = (uint8_t)k;
	}
}

/* Float products and sums each rounded on its own, never fused into a
 * multiply-add (the build turns contraction off on the host), as the
 * resize's reference computes them. */
#ifdef __CUDA_ARCH__
#define FMUL(a, b) __fmul_rn(a, b)
#define FADD(a, b) __fadd_rn(a, b)
#else
#define FMUL(a, b) ((a) * (b))
#define FADD(a, b) ((a) + (b))
#endif

/* A sum of the resize rounded to the nearest whole number, halves to
 * even (OpenCV's saturate_cast), within 0-255. */
static HOSTDEV uint8_t round_u8(float s)
{
#ifdef __CUDA_ARCH__
	int v = __float2int_rn(s);
#else
	/* Adding 1.5 * 2^23 leaves no fraction bits: the addition rounds. */
	int v = (int)FADD(FADD(s, 12582912.0f), -12582912.0f);
#endif
	return (uint8_t)(v < 0 ? 0 : v > 255 ? 255 : v);
}

/* Pixels [from, to) of a row, each the larger of its two frames' values. */
static HOSTDEV void pool_span(const uint8_t *cr, const uint8_t *pr, const uint8_t lut[256],
			      uint8_t *out, int from, int to)
{
	for (int i = from; i < to; i++) {
		uint8_t v = lut[cr[i]], w = lut[pr[i]];

		out[i] = v > w ? v : w;
	}
}

/* Pixels [0, n) of a row, pooled (pool_span) eight at a time: where both
 * frames show the same pixels (most of a screen) there is nothing to
 * compare, and where they show one colour across the eight, one value to
 * look up. */
static HOSTDEV void pool_row(const uint8_t *cr, const uint8_t *pr, const uint8_t lut[256],
			     uint8_t *out, int n)
{
	int i = 0;

#ifndef __CUDA_ARCH__
	for (; i + 8 <= n; i += 8) {
		uint64_t a, b;

		memcpy(&a, cr + i, 8);
		memcpy(&b, pr + i, 8);
		if (a != b) {
			pool_span(cr, pr, lut, out, i, i + 8);
		} else if (a == (a & 0xff) * 0x0101010101010101ull) {
			a = lut[a & 0xff] * 0x0101010101010101ull;
			memcpy(out + i, &a, 8);
		} else {
			for (int k = i; k < i + 8; k++)
				out[k] = lut[cr[k]];
		}
	}
#endif
	pool_span(cr, pr, lut, out, i, n);
}

/*
 * Averaging a pooled row across, with SSSE3 where the host has it: four
 * output pixels at a time, their input pixels picked out of the 16 from
 * the first one's (they span at most 11) by one byte shuffle for each of
 * their terms, into 32-bit lanes.  ctl[g][k] is the shuffle of term k of
 * output pixels 4g to 4g + 3.
 */
#if OBSERVE_SSE
struct area_shuffles {
	uint8_t ctl[21][AREA_KX][16];
};

static void area_shuffles(struct area_shuffles *s, const struct area_axis *ax)
{
	memset(s->ctl, 0x80, sizeof(s->ctl));	/* 0x80: a zero byte */
	for (int o = 0; o < 84; o++)
		for (int k = 0; k < AREA_KX; k++)
			s->ctl[o / 4][k][4 * (o % 4)] = (uint8_t)(ax->first[o] - ax->first[o & ~3] + k);
}

__attribute__((target("ssse3")))
static void across_ssse3(const uint8_t *row, const struct area_axis *ax,
			 const struct area_shuffles *sh, float *x)
{
	for (int o = 0; o < 84; o += 4) {
		const __m128i *ctl = (const __m128i *)(const void *)sh->ctl[o / 4];
		__m128i b = _mm_loadu_si128((const __m128i *)(const void *)(row + ax->first[o]));
		__m128 t0 = _mm_mul_ps(_mm_cvtepi32_ps(_mm_shuffle_epi8(b, _mm_loadu_si128(ctl))),
				       _mm_loadu_ps(ax->w[0] + o));
		__m128 t1 = _mm_mul_ps(_mm_cvtepi32_ps(_mm_shuffle_epi8(b, _mm_loadu_si128(ctl + 1))),
				       _mm_loadu_ps(ax->w[1] + o));
		__m128 t2 = _mm_mul_ps(_mm_cvtepi32_ps(_mm_shuffle_epi8(b, _mm_loadu_si128(ctl + 2))),
				       _mm_loadu_ps(ax->w[2] + o));

		_mm_storeu_ps(x + o, _mm_add_ps(_mm_add_ps(t0, t1), t2));
	}
}
#else
struct area_shuffles {
	char none;
};
#endif

/*
 * The input rows of the output rows so far, pooled (pool_row) and averaged
 * across into their 84 output columns: row[r % AREA_K] is input row r's
 * (the rows of an output row are consecutive, AREA_K at most), in one of
 * the AREA_K latest rows computed, made % AREA_K: on the host, a
 * row the same as the one above in both frames (screens have many) shares
 * the one above's.
 */
struct across_rows {
	float made_rows[AREA_K][84];
	const float *row[AREA_K];
	int have;	/* the last input row done */
	int made;	/* rows computed */
	/* The row pooled, padded with zeros: the last output pixels' zero
	 * weights, and the shuffles' loads, fall past it. */
	uint8_t pooled[ATARI_SCREEN_WIDTH + 16];
};

/* Input row r (across_rows), done once. */
static HOSTDEV const float *across_row(const uint8_t *cur, const uint8_t *prev,
				       const uint8_t lut[256], const struct area_axis *ax,
				       const struct area_shuffles *sh, struct across_rows *a, int r)
{
	if (r <= a->have)
		return a->row[r % AREA_K];
	const uint8_t *c = cur + r * ATARI_SCREEN_WIDTH, *p = prev + r * ATARI_SCREEN_WIDTH;
	int same = 0;

#ifndef __CUDA_ARCH__
	same = r == a->have + 1 && a->made &&
	       !memcmp(c, c - ATARI_SCREEN_WIDTH, ATARI_SCREEN_WIDTH) &&
	       !memcmp(p, p - ATARI_SCREEN_WIDTH, ATARI_SCREEN_WIDTH);
#endif
	a->have = r;
	if (same)
		return a->row[r % AREA_K] = a->row[(r - 1) % AREA_K];

	float *x = a->made_rows[a->made++ % AREA_K];
	uint8_t *row = a->pooled;

	a->row[r % AREA_K] = x;
	pool_row(c, p, lut, row, ATARI_SCREEN_WIDTH);
#if OBSERVE_SSE
	if (__builtin_cpu_supports("ssse3")) {
		across_ssse3(row, ax, sh, x);
		return x;
	}
#else
	(void)sh;
#endif
	for (int o = 0; o < 84; o++) {
		const uint8_t *v = row + ax->first[o];

		x[o] = FADD(FADD(FMUL((float)v[0], ax->w[0][o]), FMUL((float)v[1], ax->w[1][o])),
			    FMUL((float)v[2], ax->w[2][o]));
	}
	return x;
}

/* sum = w * x, or sum += w * x, across an output row. */
static HOSTDEV void down_row(float sum[84], const float x[84], float w, int first)
{
#if OBSERVE_SSE
	__m128 wv = _mm_set1_ps(w);

	for (int o = 0; o < 84; o += 4) {
		__m128 t = _mm_mul_ps(wv, _mm_loadu_ps(x + o));

		_mm_storeu_ps(sum + o, first ? t : _mm_add_ps(_mm_loadu_ps(sum + o), t));
	}
#else
	for (int o = 0; o < 84; o++)
		sum[o] = first ? FMUL(w, x[o]) : FADD(sum[o], FMUL(w, x[o]));
#endif
}

/* Output row sum rounded (round_u8) into out, every nch-th byte. */
static HOSTDEV void store_row(const float sum[84], int nch, uint8_t *out)
{
	int o = 0;

#if OBSERVE_SSE
	/* The conversion rounds halves to even, as round_u8; the packing
	 * saturates. */
	for (; o < 84; o += 4) {
		__m128i q = _mm_cvtps_epi32(_mm_loadu_ps(sum + o));
		uint32_t v = (uint32_t)_mm_cvtsi128_si32(
			_mm_packus_epi16(_mm_packs_epi32(q, q), _mm_setzero_si128()));

		if (nch == 1) {
			memcpy(out + o, &v, 4);
			continue;
		}
		for (int k = 0; k < 4; k++)
			out[(o + k) * nch] = (uint8_t)(v >> (8 * k));
	}
#endif
	for (; o < 84; o++)
		out[o * nch] = round_u8(sum[o]);
}

/*
 * One channel of a resized observation (area_axis): for each output row,
 * the input rows it covers are pooled and averaged across (each once),
 * then their weighted sum taken down, in OpenCV's order: across, each
 * input pixel's product added in turn; down, each row's.
 */
static HOSTDEV void observe_resized(const uint8_t *cur, const uint8_t *prev, const uint8_t lut[256],
				    const struct area_axis *ax, const struct area_shuffles *sh,
				    const struct area_axis *ay, int nch, uint8_t *out)
{
	struct across_rows a;
	float sum[84];

	a.have = -1;
	a.made = 0;
	memset(a.pooled + ATARI_SCREEN_WIDTH, 0, sizeof(a.pooled) - ATARI_SCREEN_WIDTH);

	for (int oy = 0; oy < 84; oy++) {
		for (int j = 0; j < ay->count[oy]; j++) {
			const float *x = across_row(cur, prev, lut, ax, sh, &a, ay->first[oy] + j);
			float w = ay->w[j][oy];

			down_row(sum, x, w, j == 0);
		}
		store_row(sum, nch, out + oy * 84 * nch);
	}
}

HOSTDEV void atari_env_observe(const struct atari_env *e, const struct atari_env_config *cfg,
			       const uint8_t *fb, uint8_t *out)
{
	const uint8_t *cur = fb + (size_t)e->fb_cur * ATARI_FB_SIZE;
	/* Without max-pooling (or after a reset, or a step of one frame) the
	 * frame is pooled with itself. */
	const uint8_t *prev = cfg->maxpool && e->pool ? fb + (size_t)(e->fb_cur ^ 1) * ATARI_FB_SIZE :
			      cur;
	int nch = cfg->obs == ATARI_OBS_RGB ? 3 : 1;
	int height = atari_env_screen_height(e);
	struct area_axis ax, ay;
	struct area_shuffles sh;
	uint8_t lut[256], row[ATARI_SCREEN_WIDTH];

	if (cfg->obs == ATARI_OBS_NONE)
		return;
	if (cfg->resize) {
		area_axis(&ax, ATARI_SCREEN_WIDTH);
		area_axis(&ay, height);
#if OBSERVE_SSE
		area_shuffles(&sh, &ax);
#endif
	}
	for (int c = 0; c < nch; c++) {
		channel_lut(cfg->obs, e->m.tia.pal, c, lut);
		if (cfg->resize) {
			observe_resized(cur, prev, lut, &ax, &sh, &ay, nch, out + c);
			continue;
		}
		if (nch == 1) {
			pool_row(cur, prev, lut, out, ATARI_SCREEN_WIDTH * height);
			continue;
		}
		/* Channels last: each row pooled, then spread out. */
		for (int r = 0; r < height; r++) {
			pool_row(cur + r * ATARI_SCREEN_WIDTH, prev + r * ATARI_SCREEN_WIDTH, lut, row,
				 ATARI_SCREEN_WIDTH);
			for (int i = 0; i < ATARI_SCREEN_WIDTH; i++)
				out[(r * ATARI_SCREEN_WIDTH + i) * nch + c] = row[i];
		}
	}
}

HOSTDEV uint64_t atari_env_run_seed(const struct atari_env_config *cfg, uint32_t index)
{
	return cfg->seed ^ (0xa0761d6478bd642full * ((uint64_t)index + 1));
}

HOSTDEV void atari_env_run(struct atari_env *e, const struct atari_rom *rom,
			   const struct atari_game *g, const struct atari_env_config *cfg,
			   uint64_t *rng, long steps, uint8_t *fb, uint8_t *obs,
			   struct atari_run_counts *c)
{
	int set[ATARI_ACTIONS], nset = 0;

	for (int a = 0; a < ATARI_ACTIONS; a++)
		if (g->minimal & (1u << a))
			set[nset++] = a;
	for (long s = 0; s < steps; s++) {
		uint32_t before = e->frame;
		int action = set[core_splitmix64(rng) % (uint64_t)nset];

		c->reward += atari_env_step(e, rom, g, cfg, action, fb);
		c->frames += e->frame - before;
		if (atari_env_terminal(e, cfg)) {
			c->episodes++;
			atari_env_reset(e, rom, g, cfg, fb);
		}
		if (obs)
			atari_env_observe(e, cfg, fb, obs);
	}
}
