#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "atari/batch.h"
#include "core/sys.h"

enum job_kind { JOB_INIT, JOB_OBSERVE, JOB_RUN };

struct job {
	struct atari_batch *b;
	enum job_kind kind;
	int first, last;		/* environments [first, last) */
	long steps;
	struct atari_run_counts counts;
};

static uint8_t *env_fb(struct atari_batch *b, int i)
{
	return b->fb ? b->fb + (size_t)i * 2 * ATARI_FB_SIZE : NULL;
}

static uint8_t *env_obs(struct atari_batch *b, int i)
{
	return b->obs && b->obs_size ? b->obs + (size_t)i * b->obs_size : NULL;
}

static void *job_main(void *arg)
{
	struct job *j = arg;
	struct atari_batch *b = j->b;

	for (int i = j->first; i < j->last; i++) {
		struct atari_env *e = &b->envs[i];
		uint8_t *obs = env_obs(b, i);

		switch (j->kind) {
		case JOB_INIT:
			atari_env_init(e, b->rom, b->game, &b->cfg, (uint32_t)i, env_fb(b, i));
			break;
		case JOB_OBSERVE:
			if (obs)
				atari_env_observe(e, &b->cfg, env_fb(b, i), obs);
			break;
		case JOB_RUN:
			atari_env_run(e, b->rom, b->game, &b->cfg, (uint32_t)i, j->steps, env_fb(b, i),
				      obs, &j->counts);
			break;
		}
	}
	return NULL;
}

/* Run a job over all environments, split among the threads. */
static int batch_run_jobs(struct atari_batch *b, enum job_kind kind, long steps,
			  struct atari_batch_stats *stats, struct core_error *err)
{
	int t = b->threads < b->n ? b->threads : b->n;
	struct job *jobs = calloc((size_t)t, sizeof(*jobs));
	pthread_t *tids = calloc((size_t)t, sizeof(*tids));
	int started = 0, ret = 0;

	if (!jobs || !tids) {
		free(jobs);
		free(tids);
		return core_error_set(err, -ENOMEM, "out of memory");
	}
	for (int k = 0; k < t; k++) {
		jobs[k] = (struct job){ b, kind, (int)((long)b->n * k / t),
					(int)((long)b->n * (k + 1) / t), steps, { 0, 0, 0 } };
		if (k > 0) {
			int rc = pthread_create(&tids[k], NULL, job_main, &jobs[k]);

			if (rc) {
				ret = core_error_errno(err, rc, "cannot start a thread");
				break;
			}
			started = k;
		}
	}
	if (ret == 0)
		job_main(&jobs[0]);
	for (int k = 1; k <= started; k++)
		pthread_join(tids[k], NULL);
	if (stats) {
		memset(stats, 0, sizeof(*stats));
		stats->steps = (uint64_t)b->n * (uint64_t)steps;
		for (int k = 0; k < t; k++) {
			stats->frames += jobs[k].counts.frames;
			stats->episodes += jobs[k].counts.episodes;
			stats->reward += jobs[k].counts.reward;
		}
	}
	free(jobs);
	free(tids);
	return ret;
}

int atari_batch_init(struct atari_batch *b, const struct atari_rom *rom,
		     const struct atari_game *g, const struct atari_env_config *cfg,
		     int n, int threads, struct core_error *err)
{
	int draw = cfg->obs != ATARI_OBS_NONE;
	int ret;

	memset(b, 0, sizeof(*b));
	if (n < 1)
		return core_error_set(err, -EINVAL, "a batch needs at least one environment");
	if (atari_game_check(g, cfg->mode, cfg->difficulty, err) < 0)
		return err->code;
	b->rom = rom;
	b->game = g;
	b->cfg = *cfg;
	b->n = n;
	b->threads = threads > 0 ? threads : core_sys_cpus();
	b->envs = calloc((size_t)n, sizeof(*b->envs));
	if (draw)
		b->fb = calloc((size_t)n, 2 * (size_t)ATARI_FB_SIZE);
	if (!b->envs || (draw && !b->fb))
		goto nomem;
	if ((ret = batch_run_jobs(b, JOB_INIT, 0, NULL, err)) < 0)
		goto fail;
	/* The height is known once the environments are loaded. */
	b->height = atari_env_screen_height(&b->envs[0]);
	for (int i = 1; i < n; i++) {
		if (atari_env_screen_height(&b->envs[i]) != b->height) {
			ret = core_error_set(err, -EIO, "environment %d has a screen of %d rows, "
					     "environment 0 one of %d", i,
					     atari_env_screen_height(&b->envs[i]), b->height);
			goto fail;
		}
	}
	b->obs_size = (size_t)atari_env_obs_size(cfg, b->height);
	if (!draw)
		return 0;
	b->obs = calloc((size_t)n, b->obs_size);
	if (!b->obs)
		goto nomem;
	if ((ret = batch_run_jobs(b, JOB_OBSERVE, 0, NULL, err)) < 0)
		goto fail;
	return 0;
nomem:
	ret = core_error_set(err, -ENOMEM, "out of memory for %d environments", n);
fail:
	atari_batch_release(b);
	return ret;
}

int atari_batch_run(struct atari_batch *b, long steps, struct atari_batch_stats *stats,
		    struct core_error *err)
{
	return batch_run_jobs(b, JOB_RUN, steps, stats, err);
}

void atari_batch_release(struct atari_batch *b)
{
	free(b->envs);
	free(b->fb);
	free(b->obs);
	memset(b, 0, sizeof(*b));
}

size_t atari_batch_env_bytes(const struct atari_env_config *cfg, int height)
{
	size_t obs = (size_t)atari_env_obs_size(cfg, height);

	return sizeof(struct atari_env) + (obs ? 2 * (size_t)ATARI_FB_SIZE + obs : 0);
}
