/*
 * Batches of environments stepped together on CPU threads: what cule-bench
 * measures, and what a training loop drives.
 *
 *	struct atari_batch b;
 *	if (atari_batch_init(&b, &rom, game, &cfg, 4096, 8, &err) < 0) ...
 *	atari_batch_step(&b, actions);     // b.rewards, b.dones, b.obs
 *	atari_batch_release(&b);
 *
 * Environments are independent: environment i is seeded with cfg->seed
 * and i, so results do not depend on the number of threads.  A terminal
 * environment is reset at the end of the step that ended it (b.dones says
 * so); its observation is then the first of the new episode.
 *
 * Memory: sizeof(struct atari_env) per environment, plus two frame
 * buffers (ATARI_FB_SIZE bytes each) and an observation when observations
 * are asked for; with ATARI_OBS_NONE nothing is drawn, which is the
 * fastest.  Observations have the game's screen height (b.height, ALE's
 * getScreenDims rows, found when the ROM is loaded): obs_size bytes each.
 */
#ifndef ATARI_BATCH_H
#define ATARI_BATCH_H

#include <stddef.h>
#include <stdint.h>

#include "atari/env.h"
#include "core/error.h"

struct atari_batch {
	const struct atari_rom *rom;
	const struct atari_game *game;
	struct atari_env_config cfg;
	int n;			/* environments */
	int threads;
	struct atari_env *envs;
	uint8_t *fb;		/* n * 2 * ATARI_FB_SIZE, or NULL */
	int height;		/* rows of the screen (atari_env_screen_height) */
	size_t obs_size;	/* bytes of one observation (atari_env_obs_size) */
	uint8_t *obs;		/* n * obs_size, or NULL */
	int32_t *rewards;	/* of the last step */
	uint8_t *dones;		/* the last step ended an episode */
};

/*
 * Allocate and load n environments on `threads` threads (0: one per CPU).
 * -EINVAL for a mode or difficulty the game does not have (see
 * atari_game_modes, atari_game_difficulties); -EIO when the environments'
 * TV format detection gave screens of different heights (ALE's detection
 * does not depend on the seed in any game known).
 */
int atari_batch_init(struct atari_batch *b, const struct atari_rom *rom,
		     const struct atari_game *g, const struct atari_env_config *cfg,
		     int n, int threads, struct core_error *err);

/* One step of every environment with actions[i] (ALE action numbers). */
int atari_batch_step(struct atari_batch *b, const int *actions, struct core_error *err);

/* Totals of a run. */
struct atari_batch_stats {
	uint64_t steps;		/* environment steps */
	uint64_t frames;	/* emulated frames */
	uint64_t episodes;	/* episodes finished */
	int64_t reward;		/* sum of rewards */
};

/*
 * Throughput run: every environment takes `steps` steps with random
 * actions from the game's minimal set (each environment draws its own),
 * resetting at episode ends, each thread on its share of environments
 * without synchronisation.  Fills *stats.
 */
int atari_batch_run(struct atari_batch *b, long steps, struct atari_batch_stats *stats,
		    struct core_error *err);

void atari_batch_release(struct atari_batch *b);

/*
 * Memory one environment of a batch takes with configuration `cfg` and a
 * screen of `height` rows (b.height, or atari_env_probe_height): its
 * state (sizeof(struct atari_env), what a clone copies), plus its two
 * frame buffers and its observation when observations are asked for.
 * Stepping allocates nothing, so this does not grow over a run.
 */
size_t atari_batch_env_bytes(const struct atari_env_config *cfg, int height);

#endif
