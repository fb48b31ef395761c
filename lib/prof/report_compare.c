#include "prof/report_compare.h"
#include "prof/report_svg.h"
#include "core/grow.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static int find_proc(struct prof_cmp *c, const char *name)
{
	size_t i;

	for (i = 0; i < c->nprocs; i++)
		if (!strcmp(c->procs[i], name))
			return (int)i;
	if (CORE_GROW(c->procs, c->cap_procs, c->nprocs + 1) < 0)
		return -ENOMEM;
	c->procs[c->nprocs] = name;
	return (int)c->nprocs++;
}

static int add(struct prof_cmp *c, const struct prof_report *rep, int side)
{
	size_t i, k;
	int s;

	for (i = 0; i < rep->ngroups; i++) {
		const struct prof_report_group *g = &rep->groups[i];
		struct prof_cmp_row *r = NULL;
		int p = find_proc(c, g->process);

		if (p < 0)
			return -ENOMEM;
		for (k = 0; k < c->n && !r; k++)
			if (c->rows[k].proc == p && !strcmp(c->rows[k].key, g->key))
				r = &c->rows[k];
		if (!r) {
			if (CORE_GROW(c->rows, c->cap, c->n + 1) < 0)
				return -ENOMEM;
			r = &c->rows[c->n++];
			memset(r, 0, sizeof(*r));
			r->process = g->process;
			r->proc = p;
			r->key = g->key;
		}
		for (s = 0; s < PROF_SLOT_COUNT; s++)
			r->ns[side][s] += g->ns[s];
		r->total[side] += g->total;
	}
	for (i = 0; i < rep->bd->nprocs; i++)
		c->wall[side] += rep->bd->procs[i].wall;
	return 0;
}

static int row_cmp(const void *pa, const void *pb)
{
	const struct prof_cmp_row *a = pa, *b = pb;

	if (a->proc != b->proc)
		return a->proc < b->proc ? -1 : 1;
	if (a->total[0] != b->total[0])
		return a->total[0] > b->total[0] ? -1 : 1;
	if (a->total[1] != b->total[1])
		return a->total[1] > b->total[1] ? -1 : 1;
	return strcmp(a->key, b->key);
}

int prof_cmp_build(struct prof_cmp *c, const struct prof_report *a, const struct prof_report *b)
{
	memset(c, 0, sizeof(*c));
	if (add(c, a, 0) < 0 || add(c, b, 1) < 0) {
		prof_cmp_release(c);
		return -ENOMEM;
	}
	qsort(c->rows, c->n, sizeof(*c->rows), row_cmp);
	return 0;
}

void prof_cmp_release(struct prof_cmp *c)
{
	free(c->rows);
	free(c->procs);
	memset(c, 0, sizeof(*c));
}

static double pct(int64_t ns, int64_t wall)
{
	return wall > 0 ? 100.0 * (double)ns / (double)wall : 0.0;
}

/* other / this, or NaN (written empty or null) when this is 0. */
static double ratio(int64_t a, int64_t b)
{
	return a ? (double)b / (double)a : NAN;
}

enum { C_PROCESS, C_KEY, C_RESOURCE, C_CATEGORY, C_TIME, C_PERCENT, C_OTIME, C_OPERCENT,
       C_RATIO, C_NCOLS };

static int add_row(struct core_table *t, const char *process, const char *key,
		   const char *resource, const char *category, int64_t ns0, int64_t ns1,
		   int64_t wall0, int64_t wall1)
{
	if (core_table_add_row(t, 0) < 0 || core_table_set_str(t, C_PROCESS, process) < 0 ||
	    core_table_set_str(t, C_KEY, key) < 0 ||
	    core_table_set_str(t, C_RESOURCE, resource) < 0 ||
	    core_table_set_str(t, C_CATEGORY, category) < 0)
		return -ENOMEM;
	core_table_set_ns(t, C_TIME, ns0);
	core_table_set_float(t, C_PERCENT, pct(ns0, wall0));
	core_table_set_ns(t, C_OTIME, ns1);
	core_table_set_float(t, C_OPERCENT, pct(ns1, wall1));
	core_table_set_float(t, C_RATIO, ratio(ns0, ns1));
	return 0;
}

enum { S_THIS, S_OTHER, S_BY, S_WALL, S_OWALL, S_RATIO, S_NCOLS };

/* JSON: {"summary": {...}, "rows": [...]}, both through the table writer. */
static int write_json(FILE *fp, struct core_table *rows, const struct prof_report *a,
		      const struct prof_report *b, const struct prof_cmp *c)
{
	static const struct core_col cols[S_NCOLS] = {
		{ .name = "this" },
		{ .name = "other" },
		{ .name = "by" },
		{ .name = "wall_us", .type = CORE_COL_DURATION, .unit = "us", .decimals = 3 },
		{ .name = "other_wall_us", .type = CORE_COL_DURATION, .unit = "us", .decimals = 3 },
		{ .name = "ratio", .type = CORE_COL_FLOAT, .decimals = 3 },
	};
	struct core_table t;
	int ret = -ENOMEM;

	core_table_init(&t, cols, S_NCOLS, CORE_TABLE_RECORD);
	if (core_table_add_row(&t, 0) < 0 ||
	    core_table_set_str(&t, S_THIS, a->trace ? a->trace : "") < 0 ||
	    core_table_set_str(&t, S_OTHER, b->trace ? b->trace : "") < 0 ||
	    core_table_set_str(&t, S_BY, prof_report_by_name(a->by)) < 0)
		goto out;
	core_table_set_ns(&t, S_WALL, c->wall[0]);
	core_table_set_ns(&t, S_OWALL, c->wall[1]);
	core_table_set_float(&t, S_RATIO, ratio(c->wall[0], c->wall[1]));
	fputs("{\"summary\":", fp);
	if ((ret = prof_report_json_value(fp, &t)) < 0)
		goto out;
	fputs(",\"rows\":", fp);
	if ((ret = prof_report_json_value(fp, rows)) < 0)
		goto out;
	fputs("}\n", fp);
	ret = ferror(fp) ? -EIO : 0;
out:
	core_table_release(&t);
	return ret;
}

int prof_compare_write(FILE *fp, const struct prof_report *a, const struct prof_report *b,
		       enum core_format f)
{
	static const struct core_col base[C_NCOLS] = {
		{ .name = "process", .max_width = 40, .flags = CORE_COL_GROUP },
		{ .name = "operation", .max_width = 48, .flags = CORE_COL_GROUP },
		{ .name = "resource" },
		{ .name = "category" },
		{ .name = "time_us", .type = CORE_COL_DURATION, .unit = "us", .decimals = 3, .title = "this" },
		{ .name = "percent", .type = CORE_COL_FLOAT, .decimals = 2, .title = "%" },
		{ .name = "other_time_us", .type = CORE_COL_DURATION, .unit = "us", .decimals = 3,
		  .title = "other" },
		{ .name = "other_percent", .type = CORE_COL_FLOAT, .decimals = 2, .title = "%" },
		{ .name = "ratio", .type = CORE_COL_FLOAT, .decimals = 3 },
	};
	struct core_col cols[C_NCOLS];
	struct core_table t;
	struct prof_cmp c;
	size_t i;
	int s, ret = -ENOMEM;

	if (prof_cmp_build(&c, a, b) < 0)
		return -ENOMEM;
	memcpy(cols, base, sizeof(base));
	if (a->by == PROF_BY_PHASE && f == CORE_FORMAT_TABLE)
		cols[C_KEY].title = "phase";
	core_table_init(&t, cols, C_NCOLS, 0);
	if (f == CORE_FORMAT_TABLE) {
		char head[1024];

		snprintf(head, sizeof(head), "this: %.500s, other: %.500s", a->trace ? a->trace : "",
			 b->trace ? b->trace : "");
		if (core_table_section(&t, head) < 0)
			goto out;
	}
	for (i = 0; i < c.n; i++) {
		const struct prof_cmp_row *r = &c.rows[i];

		for (s = 0; s < PROF_SLOT_COUNT; s++) {
			if (!r->ns[0][s] && !r->ns[1][s])
				continue;
			if (add_row(&t, r->process, r->key, prof_slot_resource(s), prof_slot_category(s),
				    r->ns[0][s], r->ns[1][s], c.wall[0], c.wall[1]) < 0)
				goto out;
		}
	}
	if (add_row(&t, NULL, "[total]", NULL, NULL, c.wall[0], c.wall[1], c.wall[0], c.wall[1]) < 0)
		goto out;
	ret = f == CORE_FORMAT_JSON ? write_json(fp, &t, a, b, &c) : core_table_write(fp, &t, f);
out:
	core_table_release(&t);
	prof_cmp_release(&c);
	return ret;
}
