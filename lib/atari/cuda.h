/*
 * The CUDA backend: batches of environments as one GPU thread each.
 *
 * The kernels are thin: each GPU thread runs the same HOSTDEV functions
 * as the CPU backend (atari_env_init, atari_env_step, atari_env_reset) on
 * its own environment, so results are bit-identical.  They are built with
 * nvcc, where the toolkit exists, into a plug-in (lib/rlkit/
 * rlkit-atari-cuda.so next to the programs' bin/), loaded at run time, so
 * that programs run on machines without CUDA.
 */
#ifndef ATARI_CUDA_H
#define ATARI_CUDA_H

#include <stddef.h>

#include "atari/batch.h"
#include "core/error.h"

/* The plug-in's entry point (its one exported symbol). */
#define ATARI_CUDA_PLUGIN "rlkit-atari-cuda.so"
#define ATARI_CUDA_ENTRY "atari_cuda_plugin_run"
typedef int (*atari_cuda_entry_fn)(const struct atari_rom *rom, const struct atari_game *g,
				   const struct atari_env_config *cfg, int n, long steps,
				   struct atari_batch_stats *stats, double *seconds,
				   char *errbuf, size_t errlen);

/*
 * Run n environments for `steps` steps each with random actions on the GPU
 * (as atari_batch_run does on CPU threads), timing the stepping only.
 * Errors: -ENOSYS when the backend was not built or cannot be loaded,
 * -ENODEV when there is no usable GPU, -EIO for other CUDA failures; the
 * message says which.  The plug-in is looked for in $RLKIT_CUDA_PLUGIN,
 * then in ../lib/rlkit/ relative to the running program.
 */
int atari_cuda_run(const struct atari_rom *rom, const struct atari_game *g,
		   const struct atari_env_config *cfg, int n, long steps,
		   struct atari_batch_stats *stats, double *seconds, struct core_error *err);

#endif
