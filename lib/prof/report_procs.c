#include "prof/report_procs.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define SMALL_PER_10000 100	/* under 1%: summed */

/* The last path component of the word at w (ending at white space). */
static size_t word_base(const char *w, const char **base)
{
	size_t len = strcspn(w, " \t");
	const char *b = w;
	size_t i;

	for (i = 0; i < len; i++)
		if (w[i] == '/')
			b = w + i + 1;
	*base = b;
	return len - (size_t)(b - w);
}

static int is(const char *b, size_t len, const char *name)
{
	return len == strlen(name) && !memcmp(b, name, len);
}

int prof_proc_is_shim(const char *command)
{
	const char *w = command, *b;
	int words = 0;

	while (w && *w && words++ < 3) {
		size_t wl, len;

		w += strspn(w, " \t");
		wl = strcspn(w, " \t");
		len = word_base(w, &b);
		if ((wl >= 6 && memmem(w, wl, "/pyenv", 6)) ||
		    (wl >= 14 && memmem(w, wl, "/.pyenv/shims/", 14)) ||
		    (len >= 5 && !memcmp(b, "pyenv", 5)))
			return 1;
		if (is(b, len, "env") || is(b, len, "sh") || is(b, len, "bash") ||
		    is(b, len, "dash") || is(b, len, "zsh")) {
			/* env, or a shell running a script or -c: a launcher,
			 * unless it runs nothing (an interactive shell). */
			w += wl;
			w += strspn(w, " \t");
			return *w != 0;
		}
		/* Only the first word, or the words after a launcher, count. */
		break;
	}
	return 0;
}

static size_t find(const struct prof_breakdown *bd, int64_t pid)
{
	size_t i;

	for (i = 0; i < bd->nprocs; i++)
		if (bd->procs[i].pid == pid)
			return i;
	return (size_t)-1;
}

struct state {
	const struct prof_breakdown *bd;
	struct prof_proc_plan *pl;
	size_t *up;		/* shown parent of each process (index), -1 */
	size_t *rep;		/* the process whose rows each one joins */
	int64_t *wall;		/* wall of each representative, folded in */
	char *placed;
	int64_t total;
	int all;
};

/* Place i (a representative) and, depth first, its shown children. */
static void place(struct state *s, size_t i, size_t depth, int root)
{
	const struct prof_breakdown *bd = s->bd;
	struct prof_proc_plan *pl = s->pl;
	size_t j, at = pl->n;

	s->placed[i] = 1;
	if (!root && !s->all && s->wall[i] * 10000 < s->total * SMALL_PER_10000) {
		at = (size_t)-1;	/* summed; its children are placed still */
	} else {
		pl->order[pl->n] = i;
		pl->parent[pl->n] = s->up[i] == (size_t)-1 ? -1 : bd->procs[s->up[i]].pid;
		pl->depth[pl->n++] = depth;
	}
	for (j = 0; j < bd->nprocs; j++)
		if (s->rep[j] == i)
			pl->into[j] = at;
	for (j = 0; j < bd->nprocs; j++)
		if (s->rep[j] == j && !s->placed[j] && s->up[j] == i)
			place(s, j, at == (size_t)-1 ? depth : depth + 1, 0);
}

int prof_proc_plan_make(struct prof_proc_plan *pl, const struct prof_breakdown *bd, int all)
{
	size_t n = bd->nprocs, i, j, *kids = NULL;
	struct state s = { bd, pl, NULL, NULL, NULL, NULL, 0, all };
	int ret = -ENOMEM;

	memset(pl, 0, sizeof(*pl));
	pl->order = malloc((n + 1) * sizeof(*pl->order));
	pl->depth = malloc((n + 1) * sizeof(*pl->depth));
	pl->into = malloc((n + 1) * sizeof(*pl->into));
	pl->parent = malloc((n + 1) * sizeof(*pl->parent));
	s.up = malloc((n + 1) * sizeof(*s.up));
	s.rep = malloc((n + 1) * sizeof(*s.rep));
	s.wall = calloc(n + 1, sizeof(*s.wall));
	kids = calloc(n + 1, sizeof(*kids));
	s.placed = calloc(n + 1, 1);
	if (!pl->order || !pl->depth || !pl->into || !pl->parent || !s.up || !s.rep ||
	    !s.wall || !kids || !s.placed)
		goto out;
	for (i = 0; i < n; i++) {
		s.up[i] = find(bd, bd->procs[i].parent);
		if (s.up[i] == i)
			s.up[i] = (size_t)-1;
		s.rep[i] = i;
		if (s.up[i] != (size_t)-1)
			kids[s.up[i]]++;
	}
	/* A shim with one child: the child stands in its place. */
	for (i = 0; i < n; i++) {
		if (kids[i] != 1 || !prof_proc_is_shim(bd->procs[i].name))
			continue;
		for (j = 0; j < n && s.up[j] != i; j++)
			;
		s.rep[i] = j;
	}
	/* Follow chains of shims (env -> sh -> program); a cycle stops. */
	for (i = 0; i < n; i++) {
		size_t k;

		for (k = 0; k < n && s.rep[s.rep[i]] != s.rep[i]; k++)
			s.rep[i] = s.rep[s.rep[i]];
	}
	/* The shown parent: the first ancestor outside one's fold. */
	for (i = 0; i < n; i++) {
		size_t a = s.up[i], k;

		for (k = 0; k < n && a != (size_t)-1 && s.rep[a] == s.rep[i]; k++)
			a = s.up[a];
		kids[i] = a == (size_t)-1 || s.rep[a] == s.rep[i] ? (size_t)-1 : s.rep[a];
	}
	memcpy(s.up, kids, n * sizeof(*kids));
	for (i = 0; i < n; i++) {
		s.wall[s.rep[i]] += bd->procs[i].wall;
		s.total += bd->procs[i].wall;
	}
	for (i = 0; i < n; i++)
		pl->into[i] = (size_t)-1;
	for (i = 0; i < n; i++)
		if (s.rep[i] == i && s.up[i] == (size_t)-1)
			place(&s, i, 0, 1);
	/* A cycle of parents (pid reuse) leaves processes unplaced: roots. */
	for (i = 0; i < n; i++)
		if (s.rep[i] == i && !s.placed[i])
			place(&s, i, 0, 1);
	for (i = 0; i < n; i++)
		if (pl->into[i] == (size_t)-1) {
			pl->into[i] = pl->n;
			pl->nothers++;
		}
	ret = 0;
out:
	free(s.up);
	free(s.rep);
	free(s.wall);
	free(kids);
	free(s.placed);
	if (ret < 0)
		prof_proc_plan_release(pl);
	return ret;
}

void prof_proc_plan_release(struct prof_proc_plan *pl)
{
	free(pl->order);
	free(pl->depth);
	free(pl->into);
	free(pl->parent);
	memset(pl, 0, sizeof(*pl));
}
