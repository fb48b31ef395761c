#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "atari/vec.h"
#include "core/sys.h"

enum { ENV_IDLE, ENV_SENT, ENV_DONE };

struct atari_vec_env {
	int action;		/* ALE action, or ATARI_VEC_RESET / _RELOAD */
	uint8_t state;		/* ENV_*, changed under the lock */
	uint8_t loaded;
	uint8_t pending_reset;	/* next-step autoreset */
	uint32_t seed;		/* ALE's random_seed for its next reload */
};

struct atari_vec_state {
	pthread_mutex_t lock;
	pthread_cond_t work;	/* the queue has environments, or stop */
	pthread_cond_t ready;	/* a batch is full */
	int *queue;		/* n entries, a ring */
	int head, count;
	int stop;
	int sent;		/* environments sent and not yet received */
	atomic_uint_fast64_t tickets;	/* environments finished so far */
	atomic_int *filled;	/* per ring: slots written */
	uint64_t next_batch;	/* the batch recv returns next */
	int nthreads;
	pthread_t *threads;
	struct atari_env *envs;
	struct atari_vec_env *ve;
	uint8_t *fb;		/* n * 2 * ATARI_FB_SIZE, or NULL */
	uint8_t *hist;		/* n * obs_size: the stacked frames, or NULL */
};

static uint8_t *vec_fb(struct atari_vec *v, int i)
{
	return v->state->fb ? v->state->fb + (size_t)i * 2 * ATARI_FB_SIZE : NULL;
}

static void vec_observe(struct atari_vec *v, int i, uint8_t *out)
{
	const struct atari_env *e = &v->state->envs[i];

	if (v->ram)
		memcpy(out, ATARI_MACHINE_RAM(&e->m), 128);
	else if (v->frame_size)
		atari_env_observe(e, &v->cfg, vec_fb(v, i), out);
}

/* Push the current frame onto environment i's stack (all of it after a reset). */
static void vec_stack(struct atari_vec *v, int i, int fresh)
{
	uint8_t *h = v->state->hist + (size_t)i * v->obs_size;
	size_t f = v->frame_size;
	int s = v->vc.stack;

	if (fresh) {
		vec_observe(v, i, h);
		for (int k = 1; k < s; k++)
			memcpy(h + k * f, h, f);
	} else {
		memmove(h, h + f, (size_t)(s - 1) * f);
		vec_observe(v, i, h + (size_t)(s - 1) * f);
	}
}

/* The observation of environment i into out (obs_size bytes). */
static void vec_output(struct atari_vec *v, int i, int fresh, uint8_t *out)
{
	if (!v->obs_size)
		return;
	if (v->vc.stack == 1) {
		vec_observe(v, i, out);
		return;
	}
	vec_stack(v, i, fresh);
	memcpy(out, v->state->hist + (size_t)i * v->obs_size, v->obs_size);
}

/* Run environment i's action and write its result into the next slot. */
static void vec_run(struct atari_vec *v, int i)
{
	struct atari_vec_state *st = v->state;
	struct atari_env *e = &st->envs[i];
	struct atari_vec_env *ve = &st->ve[i];
	uint8_t *fb = vec_fb(v, i);
	int reward = 0, term = 0, trunc = 0, fresh = 1;
	uint8_t *batch, *final_obs = NULL;
	uint64_t t, b;
	int slot, bs = v->vc.batch_size;

	if (ve->action == ATARI_VEC_RELOAD || !ve->loaded) {
		/* loadROM, setMode, setDifficulty, reset_game: as Gymnasium. */
		struct atari_env_config c = v->cfg;

		c.seed = ve->seed;
		atari_env_init(e, &v->rom, v->game, &c, 0, fb);
		/* Every observation has the shape atari_vec_open found, should
		 * this environment's TV format detection differ (it never has). */
		if (atari_env_screen_height(e) != v->height)
			atari_machine_configure(&e->m, e->m.ystart, v->height, e->m.hmove_blanks);
		ve->loaded = 1;
	} else if (ve->action == ATARI_VEC_RESET || ve->pending_reset) {
		atari_env_reset(e, &v->rom, v->game, &v->cfg, fb);
	} else {
		reward = atari_env_step(e, &v->rom, v->game, &v->cfg, ve->action, fb);
		fresh = 0;
		if (atari_env_terminal(e, &v->cfg)) {
			term = atari_env_game_over(e) || e->life_lost;
			trunc = !term;
		}
	}
	ve->pending_reset = 0;

	t = atomic_fetch_add(&st->tickets, 1);
	b = t / (uint64_t)bs;
	slot = bs == v->vc.n ? i : (int)(t % (uint64_t)bs);
	batch = v->arena + (size_t)(b % (uint64_t)v->rings) * v->batch_bytes;
	if (term || trunc) {
		if (v->vc.same_step) {
			final_obs = batch + v->off_final_obs + (size_t)slot * v->obs_size;
			vec_output(v, i, 0, final_obs);
			atari_env_reset(e, &v->rom, v->game, &v->cfg, fb);
			fresh = 1;
		} else {
			ve->pending_reset = 1;
		}
	}
	vec_output(v, i, fresh, batch + v->off_obs + (size_t)slot * v->obs_size);
	((float *)(batch + v->off_reward))[slot] = (float)reward;
	batch[v->off_terminated + slot] = (uint8_t)term;
	batch[v->off_truncated + slot] = (uint8_t)trunc;
	((int32_t *)(batch + v->off_lives))[slot] = atari_env_lives(e);
	((int32_t *)(batch + v->off_episode_frame))[slot] = (int32_t)e->episode_frame;
	((int32_t *)(batch + v->off_frame))[slot] = (int32_t)e->frame;
	((int32_t *)(batch + v->off_env_id))[slot] = i;
	if (atomic_fetch_add(&st->filled[b % (uint64_t)v->rings], 1) + 1 == bs) {
		pthread_mutex_lock(&st->lock);
		pthread_cond_signal(&st->ready);
		pthread_mutex_unlock(&st->lock);
	}
}

static void *vec_worker(void *arg)
{
	struct atari_vec *v = arg;
	struct atari_vec_state *st = v->state;

	pthread_mutex_lock(&st->lock);
	for (;;) {
		int i;

		while (!st->count && !st->stop)
			pthread_cond_wait(&st->work, &st->lock);
		if (st->stop)
			break;
		i = st->queue[st->head];
		st->head = (st->head + 1) % v->vc.n;
		st->count--;
		pthread_mutex_unlock(&st->lock);
		vec_run(v, i);
		pthread_mutex_lock(&st->lock);
	}
	pthread_mutex_unlock(&st->lock);
	return NULL;
}

static int vec_layout(struct atari_vec *v)
{
	size_t bs = (size_t)v->vc.batch_size, off = 0;

#define FIELD(name, bytes) do { v->name = off; off += ((bytes) + 63) & ~(size_t)63; } while (0)
	FIELD(off_obs, bs * v->obs_size);
	FIELD(off_final_obs, v->vc.same_step ? bs * v->obs_size : 0);
	FIELD(off_reward, bs * sizeof(float));
	FIELD(off_terminated, bs);
	FIELD(off_truncated, bs);
	FIELD(off_lives, bs * sizeof(int32_t));
	FIELD(off_episode_frame, bs * sizeof(int32_t));
	FIELD(off_frame, bs * sizeof(int32_t));
	FIELD(off_env_id, bs * sizeof(int32_t));
#undef FIELD
	v->batch_bytes = off;
	/* Unreceived results are at most n: they span ceil(n / bs) batches,
	 * plus the one the caller holds. */
	v->rings = (v->vc.n + v->vc.batch_size - 1) / v->vc.batch_size + 1;
	v->arena_size = v->batch_bytes * (size_t)v->rings;
	v->arena = aligned_alloc(64, v->arena_size);
	if (!v->arena)
		return -ENOMEM;
	memset(v->arena, 0, v->arena_size);
	return 0;
}

static int vec_check_config(const struct atari_env_config *cfg, const struct atari_vec_config *vc,
			    struct core_error *err)
{
	if (vc->n < 1)
		return core_error_set(err, -EINVAL, "num_envs must be at least 1, not %d", vc->n);
	if (vc->batch_size < 0 || vc->batch_size > vc->n)
		return core_error_set(err, -EINVAL, "batch_size must be between 1 and num_envs (%d), not %d",
				      vc->n, vc->batch_size);
	if (vc->stack < 1 || vc->stack > 64)
		return core_error_set(err, -EINVAL, "frame_stack must be between 1 and 64, not %d", vc->stack);
	if (vc->threads < 0)
		return core_error_set(err, -EINVAL, "threads must be at least 1, not %d", vc->threads);
	if (cfg->frameskip < 1)
		return core_error_set(err, -EINVAL, "frameskip must be at least 1, not %d", cfg->frameskip);
	if (!(cfg->repeat_action_probability >= 0 && cfg->repeat_action_probability <= 1))
		return core_error_set(err, -EINVAL, "repeat_action_probability must be in [0, 1]");
	if (cfg->max_frames < 0 || cfg->noop_max < 0)
		return core_error_set(err, -EINVAL, "max_episode_steps and noop_max must not be negative");
	switch (cfg->obs) {
	case ATARI_OBS_NONE: case ATARI_OBS_INDEX: case ATARI_OBS_GRAY: case ATARI_OBS_RGB:
	case ATARI_OBS_RAM:
		return 0;
	default:
		return core_error_set(err, -EINVAL, "unknown observation type %d", cfg->obs);
	}
}

int atari_vec_open(struct atari_vec **out, const char *rom_path, const char *game,
		   const struct atari_env_config *cfg, const struct atari_vec_config *vc,
		   struct core_error *err)
{
	struct atari_vec *v;
	struct atari_vec_state *st;
	struct atari_env_config env_cfg = *cfg;
	int ret, n = vc->n;

	*out = NULL;
	if ((ret = vec_check_config(cfg, vc, err)) < 0)
		return ret;
	v = calloc(1, sizeof(*v));
	st = calloc(1, sizeof(*st));
	if (!v || !st) {
		free(v);
		free(st);
		return core_error_set(err, -ENOMEM, "out of memory");
	}
	v->state = st;
	v->vc = *vc;
	if (!v->vc.batch_size)
		v->vc.batch_size = n;
	pthread_mutex_init(&st->lock, NULL);
	pthread_cond_init(&st->work, NULL);
	pthread_cond_init(&st->ready, NULL);
	if ((ret = atari_rom_load_file(&v->rom, rom_path, 0, err)) < 0)
		goto fail;
	v->game = atari_game_by_md5(v->rom.md5);
	if (game) {
		const struct atari_game *want = atari_game_by_name(game);

		if (!want) {
			ret = core_error_set(err, -EINVAL, "unknown game '%s'", game);
			goto fail;
		}
		if (want != v->game) {
			ret = core_error_set(err, -EINVAL, "'%s' is not the ROM of game '%s' (MD5 %s, expected %s)",
					     rom_path, game, v->rom.md5, want->md5);
			goto fail;
		}
	}
	if (!v->game)
		v->game = &atari_games[0];
	if ((ret = atari_game_check(v->game, cfg->mode, cfg->difficulty, err)) < 0)
		goto fail;
	for (int a = 0; a < ATARI_ACTIONS; a++)
		if (vc->full_action_space || (v->game->minimal & (1u << a)))
			v->actions[v->n_actions++] = a;
	v->height = atari_env_probe_height(&v->rom, v->game, &env_cfg, 0);
	if (cfg->obs == ATARI_OBS_RAM) {
		env_cfg.obs = ATARI_OBS_NONE;
		v->ram = 1;
		v->frame_size = 128;
	} else {
		v->frame_size = (size_t)atari_env_obs_size(cfg, v->height);
	}
	v->cfg = env_cfg;
	v->obs_size = v->frame_size * (size_t)v->vc.stack;
	st->envs = calloc((size_t)n, sizeof(*st->envs));
	st->ve = calloc((size_t)n, sizeof(*st->ve));
	st->queue = calloc((size_t)n, sizeof(*st->queue));
	if (cfg->obs != ATARI_OBS_NONE && cfg->obs != ATARI_OBS_RAM)
		st->fb = calloc((size_t)n, 2 * (size_t)ATARI_FB_SIZE);
	if (v->vc.stack > 1 && v->obs_size)
		st->hist = calloc((size_t)n, v->obs_size);
	if (!st->envs || !st->ve || !st->queue || (cfg->obs != ATARI_OBS_NONE && cfg->obs != ATARI_OBS_RAM && !st->fb) ||
	    (v->vc.stack > 1 && v->obs_size && !st->hist) || vec_layout(v) < 0) {
		ret = core_error_set(err, -ENOMEM, "out of memory for %d environments", n);
		goto fail;
	}
	atari_vec_seed(v, v->cfg.seed);
	st->filled = calloc((size_t)v->rings, sizeof(*st->filled));
	/* Workers: the threads but the caller's own. */
	st->nthreads = (vc->threads > 0 ? vc->threads : core_sys_cpus()) - 1;
	if (st->nthreads > n - 1)
		st->nthreads = n - 1;
	if (st->nthreads < 0)
		st->nthreads = 0;
	st->threads = calloc((size_t)st->nthreads + 1, sizeof(*st->threads));
	if (!st->filled || !st->threads) {
		ret = core_error_set(err, -ENOMEM, "out of memory");
		goto fail;
	}
	atomic_init(&st->tickets, 0);
	for (int k = 0; k < v->rings; k++)
		atomic_init(&st->filled[k], 0);
	for (int k = 0; k < st->nthreads; k++) {
		int rc = pthread_create(&st->threads[k], NULL, vec_worker, v);

		if (rc) {
			st->nthreads = k;
			ret = core_error_errno(err, rc, "cannot start a thread");
			goto fail;
		}
	}
	*out = v;
	return 0;
fail:
	atari_vec_free(v);
	return ret;
}

int atari_vec_send(struct atari_vec *v, const int32_t *actions, const int32_t *ids, int count,
		   struct core_error *err)
{
	struct atari_vec_state *st = v->state;
	int ret = 0;

	pthread_mutex_lock(&st->lock);
	for (int k = 0; k < count; k++) {
		int i = ids ? ids[k] : k, a = actions[k];

		if (i < 0 || i >= v->vc.n) {
			ret = core_error_set(err, -EINVAL, "environment id %d out of range (0 to %d)", i,
					     v->vc.n - 1);
			break;
		}
		if (a < ATARI_VEC_RELOAD || a >= v->n_actions) {
			ret = core_error_set(err, -EINVAL, "action %d out of range (0 to %d)", a,
					     v->n_actions - 1);
			break;
		}
		if (st->ve[i].state != ENV_IDLE) {
			ret = core_error_set(err, -EINVAL, "environment %d was sent and not yet received", i);
			break;
		}
	}
	if (ret == 0) {
		for (int k = 0; k < count; k++) {
			int i = ids ? ids[k] : k, a = actions[k];

			st->ve[i].action = a < 0 ? a : v->actions[a];
			st->ve[i].state = ENV_SENT;
			st->queue[(st->head + st->count++) % v->vc.n] = i;
		}
		st->sent += count;
		if (count == 1 || st->nthreads == 1)
			pthread_cond_signal(&st->work);
		else if (count > 1)
			pthread_cond_broadcast(&st->work);
	}
	pthread_mutex_unlock(&st->lock);
	return ret;
}

int atari_vec_recv(struct atari_vec *v, struct core_error *err)
{
	struct atari_vec_state *st = v->state;
	int bs = v->vc.batch_size, r = (int)(st->next_batch % (uint64_t)v->rings);
	const int32_t *ids;
	uint8_t *batch = v->arena + (size_t)r * v->batch_bytes;

	pthread_mutex_lock(&st->lock);
	if (st->sent < bs) {
		pthread_mutex_unlock(&st->lock);
		return core_error_set(err, -EINVAL, "recv needs %d environments sent, not %d", bs, st->sent);
	}
	/* The caller is one of the threads: it steps environments while it waits. */
	while (atomic_load(&st->filled[r]) < bs) {
		if (st->count) {
			int i = st->queue[st->head];

			st->head = (st->head + 1) % v->vc.n;
			st->count--;
			pthread_mutex_unlock(&st->lock);
			vec_run(v, i);
			pthread_mutex_lock(&st->lock);
		} else {
			pthread_cond_wait(&st->ready, &st->lock);
		}
	}
	atomic_store(&st->filled[r], 0);
	ids = (const int32_t *)(batch + v->off_env_id);
	for (int k = 0; k < bs; k++)
		st->ve[ids[k]].state = ENV_IDLE;
	st->sent -= bs;
	st->next_batch++;
	pthread_mutex_unlock(&st->lock);
	return r;
}

void atari_vec_seed(struct atari_vec *v, uint64_t seed)
{
	v->cfg.seed = seed;
	for (int i = 0; i < v->vc.n; i++)
		v->state->ve[i].seed = (uint32_t)(seed + (uint64_t)i);
}

void atari_vec_seed_each(struct atari_vec *v, const uint32_t *seeds)
{
	for (int i = 0; i < v->vc.n; i++)
		v->state->ve[i].seed = seeds[i];
}

void atari_vec_stop(struct atari_vec *v)
{
	struct atari_vec_state *st = v->state;

	pthread_mutex_lock(&st->lock);
	st->stop = 1;
	pthread_cond_broadcast(&st->work);
	pthread_mutex_unlock(&st->lock);
	for (int k = 0; k < st->nthreads; k++)
		pthread_join(st->threads[k], NULL);
	st->nthreads = 0;
}

void atari_vec_free(struct atari_vec *v)
{
	struct atari_vec_state *st;

	if (!v)
		return;
	st = v->state;
	atari_vec_stop(v);
	pthread_mutex_destroy(&st->lock);
	pthread_cond_destroy(&st->work);
	pthread_cond_destroy(&st->ready);
	free(st->threads);
	free((void *)st->filled);
	free(st->queue);
	free(st->envs);
	free(st->ve);
	free(st->fb);
	free(st->hist);
	free(st);
	free(v->arena);
	atari_rom_release(&v->rom);
	free(v);
}
