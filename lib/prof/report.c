#include "prof/report.h"
#include "core/grow.h"
#include "core/table.h"
#include "core/utf8.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

static const char *const by_names[] = { "operation", "category", "process", "phase" };

const char *prof_report_by_name(enum prof_report_by by)
{
	return (unsigned)by < 4 ? by_names[by] : "";
}

int prof_report_by_parse(const char *s)
{
	int i;

	for (i = 0; i < 4; i++)
		if (!strcmp(s, by_names[i]))
			return i;
	return -1;
}

static int group_cmp(const void *pa, const void *pb)
{
	const struct prof_report_group *a = pa, *b = pb;

	if (a->total != b->total)
		return a->total > b->total ? -1 : 1;
	return strcmp(a->key, b->key);
}

static struct prof_report_group *add_group(struct prof_report *rep, size_t *cap)
{
	struct prof_report_group *g;

	if (CORE_GROW(rep->groups, *cap, rep->ngroups + 1) < 0)
		return NULL;
	g = &rep->groups[rep->ngroups++];
	memset(g, 0, sizeof(*g));
	return g;
}

static void sum_slots(struct prof_report_group *g, const int64_t *ns)
{
	int s;

	for (s = 0; s < PROF_SLOT_COUNT; s++) {
		g->ns[s] += ns[s];
		g->total += ns[s];
	}
}

int prof_report_build(struct prof_report *rep, const struct prof_breakdown *bd,
		      enum prof_report_by by)
{
	struct prof_report_group *g, *all = NULL;
	size_t cap = 0, i, k;

	memset(rep, 0, sizeof(*rep));
	rep->bd = bd;
	rep->by = by;
	for (i = 0; i < bd->nprocs; i++) {
		const struct prof_bd_process *p = &bd->procs[i];
		size_t first = rep->ngroups;

		if (by == PROF_BY_CATEGORY || by == PROF_BY_PROCESS) {
			if (by == PROF_BY_CATEGORY && all) {
				g = all;
			} else {
				if (!(g = add_group(rep, &cap)))
					return -ENOMEM;
				g->pid = by == PROF_BY_CATEGORY ? -1 : p->pid;
				g->process = by == PROF_BY_CATEGORY ? "" : p->name;
				g->key = "[all]";
				if (by == PROF_BY_CATEGORY)
					all = g;
			}
			g->wall += p->wall;
			for (k = 0; k < p->nkeys; k++) {
				sum_slots(g, p->op[k]);
				g->calls += p->calls[k];
			}
			continue;
		}
		for (k = 0; k < p->nkeys; k++) {
			const int64_t *ns = by == PROF_BY_PHASE ? p->phase[k] : p->op[k];
			int s, any = 0;

			for (s = 0; s < PROF_SLOT_COUNT; s++)
				any |= ns[s] != 0;
			if (!any)
				continue;
			if (!(g = add_group(rep, &cap)))
				return -ENOMEM;
			g->pid = p->pid;
			g->process = p->name;
			g->key = bd->keys[k];
			g->wall = p->wall;
			g->calls = by == PROF_BY_PHASE ? 0 : p->calls[k];
			sum_slots(g, ns);
		}
		qsort(rep->groups + first, rep->ngroups - first, sizeof(*rep->groups), group_cmp);
	}
	return 0;
}

void prof_report_release(struct prof_report *rep)
{
	free(rep->groups);
	rep->groups = NULL;
	rep->ngroups = 0;
}

int prof_report_parse_duration(const char *s, int64_t *ns)
{
	static const struct { const char *unit; double scale; } units[] = {
		{ "ns", 1 }, { "us", 1e3 }, { "ms", 1e6 }, { "s", 1e9 }, { "", 1e9 },
	};
	char *end;
	double v;
	size_t i;

	if (!*s || *s == '-' || *s == ' ' || *s == '+')
		return -EINVAL;
	errno = 0;
	v = strtod(s, &end);
	if (errno || end == s || v < 0)
		return -EINVAL;
	for (i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		if (strcmp(end, units[i].unit))
			continue;
		v *= units[i].scale;
		if (!(v < 9.2e18))
			return -EINVAL;
		*ns = (int64_t)(v + 0.5);
		return 0;
	}
	return -EINVAL;
}

static double percent(int64_t ns, int64_t wall)
{
	return wall > 0 ? 100.0 * (double)ns / (double)wall : 0.0;
}

static void json_str(FILE *fp, const char *s)
{
	core_utf8_write_json(fp, s, strlen(s));
}

static void us(char *buf, size_t size, int64_t ns)
{
	core_fmt_duration(buf, size, ns, "us", 3);
}

enum { C_PROCESS, C_KEY, C_RESOURCE, C_CATEGORY, C_TIME, C_PERCENT };

/*
 * The rows of the CSV, JSON Lines and table formats: a section per
 * process in the table, with a total line.
 */
static int build_table(struct core_table *t, struct core_col *cols, const struct prof_report *rep)
{
	static const struct core_col base[] = {
		{ .name = "process", .flags = CORE_COL_NO_TABLE },
		{ .name = "operation", .max_width = 48, .flags = CORE_COL_GROUP },
		{ .name = "resource" },
		{ .name = "category" },
		{ .name = "time_us", .type = CORE_COL_DURATION, .unit = "us", .decimals = 3,
		  .title = "time" },
		{ .name = "percent", .type = CORE_COL_FLOAT, .decimals = 2, .title = "%" },
	};
	size_t i, j;
	int s;

	memcpy(cols, base, sizeof(base));
	if (rep->by == PROF_BY_PHASE)
		cols[C_KEY].title = "phase";
	core_table_init(t, cols, 6, 0);
	for (i = 0; i < rep->ngroups; i = j) {
		const struct prof_report_group *g = &rep->groups[i];
		char head[512], wall[32], pid[32];
		int64_t total = 0;

		core_fmt_human_ns(wall, sizeof(wall), g->wall);
		if (g->pid < 0)
			snprintf(head, sizeof(head), "all processes: %s profiled", wall);
		else
			snprintf(head, sizeof(head), "process %" PRId64 "%s%.400s%s: %s profiled", g->pid,
				 *g->process ? " (" : "", g->process, *g->process ? ")" : "", wall);
		if (g->pid < 0)
			strcpy(pid, "all");
		else
			snprintf(pid, sizeof(pid), "%" PRId64, g->pid);
		if (core_table_section(t, head) < 0)
			return -ENOMEM;
		for (j = i; j < rep->ngroups && rep->groups[j].pid == g->pid; j++) {
			const struct prof_report_group *h = &rep->groups[j];

			for (s = 0; s < PROF_SLOT_COUNT; s++) {
				if (!h->ns[s])
					continue;
				if (core_table_add_row(t, 0) < 0 ||
				    core_table_set_str(t, C_PROCESS, pid) < 0 ||
				    core_table_set_str(t, C_KEY, h->key) < 0 ||
				    core_table_set_str(t, C_RESOURCE, prof_slot_resource(s)) < 0 ||
				    core_table_set_str(t, C_CATEGORY, prof_slot_category(s)) < 0)
					return -ENOMEM;
				core_table_set_ns(t, C_TIME, h->ns[s]);
				core_table_set_float(t, C_PERCENT, percent(h->ns[s], h->wall));
			}
			total += h->total;
		}
		if (core_table_add_row(t, CORE_ROW_TABLE_ONLY) < 0 ||
		    core_table_set_str(t, C_KEY, "total") < 0)
			return -ENOMEM;
		core_table_set_ns(t, C_TIME, total);
		core_table_set_float(t, C_PERCENT, percent(total, g->wall));
	}
	return 0;
}

int prof_report_rows(FILE *fp, const struct prof_report *rep, enum core_format f)
{
	struct core_col cols[6];
	struct core_table t;
	int ret = build_table(&t, cols, rep);

	if (ret == 0)
		ret = core_table_write(fp, &t, f);
	core_table_release(&t);
	return ret;
}

int prof_report_csv(FILE *fp, const struct prof_report *rep)
{
	return prof_report_rows(fp, rep, CORE_FORMAT_CSV);
}

static void table_gpus(FILE *fp, const struct prof_breakdown *bd)
{
	size_t i;

	for (i = 0; i < bd->ngpus; i++) {
		const struct prof_gpu_util *g = &bd->gpus[i];
		double busy = percent(g->busy, g->span);
		double s0 = g->windows[0] ? 100.0 * (double)g->active[0] / (double)g->windows[0] : 0;
		double s1 = g->windows[1] ? 100.0 * (double)g->active[1] / (double)g->windows[1] : 0;
		char span[32], b[32];

		core_fmt_human_ns(span, sizeof(span), g->span);
		core_fmt_human_ns(b, sizeof(b), g->busy);
		if (g->device >= 0)
			fprintf(fp, "\nGPU %d utilisation over %s:\n", g->device, span);
		else
			fprintf(fp, "\nGPU utilisation over %s:\n", span);
		fprintf(fp, "  busy (kernels, copies, sets)   %6.2f %%  (%s)\n", busy, b);
		fprintf(fp, "  nvidia-smi, 1/6 s windows      %6.2f %%  (%.2fx the busy time)\n",
			s0, busy > 0 ? s0 / busy : 0.0);
		fprintf(fp, "  nvidia-smi, 1 s windows        %6.2f %%  (%.2fx the busy time)\n",
			s1, busy > 0 ? s1 / busy : 0.0);
	}
}

int prof_report_table(FILE *fp, const struct prof_report *rep)
{
	int ret = 0;

	if (rep->ngroups)
		ret = prof_report_rows(fp, rep, CORE_FORMAT_TABLE);
	else
		fputs("no profiled time\n", fp);
	if (ret < 0)
		return ret;
	table_gpus(fp, rep->bd);
	return ferror(fp) ? -EIO : 0;
}

static void json_gpus(FILE *fp, const struct prof_breakdown *bd)
{
	size_t i;

	fputs("\"gpus\":[", fp);
	for (i = 0; i < bd->ngpus; i++) {
		const struct prof_gpu_util *g = &bd->gpus[i];
		char busy[32], span[32];

		us(busy, sizeof(busy), g->busy);
		us(span, sizeof(span), g->span);
		fprintf(fp, "%s{\"device\":", i ? "," : "");
		if (g->device >= 0)
			fprintf(fp, "%d", g->device);
		else
			fputs("null", fp);
		fprintf(fp, ",\"span_us\":%s,\"busy_us\":%s,\"busy_fraction\":%.6f,"
			"\"smi_windows_1_6s\":%" PRIu64 ",\"smi_active_1_6s\":%" PRIu64
			",\"smi_fraction_1_6s\":%.6f,\"smi_windows_1s\":%" PRIu64
			",\"smi_active_1s\":%" PRIu64 ",\"smi_fraction_1s\":%.6f}",
			span, busy, g->span > 0 ? (double)g->busy / (double)g->span : 0.0,
			g->windows[0], g->active[0],
			g->windows[0] ? (double)g->active[0] / (double)g->windows[0] : 0.0,
			g->windows[1], g->active[1],
			g->windows[1] ? (double)g->active[1] / (double)g->windows[1] : 0.0);
	}
	fputs("]", fp);
}

static void json_problems(FILE *fp, const struct prof_problems *pb)
{
	static const char *const keys[PROF_PROB_COUNT] = {
		"malformed", "unknown_kind", "end_before_start", "unmatched", "truncated",
	};
	int i;

	fputs("\"problems\":{", fp);
	for (i = 0; i < PROF_PROB_COUNT; i++)
		fprintf(fp, "%s\"%s\":%" PRIu64, i ? "," : "", keys[i], pb ? pb->count[i] : 0);
	fprintf(fp, ",\"recorder_warnings\":%" PRIu64 "}", pb ? pb->recorder_warnings : 0);
}

int prof_report_json(FILE *fp, const struct prof_report *rep)
{
	size_t i, j;
	int s;

	fprintf(fp, "{\"by\":\"%s\",\"processes\":[", prof_report_by_name(rep->by));
	for (i = 0; i < rep->ngroups; i = j) {
		const struct prof_report_group *g = &rep->groups[i];
		char t[32];

		us(t, sizeof(t), g->wall);
		fprintf(fp, "%s{\"pid\":", i ? "," : "");
		if (g->pid < 0)
			fputs("null", fp);
		else
			fprintf(fp, "%" PRId64, g->pid);
		fputs(",\"name\":", fp);
		json_str(fp, g->process);
		fprintf(fp, ",\"wall_us\":%s,\"groups\":[", t);
		for (j = i; j < rep->ngroups && rep->groups[j].pid == g->pid; j++) {
			const struct prof_report_group *h = &rep->groups[j];
			int first = 1;

			us(t, sizeof(t), h->total);
			fprintf(fp, "%s{\"%s\":", j > i ? "," : "",
				rep->by == PROF_BY_PHASE ? "phase" : "operation");
			json_str(fp, h->key);
			fprintf(fp, ",\"calls\":%" PRIu64 ",\"time_us\":%s,\"percent\":%.2f,\"rows\":[",
				h->calls, t, percent(h->total, h->wall));
			for (s = 0; s < PROF_SLOT_COUNT; s++) {
				if (!h->ns[s])
					continue;
				us(t, sizeof(t), h->ns[s]);
				fprintf(fp, "%s{\"resource\":\"%s\",\"category\":\"%s\",\"time_us\":%s,"
					"\"percent\":%.2f}", first ? "" : ",", prof_slot_resource(s),
					prof_slot_category(s), t, percent(h->ns[s], h->wall));
				first = 0;
			}
			fputs("]}", fp);
		}
		fputs("]}", fp);
	}
	fputs("],", fp);
	json_gpus(fp, rep->bd);
	fputs(",", fp);
	json_problems(fp, rep->problems);
	fputs("}\n", fp);
	return ferror(fp) ? -EIO : 0;
}
