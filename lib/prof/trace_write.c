#include "prof/trace_write.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "core/csv.h"
#include "core/utf8.h"
#include "prof/trace_sort.h"

static const char *const columns[PROF_TRACE_COLUMNS] = {
	"kind", "pid", "tid", "start_ns", "end_ns", "name", "category",
	"domain", "device", "stream", "correlation", "value", "detail",
};

int prof_trace_format_parse(const char *s, enum prof_trace_format *out)
{
	if (!strcmp(s, "csv"))
		*out = PROF_TRACE_CSV;
	else if (!strcmp(s, "jsonl"))
		*out = PROF_TRACE_JSONL;
	else
		return -EINVAL;
	return 0;
}

int prof_trace_writer_init(struct prof_trace_writer *w, FILE *fp,
			   enum prof_trace_format format)
{
	w->fp = fp;
	w->format = format;
	w->sort = NULL;
	if (format == PROF_TRACE_CSV && fputs(PROF_TRACE_HEADER "\n", fp) == EOF)
		return -EIO;
	return 0;
}

static void format_value(char *buf, size_t size, double v)
{
	if (v == floor(v) && fabs(v) < 9007199254740992.0)
		snprintf(buf, size, "%.0f", v);
	else
		snprintf(buf, size, "%.17g", v);
}

/* The 13 fields as text; numbers go into `num`, NULL means absent. */
static void fields_of(const struct prof_event *ev, const char *f[PROF_TRACE_COLUMNS],
		      char num[8][32])
{
	static const unsigned bits[] = { PROF_EV_PID, PROF_EV_TID, PROF_EV_START,
		PROF_EV_END, PROF_EV_DEVICE, PROF_EV_STREAM, PROF_EV_CORRELATION };
	static const int col[] = { 1, 2, 3, 4, 8, 9, 10 };
	const int64_t vals[] = { ev->pid, ev->tid, ev->start_ns, ev->end_ns,
		ev->device, ev->stream, ev->correlation };
	size_t i;

	memset(f, 0, sizeof(*f) * PROF_TRACE_COLUMNS);
	f[0] = prof_kind_name(ev->kind);
	for (i = 0; i < sizeof(bits) / sizeof(bits[0]); i++)
		if (ev->has & bits[i]) {
			snprintf(num[i], sizeof(num[i]), "%" PRId64, vals[i]);
			f[col[i]] = num[i];
		}
	f[5] = ev->name;
	if (ev->category != PROF_CAT_NONE)
		f[6] = prof_category_name(ev->category);
	f[7] = ev->domain;
	if ((ev->has & PROF_EV_VALUE) && isfinite(ev->value)) {
		format_value(num[7], sizeof(num[7]), ev->value);
		f[11] = num[7];
	}
	f[12] = ev->detail;
}

/* 0, or the error of the stream: errno as stdio left it, else -EIO. */
static int stream_status(FILE *fp)
{
	if (!ferror(fp))
		return 0;
	return errno > 0 ? -errno : -EIO;
}

int prof_trace_write(struct prof_trace_writer *w, const struct prof_event *ev)
{
	const char *f[PROF_TRACE_COLUMNS];
	char num[8][32];
	int i, first = 1;

	if (w->sort && ev->kind != PROF_KIND_META && ev->kind != PROF_KIND_PROCESS &&
	    ev->kind != PROF_KIND_THREAD)
		return prof_trace_sort_add(w->sort, ev);
	fields_of(ev, f, num);
	if (w->format == PROF_TRACE_CSV) {
		for (i = 0; i < PROF_TRACE_COLUMNS; i++) {
			if (i > 0)
				putc(',', w->fp);
			if (f[i] && core_csv_write_field(w->fp, f[i], strlen(f[i])) < 0)
				return stream_status(w->fp);
		}
		putc('\n', w->fp);
		return stream_status(w->fp);
	}
	putc('{', w->fp);
	for (i = 0; i < PROF_TRACE_COLUMNS; i++) {
		/* Numbers (and the kind) are written bare, other fields quoted. */
		int numeric = (i >= 1 && i <= 4) || (i >= 8 && i <= 11);

		if (!f[i] || !*f[i])
			continue;
		fprintf(w->fp, "%s\"%s\":", first ? "" : ",", columns[i]);
		first = 0;
		if (numeric)
			fputs(f[i], w->fp);
		else
			core_utf8_write_json(w->fp, f[i], strlen(f[i]));
	}
	fputs("}\n", w->fp);
	return stream_status(w->fp);
}
