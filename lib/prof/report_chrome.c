#include "prof/report_chrome.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/grow.h"
#include "core/utf8.h"
#include "prof/report.h"
#include "prof/report_filter.h"

/* Every JSON string of the trace goes through the toolkit's one escaper. */
static void json_str(FILE *fp, const char *s)
{
	core_utf8_write_json(fp, s, strlen(s));
}

enum track { TR_CPU, TR_PHASE, TR_GPU };

struct synth {
	int64_t pid, a, b;	/* TR_CPU: a = tid; TR_GPU: a = device, b = stream */
	int type;
};

struct prof_chrome {
	FILE *fp;
	struct prof_window win;	/* win.t0 is ts 0 */
	struct prof_pidset only;	/* prof_chrome_only() */
	int first;
	struct synth *syn;
	size_t nsyn, syn_cap, last;
};

static void header(struct prof_chrome *c)
{
	fputs("{\"traceEvents\":[\n", c->fp);
	c->first = 1;
}

int prof_chrome_new(struct prof_chrome **out, FILE *fp, int64_t from, int64_t to)
{
	struct prof_chrome *c = calloc(1, sizeof(*c));

	*out = c;
	if (!c)
		return -ENOMEM;
	c->fp = fp;
	prof_window_init(&c->win, from, to);
	c->last = (size_t)-1;
	header(c);
	return 0;
}

int prof_chrome_only(struct prof_chrome *c, int64_t pid)
{
	return prof_pidset_add(&c->only, pid);
}

void prof_chrome_free(struct prof_chrome *c)
{
	if (!c)
		return;
	free(c->syn);
	prof_pidset_release(&c->only);
	free(c);
}

int prof_chrome_restart(struct prof_chrome *c)
{
	fflush(c->fp);
	if (fseeko(c->fp, 0, SEEK_SET) != 0 || ftruncate(fileno(c->fp), 0) != 0)
		return -EIO;
	prof_window_reset(&c->win);
	c->nsyn = 0;
	c->last = (size_t)-1;
	header(c);
	return 0;
}

static int64_t synth_tid(struct prof_chrome *c, int64_t pid, int type, int64_t a, int64_t b)
{
	size_t i;

	if (c->last < c->nsyn) {
		const struct synth *s = &c->syn[c->last];

		if (s->pid == pid && s->type == type && s->a == a && s->b == b)
			return PROF_CHROME_TID_BASE + (int64_t)c->last;
	}
	for (i = 0; i < c->nsyn; i++) {
		const struct synth *s = &c->syn[i];

		if (s->pid == pid && s->type == type && s->a == a && s->b == b)
			break;
	}
	if (i == c->nsyn) {
		if (CORE_GROW(c->syn, c->syn_cap, c->nsyn + 1) < 0)
			return -1;
		c->syn[c->nsyn++] = (struct synth){ pid, a, b, type };
	}
	c->last = i;
	return PROF_CHROME_TID_BASE + (int64_t)i;
}

/* Microseconds with three decimals: exact to the ns as a JSON double up to 2^53 ns (104 days). */
static void ts(FILE *fp, const char *key, int64_t ns)
{
	char buf[32];

	core_fmt_duration(buf, sizeof(buf), ns, "us", 3);
	fprintf(fp, ",\"%s\":%s", key, buf);
}

int prof_chrome_event(struct prof_chrome *c, const struct prof_trace_reader *r,
		      const struct prof_ev *ev)
{
	FILE *fp = c->fp;
	int64_t tid = ev->tid, a, b;
	const char *name = prof_trace_str(r, ev->name), *cat = "op";

	if (!prof_window_clip(&c->win, ev, &a, &b))
		return 0;
	switch (ev->kind) {
	case PROF_KIND_CPU:
		tid = synth_tid(c, ev->pid, TR_CPU, ev->tid, 0);
		name = prof_category_name(ev->cat);
		cat = "cpu";
		break;
	case PROF_KIND_PHASE:
		tid = synth_tid(c, ev->pid, TR_PHASE, 0, 0);
		cat = "phase";
		break;
	case PROF_KIND_GPU:
		tid = synth_tid(c, ev->pid, TR_GPU, ev->device, ev->stream);
		cat = prof_category_name(ev->cat);
		if (!*name)
			name = cat;
		break;
	case PROF_KIND_OP:
		if (ev->domain)
			cat = prof_trace_str(r, ev->domain);
		break;
	case PROF_KIND_MARK:
		cat = "mark";
		break;
	case PROF_KIND_SAMPLE:
		cat = prof_category_name(ev->cat);
		break;
	case PROF_KIND_COUNTER:
		cat = "counter";
		break;
	case PROF_KIND_WARNING:
		name = "warning";
		cat = "warning";
		break;
	default:
		return 0;
	}
	if (tid < 0)
		return -ENOMEM;
	fputs(c->first ? "" : ",\n", fp);
	c->first = 0;
	fputs("{\"name\":", fp);
	core_utf8_write_json(fp, name, strlen(name));
	fputs(",\"cat\":", fp);
	core_utf8_write_json(fp, cat, strlen(cat));
	switch (ev->kind) {
	case PROF_KIND_MARK:
	case PROF_KIND_SAMPLE:
		fputs(",\"ph\":\"i\",\"s\":\"t\"", fp);
		break;
	case PROF_KIND_WARNING:
		fputs(",\"ph\":\"i\",\"s\":\"p\"", fp);
		break;
	case PROF_KIND_COUNTER:
		fputs(",\"ph\":\"C\"", fp);
		break;
	default:
		fputs(",\"ph\":\"X\"", fp);
		break;
	}
	ts(fp, "ts", a - c->win.t0);
	if (ev->kind != PROF_KIND_MARK && ev->kind != PROF_KIND_WARNING &&
	    ev->kind != PROF_KIND_COUNTER && ev->kind != PROF_KIND_SAMPLE)
		ts(fp, "dur", b - a);
	fprintf(fp, ",\"pid\":%" PRId64 ",\"tid\":%" PRId64, ev->pid, tid);
	switch (ev->kind) {
	case PROF_KIND_OP:
		fprintf(fp, ",\"args\":{\"depth\":%.0f%s}", ev->value,
			ev->unclosed ? ",\"unclosed\":true" : "");
		break;
	case PROF_KIND_COUNTER:
		fputs(",\"args\":{", fp);
		core_utf8_write_json(fp, name, strlen(name));
		fprintf(fp, ":%.17g}", ev->value);
		break;
	case PROF_KIND_SAMPLE:
		fprintf(fp, ",\"args\":{\"cpu_ns\":%.0f}", ev->value);
		break;
	case PROF_KIND_WARNING:
		fputs(",\"args\":{\"detail\":", fp);
		json_str(fp, prof_trace_str(r, ev->detail));
		fputs("}", fp);
		break;
	default:
		break;
	}
	fputs("}", fp);
	return ferror(fp) ? -EIO : 0;
}

static void meta(struct prof_chrome *c, const char *what, int64_t pid, int64_t tid,
		 const char *name)
{
	fputs(c->first ? "" : ",\n", c->fp);
	c->first = 0;
	fprintf(c->fp, "{\"name\":\"%s\",\"ph\":\"M\",\"pid\":%" PRId64, what, pid);
	if (tid >= 0)
		fprintf(c->fp, ",\"tid\":%" PRId64, tid);
	fputs(",\"args\":{\"name\":", c->fp);
	core_utf8_write_json(c->fp, name, strlen(name));
	fputs("}}", c->fp);
}

int prof_chrome_finish(struct prof_chrome *c, const struct prof_trace_reader *r)
{
	const struct prof_process *pr;
	const struct prof_thread *th;
	size_t np = prof_trace_processes(r, &pr), nt = prof_trace_threads(r, &th), i;
	char buf[96];

	for (i = 0; i < np; i++) {
		const char *n = prof_trace_str(r, pr[i].name);

		if (!prof_pidset_has(&c->only, pr[i].pid))
			continue;
		snprintf(buf, sizeof(buf), "%.70s%spid %" PRId64, n, *n ? " " : "", pr[i].pid);
		meta(c, "process_name", pr[i].pid, -1, buf);
	}
	for (i = 0; i < nt; i++)
		if (th[i].name && prof_pidset_has(&c->only, th[i].pid))
			meta(c, "thread_name", th[i].pid, th[i].tid, prof_trace_str(r, th[i].name));
	for (i = 0; i < c->nsyn; i++) {
		const struct synth *s = &c->syn[i];
		int64_t tid = PROF_CHROME_TID_BASE + (int64_t)i;

		if (s->type == TR_CPU)
			snprintf(buf, sizeof(buf), "%" PRId64 " cpu", s->a);
		else if (s->type == TR_PHASE)
			snprintf(buf, sizeof(buf), "phases");
		else if (s->b >= 0)
			snprintf(buf, sizeof(buf), "GPU %" PRId64 " stream %" PRId64, s->a, s->b);
		else
			snprintf(buf, sizeof(buf), "GPU %" PRId64, s->a);
		meta(c, "thread_name", s->pid, tid, buf);
		fprintf(c->fp, ",\n{\"name\":\"thread_sort_index\",\"ph\":\"M\",\"pid\":%" PRId64
			",\"tid\":%" PRId64 ",\"args\":{\"sort_index\":%" PRId64 "}}",
			s->pid, tid, (int64_t)(s->type == TR_GPU ? 2000000 : 1000000) + (int64_t)i);
	}
	fprintf(c->fp, "\n],\"displayTimeUnit\":\"ms\",\"otherData\":{\"producer\":\"rlprof-report\",\"trace\":");
	json_str(c->fp, prof_trace_name(r));
	/* A string: a JSON number cannot hold epoch nanoseconds exactly. */
	fprintf(c->fp, ",\"start_ns\":\"%" PRId64 "\"}}\n", c->win.t0);
	return ferror(c->fp) ? -EIO : 0;
}
