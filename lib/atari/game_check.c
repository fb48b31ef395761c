/* The check of a game's mode and difficulty, with the valid values named. */
#include <errno.h>
#include <stdio.h>

#include "atari/game.h"
#include "core/error.h"

/* Values a message lists in full; a longer list names its first and last
 * few and how many there are (Video Cube has 153 modes). */
#define LIST_FULL 40
#define LIST_HEAD 6
#define LIST_TAIL 3
#define VALUES_MAX 1024

/* "0, 1 or 2": a list of values for a message. */
static void list_values(char *buf, size_t size, const int *v, int n)
{
	size_t len = 0;

	buf[0] = 0;
	for (int i = 0; i < n && len < size; i++) {
		if (n > LIST_FULL && i == LIST_HEAD) {
			len += (size_t)snprintf(buf + len, size - len, ", ...");
			i = n - LIST_TAIL - 1;
			continue;
		}
		len += (size_t)snprintf(buf + len, size - len, "%s%d",
					i == 0 ? "" : i == n - 1 ? " or " : ", ", v[i]);
	}
	if (n > LIST_FULL && len < size)
		snprintf(buf + len, size - len, "; %d in all", n);
}

int atari_game_check(const struct atari_game *g, int m, int d, struct core_error *err)
{
	int v[VALUES_MAX], n;
	char buf[256];

	if (!atari_game_mode_valid(g, m)) {
		n = atari_game_modes(g, v, VALUES_MAX);
		list_values(buf, sizeof(buf), v, n < VALUES_MAX ? n : VALUES_MAX);
		return core_error_set(err, -EINVAL, "game '%s' has no mode %d (valid: %s)", g->name, m, buf);
	}
	if (!atari_game_difficulty_valid(g, d)) {
		n = atari_game_difficulties(g, v, VALUES_MAX);
		list_values(buf, sizeof(buf), v, n < VALUES_MAX ? n : VALUES_MAX);
		return core_error_set(err, -EINVAL, "game '%s' has no difficulty %d (valid: %s)", g->name,
				      d, buf);
	}
	return 0;
}
