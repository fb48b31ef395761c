#include "prof/report_compare.h"
#include "core/csv.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

struct crow {
	const char *key;
	int64_t total[2];
	prof_slots ns[2];
};

struct cmp {
	struct crow *rows;
	size_t n;
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
			struct crow *n = realloc(c->rows, (c->n + 1) * sizeof(*n));

			if (!n)
				return -ENOMEM;
			c->rows = n;
			r = &n[c->n++];
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

static void ratio(char *buf, size_t size, int64_t a, int64_t b)
{
	if (a)
		snprintf(buf, size, "%.3f", (double)b / (double)a);
	else
		buf[0] = '\0';
}

int prof_compare_csv(FILE *fp, const struct prof_report *a, const struct prof_report *b)
{
	struct cmp c;
	size_t i;
	int s;
	char t0[32], t1[32], rt[32];

	if (build(&c, a, b) < 0)
		return -ENOMEM;
	fputs("operation,resource,category,time_us,percent,other_time_us,other_percent,ratio\n", fp);
	for (i = 0; i < c.n; i++) {
		const struct crow *r = &c.rows[i];

		for (s = 0; s < PROF_SLOT_COUNT; s++) {
			if (!r->ns[0][s] && !r->ns[1][s])
				continue;
			core_csv_write_field(fp, r->key, strlen(r->key));
			prof_report_us(t0, sizeof(t0), r->ns[0][s]);
			prof_report_us(t1, sizeof(t1), r->ns[1][s]);
			ratio(rt, sizeof(rt), r->ns[0][s], r->ns[1][s]);
			fprintf(fp, ",%s,%s,%s,%.2f,%s,%.2f,%s\n", prof_slot_resource(s),
				prof_slot_category(s), t0, pct(r->ns[0][s], c.wall[0]), t1,
				pct(r->ns[1][s], c.wall[1]), rt);
		}
	}
	prof_report_us(t0, sizeof(t0), c.wall[0]);
	prof_report_us(t1, sizeof(t1), c.wall[1]);
	ratio(rt, sizeof(rt), c.wall[0], c.wall[1]);
	fprintf(fp, "[total],,,%s,100.00,%s,100.00,%s\n", t0, t1, rt);
	free(c.rows);
	return ferror(fp) ? -EIO : 0;
}

int prof_compare_table(FILE *fp, const struct prof_report *a, const struct prof_report *b)
{
	const char *head = a->by == PROF_BY_PHASE ? "phase" : "operation";
	struct cmp c;
	size_t i;
	int s, kw = (int)strlen(head);
	char t0[32], t1[32], rt[32];

	if (build(&c, a, b) < 0)
		return -ENOMEM;
	for (i = 0; i < c.n; i++)
		if ((int)strlen(c.rows[i].key) > kw)
			kw = (int)strlen(c.rows[i].key);
	if (kw > 48)
		kw = 48;
	fprintf(fp, "this:  %s\nother: %s\n\n", a->trace ? a->trace : "", b->trace ? b->trace : "");
	fprintf(fp, "  %-*s  resource  category         this       %%       other       %%   ratio\n",
		kw, head);
	for (i = 0; i < c.n; i++) {
		const struct crow *r = &c.rows[i];
		int first = 1;

		for (s = 0; s < PROF_SLOT_COUNT; s++) {
			if (!r->ns[0][s] && !r->ns[1][s])
				continue;
			prof_report_human(t0, sizeof(t0), r->ns[0][s]);
			prof_report_human(t1, sizeof(t1), r->ns[1][s]);
			ratio(rt, sizeof(rt), r->ns[0][s], r->ns[1][s]);
			fprintf(fp, "  %-*.*s  %-8s  %-9s  %10s  %6.2f  %10s  %6.2f  %6s\n", kw, kw,
				first ? r->key : "", prof_slot_resource(s), prof_slot_category(s),
				t0, pct(r->ns[0][s], c.wall[0]), t1, pct(r->ns[1][s], c.wall[1]), rt);
			first = 0;
		}
	}
	prof_report_human(t0, sizeof(t0), c.wall[0]);
	prof_report_human(t1, sizeof(t1), c.wall[1]);
	ratio(rt, sizeof(rt), c.wall[0], c.wall[1]);
	fprintf(fp, "  %-*s  %-8s  %-9s  %10s  %6.2f  %10s  %6.2f  %6s\n", kw, "total", "", "",
		t0, 100.0, t1, 100.0, rt);
	free(c.rows);
	return ferror(fp) ? -EIO : 0;
}

int prof_compare_json(FILE *fp, const struct prof_report *a, const struct prof_report *b)
{
	struct cmp c;
	size_t i;
	int s, first = 1;
	char t0[32], t1[32], rt[32];

	if (build(&c, a, b) < 0)
		return -ENOMEM;
	prof_report_us(t0, sizeof(t0), c.wall[0]);
	prof_report_us(t1, sizeof(t1), c.wall[1]);
	ratio(rt, sizeof(rt), c.wall[0], c.wall[1]);
	fputs("{\"this\":", fp);
	prof_report_json_str(fp, a->trace ? a->trace : "");
	fputs(",\"other\":", fp);
	prof_report_json_str(fp, b->trace ? b->trace : "");
	fprintf(fp, ",\"by\":\"%s\",\"wall_us\":%s,\"other_wall_us\":%s,\"ratio\":%s,\"rows\":[",
		prof_report_by_name(a->by), t0, t1, *rt ? rt : "null");
	for (i = 0; i < c.n; i++) {
		const struct crow *r = &c.rows[i];

		for (s = 0; s < PROF_SLOT_COUNT; s++) {
			if (!r->ns[0][s] && !r->ns[1][s])
				continue;
			prof_report_us(t0, sizeof(t0), r->ns[0][s]);
			prof_report_us(t1, sizeof(t1), r->ns[1][s]);
			ratio(rt, sizeof(rt), r->ns[0][s], r->ns[1][s]);
			fprintf(fp, "%s{\"%s\":", first ? "" : ",",
				a->by == PROF_BY_PHASE ? "phase" : "operation");
			prof_report_json_str(fp, r->key);
			fprintf(fp, ",\"resource\":\"%s\",\"category\":\"%s\",\"time_us\":%s,"
				"\"percent\":%.2f,\"other_time_us\":%s,\"other_percent\":%.2f,"
				"\"ratio\":%s}", prof_slot_resource(s), prof_slot_category(s), t0,
				pct(r->ns[0][s], c.wall[0]), t1, pct(r->ns[1][s], c.wall[1]),
				*rt ? rt : "null");
			first = 0;
		}
	}
	fputs("]}\n", fp);
	free(c.rows);
	return ferror(fp) ? -EIO : 0;
}
