/*
 * ALE environments: the Arcade Learning Environment's semantics on top of
 * the console, so that agents move between ALE and this emulator.
 *
 * Conventions (each is an option of cule-bench, documented with its default
 * in cule-bench(1)):
 *
 *  - Loading a ROM powers the console on as ALE's emulator does: RAM and
 *    RIOT timer from the system random numbers (atari/machine.h), then,
 *    since ALE guesses the TV format, 60 frames with no input (PAL when
 *    at least 15 of frames 30-59 have more than 285 scan lines: the
 *    screen is then 250 rows unless the game sets its height) and a reset.
 *  - Reset (every episode): console reset, 60 frames of NOOP, the reset
 *    switch held 4 frames, the configured mode selected (SELECT pressed
 *    until the mode's RAM byte matches, then the reset switch again), the
 *    reset switch held 4 frames again, then the game's starting actions,
 *    one frame each (RESET among them presses the reset switch).
 *  - Step: the action is repeated `frameskip` frames; with probability
 *    `repeat_action_probability` the previous frame's action is kept
 *    instead (sticky actions), decided per frame.  Rewards of the frames
 *    add up.  Once terminal, frames are not emulated and give no reward.
 *  - Terminal: the game's end, or `max_frames` frames in the episode
 *    (108,000 = 30 minutes by default, ALE's v5 cap), or with
 *    `episodic_life` a lost life (the game then continues at the next
 *    reset instead of restarting, as DQN's wrapper does).
 *  - Noop starts: after a reset, a random number of NOOP frames, 1 to
 *    `noop_max` (0: none), drawn from the environment's stream: one
 *    frame each, as EnvPool and Gymnasium's AtariPreprocessing make them.
 *  - Observations: the whole screen, atari_env_screen_height() rows of 160
 *    (ALE's getScreenDims: 210 for most games, 250, 230, 220 or 214 for
 *    some), as palette indices, grayscale (ALE's luminance) or RGB (in
 *    the PAL palette once the console is detected as PAL, as ALE does),
 *    optionally the pixel-wise maximum of the last two frames of a step
 *    (`maxpool`; a reset, and a step of one frame, show their last frame
 *    alone), optionally resized to 84x84 by area averaging over the whole
 *    screen, to the bit as OpenCV's INTER_AREA (Gymnasium's
 *    AtariPreprocessing, ALE's vector environment and EnvPool resize so).
 *    The height is known once the ROM is loaded (the TV format detection
 *    above), so observation sizes are asked of a loaded environment.
 *  - Paddle games: LEFT/RIGHT actions turn the paddle by 23,000 ohms per
 *    frame between 27,450 and 790,196 ohms (from the middle at reset);
 *    FIRE presses its button.
 *
 * Random numbers for sticky actions and noop starts come from ALE's own
 * generator (std::mt19937 seeded with ALE's random_seed; here cfg->seed
 * plus the environment's index): every emulated step draws two numbers,
 * player A's and player B's sticky decisions, as ALE's act() does, so
 * that with the same seed and actions sticky runs equal ale-py's frame by
 * frame.  Noop starts (not part of ALE) draw their count from the same
 * stream: 1 + next() % noop_max.
 *
 * An environment is a plain struct (clone by copy); frame buffers are the
 * caller's: two of ATARI_FB_SIZE bytes per environment, which the console
 * alternates as ALE does.  Stepping never allocates.
 */
#ifndef ATARI_ENV_H
#define ATARI_ENV_H

#include <stdint.h>

#include "atari/game.h"
#include "core/hostdev.h"
#include "atari/machine.h"
#include "atari/mt.h"

#define ATARI_FB_SIZE (ATARI_SCREEN_WIDTH * ATARI_FB_LINES)
#define ATARI_PADDLE_MIN 27450
#define ATARI_PADDLE_MAX 790196
#define ATARI_PADDLE_DELTA 23000

enum atari_obs {
	ATARI_OBS_NONE,		/* no observation (throughput runs) */
	ATARI_OBS_INDEX,	/* palette indices, 1 byte per pixel */
	ATARI_OBS_GRAY,		/* luminance, 1 byte per pixel */
	ATARI_OBS_RGB,		/* 3 bytes per pixel */
};

struct atari_env_config {
	int frameskip;			/* frames per step (>= 1); default 4 */
	float repeat_action_probability; /* default 0.25 */
	int max_frames;			/* per episode, 0 = no cap; default 108000 */
	int noop_max;			/* default 0 */
	int episodic_life;		/* default 0 */
	int maxpool;			/* default 0 */
	int obs;			/* enum atari_obs; default ATARI_OBS_NONE */
	int resize;			/* 0: the whole screen, else 84x84; default 0 */
	int difficulty;			/* ALE's difficulty: bit 0 left A, bit 1 right A;
					 * one of atari_game_difficulties(); default 0 */
	uint64_t seed;			/* ALE's random_seed; default 0 */
	int mode;			/* ALE's game mode, one of atari_game_modes(), or
					 * ATARI_MODE_DEFAULT (-1): the game's default */
};

#define ATARI_ENV_CONFIG_INIT { 4, 0.25f, 108000, 0, 0, 0, ATARI_OBS_NONE, 0, 0, 0, \
				ATARI_MODE_DEFAULT }

struct atari_env {
	struct atari_machine m;
	struct atari_game_state gs;
	struct atari_mt rng;		/* ALE's environment random numbers */
	int32_t paddle[2];		/* paddle positions in ohms */
	uint32_t episode_frame;		/* frames emulated in this episode */
	uint32_t frame;			/* frames emulated since loading */
	uint8_t action[2];		/* the action held (sticky actions) */
	uint8_t fb_cur;			/* frame buffer drawn last (0 or 1) */
	uint8_t frame_complete;		/* the last frame completed */
	uint8_t truncated;		/* the frame cap ended the episode */
	uint8_t life_lost;		/* episodic life ended the episode */
	uint8_t difficulty;		/* the difficulty switches set now */
	uint8_t pool;			/* the last step ran two frames or more: with
					 * max-pooling, the observation pools them */
	uint16_t mode;			/* the mode reset selects */
};

/*
 * Observation size in bytes for a configuration and a screen of `height`
 * rows, atari_env_screen_height() of a loaded environment (0 for
 * ATARI_OBS_NONE; with cfg->resize the height does not matter).
 */
HOSTDEV int atari_env_obs_size(const struct atari_env_config *cfg, int height);

/*
 * Load: power on and reset as ALE's loadROM does, in the game's default
 * mode with both difficulty switches at B (0), whatever `cfg` asks for.
 * `fb` is two frame buffers (2 * ATARI_FB_SIZE bytes), or NULL to draw
 * nothing.  The environment's random numbers (ALE's std::mt19937) are
 * seeded with cfg->seed + index (mod 2^32): environment 0 draws what ALE
 * draws with random_seed = cfg->seed.
 */
HOSTDEV void atari_env_load(struct atari_env *e, const struct atari_rom *rom,
			    const struct atari_game *g, const struct atari_env_config *cfg,
			    uint32_t index, uint8_t *fb);

/*
 * Load and reset, as Gymnasium makes an environment and resets it (ALE's
 * loadROM, setMode, setDifficulty, reset_game): the first episode is in
 * the configured mode and difficulty.
 */
HOSTDEV void atari_env_init(struct atari_env *e, const struct atari_rom *rom,
			    const struct atari_game *g, const struct atari_env_config *cfg,
			    uint32_t index, uint8_t *fb);

/* ALE's reset_game (plus noop starts, and episodic-life continuation). */
HOSTDEV void atari_env_reset(struct atari_env *e, const struct atari_rom *rom,
			     const struct atari_game *g, const struct atari_env_config *cfg,
			     uint8_t *fb);

/* ALE's act: returns the reward of the step. */
HOSTDEV int atari_env_step(struct atari_env *e, const struct atari_rom *rom,
			   const struct atari_game *g, const struct atari_env_config *cfg,
			   int action, uint8_t *fb);

/* The episode is over (game over, frame cap, or with episodic life a lost life). */
HOSTDEV int atari_env_terminal(const struct atari_env *e, const struct atari_env_config *cfg);

/* The game itself is over (ALE's game_over without truncation). */
HOSTDEV int atari_env_game_over(const struct atari_env *e);

/* ALE's lives(): the game's lives, 0 once the game is over. */
HOSTDEV int atari_env_lives(const struct atari_env *e);

/* Rows of ALE's screen for this game once loaded (getScreenDims): 210, or
 * the game's display height (250 for a PAL game that sets none). */
HOSTDEV int atari_env_screen_height(const struct atari_env *e);

/*
 * The screen height environment `index` of this ROM gets, found as
 * atari_env_load finds it (on a scratch environment, drawing nothing: the
 * 60 frames of the TV format detection): what a batch sizes its
 * observations with before its environments are loaded.
 */
int atari_env_probe_height(const struct atari_rom *rom, const struct atari_game *g,
			   const struct atari_env_config *cfg, uint32_t index);

/* The current screen: atari_env_screen_height() rows of 160 palette
 * indices inside `fb`. */
HOSTDEV const uint8_t *atari_env_screen(const struct atari_env *e, const uint8_t *fb);

/* Write the observation of the current state: atari_env_obs_size(cfg,
 * atari_env_screen_height(e)) bytes. */
HOSTDEV void atari_env_observe(const struct atari_env *e, const struct atari_env_config *cfg,
			       const uint8_t *fb, uint8_t *out);

/* What a throughput run adds up (atari_env_run). */
struct atari_run_counts {
	uint64_t frames;	/* emulated frames */
	uint64_t episodes;	/* episodes finished */
	int64_t reward;		/* sum of rewards */
};

/*
 * The throughput run of an environment, the one stepping loop of both the
 * CPU threads (atari_batch_run) and the CUDA kernel: `steps` steps with
 * random actions from the game's minimal set, drawn from the
 * environment's own splitmix64 stream *rng (atari_env_run_seed: seeded
 * with cfg->seed and the environment's index, so that a run does not
 * depend on how environments are spread over threads or GPU threads, nor
 * on how many calls its steps are split into), resetting at episode ends,
 * and observing into `obs` after each step unless it is NULL.  Adds to
 * *c.
 */
HOSTDEV uint64_t atari_env_run_seed(const struct atari_env_config *cfg, uint32_t index);
HOSTDEV void atari_env_run(struct atari_env *e, const struct atari_rom *rom,
			   const struct atari_game *g, const struct atari_env_config *cfg,
			   uint64_t *rng, long steps, uint8_t *fb, uint8_t *obs,
			   struct atari_run_counts *c);

#endif
