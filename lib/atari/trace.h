/*
 * Frame-by-frame traces for comparing with ALE: one CSV row after every
 * frame (frameskip 1, no sticky actions), with the columns
 *
 *	frame,action,reward,terminal,lives,ram,screen_md5
 *
 * frame is 1 for the first step; action the ALE action number (0-17);
 * reward the step's reward; terminal 1 when the episode ended (the next
 * step then starts a new episode with ALE's reset); lives ALE's lives();
 * ram the 128 bytes of RAM as 256 lowercase hex digits; screen_md5 the MD5
 * of the 210x160 palette-index screen, as ALE's getScreen returns it.
 * share/ale-trace.py writes the same columns from ale-py.
 */
#ifndef ATARI_TRACE_H
#define ATARI_TRACE_H

#include <stdio.h>

#include "atari/env.h"
#include "core/error.h"

#define ATARI_TRACE_HEADER "frame,action,reward,terminal,lives,ram,screen_md5"

/*
 * Read an action list: one action per line, a number 0-17 or an ALE name
 * (NOOP, FIRE, UPRIGHT, ...); blank lines and lines starting with '#' are
 * skipped.  On success *out (malloc'd) holds *n actions.  Errors name the
 * file and line (-EINVAL), or the I/O error.
 */
int atari_trace_read_actions(FILE *fp, const char *name, int **out, long *n,
			     struct core_error *err);

/*
 * Random actions from the game's minimal action set, from a generator
 * seeded with `seed` (splitmix64; documented so other tools can
 * reproduce it): action i is minimal[next() % count].
 */
void atari_trace_random_actions(const struct atari_game *g, uint64_t seed, int *out, long n);

/*
 * Run the actions on a fresh environment and write the header and one row
 * per frame to `fp`.  The environment is loaded as ALE's loadROM loads it
 * (atari_env_load), and with `reset` also reset as Gymnasium does before
 * its first step (atari_env_init: reset_game in the configured mode and
 * difficulty).  cfg->frameskip must be 1.  Returns 0, or -EIO when writing fails, -ENOMEM.
 */
int atari_trace_write(FILE *fp, const struct atari_rom *rom, const struct atari_game *g,
		      const struct atari_env_config *cfg, int reset, const int *actions, long n,
		      struct core_error *err);

#endif
