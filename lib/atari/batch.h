/*
 * Batches of environments run together on CPU threads with random
 * actions: what cule-bench measures.  (A training loop steps environments
 * with its own actions through atari/vec.h.)
 *
 *	struct atari_batch b;
 *	if (atari_batch_init(&b, &rom, game, &cfg, 4096, 8, &err) < 0) ...
 *	atari_batch_run(&b, steps, &stats, &err);
 *	atari_batch_release(&b);
 *
 * Environments are independent: environment i is seeded with cfg->seed
 * and i, so results do not depend on the number of threads.  A terminal
 * environment is reset at the end of the step that ended it.
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

/* Totals of a run. */
struct atari_batch_stats {
	uint64_t steps;		/* environment steps */
	uint64_t frames;	/* emulated frames */
	uint64_t episodes;	/* episodes finished */
	int64_t reward;		/* sum of rewards */
};

/*
 * Throughput run: every environment takes `steps` steps with random
 * actions from the game's minimal set (atari_env_run, the loop the CUDA
 * backend runs too).  The threads take the environments in turn, a few
 * steps at a time, so that they end together; what a run gives does not
 * depend on the number of threads.  Fills *stats.
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
