#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "atari/batch.h"
#include "core/sys.h"

enum job_kind { JOB_INIT, JOB_OBSERVE, JOB_RUN };

/*
 * Steps an environment takes at a time in a throughput run.  The threads
 * take the environments in turn, a chunk at a time (run_take), so that
 * they all end together however much the environments' costs differ (an
 * episode's end, a reset, a busier screen), instead of each running its
 * own share to the end.
 */
#define RUN_CHUNK 16

/* A throughput run's environments, shared by its threads under `lock`. */
struct run_share {
	pthread_mutex_t lock;
	long steps;		/* each environment takes */
	long *done;		/* steps taken, by environment */
	uint64_t *rng;		/* action streams (atari_env_run_seed) */
	uint8_t *busy;		/* a thread is stepping it */
	int next;		/* where run_take looks first */
};

struct job {
	struct atari_batch *b;
	enum job_kind kind;
	int first, last;		/* environments [first, last): JOB_INIT, JOB_OBSERVE */
	struct run_share *run;		/* JOB_RUN */
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

/* The next environment in turn that has steps left and that no thread
 * steps, marked busy; -1 when there is none. */
static int run_take(struct run_share *r, int n)
{
	for (int k = 0; k < n; k++) {
		int i = r->next;

		r->next = i + 1 < n ? i + 1 : 0;
		if (!r->busy[i] && r->done[i] < r->steps) {
			r->busy[i] = 1;
			return i;
		}
	}
	return -1;
}

/* A thread of a throughput run: a chunk of steps of one environment after
 * another. */
static void job_run(struct job *j)
{
	struct atari_batch *b = j->b;
	struct run_share *r = j->run;
	int i = -1;
	long k = 0;

	for (;;) {
		pthread_mutex_lock(&r->lock);
		if (i >= 0) {
			r->done[i] += k;
			r->busy[i] = 0;
		}
		i = run_take(r, b->n);
		if (i >= 0)
			k = r->steps - r->done[i] < RUN_CHUNK ? r->steps - r->done[i] : RUN_CHUNK;
		pthread_mutex_unlock(&r->lock);
		if (i < 0)
			return;
		atari_env_run(&b->envs[i], b->rom, b->game, &b->cfg, &r->rng[i], k, env_fb(b, i),
			      env_obs(b, i), &j->counts);
	}
}

static void *job_main(void *arg)
{
	struct job *j = arg;
	struct atari_batch *b = j->b;

	if (j->kind == JOB_RUN) {
		job_run(j);
		return NULL;
	}
	for (int i = j->first; i < j->last; i++) {
		uint8_t *obs = env_obs(b, i);

		if (j->kind == JOB_INIT)
			atari_env_init(&b->envs[i], b->rom, b->game, &b->cfg, (uint32_t)i,
				       env_fb(b, i));
		else if (obs)
			atari_env_observe(&b->envs[i], &b->cfg, env_fb(b, i), obs);
	}
	return NULL;
}

/* Run a job over all environments among the threads: JOB_INIT and
 * JOB_OBSERVE split them, JOB_RUN shares them (`run`).  Adds what the
 * threads counted to *total unless it is NULL. */
static int batch_run_jobs(struct atari_batch *b, enum job_kind kind, struct run_share *run,
			  struct atari_run_counts *total, struct core_error *err)
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
					(int)((long)b->n * (k + 1) / t), run, { 0, 0, 0 } };
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
	for (int k = 0; total && k < t; k++) {
		total->frames += jobs[k].counts.frames;
		total->episodes += jobs[k].counts.episodes;
		total->reward += jobs[k].counts.reward;
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
	if ((ret = batch_run_jobs(b, JOB_INIT, NULL, NULL, err)) < 0)
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
	if ((ret = batch_run_jobs(b, JOB_OBSERVE, NULL, NULL, err)) < 0)
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
	struct run_share r = { .steps = steps };
	struct atari_run_counts total = { 0, 0, 0 };
	int ret;

	r.done = calloc((size_t)b->n, sizeof(*r.done));
	r.rng = calloc((size_t)b->n, sizeof(*r.rng));
	r.busy = calloc((size_t)b->n, 1);
	if (!r.done || !r.rng || !r.busy) {
		ret = core_error_set(err, -ENOMEM, "out of memory");
		goto out;
	}
	for (int i = 0; i < b->n; i++)
		r.rng[i] = atari_env_run_seed(&b->cfg, (uint32_t)i);
	pthread_mutex_init(&r.lock, NULL);
	ret = batch_run_jobs(b, JOB_RUN, &r, &total, err);
	pthread_mutex_destroy(&r.lock);
	if (stats) {
		stats->steps = (uint64_t)b->n * (uint64_t)steps;
		stats->frames = total.frames;
		stats->episodes = total.episodes;
		stats->reward = total.reward;
	}
out:
	free(r.done);
	free(r.rng);
	free(r.busy);
	return ret;
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
