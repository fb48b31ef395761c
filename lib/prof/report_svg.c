#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include "core/table.h"
#include "core/utf8.h"
#include "prof/report.h"
#include "prof/report_compare.h"
#include "prof/calib.h"
#include "prof/report_svg.h"

/* Dark for CPU only, light for CPU+GPU: same hue per category. */
static const char *const colour[PROF_SLOT_COUNT] = {
	"#4e79a7", "#59a14f", "#f28e2b", "#e15759", "#76b7b2",
	"#a0cbe8", "#8cd17d", "#ffbe7d", "#ff9d9a", "#b6e0d9",
	"#b07aa1", "#bab0ac", "#9c755f", "#d7b5a6", "#edc948",
};

#define ROW 24
#define BARH 16
#define TOP 70

/* `s` as XML text, at most `max` characters: invalid UTF-8 and control
 * characters (which XML 1.0 does not allow) become U+FFFD. */
static void xml(FILE *fp, const char *s, size_t max)
{
	size_t len = strlen(s), i = 0, n, chars = 0;

	for (; i < len && chars < max; i += n, chars++) {
		unsigned char c = (unsigned char)s[i];

		n = 1;
		switch (c) {
		case '<': fputs("&lt;", fp); break;
		case '>': fputs("&gt;", fp); break;
		case '&': fputs("&amp;", fp); break;
		case '"': fputs("&quot;", fp); break;
		case '\'': fputs("&apos;", fp); break;
		default:
			if ((c < 0x20 && c != '\t') || core_utf8_next(s + i, len - i, &n) < 0)
				fputs(CORE_UTF8_REPLACEMENT, fp);
			else
				fwrite(s + i, 1, n, fp);
			break;
		}
	}
	if (i < len)
		fputs("...", fp);
}

/* A time axis from 0 to top in steps of step, labelled in unit. */
struct axis {
	int64_t top, step, scale;
	const char *unit;
	int decimals;
};

static void axis_fit(struct axis *ax, int64_t max)
{
	static const struct { const char *unit; int64_t scale; } units[] = {
		{ "s", 1000000000 }, { "ms", 1000000 }, { "us", 1000 }, { "ns", 1 },
	};
	int64_t raw, mag = 1, m;
	size_t i;

	if (max < 1)
		max = 1;
	raw = (max + 3) / 4;	/* at most about five ticks */
	while (mag <= raw / 10)
		mag *= 10;
	ax->step = mag >= raw ? mag : 2 * mag >= raw ? 2 * mag : 5 * mag >= raw ? 5 * mag : 10 * mag;
	ax->top = (max + ax->step - 1) / ax->step * ax->step;
	for (i = 0; i < 3 && ax->top < units[i].scale; i++)
		;
	ax->unit = units[i].unit;
	ax->scale = units[i].scale;
	for (ax->decimals = 0, m = ax->step; m % ax->scale && ax->decimals < 9; ax->decimals++)
		m *= 10;
}

static void axis_label(char *buf, size_t size, const struct axis *ax, int64_t ns)
{
	snprintf(buf, size, "%.*f %s", ax->decimals, (double)ns / (double)ax->scale, ax->unit);
}

/* Grid lines from y0 to y1 and tick labels under them, for a panel at x of width w. */
static void axis_draw(FILE *fp, const struct axis *ax, int x, int w, int y0, int y1)
{
	int64_t v;
	char t[48];

	fputs("<g class=\"axis\" stroke=\"#ddd\">\n", fp);
	for (v = 0; v <= ax->top; v += ax->step) {
		double px = x + (double)w * (double)v / (double)ax->top;

		fprintf(fp, "<line x1=\"%.2f\" y1=\"%d\" x2=\"%.2f\" y2=\"%d\"/>\n", px, y0, px, y1);
	}
	fputs("</g>\n<g class=\"ticks\" fill=\"#555\" text-anchor=\"middle\">\n", fp);
	for (v = 0; v <= ax->top; v += ax->step) {
		axis_label(t, sizeof(t), ax, v);
		fprintf(fp, "<text x=\"%.2f\" y=\"%d\">%s</text>\n",
			x + (double)w * (double)v / (double)ax->top, y1 + 14, t);
	}
	fputs("</g>\n", fp);
}

/* The stacked bar of ns[] at (x, y), scaled to the axis, with its total. */
static void bar(FILE *fp, const struct axis *ax, int x, int w, int y, const int64_t *ns,
		int64_t total, int64_t wall)
{
	double x0 = x;
	char t[32];
	int s;

	for (s = 0; s < PROF_SLOT_COUNT; s++) {
		double wd = (double)w * (double)ns[s] / (double)ax->top;

		if (!ns[s])
			continue;
		core_fmt_human_ns(t, sizeof(t), ns[s]);
		fprintf(fp, "<rect x=\"%.2f\" y=\"%d\" width=\"%.2f\" height=\"%d\" fill=\"%s\">"
			"<title>%s / %s: %s (%.2f%%)</title></rect>\n", x0, y, wd, BARH, colour[s],
			prof_slot_resource(s), prof_slot_category(s), t,
			wall > 0 ? 100.0 * (double)ns[s] / (double)wall : 0.0);
		x0 += wd;
	}
	core_fmt_human_ns(t, sizeof(t), total);
	fprintf(fp, "<text x=\"%.2f\" y=\"%d\">%s (%.1f%%)</text>\n", x0 + 6, y + BARH - 3, t,
		wall > 0 ? 100.0 * (double)total / (double)wall : 0.0);
}

static int legend_height(const int *used)
{
	int s, n = 0;

	for (s = 0; s < PROF_SLOT_COUNT; s++)
		n += used[s] != 0;
	return 30 + ((n + 3) / 4) * 22;
}

static void legend(FILE *fp, int y, const int *used)
{
	int s, x;

	fprintf(fp, "<g class=\"legend\">\n<text x=\"20\" y=\"%d\" font-weight=\"bold\">"
		"resource / category</text>\n", y);
	y += 8;
	for (s = 0, x = 0; s < PROF_SLOT_COUNT; s++) {
		if (!used[s])
			continue;
		if (x == 4) {
			x = 0;
			y += 22;
		}
		fprintf(fp, "<rect x=\"%d\" y=\"%d\" width=\"14\" height=\"14\" fill=\"%s\"/>"
			"<text x=\"%d\" y=\"%d\">%s / %s</text>\n", 20 + x * 230, y, colour[s],
			20 + x * 230 + 20, y + 12, prof_slot_resource(s), prof_slot_category(s));
		x++;
	}
	fputs("</g>\n", fp);
}

static void header(FILE *fp, int w, int h)
{
	fprintf(fp, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		"<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
		"viewBox=\"0 0 %d %d\" font-family=\"sans-serif\" font-size=\"12\">\n"
		"<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n", w, h, w, h);
}

static void label(FILE *fp, int x, int y, const char *key)
{
	fprintf(fp, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">", x, y + BARH - 3);
	xml(fp, key, 40);
	fputs("</text>\n", fp);
}

static const char *subtitle(enum prof_report_by by)
{
	switch (by) {
	case PROF_BY_PHASE: return "time per phase";
	case PROF_BY_PROCESS: return "time per process";
	case PROF_BY_CATEGORY: return "time of all processes";
	default: return "exclusive time per operation";
	}
}

#define W 960
#define LABEL 280
#define BAR 520

int prof_report_svg(FILE *fp, const struct prof_report *rep)
{
	int64_t max = 0;
	int used[PROF_SLOT_COUNT] = { 0 };
	size_t i, nproc = 0;
	struct axis ax;
	int s, y, h;

	for (i = 0; i < rep->ngroups; i++) {
		const struct prof_report_group *g = &rep->groups[i];

		if (g->total > max)
			max = g->total;
		if (!i || g->pid != rep->groups[i - 1].pid)
			nproc++;
		for (s = 0; s < PROF_SLOT_COUNT; s++)
			used[s] |= g->ns[s] != 0;
	}
	axis_fit(&ax, max);
	h = TOP + (int)nproc * 30 + (int)rep->ngroups * ROW + 50 + legend_height(used) + 10;
	header(fp, W, h);
	fputs("<text x=\"20\" y=\"28\" font-size=\"16\" font-weight=\"bold\">Where the time went", fp);
	if (rep->trace) {
		fputs(": ", fp);
		xml(fp, rep->trace, 80);
	}
	fprintf(fp, "</text>\n<text x=\"20\" y=\"48\" fill=\"#555\">%s, by resource and category</text>\n",
		subtitle(rep->by));
	if (rep->fix) {
		char line[512];

		prof_calib_fix_text(line, sizeof(line), rep->fix);
		fputs("<text x=\"20\" y=\"64\" fill=\"#555\" class=\"corrected\">", fp);
		xml(fp, line, 200);
		fputs("</text>\n", fp);
	}
	y = TOP + (int)nproc * 30 + (int)rep->ngroups * ROW;
	if (rep->ngroups)
		axis_draw(fp, &ax, LABEL, BAR, TOP, y);
	y = TOP;
	for (i = 0; i < rep->ngroups; i++) {
		const struct prof_report_group *g = &rep->groups[i];

		if (!i || g->pid != rep->groups[i - 1].pid) {
			char head[512];

			prof_report_heading(head, sizeof(head), g);
			y += 22;
			fprintf(fp, "<text x=\"20\" y=\"%d\" font-weight=\"bold\">", y);
			xml(fp, head, 120);
			fputs("</text>\n", fp);
			y += 8;
		}
		fputs("<g class=\"bar\">\n", fp);
		label(fp, LABEL - 8, y, g->key);
		bar(fp, &ax, LABEL, BAR, y, g->ns, g->total, g->wall);
		fputs("</g>\n", fp);
		y += ROW;
	}
	if (!rep->ngroups)
		fprintf(fp, "<text x=\"20\" y=\"%d\">no profiled time</text>\n", y += 22);
	legend(fp, y + 40, used);
	fputs("</svg>\n", fp);
	return ferror(fp) ? -EIO : 0;
}

#define CW 1320
#define CLABEL 240
#define CBAR 400
#define CGAP 140	/* room for the totals of the left bars */

int prof_compare_svg(FILE *fp, const struct prof_report *a, const struct prof_report *b)
{
	int used[PROF_SLOT_COUNT] = { 0 };
	int64_t max = 0;
	struct prof_cmp c;
	struct axis ax;
	size_t i, nproc = 0;
	int s, y, h, side, x[2] = { CLABEL, CLABEL + CBAR + CGAP };
	const char *trace[2] = { a->trace ? a->trace : "", b->trace ? b->trace : "" };

	if (prof_cmp_build(&c, a, b) < 0)
		return -ENOMEM;
	for (i = 0; i < c.n; i++) {
		const struct prof_cmp_row *r = &c.rows[i];

		for (side = 0; side < 2; side++) {
			if (r->total[side] > max)
				max = r->total[side];
			for (s = 0; s < PROF_SLOT_COUNT; s++)
				used[s] |= r->ns[side][s] != 0;
		}
		if (!i || r->proc != c.rows[i - 1].proc)
			nproc++;
	}
	axis_fit(&ax, max);
	h = TOP + 20 + (int)nproc * 30 + (int)c.n * ROW + 50 + legend_height(used) + 10;
	header(fp, CW, h);
	fprintf(fp, "<text x=\"20\" y=\"28\" font-size=\"16\" font-weight=\"bold\">Two runs side by side"
		"</text>\n<text x=\"20\" y=\"48\" fill=\"#555\">%s, by resource and category, on one "
		"scale; percent of each run's profiled time</text>\n", subtitle(a->by));
	for (side = 0; side < 2; side++) {
		char wall[32];

		core_fmt_human_ns(wall, sizeof(wall), c.wall[side]);
		fprintf(fp, "<text class=\"run\" x=\"%d\" y=\"%d\" font-weight=\"bold\">%s: ", x[side],
			TOP + 12, side ? "other" : "this");
		xml(fp, trace[side], 40);
		fprintf(fp, " (%s)</text>\n", wall);
	}
	y = TOP + 20 + (int)nproc * 30 + (int)c.n * ROW;
	if (c.n)
		for (side = 0; side < 2; side++)
			axis_draw(fp, &ax, x[side], CBAR, TOP + 20, y);
	y = TOP + 20;
	for (i = 0; i < c.n; i++) {
		const struct prof_cmp_row *r = &c.rows[i];

		if (!i || r->proc != c.rows[i - 1].proc) {
			y += 22;
			fprintf(fp, "<text x=\"20\" y=\"%d\" font-weight=\"bold\">", y);
			xml(fp, *r->process ? r->process : a->by == PROF_BY_CATEGORY ? "all processes" :
				"processes without a name", 120);
			fputs("</text>\n", fp);
			y += 8;
		}
		fputs("<g class=\"bar\">\n", fp);
		label(fp, CLABEL - 8, y, r->key);
		for (side = 0; side < 2; side++)
			if (r->total[side] || r->total[!side] == 0)
				bar(fp, &ax, x[side], CBAR, y, r->ns[side], r->total[side], c.wall[side]);
			else
				fprintf(fp, "<text x=\"%d\" y=\"%d\" fill=\"#888\">not in this run</text>\n",
					x[side] + 6, y + BARH - 3);
		fputs("</g>\n", fp);
		y += ROW;
	}
	if (!c.n)
		fprintf(fp, "<text x=\"20\" y=\"%d\">no profiled time</text>\n", y += 22);
	legend(fp, y + 40, used);
	fputs("</svg>\n", fp);
	prof_cmp_release(&c);
	return ferror(fp) ? -EIO : 0;
}
