/*
 * Asynchronous vectors of environments, as a training loop drives them
 * (EnvPool's send/recv): the caller hands actions for some environments to
 * worker threads and later takes the first `batch_size` of them that are
 * done, so that inference overlaps emulation.  What rlkit.atari (the Python
 * package) runs on.
 *
 *	struct atari_vec *v;
 *	if (atari_vec_open(&v, "pong.bin", "pong", &cfg, &vc, &err) < 0) ...
 *	atari_vec_send(v, actions, NULL, n, &err);   // all, ids 0..n-1
 *	int r = atari_vec_recv(v, &err);             // a batch: see below
 *	... v->arena + r * v->batch_bytes + v->off_obs ...
 *	atari_vec_free(v);
 *
 * Results.  A batch is a fixed set of arrays in one arena (observations,
 * rewards, flags, lives, frame numbers, environment ids), `rings` of them
 * in turn, so that a batch that atari_vec_recv returned stays untouched
 * until the next call of atari_vec_recv.  With batch_size == n the slot of
 * environment i is i (a synchronous step); otherwise slots are filled in
 * the order the environments finish, and env_id[slot] says which.
 *
 * Actions are indices in the action set (the game's minimal set, or all
 * 18 with full_action_space), or ATARI_VEC_RESET (a new episode: ALE's
 * reset_game) or ATARI_VEC_RELOAD (power on again from the seed, then a
 * new episode: ALE's loadROM and reset_game, as gymnasium's reset(seed)).
 * An environment that was never loaded is loaded by its first action.
 *
 * Autoreset: with same_step, an environment whose episode ended is reset
 * in the same step; its observation is the first of the new episode and
 * the last one of the ended episode is in final_obs.  Otherwise (next
 * step, Gymnasium's default) the observation is the last one and the next
 * action given to that environment is ignored: it starts a new episode.
 *
 * Threads: `threads` threads step environments (0: one per CPU), at most
 * n: threads - 1 workers, and the caller itself while it waits in
 * atari_vec_recv, so that one thread steps without any hand-over and a
 * synchronous step uses the caller's CPU too.  Environments sent are
 * stepped by the workers at once, overlapping what the caller does until
 * it calls recv.  atari_vec_send and atari_vec_recv are called from one
 * thread at a time; recv returns when the batch is full.  Errors (-EINVAL with a message): an action out
 * of range, an id out of range or already sent and not yet received, a
 * recv that could never complete (fewer environments sent than a batch).
 */
#ifndef ATARI_VEC_H
#define ATARI_VEC_H

#include <stddef.h>
#include <stdint.h>

#include "atari/env.h"
#include "core/error.h"

#define ATARI_VEC_RESET (-1)
#define ATARI_VEC_RELOAD (-2)
#define ATARI_OBS_RAM 16	/* observation: the 128 bytes of RAM */

struct atari_vec_config {
	int n;			/* environments */
	int threads;		/* stepping threads (caller included), 0: one per CPU */
	int batch_size;		/* environments per recv, 0: n */
	int stack;		/* frames per observation, >= 1 */
	int same_step;		/* autoreset in the step that ended the episode */
	int full_action_space;	/* actions index all 18 */
};

#define ATARI_VEC_CONFIG_INIT { 1, 0, 0, 1, 0, 0 }

struct atari_vec_env;

struct atari_vec {
	struct atari_rom rom;
	const struct atari_game *game;
	struct atari_env_config cfg;	/* as given, but ATARI_OBS_NONE for RAM */
	int ram;			/* observations are the RAM */
	struct atari_vec_config vc;
	int actions[ATARI_ACTIONS];	/* the action set: ALE action numbers */
	int n_actions;
	int height;			/* screen rows (atari_env_screen_height) */
	size_t frame_size;		/* bytes of one observed frame */
	size_t obs_size;		/* stack * frame_size */
	/* The arena: `rings` batches of batch_bytes; offsets inside a batch. */
	uint8_t *arena;
	size_t arena_size, batch_bytes;
	int rings;
	size_t off_obs, off_final_obs;	/* uint8_t [batch_size][obs_size] */
	size_t off_reward;		/* float [batch_size] */
	size_t off_terminated, off_truncated;	/* uint8_t [batch_size] */
	size_t off_lives, off_episode_frame, off_frame, off_env_id;	/* int32_t [batch_size] */
	struct atari_vec_state *state;	/* threads and queues (vec.c) */
};

/*
 * Load the ROM at `rom_path` (its game found by MD5; `game`, when not NULL,
 * must be that game), allocate the environments and start the workers.
 * cfg->obs is ATARI_OBS_NONE, _INDEX, _GRAY, _RGB or ATARI_OBS_RAM.
 * The environments are loaded by their first action; the screen height
 * (and so frame_size) is found here by loading environment 0 once
 * (atari_env_probe_height), and every environment's screen has it.
 */
int atari_vec_open(struct atari_vec **out, const char *rom_path, const char *game,
		   const struct atari_env_config *cfg, const struct atari_vec_config *vc,
		   struct core_error *err);

/* Queue actions[k] for environment ids[k] (NULL: k), k < count. */
int atari_vec_send(struct atari_vec *v, const int32_t *actions, const int32_t *ids, int count,
		   struct core_error *err);

/* Wait for the next full batch; returns its index in the arena (< rings). */
int atari_vec_recv(struct atari_vec *v, struct core_error *err);

/* The seed of the next ATARI_VEC_RELOAD: environment i takes seed + i as
 * ALE's random_seed (as cule-bench does). */
void atari_vec_seed(struct atari_vec *v, uint64_t seed);

/* The same with a random_seed of its own for each environment (vc.n
 * of them): as Gymnasium's AtariEnv derives one from each reset seed. */
void atari_vec_seed_each(struct atari_vec *v, const uint32_t *seeds);

/* Stop the workers (what was sent and not received is dropped); the
 * arena stays until atari_vec_free. */
void atari_vec_stop(struct atari_vec *v);

/* Stop the workers and free everything (NULL is allowed). */
void atari_vec_free(struct atari_vec *v);

#endif
