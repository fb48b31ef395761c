#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "atari/md5.h"
#include "atari/trace.h"
#include "core/grow.h"
#include "core/splitmix.h"

static int parse_action(const char *s)
{
	char *end;
	long v;

	for (int a = 0; a < ATARI_ACTIONS; a++)
		if (strcasecmp(s, atari_action_name(a)) == 0)
			return a;
	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < 0 || v >= ATARI_ACTIONS)
		return -1;
	return (int)v;
}

int atari_trace_read_actions(FILE *fp, const char *name, int **out, long *n,
			     struct core_error *err)
{
	char line[256];
	long lineno = 0, count = 0;
	size_t cap = 0;
	int *v = NULL;

	if (CORE_GROW(v, cap, 1024) < 0)
		return core_error_set(err, -ENOMEM, "out of memory");
	errno = 0;
	while (fgets(line, sizeof(line), fp)) {
		size_t len = strlen(line);
		char *s = line;
		int a;

		lineno++;
		if (len == sizeof(line) - 1 && line[len - 1] != '\n') {
			free(v);
			return core_error_set_line(err, -EINVAL, lineno, "'%s': line too long", name);
		}
		while (len && isspace((unsigned char)line[len - 1]))
			line[--len] = 0;
		while (isspace((unsigned char)*s))
			s++;
		if (!*s || *s == '#')
			continue;
		a = parse_action(s);
		if (a < 0) {
			free(v);
			return core_error_set(err, -EINVAL,
					      "'%s': line %ld: bad action '%s' (0-17 or a name such as UPFIRE)",
					      name, lineno, s);
		}
		if (CORE_GROW(v, cap, (size_t)count + 1) < 0) {
			free(v);
			return core_error_set(err, -ENOMEM, "out of memory");
		}
		v[count++] = a;
	}
	if (ferror(fp)) {
		free(v);
		return core_error_errno(err, errno ? errno : EIO, "cannot read '%s'", name);
	}
	*out = v;
	*n = count;
	return 0;
}

void atari_trace_random_actions(const struct atari_game *g, uint64_t seed, int *out, long n)
{
	int set[ATARI_ACTIONS], count = 0;

	for (int a = 0; a < ATARI_ACTIONS; a++)
		if (g->minimal & (1u << a))
			set[count++] = a;
	for (long i = 0; i < n; i++)
		out[i] = set[core_splitmix64(&seed) % (uint64_t)count];
}

int atari_trace_write(FILE *fp, const struct atari_rom *rom, const struct atari_game *g,
		      const struct atari_env_config *cfg, int reset, const int *actions, long n,
		      struct core_error *err)
{
	struct atari_env *e = malloc(sizeof(*e));
	uint8_t *fb = malloc(2 * (size_t)ATARI_FB_SIZE);
	char md5[33], ram[257];
	int ret = 0;

	if (!e || !fb) {
		ret = core_error_set(err, -ENOMEM, "out of memory");
		goto out;
	}
	if (reset)
		atari_env_init(e, rom, g, cfg, 0, fb);
	else
		atari_env_load(e, rom, g, cfg, 0, fb);
	fprintf(fp, "%s\n", ATARI_TRACE_HEADER);
	for (long i = 0; i < n; i++) {
		int reward, terminal;

		if (i > 0 && atari_env_terminal(e, cfg))
			atari_env_reset(e, rom, g, cfg, fb);
		reward = atari_env_step(e, rom, g, cfg, actions[i], fb);
		terminal = atari_env_terminal(e, cfg);
		for (int b = 0; b < 128; b++)
			snprintf(ram + 2 * b, 3, "%02x", e->m.riot.ram[b]);
		atari_md5_hex(atari_env_screen(e, fb),
			      (size_t)ATARI_SCREEN_WIDTH * atari_env_screen_height(e), md5);
		if (fprintf(fp, "%ld,%d,%d,%d,%d,%s,%s\n", i + 1, actions[i], reward,
			    terminal, atari_env_lives(e), ram, md5) < 0) {
			ret = core_error_errno(err, errno ? errno : EIO, "writing the trace failed");
			goto out;
		}
	}
out:
	free(e);
	free(fb);
	return ret;
}
