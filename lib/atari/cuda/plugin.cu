/*
 * The CUDA backend's plug-in (see atari/cuda.h), built by nvcc into
 * lib/rlkit/rlkit-atari-cuda.so.  The emulator's sources are compiled here
 * once more, by nvcc, so that their HOSTDEV functions exist as device code;
 * the kernels are thin wrappers that give each GPU thread one environment.
 * Only atari_cuda_plugin_run is exported.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include <cuda_runtime.h>

#include "atari/cart.c"
#include "atari/riot.c"
#include "atari/tia_draw.c"
#include "atari/tia.c"
#include "atari/palette.c"
#include "atari/machine.c"
#include "atari/game.c"
#include "atari/env.c"
#include "atari/cuda.h"

__global__ void k_init(struct atari_env *envs, const struct atari_rom *rom,
		       const struct atari_game *g, struct atari_env_config cfg, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;

	if (i < n)
		atari_env_init(&envs[i], rom, g, &cfg, (uint32_t)i, NULL);
}

/* Per-environment counters of a run (in device memory), summed on the host. */
__global__ void k_run(struct atari_env *envs, const struct atari_rom *rom,
		      const struct atari_game *g, struct atari_env_config cfg, int n,
		      long steps, struct atari_run_counts *counts)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;

	if (i < n) {
		uint64_t rng = atari_env_run_seed(&cfg, (uint32_t)i);

		atari_env_run(&envs[i], rom, g, &cfg, &rng, steps, NULL, NULL, &counts[i]);
	}
}

#define CUDA_TRY(call) do { \
	cudaError_t e_ = (call); \
	if (e_ != cudaSuccess) { \
		snprintf(errbuf, errlen, "CUDA: %s: %s", #call, cudaGetErrorString(e_)); \
		ret = -EIO; \
		goto out; \
	} \
} while (0)

/* A device copy of `bytes` bytes at host (none, *dev NULL, when host is NULL). */
static cudaError_t to_device(void **dev, const void *host, size_t bytes)
{
	cudaError_t e;

	*dev = NULL;
	if (!host || !bytes)
		return cudaSuccess;
	e = cudaMalloc(dev, bytes);
	if (e != cudaSuccess) {
		*dev = NULL;
		return e;
	}
	return cudaMemcpy(*dev, host, bytes, cudaMemcpyHostToDevice);
}

extern "C" __attribute__((visibility("default")))
int atari_cuda_plugin_run(const struct atari_rom *rom, const struct atari_game *g,
			  const struct atari_env_config *cfg, int n, long steps,
			  struct atari_batch_stats *stats, double *seconds,
			  char *errbuf, size_t errlen)
{
	struct atari_rom drom = *rom;
	struct atari_game dgame = *g;
	struct atari_rom *d_rom = NULL;
	struct atari_game *d_game = NULL;
	uint16_t *d_modes = NULL;
	uint8_t *d_values = NULL, *d_values2 = NULL;
	struct atari_env *d_envs = NULL;
	struct atari_run_counts *d_counts = NULL, *counts = NULL;
	uint8_t *d_data = NULL;
	uint32_t *d_rng = NULL;
	struct timespec t0, t1;
	int devices = 0, ret = 0, block = 64;
	cudaError_t e = cudaGetDeviceCount(&devices);

	if (e != cudaSuccess || devices == 0) {
		snprintf(errbuf, errlen, "no CUDA GPU: %s",
			 e != cudaSuccess ? cudaGetErrorString(e) : "no device found");
		return -ENODEV;
	}
	counts = (struct atari_run_counts *)calloc((size_t)n, sizeof(*counts));
	if (!counts) {
		snprintf(errbuf, errlen, "out of memory");
		return -ENOMEM;
	}
	CUDA_TRY(cudaDeviceSetLimit(cudaLimitStackSize, 8192));
	CUDA_TRY(cudaMalloc((void **)&d_data, rom->size));
	CUDA_TRY(cudaMalloc((void **)&d_rng, sizeof(uint32_t) * ATARI_RNG_TABLE));
	CUDA_TRY(cudaMemcpy(d_data, rom->data, rom->size, cudaMemcpyHostToDevice));
	CUDA_TRY(cudaMemcpy(d_rng, rom->rng, sizeof(uint32_t) * ATARI_RNG_TABLE,
			    cudaMemcpyHostToDevice));
	drom.data = d_data;
	drom.rng = d_rng;
	drom.detected = NULL;
	CUDA_TRY(cudaMalloc((void **)&d_rom, sizeof(drom)));
	CUDA_TRY(cudaMemcpy(d_rom, &drom, sizeof(drom), cudaMemcpyHostToDevice));
	/* The game's pointers lead to host memory: its mode list and the
	 * modes' RAM values go to the device too (the default mode is the
	 * list's first entry); device code reads no name. */
	CUDA_TRY(to_device((void **)&d_modes, g->modes, sizeof(*g->modes) * (size_t)g->n_modes));
	CUDA_TRY(to_device((void **)&d_values, g->mode_values, (size_t)g->n_modes));
	CUDA_TRY(to_device((void **)&d_values2, g->mode_values2, (size_t)g->n_modes));
	dgame.modes = d_modes;
	dgame.mode_values = d_values;
	dgame.mode_values2 = d_values2;
	dgame.name = dgame.title = dgame.md5 = NULL;
	CUDA_TRY(cudaMalloc((void **)&d_game, sizeof(dgame)));
	CUDA_TRY(cudaMemcpy(d_game, &dgame, sizeof(dgame), cudaMemcpyHostToDevice));
	CUDA_TRY(cudaMalloc((void **)&d_envs, sizeof(struct atari_env) * (size_t)n));
	CUDA_TRY(cudaMalloc((void **)&d_counts, sizeof(*counts) * (size_t)n));
	CUDA_TRY(cudaMemset(d_counts, 0, sizeof(*counts) * (size_t)n));
	k_init<<<(n + block - 1) / block, block>>>(d_envs, d_rom, d_game, *cfg, n);
	CUDA_TRY(cudaGetLastError());
	CUDA_TRY(cudaDeviceSynchronize());
	clock_gettime(CLOCK_MONOTONIC, &t0);
	k_run<<<(n + block - 1) / block, block>>>(d_envs, d_rom, d_game, *cfg, n, steps, d_counts);
	CUDA_TRY(cudaGetLastError());
	CUDA_TRY(cudaDeviceSynchronize());
	clock_gettime(CLOCK_MONOTONIC, &t1);
	CUDA_TRY(cudaMemcpy(counts, d_counts, sizeof(*counts) * (size_t)n, cudaMemcpyDeviceToHost));
	memset(stats, 0, sizeof(*stats));
	stats->steps = (uint64_t)n * (uint64_t)steps;
	for (int i = 0; i < n; i++) {
		stats->frames += counts[i].frames;
		stats->episodes += counts[i].episodes;
		stats->reward += counts[i].reward;
	}
	*seconds = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
out:
	cudaFree(d_counts);
	cudaFree(d_envs);
	cudaFree(d_game);
	cudaFree(d_modes);
	cudaFree(d_values);
	cudaFree(d_values2);
	cudaFree(d_rom);
	cudaFree(d_rng);
	cudaFree(d_data);
	free(counts);
	return ret;
}
