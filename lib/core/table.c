#include "core/table.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/csv.h"
#include "core/grow.h"
#include "core/utf8.h"

struct core_cell {
	int set;
	size_t len;		/* strings */
	union {
		char *s;
		int64_t i;
		uint64_t u;
		double f;
	} v;
};

struct core_table_row {
	int flags;
	char *heading;		/* a section starts here; NULL else */
};

static const char *const format_names[] = { "table", "csv", "json", "jsonl" };

const char *core_format_name(enum core_format f)
{
	return (unsigned)f < 4 ? format_names[f] : "";
}

int core_format_parse(const char *s, unsigned allowed)
{
	int i;

	for (i = 0; i < 4; i++)
		if ((allowed & CORE_FORMAT_BIT(i)) && !strcmp(s, format_names[i]))
			return i;
	return -EINVAL;
}

enum core_format core_format_default(const char *output)
{
	if ((!output || !strcmp(output, "-")) && isatty(STDOUT_FILENO))
		return CORE_FORMAT_TABLE;
	return CORE_FORMAT_CSV;
}

void core_table_init(struct core_table *t, const struct core_col *cols,
		     size_t ncols, int flags)
{
	memset(t, 0, sizeof(*t));
	t->cols = cols;
	t->ncols = ncols;
	t->flags = flags;
}

void core_table_release(struct core_table *t)
{
	size_t r, c;

	for (r = 0; r < t->nrows; r++) {
		for (c = 0; c < t->ncols; c++) {
			struct core_cell *x = &t->cells[r * t->ncols + c];

			if (x->set && t->cols[c].type == CORE_COL_STRING)
				free(x->v.s);
		}
		free(t->rows[r].heading);
	}
	free(t->cells);
	free(t->rows);
	free(t->heading);
	core_table_init(t, t->cols, t->ncols, t->flags);
}

int core_table_section(struct core_table *t, const char *heading)
{
	char *h = strdup(heading);

	if (!h)
		return -ENOMEM;
	free(t->heading);
	t->heading = h;
	t->has_sections = 1;
	return 0;
}

int core_table_add_row(struct core_table *t, int flags)
{
	if (CORE_GROW(t->rows, t->rows_cap, t->nrows + 1) < 0 ||
	    CORE_GROW(t->cells, t->cells_cap, (t->nrows + 1) * t->ncols) < 0)
		return -ENOMEM;
	memset(&t->cells[t->nrows * t->ncols], 0, t->ncols * sizeof(*t->cells));
	t->rows[t->nrows].flags = flags;
	t->rows[t->nrows].heading = t->heading;
	t->heading = NULL;
	t->nrows++;
	return 0;
}

static struct core_cell *cell(struct core_table *t, size_t col, int string)
{
	if (!t->nrows || col >= t->ncols || (t->cols[col].type == CORE_COL_STRING) != string)
		return NULL;
	return &t->cells[(t->nrows - 1) * t->ncols + col];
}

int core_table_set_strn(struct core_table *t, size_t col, const char *s, size_t len)
{
	struct core_cell *x = cell(t, col, 1);
	char *copy;

	if (!x)
		return -EINVAL;
	if (x->set)
		free(x->v.s);
	x->set = 0;
	if (!s)
		return 0;
	if (!(copy = malloc(len + 1)))
		return -ENOMEM;
	memcpy(copy, s, len);
	copy[len] = '\0';
	x->v.s = copy;
	x->len = len;
	x->set = 1;
	return 0;
}

int core_table_set_str(struct core_table *t, size_t col, const char *s)
{
	return core_table_set_strn(t, col, s, s ? strlen(s) : 0);
}

/* Numbers are kept in the column's own type. */
static int set_num(struct core_table *t, size_t col, int64_t i, double f, int is_float)
{
	struct core_cell *x = cell(t, col, 0);

	if (!x)
		return -EINVAL;
	switch (t->cols[col].type) {
	case CORE_COL_FLOAT:
		x->v.f = is_float ? f : (double)i;
		break;
	case CORE_COL_BYTES:
		x->v.u = is_float ? (f > 0 ? (uint64_t)f : 0) : (uint64_t)i;
		break;
	default:
		x->v.i = is_float ? (int64_t)llround(f) : i;
		break;
	}
	x->set = 1;
	return 0;
}

int core_table_set_int(struct core_table *t, size_t col, int64_t v)
{
	return set_num(t, col, v, 0, 0);
}

int core_table_set_float(struct core_table *t, size_t col, double v)
{
	return set_num(t, col, 0, v, 1);
}

int core_table_set_ns(struct core_table *t, size_t col, int64_t ns)
{
	return set_num(t, col, ns, 0, 0);
}

int core_table_set_bytes(struct core_table *t, size_t col, uint64_t v)
{
	struct core_cell *x = cell(t, col, 0);

	if (!x)
		return -EINVAL;
	if (t->cols[col].type == CORE_COL_BYTES) {
		x->v.u = v;
		x->set = 1;
		return 0;
	}
	return set_num(t, col, (int64_t)v, 0, 0);
}

/* ---- Number formatting ---- */

static int unit_digits(const char *unit)
{
	if (!unit || !strcmp(unit, "s"))
		return 9;
	if (!strcmp(unit, "ms"))
		return 6;
	if (!strcmp(unit, "us"))
		return 3;
	return 0;
}

static uint64_t pow10u(int n)
{
	uint64_t p = 1;

	while (n-- > 0)
		p *= 10;
	return p;
}

void core_fmt_duration(char *buf, size_t size, int64_t ns, const char *unit, int decimals)
{
	uint64_t a = ns < 0 ? (uint64_t)0 - (uint64_t)ns : (uint64_t)ns;
	int sd = unit_digits(unit), d = decimals < 0 ? 0 : decimals > 18 ? 18 : decimals;
	uint64_t q, p;
	int extra = 0;

	if (d >= sd) {		/* exact: pad with zeros */
		q = a;
		extra = d - sd;
		d = sd;
	} else {
		uint64_t div = pow10u(sd - d);

		q = a / div + (a % div >= (div + 1) / 2);
	}
	p = pow10u(d);
	if (d + extra == 0)
		snprintf(buf, size, "%s%" PRIu64, ns < 0 && q ? "-" : "", q);
	else
		snprintf(buf, size, "%s%" PRIu64 ".%0*" PRIu64 "%.*s", ns < 0 && q ? "-" : "",
			 q / p, d, q % p, extra, "000000000000000000");
	/* "%0*" with d == 0 still prints one digit: remove it. */
	if (d == 0 && extra > 0) {
		char *dot = strchr(buf, '.');

		if (dot)
			memmove(dot + 1, dot + 2, strlen(dot + 2) + 1);
	}
}

static void human(char *buf, size_t size, double v, const char *const *unit, int nunits,
		  double step)
{
	int u = 0;

	while (u < nunits - 1 && (v >= step - 0.5 || v <= -(step - 0.5))) {
		v /= step;
		u++;
	}
	if (u == 0)
		snprintf(buf, size, "%.0f %s", v, unit[0]);
	else
		snprintf(buf, size, "%.*f %s", fabs(v) >= 99.95 ? 0 : fabs(v) >= 9.995 ? 1 : 2,
			 v, unit[u]);
}

void core_fmt_human_ns(char *buf, size_t size, int64_t ns)
{
	static const char *const unit[] = { "ns", "us", "ms", "s" };

	human(buf, size, (double)ns, unit, 4, 1000);
}

void core_fmt_human_bytes(char *buf, size_t size, uint64_t bytes)
{
	static const char *const unit[] = { "B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB" };

	human(buf, size, (double)bytes, unit, 7, 1024);
}

/* A number cell as CSV and JSON write it; "" when it has no value. */
static void number_text(char *buf, size_t size, const struct core_col *c,
			const struct core_cell *x)
{
	buf[0] = '\0';
	if (!x->set)
		return;
	switch (c->type) {
	case CORE_COL_INT:
		snprintf(buf, size, "%" PRId64, x->v.i);
		break;
	case CORE_COL_FLOAT:
		if (isfinite(x->v.f))
			snprintf(buf, size, "%.*f", c->decimals, x->v.f);
		break;
	case CORE_COL_DURATION:
		core_fmt_duration(buf, size, x->v.i, c->unit, c->decimals);
		break;
	case CORE_COL_BYTES:
		snprintf(buf, size, "%" PRIu64, x->v.u);
		break;
	default:
		break;
	}
}

/* ---- Writers ---- */

static int write_csv(FILE *fp, const struct core_table *t)
{
	size_t r, c;
	char num[64];

	for (c = 0; c < t->ncols; c++) {
		if (c)
			putc(',', fp);
		core_csv_write_field(fp, t->cols[c].name, strlen(t->cols[c].name));
	}
	putc('\n', fp);
	for (r = 0; r < t->nrows; r++) {
		if (t->rows[r].flags & CORE_ROW_TABLE_ONLY)
			continue;
		for (c = 0; c < t->ncols; c++) {
			const struct core_cell *x = &t->cells[r * t->ncols + c];

			if (c)
				putc(',', fp);
			if (t->cols[c].type == CORE_COL_STRING) {
				if (x->set)
					core_csv_write_field(fp, x->v.s, x->len);
			} else {
				number_text(num, sizeof(num), &t->cols[c], x);
				fputs(num, fp);
			}
		}
		putc('\n', fp);
	}
	return ferror(fp) ? -EIO : 0;
}

static void write_object(FILE *fp, const struct core_table *t, size_t r)
{
	size_t c;
	char num[64];

	putc('{', fp);
	for (c = 0; c < t->ncols; c++) {
		const struct core_cell *x = &t->cells[r * t->ncols + c];

		if (c)
			putc(',', fp);
		core_utf8_write_json(fp, t->cols[c].name, strlen(t->cols[c].name));
		putc(':', fp);
		if (t->cols[c].type == CORE_COL_STRING) {
			if (x->set)
				core_utf8_write_json(fp, x->v.s, x->len);
			else
				fputs("null", fp);
		} else {
			number_text(num, sizeof(num), &t->cols[c], x);
			fputs(*num ? num : "null", fp);
		}
	}
	putc('}', fp);
}

static int write_json(FILE *fp, const struct core_table *t, int lines)
{
	size_t r, n = 0;

	if (!lines && !(t->flags & CORE_TABLE_RECORD))
		putc('[', fp);
	for (r = 0; r < t->nrows; r++) {
		if (t->rows[r].flags & CORE_ROW_TABLE_ONLY)
			continue;
		if (!lines && n && !(t->flags & CORE_TABLE_RECORD))
			putc(',', fp);
		write_object(fp, t, r);
		n++;
		if (lines)
			putc('\n', fp);
		else if (t->flags & CORE_TABLE_RECORD)
			break;
	}
	if (!lines) {
		if (t->flags & CORE_TABLE_RECORD)
			fputs(n ? "\n" : "null\n", fp);
		else
			fputs("]\n", fp);
	}
	return ferror(fp) ? -EIO : 0;
}

/*
 * `s` for a terminal, malloc'd: control characters and invalid UTF-8 shown
 * as U+FFFD, cut to `max` characters (0: no limit); *width gets its width
 * in characters.
 */
static char *sanitize(const char *s, size_t len, int max, int *width)
{
	char *out = malloc(3 * len + 1);
	size_t i = 0, n, o = 0;
	int w = 0;

	if (!out)
		return NULL;
	while (i < len && (!max || w < max)) {
		unsigned char b = (unsigned char)s[i];

		if (b < 0x20 || b == 0x7f || core_utf8_next(s + i, len - i, &n) < 0) {
			if (b < 0x20 || b == 0x7f)
				n = 1;
			memcpy(out + o, CORE_UTF8_REPLACEMENT, 3);
			o += 3;
		} else {
			memcpy(out + o, s + i, n);
			o += n;
		}
		i += n;
		w++;
	}
	out[o] = '\0';
	*width = w;
	return out;
}

static int title_width(const char *s)
{
	int w = 0;

	for (; *s; s++)
		w += ((unsigned char)*s & 0xc0) != 0x80;
	return w;
}

/* Text of a cell in the table format, malloc'd, and its width. */
static char *table_text(const struct core_col *c, const struct core_cell *x, int *width)
{
	char num[80];

	if (c->type == CORE_COL_STRING && x->set)
		return sanitize(x->v.s, x->len, c->max_width, width);
	num[0] = '\0';
	if (x->set) {
		switch (c->type) {
		case CORE_COL_FLOAT:
			if (isfinite(x->v.f))
				snprintf(num, sizeof(num), "%.*f%s%s", c->decimals, x->v.f,
					 c->unit ? " " : "", c->unit ? c->unit : "");
			break;
		case CORE_COL_DURATION:
			core_fmt_human_ns(num, sizeof(num), x->v.i);
			break;
		case CORE_COL_BYTES:
			core_fmt_human_bytes(num, sizeof(num), x->v.u);
			break;
		default:
			number_text(num, sizeof(num), c, x);
			break;
		}
	}
	return sanitize(num, strlen(num), 0, width);
}

/* A line of the table: spaces are held back until text follows, so no
 * line ends with spaces. */
struct line {
	FILE *fp;
	int pending;
};

static void line_text(struct line *l, const char *s, int w, int width, int right)
{
	if (right)
		l->pending += width - w;
	if (*s) {
		for (; l->pending > 0; l->pending--)
			putc(' ', l->fp);
		fputs(s, l->fp);
	}
	if (!right)
		l->pending += width - w;
}

static void table_line(FILE *fp, const char *indent, const struct core_table *t,
		       const size_t *vis, size_t nvis, const int *width,
		       char **text, const int *tw)
{
	struct line l = { fp, 0 };
	size_t v;

	fputs(indent, fp);
	for (v = 0; v < nvis; v++) {
		const struct core_col *c = &t->cols[vis[v]];
		const char *title = c->title ? c->title : c->name;

		if (v)
			l.pending += 2;
		line_text(&l, text ? text[v] : title, text ? tw[v] : title_width(title),
			  width[vis[v]], c->type != CORE_COL_STRING);
	}
	putc('\n', fp);
}

static int same(const struct core_cell *a, const struct core_cell *b, enum core_col_type type)
{
	if (!a->set || !b->set)
		return 0;
	if (type == CORE_COL_STRING)
		return a->len == b->len && !memcmp(a->v.s, b->v.s, a->len);
	return !memcmp(&a->v, &b->v, sizeof(a->v));
}

static int write_table(FILE *fp, const struct core_table *t)
{
	size_t nvis = 0, r, c, v;
	size_t *vis = calloc(t->ncols + 1, sizeof(*vis));
	int *width = calloc(t->ncols + 1, sizeof(*width));
	char **text = calloc(t->nrows * t->ncols + 1, sizeof(*text));
	int *tw = calloc(t->nrows * t->ncols + 1, sizeof(*tw));
	const char *indent = t->has_sections ? "  " : "";
	int ret = -ENOMEM;

	if (!vis || !width || !text || !tw)
		goto out;
	for (c = 0; c < t->ncols; c++) {
		if (t->cols[c].flags & CORE_COL_NO_TABLE)
			continue;
		vis[nvis++] = c;
		width[c] = title_width(t->cols[c].title ? t->cols[c].title : t->cols[c].name);
	}
	/* text[] holds each row's visible cells in order: row r at r * ncols. */
	for (r = 0; r < t->nrows; r++) {
		for (v = 0; v < nvis; v++) {
			size_t k = r * t->ncols + v;

			const struct core_cell *x = &t->cells[r * t->ncols + vis[v]];

			if (!(text[k] = table_text(&t->cols[vis[v]], x, &tw[k])))
				goto out;
			if ((t->cols[vis[v]].flags & CORE_COL_GROUP) && r && !t->rows[r].heading &&
			    same(x, x - t->ncols, t->cols[vis[v]].type)) {
				text[k][0] = '\0';
				tw[k] = 0;
			}
			if (tw[k] > width[vis[v]])
				width[vis[v]] = tw[k];
		}
	}
	for (r = 0; r < t->nrows; r++) {
		const char *h = t->rows[r].heading;

		if (h) {
			int hw;
			char *hs = sanitize(h, strlen(h), 0, &hw);

			if (!hs)
				goto out;
			fprintf(fp, "%s%s\n", r ? "\n" : "", hs);
			free(hs);
		}
		if (h || r == 0)
			table_line(fp, indent, t, vis, nvis, width, NULL, NULL);
		table_line(fp, indent, t, vis, nvis, width, text + r * t->ncols, tw + r * t->ncols);
	}
	if (!t->nrows)
		table_line(fp, indent, t, vis, nvis, width, NULL, NULL);
	ret = ferror(fp) ? -EIO : 0;
out:
	if (text)
		for (r = 0; r < t->nrows * t->ncols; r++)
			free(text[r]);
	free(text);
	free(tw);
	free(width);
	free(vis);
	return ret;
}

int core_table_write(FILE *fp, const struct core_table *t, enum core_format f)
{
	switch (f) {
	case CORE_FORMAT_CSV:
		return write_csv(fp, t);
	case CORE_FORMAT_JSON:
		return write_json(fp, t, 0);
	case CORE_FORMAT_JSONL:
		return write_json(fp, t, 1);
	default:
		return write_table(fp, t);
	}
}
