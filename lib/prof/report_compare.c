#include "prof/report_compare.h"
#include "core/grow.h"
#include "core/utf8.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

struct crow {
	const char *key;
	int64_t total[2];
	prof_slots ns[2];
};

struct cmp {
	struct crow *rows;
	size_t n, cap;
	int64_t wall[2];
};

static struct crow *find(struct cmp *c, const char *key)
{
	size_t i;

	for (i = 0; i < c->n; i++)
		if (!strcmp(c->rows[i].key, key))
			return &c->rows[i];
	return NULL;
}

static int add(struct cmp *c, const struct prof_report *rep, int side)
{
	size_t i;
	int s;

	for (i = 0; i < rep->ngroups; i++) {
		const struct prof_report_group *g = &rep->groups[i];
		struct crow *r = find(c, g->key);

		if (!r) {
			if (CORE_GROW(c->rows, c->cap, c->n + 1) < 0)
				return -ENOMEM;
			r = &c->rows[c->n++];
			memset(r, 0, sizeof(*r));
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
	const struct crow *a = pa, *b = pb;

	if (a->total[0] != b->total[0])
		return a->total[0] > b->total[0] ? -1 : 1;
	if (a->total[1] != b->total[1])
		return a->total[1] > b->total[1] ? -1 : 1;
	return strcmp(a->key, b->key);
}

static int build(struct cmp *c, const struct prof_report *a, const struct prof_report *b)
{
	memset(c, 0, sizeof(*c));
	if (add(c, a, 0) < 0 || add(c, b, 1) < 0) {
		free(c->rows);
		return -ENOMEM;
	}
	qsort(c->rows, c->n, sizeof(*c->rows), row_cmp);
	return 0;
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

enum { C_KEY, C_RESOURCE, C_CATEGORY, C_TIME, C_PERCENT, C_OTIME, C_OPERCENT, C_RATIO };

static int add_row(struct core_table *t, const char *key, const char *resource,
		   const char *category, int64_t ns0, int64_t ns1, int64_t wall0, int64_t wall1)
{
	if (core_table_add_row(t, 0) < 0 || core_table_set_str(t, C_KEY, key) < 0 ||
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

static int compare_json(FILE *fp, const struct prof_report *a, const struct prof_report *b);

int prof_compare_write(FILE *fp, const struct prof_report *a, const struct prof_report *b,
		       enum core_format f)
{
	static const struct core_col base[] = {
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
	struct core_col cols[8];
	struct core_table t;
	struct cmp c;
	size_t i;
	int s, ret = -ENOMEM;

	if (f == CORE_FORMAT_JSON)
		return compare_json(fp, a, b);
	if (build(&c, a, b) < 0)
		return -ENOMEM;
	memcpy(cols, base, sizeof(base));
	if (a->by == PROF_BY_PHASE && f == CORE_FORMAT_TABLE)
		cols[C_KEY].title = "phase";
	core_table_init(&t, cols, 8, 0);
	if (f == CORE_FORMAT_TABLE) {
		char head[1024];

		snprintf(head, sizeof(head), "this: %.500s, other: %.500s", a->trace ? a->trace : "",
			 b->trace ? b->trace : "");
		if (core_table_section(&t, head) < 0)
			goto out;
	}
	for (i = 0; i < c.n; i++) {
		const struct crow *r = &c.rows[i];

		for (s = 0; s < PROF_SLOT_COUNT; s++) {
			if (!r->ns[0][s] && !r->ns[1][s])
				continue;
			if (add_row(&t, r->key, prof_slot_resource(s), prof_slot_category(s),
				    r->ns[0][s], r->ns[1][s], c.wall[0], c.wall[1]) < 0)
				goto out;
		}
	}
	if (add_row(&t, "[total]", NULL, NULL, c.wall[0], c.wall[1], c.wall[0], c.wall[1]) < 0)
		goto out;
	ret = core_table_write(fp, &t, f);
out:
	core_table_release(&t);
	free(c.rows);
	return ret;
}

static void json_str(FILE *fp, const char *s)
{
	core_utf8_write_json(fp, s, strlen(s));
}

static void json_ratio(FILE *fp, int64_t a, int64_t b)
{
	if (a)
		fprintf(fp, "%.3f", ratio(a, b));
	else
		fputs("null", fp);
}

static int compare_json(FILE *fp, const struct prof_report *a, const struct prof_report *b)
{
	struct cmp c;
	size_t i;
	int s, first = 1;
	char t0[32], t1[32];

	if (build(&c, a, b) < 0)
		return -ENOMEM;
	core_fmt_duration(t0, sizeof(t0), c.wall[0], "us", 3);
	core_fmt_duration(t1, sizeof(t1), c.wall[1], "us", 3);
	fputs("{\"this\":", fp);
	json_str(fp, a->trace ? a->trace : "");
	fputs(",\"other\":", fp);
	json_str(fp, b->trace ? b->trace : "");
	fprintf(fp, ",\"by\":\"%s\",\"wall_us\":%s,\"other_wall_us\":%s,\"ratio\":",
		prof_report_by_name(a->by), t0, t1);
	json_ratio(fp, c.wall[0], c.wall[1]);
	fputs(",\"rows\":[", fp);
	for (i = 0; i < c.n; i++) {
		const struct crow *r = &c.rows[i];

		for (s = 0; s < PROF_SLOT_COUNT; s++) {
			if (!r->ns[0][s] && !r->ns[1][s])
				continue;
			core_fmt_duration(t0, sizeof(t0), r->ns[0][s], "us", 3);
			core_fmt_duration(t1, sizeof(t1), r->ns[1][s], "us", 3);
			fprintf(fp, "%s{\"%s\":", first ? "" : ",",
				a->by == PROF_BY_PHASE ? "phase" : "operation");
			json_str(fp, r->key);
			fprintf(fp, ",\"resource\":\"%s\",\"category\":\"%s\",\"time_us\":%s,"
				"\"percent\":%.2f,\"other_time_us\":%s,\"other_percent\":%.2f,"
				"\"ratio\":", prof_slot_resource(s), prof_slot_category(s), t0,
				pct(r->ns[0][s], c.wall[0]), t1, pct(r->ns[1][s], c.wall[1]));
			json_ratio(fp, r->ns[0][s], r->ns[1][s]);
			fputs("}", fp);
			first = 0;
		}
	}
	fputs("]}\n", fp);
	free(c.rows);
	return ferror(fp) ? -EIO : 0;
}
