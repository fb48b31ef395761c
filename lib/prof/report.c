#include "prof/calib.h"
#include "prof/report.h"
#include "core/grow.h"
#include "core/table.h"
#include "prof/report_procs.h"

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

static int op_stats(struct prof_report_group *g, const struct prof_bd_process *p, size_t k)
{
	struct prof_hist h = PROF_HIST_INIT;

	if (prof_breakdown_op_calls(p, k, &h, &g->inclusive) < 0) {
		prof_hist_release(&h);
		return -ENOMEM;
	}
	g->has_calls = 1;
	g->calls = h.calls;
	g->mean = h.calls ? (h.sum + (int64_t)(h.calls / 2)) / (int64_t)h.calls : 0;
	g->p50 = prof_hist_percentile(&h, 50);
	g->p95 = prof_hist_percentile(&h, 95);
	g->max = h.max;
	prof_hist_release(&h);
	return 0;
}

/* Statistics of two processes' calls of one operation together: sums,
 * the larger maximum, the percentiles of the one with more calls. */
static void stats_join(struct prof_report_group *g, const struct prof_report_group *o)
{
	uint64_t n = g->calls + o->calls;

	if (n)
		g->mean = (int64_t)(((double)g->mean * (double)g->calls +
				     (double)o->mean * (double)o->calls) / (double)n + 0.5);
	if (o->calls > g->calls) {
		g->p50 = o->p50;
		g->p95 = o->p95;
	}
	if (o->max > g->max)
		g->max = o->max;
	g->calls = n;
	g->inclusive += o->inclusive;
}

/* The group of `key` among groups[first..]: found or added. */
static struct prof_report_group *group_of(struct prof_report *rep, size_t *cap, size_t first,
					  const char *key, int *added)
{
	size_t i;

	*added = 0;
	for (i = first; i < rep->ngroups; i++)
		if (rep->groups[i].key == key)
			return &rep->groups[i];
	*added = 1;
	return add_group(rep, cap);
}

/* The groups of bd->procs[i] (operations or phases) into the section at first. */
static int proc_groups(struct prof_report *rep, size_t *cap, size_t first,
		       const struct prof_bd_process *p, const struct prof_report_group *like)
{
	const struct prof_breakdown *bd = rep->bd;
	enum prof_report_by by = rep->by;
	struct prof_report_group *g, one;
	size_t k;
	int added;

	for (k = 0; k < p->nkeys; k++) {
		const int64_t *ns = by == PROF_BY_PHASE ? p->phase[k] : p->op[k];
		int s, any = 0;

		for (s = 0; s < PROF_SLOT_COUNT; s++)
			any |= ns[s] != 0;
		/* An operation whose children own all its time still shows. */
		if (!any && (by == PROF_BY_PHASE || !p->calls[k]))
			continue;
		if (!(g = group_of(rep, cap, first, bd->keys[k], &added)))
			return -ENOMEM;
		if (added) {
			*g = *like;
			g->key = bd->keys[k];
		}
		sum_slots(g, ns);
		if (by != PROF_BY_OPERATION || k == PROF_KEY_UNANNOTATED)
			continue;
		memset(&one, 0, sizeof(one));
		if (op_stats(&one, p, k) < 0)
			return -ENOMEM;
		if (added)
			g->has_calls = 1;
		stats_join(g, &one);
	}
	return 0;
}

int prof_report_build_procs(struct prof_report *rep, const struct prof_breakdown *bd,
			    enum prof_report_by by, int all)
{
	struct prof_proc_plan pl = PROF_PROC_PLAN_INIT;
	struct prof_report_group *g, like;
	size_t cap = 0, d, i, k;
	int ret = -ENOMEM;

	memset(rep, 0, sizeof(*rep));
	rep->bd = bd;
	rep->by = by;
	if (by == PROF_BY_CATEGORY) {
		if (!bd->nprocs)
			return 0;
		if (!(g = add_group(rep, &cap)))
			return -ENOMEM;
		g->pid = -1;
		g->parent = -1;
		g->process = "";
		g->key = "[all]";
		for (i = 0; i < bd->nprocs; i++) {
			g->wall += bd->procs[i].wall;
			for (k = 0; k < bd->procs[i].nkeys; k++)
				sum_slots(g, bd->procs[i].op[k]);
		}
		return 0;
	}
	if (prof_proc_plan_make(&pl, bd, all) < 0)
		return -ENOMEM;
	/* The processes shown, in tree order, then the processes summed. */
	for (d = 0; d <= pl.n; d++) {
		size_t first = rep->ngroups;

		if (d == pl.n && !pl.nothers)
			break;
		memset(&like, 0, sizeof(like));
		if (d < pl.n) {
			const struct prof_bd_process *p = &bd->procs[pl.order[d]];

			like.pid = p->pid;
			like.parent = pl.parent[d];
			like.process = p->name;
		} else {
			snprintf(rep->others, sizeof(rep->others), "%zu process%s under 1%% each",
				 pl.nothers, pl.nothers > 1 ? "es" : "");
			like.pid = PROF_PID_OTHERS;
			like.parent = -1;
			like.process = rep->others;
		}
		like.depth = d < pl.n ? (int)pl.depth[d] : 0;
		for (i = 0; i < bd->nprocs; i++)
			if (pl.into[i] == d)
				like.wall += bd->procs[i].wall;
		if (by == PROF_BY_PROCESS) {
			if (!(g = add_group(rep, &cap)))
				goto out;
			*g = like;
			g->key = "[all]";
		}
		for (i = 0; i < bd->nprocs; i++) {
			if (pl.into[i] != d)
				continue;
			if (by == PROF_BY_PROCESS) {
				g = &rep->groups[first];
				for (k = 0; k < bd->procs[i].nkeys; k++)
					sum_slots(g, bd->procs[i].op[k]);
			} else if (proc_groups(rep, &cap, first, &bd->procs[i], &like) < 0) {
				goto out;
			}
		}
		if (rep->ngroups > first)
			qsort(rep->groups + first, rep->ngroups - first, sizeof(*rep->groups), group_cmp);
	}
	ret = 0;
out:
	prof_proc_plan_release(&pl);
	return ret;
}

int prof_report_build(struct prof_report *rep, const struct prof_breakdown *bd,
		      enum prof_report_by by)
{
	return prof_report_build_procs(rep, bd, by, 1);
}

void prof_report_release(struct prof_report *rep)
{
	free(rep->groups);
	rep->groups = NULL;
	rep->ngroups = 0;
}

int prof_report_name_matches(const char *command, const char *name)
{
	size_t n = strlen(name);
	const char *w = command, *e, *b;

	if (!strcmp(command, name))
		return 1;
	while (*w) {
		while (*w == ' ')
			w++;
		for (e = w; *e && *e != ' '; e++)
			;
		for (b = e; b > w && b[-1] != '/'; b--)
			;
		if ((size_t)(e - b) == n && n && !memcmp(b, name, n))
			return 1;
		w = e;
	}
	return 0;
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

enum {
	C_PROCESS, C_KEY, C_RESOURCE, C_CATEGORY, C_TIME, C_PERCENT,
	C_CALLS, C_EXCL, C_INCL, C_MEAN, C_P50, C_P95, C_MAX, C_NCOLS
};

static const struct core_col row_cols[C_NCOLS] = {
	{ .name = "process", .flags = CORE_COL_NO_TABLE },
	{ .name = "operation", .max_width = 48, .flags = CORE_COL_GROUP },
	{ .name = "resource" },
	{ .name = "category" },
	{ .name = "time_us", .type = CORE_COL_DURATION, .unit = "us", .decimals = 3, .title = "time" },
	{ .name = "percent", .type = CORE_COL_FLOAT, .decimals = 2, .title = "%" },
	PROF_CALL_STAT_COLS,
};

/* The process column: the pid, "all", or "other" (processes summed). */
static void pid_text(char *buf, size_t size, int64_t pid)
{
	if (pid == PROF_PID_OTHERS)
		snprintf(buf, size, "other");
	else if (pid < 0)
		snprintf(buf, size, "all");
	else
		snprintf(buf, size, "%" PRId64, pid);
}

void prof_report_heading(char *buf, size_t size, const struct prof_report_group *g)
{
	char wall[32];

	core_fmt_human_ns(wall, sizeof(wall), g->wall);
	if (g->pid == PROF_PID_OTHERS)
		snprintf(buf, size, "%.400s: %s profiled", g->process, wall);
	else if (g->pid < 0)
		snprintf(buf, size, "all processes: %s profiled", wall);
	else if (g->depth > 0 && g->parent >= 0)
		snprintf(buf, size, "%*sprocess %" PRId64 "%s%.400s%s, child of %" PRId64 ": %s profiled",
			 2 * (g->depth < 8 ? g->depth : 8), "", g->pid, *g->process ? " (" : "",
			 g->process, *g->process ? ")" : "", g->parent, wall);
	else
		snprintf(buf, size, "process %" PRId64 "%s%.400s%s: %s profiled", g->pid,
			 *g->process ? " (" : "", g->process, *g->process ? ")" : "", wall);
}

/* The statistics of g in the last row of t. */
static void set_stats(struct core_table *t, const struct prof_report_group *g)
{
	core_table_set_ns(t, C_EXCL, g->total);
	if (!g->has_calls)
		return;
	core_table_set_int(t, C_CALLS, (int64_t)g->calls);
	core_table_set_ns(t, C_INCL, g->inclusive);
	if (!g->calls)
		return;
	core_table_set_ns(t, C_MEAN, g->mean);
	core_table_set_ns(t, C_P50, g->p50);
	core_table_set_ns(t, C_P95, g->p95);
	core_table_set_ns(t, C_MAX, g->max);
}

/*
 * The rows of every format: a row per (group, slot) with time, and the
 * group's statistics on each (in the table, on its first row only); a
 * section per process in the table, with a total line.
 */
static int build_table(struct core_table *t, struct core_col *cols, const struct prof_report *rep,
		       enum core_format f)
{
	size_t i, j;
	int s;

	memcpy(cols, row_cols, sizeof(row_cols));
	if (rep->by == PROF_BY_PHASE)
		cols[C_KEY].title = "phase";
	/* The table leaves out call statistics where there are none. */
	for (i = C_CALLS; i < C_NCOLS && rep->by != PROF_BY_OPERATION; i++)
		cols[i].flags |= CORE_COL_NO_TABLE;
	core_table_init(t, cols, C_NCOLS, 0);
	for (i = 0; i < rep->ngroups; i = j) {
		const struct prof_report_group *g = &rep->groups[i];
		char head[512], pid[32];
		int64_t total = 0;

		prof_report_heading(head, sizeof(head), g);
		pid_text(pid, sizeof(pid), g->pid);
		if (core_table_section(t, head) < 0)
			return -ENOMEM;
		for (j = i; j < rep->ngroups && rep->groups[j].pid == g->pid; j++) {
			const struct prof_report_group *h = &rep->groups[j];
			int first = 1;

			for (s = 0; s < PROF_SLOT_COUNT || first; s++) {
				/* A group without time has one row, with the statistics. */
				if (s < PROF_SLOT_COUNT && !h->ns[s])
					continue;
				if (core_table_add_row(t, 0) < 0 ||
				    core_table_set_str(t, C_PROCESS, pid) < 0 ||
				    core_table_set_str(t, C_KEY, h->key) < 0)
					return -ENOMEM;
				if (s < PROF_SLOT_COUNT &&
				    (core_table_set_str(t, C_RESOURCE, prof_slot_resource(s)) < 0 ||
				     core_table_set_str(t, C_CATEGORY, prof_slot_category(s)) < 0))
					return -ENOMEM;
				core_table_set_ns(t, C_TIME, s < PROF_SLOT_COUNT ? h->ns[s] : 0);
				core_table_set_float(t, C_PERCENT,
						     percent(s < PROF_SLOT_COUNT ? h->ns[s] : 0, h->wall));
				if (first || f != CORE_FORMAT_TABLE)
					set_stats(t, h);
				first = 0;
			}
			total += h->total;
		}
		if (core_table_add_row(t, CORE_ROW_TABLE_ONLY) < 0 ||
		    core_table_set_str(t, C_KEY, "total") < 0)
			return -ENOMEM;
		core_table_set_ns(t, C_TIME, total);
		core_table_set_float(t, C_PERCENT, percent(total, g->wall));
	}
	if (rep->fix && (f == CORE_FORMAT_CSV || f == CORE_FORMAT_JSONL)) {
		if (core_table_add_row(t, 0) < 0 || core_table_set_str(t, C_PROCESS, "all") < 0 ||
		    core_table_set_str(t, C_KEY, "[corrected]") < 0)
			return -ENOMEM;
		core_table_set_ns(t, C_TIME, rep->fix->removed_ns);
		core_table_set_float(t, C_PERCENT, percent(rep->fix->removed_ns, rep->fix->wall_ns));
	}
	return 0;
}

int prof_report_rows(FILE *fp, const struct prof_report *rep, enum core_format f)
{
	struct core_col cols[C_NCOLS];
	struct core_table t;
	int ret = build_table(&t, cols, rep, f);

	if (ret == 0)
		ret = core_table_write(fp, &t, f);
	core_table_release(&t);
	return ret;
}

int prof_report_csv(FILE *fp, const struct prof_report *rep)
{
	return prof_report_rows(fp, rep, CORE_FORMAT_CSV);
}

enum { G_DEVICE, G_SPAN, G_BUSY, G_BUSYF, G_W6, G_A6, G_F6, G_W1, G_A1, G_F1, G_NCOLS };

static double frac(uint64_t a, uint64_t b)
{
	return b ? (double)a / (double)b : 0.0;
}

/* GPU utilisation per device, a row each. */
static int gpu_table(struct core_table *t, const struct prof_breakdown *bd)
{
	static const struct core_col cols[G_NCOLS] = {
		{ .name = "device", .type = CORE_COL_INT },
		{ .name = "span_us", .type = CORE_COL_DURATION, .unit = "us", .decimals = 3 },
		{ .name = "busy_us", .type = CORE_COL_DURATION, .unit = "us", .decimals = 3 },
		{ .name = "busy_fraction", .type = CORE_COL_FLOAT, .decimals = 6 },
		{ .name = "smi_windows_1_6s", .type = CORE_COL_INT },
		{ .name = "smi_active_1_6s", .type = CORE_COL_INT },
		{ .name = "smi_fraction_1_6s", .type = CORE_COL_FLOAT, .decimals = 6 },
		{ .name = "smi_windows_1s", .type = CORE_COL_INT },
		{ .name = "smi_active_1s", .type = CORE_COL_INT },
		{ .name = "smi_fraction_1s", .type = CORE_COL_FLOAT, .decimals = 6 },
	};
	size_t i;

	core_table_init(t, cols, G_NCOLS, 0);
	for (i = 0; i < bd->ngpus; i++) {
		const struct prof_gpu_util *g = &bd->gpus[i];

		if (core_table_add_row(t, 0) < 0)
			return -ENOMEM;
		if (g->device >= 0)
			core_table_set_int(t, G_DEVICE, g->device);
		core_table_set_ns(t, G_SPAN, g->span);
		core_table_set_ns(t, G_BUSY, g->busy);
		core_table_set_float(t, G_BUSYF, g->span > 0 ? (double)g->busy / (double)g->span : 0.0);
		core_table_set_int(t, G_W6, (int64_t)g->windows[0]);
		core_table_set_int(t, G_A6, (int64_t)g->active[0]);
		core_table_set_float(t, G_F6, frac(g->active[0], g->windows[0]));
		core_table_set_int(t, G_W1, (int64_t)g->windows[1]);
		core_table_set_int(t, G_A1, (int64_t)g->active[1]);
		core_table_set_float(t, G_F1, frac(g->active[1], g->windows[1]));
	}
	return 0;
}

static void table_gpus(FILE *fp, const struct prof_breakdown *bd)
{
	size_t i;

	for (i = 0; i < bd->ngpus; i++) {
		const struct prof_gpu_util *g = &bd->gpus[i];
		double busy = percent(g->busy, g->span);
		double s0 = 100.0 * frac(g->active[0], g->windows[0]);
		double s1 = 100.0 * frac(g->active[1], g->windows[1]);
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
	if (rep->fix) {
		char line[512];

		prof_calib_fix_text(line, sizeof(line), rep->fix);
		fprintf(fp, "\n%s\n", line);
	}
	return ferror(fp) ? -EIO : 0;
}

enum { PR_PROCESS, PR_NAME, PR_WALL, PR_NCOLS };

/* The processes of the report, a row each. */
static int process_table(struct core_table *t, const struct prof_report *rep)
{
	static const struct core_col cols[PR_NCOLS] = {
		{ .name = "process" },
		{ .name = "name" },
		{ .name = "wall_us", .type = CORE_COL_DURATION, .unit = "us", .decimals = 3 },
	};
	size_t i;

	core_table_init(t, cols, PR_NCOLS, 0);
	for (i = 0; i < rep->ngroups; i++) {
		const struct prof_report_group *g = &rep->groups[i];
		char pid[32];

		if (i && rep->groups[i - 1].pid == g->pid)
			continue;
		pid_text(pid, sizeof(pid), g->pid);
		if (core_table_add_row(t, 0) < 0 || core_table_set_str(t, PR_PROCESS, pid) < 0 ||
		    core_table_set_str(t, PR_NAME, g->process) < 0)
			return -ENOMEM;
		core_table_set_ns(t, PR_WALL, g->wall);
	}
	return 0;
}

static int problem_table(struct core_table *t, const struct prof_problems *pb)
{
	static const struct core_col cols[PROF_PROB_COUNT + 1] = {
		{ .name = "malformed", .type = CORE_COL_INT },
		{ .name = "unknown_kind", .type = CORE_COL_INT },
		{ .name = "end_before_start", .type = CORE_COL_INT },
		{ .name = "unmatched", .type = CORE_COL_INT },
		{ .name = "truncated", .type = CORE_COL_INT },
		{ .name = "recorder_warnings", .type = CORE_COL_INT },
	};
	int i;

	core_table_init(t, cols, PROF_PROB_COUNT + 1, CORE_TABLE_RECORD);
	if (core_table_add_row(t, 0) < 0)
		return -ENOMEM;
	for (i = 0; i < PROF_PROB_COUNT; i++)
		core_table_set_int(t, (size_t)i, pb ? (int64_t)pb->count[i] : 0);
	core_table_set_int(t, PROF_PROB_COUNT, pb ? (int64_t)pb->recorder_warnings : 0);
	return 0;
}

int prof_report_json_value(FILE *fp, const struct core_table *t)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	int ret;

	if (!m)
		return -ENOMEM;
	ret = core_table_write(m, t, CORE_FORMAT_JSON);
	if (fclose(m) != 0 && ret == 0)
		ret = -ENOMEM;
	if (ret == 0) {
		while (len && buf[len - 1] == '\n')
			len--;
		if (fwrite(buf, 1, len, fp) != len)
			ret = -EIO;
	}
	free(buf);
	return ret;
}

/* ,"correction":{...} of the json format. */
static int correction_json(FILE *fp, const struct prof_calib_fix *fix)
{
	static const struct core_col cols[] = {
		{ .name = "calibration", .type = CORE_COL_STRING },
		{ .name = "wall_ns", .type = CORE_COL_DURATION, .unit = "ns" },
		{ .name = "removed_ns", .type = CORE_COL_DURATION, .unit = "ns" },
		{ .name = "clamped_ns", .type = CORE_COL_DURATION, .unit = "ns" },
		{ .name = "annotation_events", .type = CORE_COL_INT },
		{ .name = "python_hook_events", .type = CORE_COL_INT },
		{ .name = "cpu_sampling_events", .type = CORE_COL_INT },
		{ .name = "text", .type = CORE_COL_STRING },
	};
	struct core_table t;
	char line[512];
	int ret;

	prof_calib_fix_text(line, sizeof(line), fix);
	core_table_init(&t, cols, sizeof(cols) / sizeof(cols[0]), CORE_TABLE_RECORD);
	ret = core_table_add_row(&t, 0);
	if (!ret)
		ret = core_table_set_str(&t, 0, fix->calibration ? fix->calibration : "") |
		      core_table_set_ns(&t, 1, fix->wall_ns) | core_table_set_ns(&t, 2, fix->removed_ns) |
		      core_table_set_ns(&t, 3, fix->clamped_ns) |
		      core_table_set_int(&t, 4, (int64_t)fix->events[PROF_CALIB_ANNOTATIONS]) |
		      core_table_set_int(&t, 5, (int64_t)fix->events[PROF_CALIB_PYTHON_HOOK]) |
		      core_table_set_int(&t, 6, (int64_t)fix->events[PROF_CALIB_CPU_SAMPLING]) |
		      core_table_set_str(&t, 7, line);
	if (!ret) {
		fputs(",\"correction\":", fp);
		ret = prof_report_json_value(fp, &t);
	}
	core_table_release(&t);
	return ret;
}

int prof_report_json(FILE *fp, const struct prof_report *rep)
{
	struct core_col cols[C_NCOLS];
	struct core_table rows, procs, gpus, probs;
	int ret;

	ret = build_table(&rows, cols, rep, CORE_FORMAT_JSON);
	if (ret == 0)
		ret = process_table(&procs, rep);
	else
		core_table_init(&procs, NULL, 0, 0);
	if (ret == 0)
		ret = gpu_table(&gpus, rep->bd);
	else
		core_table_init(&gpus, NULL, 0, 0);
	if (ret == 0)
		ret = problem_table(&probs, rep->problems);
	else
		core_table_init(&probs, NULL, 0, 0);
	if (ret == 0) {
		fprintf(fp, "{\"by\":\"%s\",\"processes\":", prof_report_by_name(rep->by));
		ret = prof_report_json_value(fp, &procs);
	}
	if (ret == 0) {
		fputs(",\"rows\":", fp);
		ret = prof_report_json_value(fp, &rows);
	}
	if (ret == 0) {
		fputs(",\"gpus\":", fp);
		ret = prof_report_json_value(fp, &gpus);
	}
	if (ret == 0) {
		fputs(",\"problems\":", fp);
		ret = prof_report_json_value(fp, &probs);
	}
	if (ret == 0 && rep->fix)
		ret = correction_json(fp, rep->fix);
	if (ret == 0)
		fputs("}\n", fp);
	core_table_release(&rows);
	core_table_release(&procs);
	core_table_release(&gpus);
	core_table_release(&probs);
	return ret < 0 ? ret : ferror(fp) ? -EIO : 0;
}
