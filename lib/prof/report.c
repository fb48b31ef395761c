#include "prof/report.h"
#include "core/csv.h"

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

	if (rep->ngroups == *cap) {
		size_t n = *cap ? *cap * 2 : 16;

		if (!(g = realloc(rep->groups, n * sizeof(*g))))
			return NULL;
		rep->groups = g;
		*cap = n;
	}
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

void prof_report_human(char *buf, size_t size, int64_t ns)
{
	static const char *const unit[] = { "ns", "us", "ms", "s" };
	double v = (double)ns;
	int u = 0;

	while (u < 3 && (v >= 999.5 || v <= -999.5)) {
		v /= 1000;
		u++;
	}
	if (u == 0)
		snprintf(buf, size, "%" PRId64 " ns", ns);
	else
		snprintf(buf, size, "%.*f %s", v >= 99.95 ? 0 : v >= 9.995 ? 1 : 2, v, unit[u]);
}

void prof_report_us(char *buf, size_t size, int64_t ns)
{
	uint64_t a = ns < 0 ? (uint64_t)0 - (uint64_t)ns : (uint64_t)ns;

	snprintf(buf, size, "%s%" PRIu64 ".%03" PRIu64, ns < 0 ? "-" : "", a / 1000, a % 1000);
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

void prof_report_json_str(FILE *fp, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	putc('"', fp);
	for (; *p; p++) {
		if (*p == '"' || *p == '\\') {
			putc('\\', fp);
			putc(*p, fp);
		} else if (*p < 0x20) {
			fprintf(fp, "\\u%04x", *p);
		} else {
			putc(*p, fp);
		}
	}
	putc('"', fp);
}

static double percent(int64_t ns, int64_t wall)
{
	return wall > 0 ? 100.0 * (double)ns / (double)wall : 0.0;
}

int prof_report_csv(FILE *fp, const struct prof_report *rep)
{
	size_t i;
	int s;

	fputs("process,operation,resource,category,time_us,percent\n", fp);
	for (i = 0; i < rep->ngroups; i++) {
		const struct prof_report_group *g = &rep->groups[i];

		for (s = 0; s < PROF_SLOT_COUNT; s++) {
			char us[32];

			if (!g->ns[s])
				continue;
			if (g->pid < 0)
				fputs("all,", fp);
			else
				fprintf(fp, "%" PRId64 ",", g->pid);
			core_csv_write_field(fp, g->key, strlen(g->key));
			prof_report_us(us, sizeof(us), g->ns[s]);
			fprintf(fp, ",%s,%s,%s,%.2f\n", prof_slot_resource(s), prof_slot_category(s),
				us, percent(g->ns[s], g->wall));
		}
	}
	return ferror(fp) ? -EIO : 0;
}

/* Width of `s` on a terminal, counting UTF-8 sequences as one column. */
static int width(const char *s)
{
	int w = 0;

	for (; *s; s++)
		w += ((unsigned char)*s & 0xc0) != 0x80;
	return w;
}

static void pad(FILE *fp, const char *s, int w)
{
	int n = width(s);

	fputs(s, fp);
	for (; n < w; n++)
		putc(' ', fp);
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

		prof_report_human(span, sizeof(span), g->span);
		prof_report_human(b, sizeof(b), g->busy);
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
	const char *head = rep->by == PROF_BY_PHASE ? "phase" : "operation";
	int kw = (int)strlen(head);
	size_t i, j;
	int s;

	for (i = 0; i < rep->ngroups; i++)
		if (width(rep->groups[i].key) > kw)
			kw = width(rep->groups[i].key);
	if (kw > 48)
		kw = 48;
	for (i = 0; i < rep->ngroups; i = j) {
		const struct prof_report_group *g = &rep->groups[i];
		char wall[32];
		int64_t total = 0;

		prof_report_human(wall, sizeof(wall), g->wall);
		if (i)
			putc('\n', fp);
		if (g->pid < 0)
			fprintf(fp, "all processes: %s profiled\n", wall);
		else
			fprintf(fp, "process %" PRId64 "%s%s%s: %s profiled\n", g->pid,
				*g->process ? " (" : "", g->process, *g->process ? ")" : "", wall);
		fputs("  ", fp);
		pad(fp, head, kw);
		fputs("  resource  category         time        %\n", fp);
		for (j = i; j < rep->ngroups && rep->groups[j].pid == g->pid; j++) {
			const struct prof_report_group *h = &rep->groups[j];
			int first = 1;

			for (s = 0; s < PROF_SLOT_COUNT; s++) {
				char t[32];

				if (!h->ns[s])
					continue;
				prof_report_human(t, sizeof(t), h->ns[s]);
				fputs("  ", fp);
				pad(fp, first ? h->key : "", kw);
				fprintf(fp, "  %-8s  %-9s  %10s  %6.2f\n", prof_slot_resource(s),
					prof_slot_category(s), t, percent(h->ns[s], h->wall));
				first = 0;
			}
			total += h->total;
		}
		{
			char t[32];

			prof_report_human(t, sizeof(t), total);
			fputs("  ", fp);
			pad(fp, "total", kw);
			fprintf(fp, "  %-8s  %-9s  %10s  %6.2f\n", "", "", t, percent(total, g->wall));
		}
	}
	if (!rep->ngroups)
		fputs("no profiled time\n", fp);
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

		prof_report_us(busy, sizeof(busy), g->busy);
		prof_report_us(span, sizeof(span), g->span);
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

		prof_report_us(t, sizeof(t), g->wall);
		fprintf(fp, "%s{\"pid\":", i ? "," : "");
		if (g->pid < 0)
			fputs("null", fp);
		else
			fprintf(fp, "%" PRId64, g->pid);
		fputs(",\"name\":", fp);
		prof_report_json_str(fp, g->process);
		fprintf(fp, ",\"wall_us\":%s,\"groups\":[", t);
		for (j = i; j < rep->ngroups && rep->groups[j].pid == g->pid; j++) {
			const struct prof_report_group *h = &rep->groups[j];
			int first = 1;

			prof_report_us(t, sizeof(t), h->total);
			fprintf(fp, "%s{\"%s\":", j > i ? "," : "",
				rep->by == PROF_BY_PHASE ? "phase" : "operation");
			prof_report_json_str(fp, h->key);
			fprintf(fp, ",\"calls\":%" PRIu64 ",\"time_us\":%s,\"percent\":%.2f,\"rows\":[",
				h->calls, t, percent(h->total, h->wall));
			for (s = 0; s < PROF_SLOT_COUNT; s++) {
				if (!h->ns[s])
					continue;
				prof_report_us(t, sizeof(t), h->ns[s]);
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
