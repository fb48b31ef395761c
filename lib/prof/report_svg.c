#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include "core/table.h"
#include "core/utf8.h"
#include "prof/report.h"

/* Dark for CPU only, light for CPU+GPU: same hue per category. */
static const char *const colour[PROF_SLOT_COUNT] = {
	"#4e79a7", "#59a14f", "#f28e2b", "#e15759", "#76b7b2",
	"#a0cbe8", "#8cd17d", "#ffbe7d", "#ff9d9a", "#b6e0d9",
	"#b07aa1", "#bab0ac", "#9c755f", "#d7b5a6", "#edc948",
};

#define W 960
#define LABEL 280
#define BAR 520
#define ROW 24
#define BARH 16

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

int prof_report_svg(FILE *fp, const struct prof_report *rep)
{
	int64_t max = 1;
	int used[PROF_SLOT_COUNT] = { 0 };
	size_t i, nproc = 0;
	int s, y, h, nused = 0, x;
	char t[32];

	for (i = 0; i < rep->ngroups; i++) {
		const struct prof_report_group *g = &rep->groups[i];

		if (g->total > max)
			max = g->total;
		if (!i || g->pid != rep->groups[i - 1].pid)
			nproc++;
		for (s = 0; s < PROF_SLOT_COUNT; s++)
			used[s] |= g->ns[s] != 0;
	}
	for (s = 0; s < PROF_SLOT_COUNT; s++)
		nused += used[s];
	h = 70 + (int)nproc * 30 + (int)rep->ngroups * ROW + 50 + ((nused + 3) / 4) * 22 + 20;
	fprintf(fp, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		"<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
		"viewBox=\"0 0 %d %d\" font-family=\"sans-serif\" font-size=\"12\">\n"
		"<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n", W, h, W, h);
	fputs("<text x=\"20\" y=\"28\" font-size=\"16\" font-weight=\"bold\">Where the time went", fp);
	if (rep->trace) {
		fputs(": ", fp);
		xml(fp, rep->trace, 80);
	}
	fprintf(fp, "</text>\n<text x=\"20\" y=\"48\" fill=\"#555\">time per %s, by resource and category"
		" (bar length: time; the longest is ", rep->by == PROF_BY_PHASE ? "phase" : "operation");
	core_fmt_human_ns(t, sizeof(t), max);
	fprintf(fp, "%s)</text>\n", t);
	/* A time axis: grid lines behind the bars, labels under them. */
	y = 70 + (int)nproc * 30 + (int)rep->ngroups * ROW;
	if (rep->ngroups) {
		fputs("<g class=\"axis\" stroke=\"#ddd\">\n", fp);
		for (x = 0; x <= 4; x++)
			fprintf(fp, "<line x1=\"%d\" y1=\"70\" x2=\"%d\" y2=\"%d\"/>\n",
				LABEL + BAR * x / 4, LABEL + BAR * x / 4, y);
		fputs("</g>\n<g class=\"ticks\" fill=\"#555\" text-anchor=\"middle\">\n", fp);
		for (x = 0; x <= 4; x++) {
			core_fmt_human_ns(t, sizeof(t), max * x / 4);
			fprintf(fp, "<text x=\"%d\" y=\"%d\">%s</text>\n", LABEL + BAR * x / 4, y + 14, t);
		}
		fputs("</g>\n", fp);
	}
	y = 70;
	for (i = 0; i < rep->ngroups; i++) {
		const struct prof_report_group *g = &rep->groups[i];
		double x0 = LABEL;

		if (!i || g->pid != rep->groups[i - 1].pid) {
			char wall[32];

			core_fmt_human_ns(wall, sizeof(wall), g->wall);
			y += 22;
			fputs("<text x=\"20\" y=\"", fp);
			fprintf(fp, "%d\" font-weight=\"bold\">", y);
			if (g->pid < 0)
				fputs("all processes", fp);
			else
				fprintf(fp, "process %" PRId64, g->pid);
			if (*g->process) {
				fputs(" (", fp);
				xml(fp, g->process, 60);
				fputs(")", fp);
			}
			fprintf(fp, ", %s profiled</text>\n", wall);
			y += 8;
		}
		fprintf(fp, "<g class=\"bar\">\n<text x=\"%d\" y=\"%d\" text-anchor=\"end\">", LABEL - 8,
			y + BARH - 3);
		xml(fp, g->key, 40);
		fputs("</text>\n", fp);
		for (s = 0; s < PROF_SLOT_COUNT; s++) {
			double wd = (double)BAR * (double)g->ns[s] / (double)max;

			if (!g->ns[s])
				continue;
			core_fmt_human_ns(t, sizeof(t), g->ns[s]);
			fprintf(fp, "<rect x=\"%.2f\" y=\"%d\" width=\"%.2f\" height=\"%d\" fill=\"%s\">"
				"<title>%s %s: %s (%.2f%%)</title></rect>\n", x0, y, wd, BARH, colour[s],
				prof_slot_resource(s), prof_slot_category(s), t,
				g->wall > 0 ? 100.0 * (double)g->ns[s] / (double)g->wall : 0.0);
			x0 += wd;
		}
		core_fmt_human_ns(t, sizeof(t), g->total);
		fprintf(fp, "<text x=\"%.2f\" y=\"%d\">%s (%.1f%%)</text>\n</g>\n", x0 + 6, y + BARH - 3, t,
			g->wall > 0 ? 100.0 * (double)g->total / (double)g->wall : 0.0);
		y += ROW;
	}
	if (!rep->ngroups)
		fprintf(fp, "<text x=\"20\" y=\"%d\">no profiled time</text>\n", y += 22);
	y += 40;
	fprintf(fp, "<g class=\"legend\">\n<text x=\"20\" y=\"%d\" font-weight=\"bold\">resource / category</text>\n", y);
	y += 8;
	for (s = 0, x = 0; s < PROF_SLOT_COUNT; s++) {
		if (!used[s])
			continue;
		if (x == 4) {
			x = 0;
			y += 22;
		}
		fprintf(fp, "<rect x=\"%d\" y=\"%d\" width=\"14\" height=\"14\" fill=\"%s\"/>"
			"<text x=\"%d\" y=\"%d\">%s %s</text>\n", 20 + x * 230, y, colour[s],
			20 + x * 230 + 20, y + 12, prof_slot_resource(s), prof_slot_category(s));
		x++;
	}
	fputs("</g>\n</svg>\n", fp);
	return ferror(fp) ? -EIO : 0;
}
