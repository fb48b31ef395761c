#include "prof/report_scan.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/grow.h"
#include "prof/breakdown.h"
#include "prof/trace_sort.h"

#define RUN_BUF 4096

struct run {
	FILE *fp;
	struct prof_ev *buf;
	size_t n, pos;
};

FILE *prof_report_tmpfile(void)
{
	const char *dir = getenv("TMPDIR");
	char path[4096];
	FILE *fp;
	int fd;

	if (!dir || !*dir)
		dir = "/tmp";
	if ((size_t)snprintf(path, sizeof(path), "%s/rlprof-report.XXXXXX", dir) >= sizeof(path)) {
		errno = ENAMETOOLONG;
		return NULL;
	}
	if ((fd = mkstemp(path)) < 0)
		return NULL;
	unlink(path);
	if (!(fp = fdopen(fd, "w+")))
		close(fd);
	return fp;
}

struct key {
	uint64_t start;		/* start_ns, offset so that the smallest is 0 */
	uint32_t idx;
};

static int key_cmp(const void *a, const void *b, void *v)
{
	const struct prof_ev *ev = v;

	return prof_ev_cmp(&ev[((const struct key *)a)->idx], &ev[((const struct key *)b)->idx]);
}

/*
 * Sort v in the order of prof_ev_cmp: a stable radix sort of start times
 * (byte digits that all keys share are skipped), a comparison sort of
 * the events that start together, then the events moved into place following
 * the cycles of the permutation.  Returns 0 or -ENOMEM.
 */
static int sort_events(struct prof_ev *v, size_t n)
{
	struct key *k = malloc(n * sizeof(*k)), *t = malloc(n * sizeof(*t)), *sw;
	int64_t min = INT64_MAX;
	size_t i, j, cnt[256];
	int d;

	if (!k || !t) {
		free(k);
		free(t);
		return -ENOMEM;
	}
	for (i = 0; i < n; i++)
		if (v[i].start < min)
			min = v[i].start;
	for (i = 0; i < n; i++)
		k[i] = (struct key){ (uint64_t)v[i].start - (uint64_t)min, (uint32_t)i };
	for (d = 0; d < 64; d += 8) {
		size_t sum = 0;

		memset(cnt, 0, sizeof(cnt));
		for (i = 0; i < n; i++)
			cnt[(k[i].start >> d) & 0xff]++;
		if (cnt[(k[0].start >> d) & 0xff] == n)
			continue;
		for (i = 0; i < 256; i++) {
			size_t c = cnt[i];

			cnt[i] = sum;
			sum += c;
		}
		for (i = 0; i < n; i++)
			t[cnt[(k[i].start >> d) & 0xff]++] = k[i];
		sw = k;
		k = t;
		t = sw;
	}
	/* Events starting together: by the rest of prof_ev_cmp. */
	for (i = 0; i < n; i = j) {
		for (j = i + 1; j < n && k[j].start == k[i].start; j++)
			;
		if (j - i > 1)
			qsort_r(k + i, j - i, sizeof(*k), key_cmp, v);
	}
	for (i = 0; i < n; i++) {
		struct prof_ev tmp;
		size_t at = i;

		if (k[i].idx == i || k[i].idx == UINT32_MAX)
			continue;
		tmp = v[i];
		for (;;) {
			size_t from = k[at].idx;

			k[at].idx = UINT32_MAX;
			if (from == i) {
				v[at] = tmp;
				break;
			}
			v[at] = v[from];
			at = from;
		}
	}
	free(k);
	free(t);
	return 0;
}

static int sink_err(int ret, const char *name, struct core_error *err)
{
	if (err && !err->code)
		core_error_set(err, ret, "out of memory analysing '%s'", name);
	return ret;
}

static int write_run(struct prof_ev *v, size_t n, struct run **runs, size_t *nruns,
		     size_t *cap, const char *name, struct core_error *err)
{
	struct run *nr;
	FILE *fp;

	if (CORE_GROW(*runs, *cap, *nruns + 1) < 0)
		return core_error_set(err, -ENOMEM, "out of memory");
	nr = *runs;
	if (sort_events(v, n) < 0)
		return core_error_set(err, -ENOMEM, "out of memory");
	if (!(fp = prof_report_tmpfile()))
		return core_error_errno(err, errno, "creating a temporary file to sort '%s'", name);
	if (fwrite(v, sizeof(*v), n, fp) != n || fflush(fp) != 0) {
		fclose(fp);
		return core_error_errno(err, errno ? errno : EIO,
					"writing a temporary file to sort '%s'", name);
	}
	rewind(fp);
	nr[*nruns] = (struct run){ fp, NULL, 0, 0 };
	(*nruns)++;
	return 0;
}

static int run_fill(struct run *r)
{
	r->pos = 0;
	r->n = fread(r->buf, sizeof(*r->buf), RUN_BUF, r->fp);
	return ferror(r->fp) ? -EIO : 0;
}

/* Restore the heap of run indices (ordered by each run's head) below j. */
static void sift_down(const struct run *runs, size_t *heap, size_t nh, size_t j)
{
	size_t c, t;

#define HEAD(k) (&runs[heap[k]].buf[runs[heap[k]].pos])
	while ((c = 2 * j + 1) < nh) {
		if (c + 1 < nh && prof_ev_cmp(HEAD(c + 1), HEAD(c)) < 0)
			c++;
		if (prof_ev_cmp(HEAD(c), HEAD(j)) >= 0)
			break;
		t = heap[c];
		heap[c] = heap[j];
		heap[j] = t;
		j = c;
	}
#undef HEAD
}

/* Merge the runs into the sink with a heap of run indices. */
static int merge(struct run *runs, size_t nruns, const struct prof_scan_sink *sink,
		 const struct prof_trace_reader *rd, const char *name, struct core_error *err)
{
	size_t *heap = malloc(nruns * sizeof(*heap)), nh = 0, i;
	int ret = 0;

	if (!heap)
		return core_error_set(err, -ENOMEM, "out of memory");
	for (i = 0; i < nruns; i++) {
		if (!(runs[i].buf = malloc(RUN_BUF * sizeof(*runs[i].buf)))) {
			ret = core_error_set(err, -ENOMEM, "out of memory");
			goto out;
		}
		if (run_fill(&runs[i]) < 0)
			goto ioerr;
		if (runs[i].n)
			heap[nh++] = i;
	}
	/* Heapify, then pop the smallest head until every run is empty. */
	for (i = nh / 2; i-- > 0;)
		sift_down(runs, heap, nh, i);
	while (nh) {
		struct run *r = &runs[heap[0]];

		if ((ret = sink->event(sink->ctx, rd, &r->buf[r->pos])) < 0) {
			sink_err(ret, name, err);
			goto out;
		}
		if (++r->pos == r->n && run_fill(r) < 0)
			goto ioerr;
		if (!r->n)
			heap[0] = heap[--nh];
		sift_down(runs, heap, nh, 0);
	}
	goto out;
ioerr:
	ret = core_error_errno(err, EIO, "reading a temporary file to sort '%s'", name);
out:
	free(heap);
	return ret;
}

/* Second pass: sort in chunks, spill runs, merge. */
static int sorted_pass(struct prof_trace_reader *rd, size_t chunk,
		       const struct prof_scan_sink *sink, const char *name,
		       struct prof_scan_stats *stats, struct core_error *err)
{
	struct prof_ev *v = malloc(chunk * sizeof(*v));
	struct run *runs = NULL;
	size_t n = 0, nruns = 0, runs_cap = 0, i;
	int ret = 0;

	if (!v)
		return core_error_set(err, -ENOMEM, "out of memory");
	for (;;) {
		ret = prof_trace_read(rd, &v[n], err);
		if (ret < 0)
			goto out;
		if (ret > 0 && stats)
			stats->events++;
		if (ret > 0 && ++n < chunk)
			continue;
		if (ret == 0 && !nruns)
			break;
		if (n) {
			int wret = write_run(v, n, &runs, &nruns, &runs_cap, name, err);

			if (wret < 0) {
				ret = wret;
				goto out;
			}
		}
		n = 0;
		if (ret == 0)
			break;
	}
	if (stats)
		stats->runs = nruns;
	ret = 0;
	if (!nruns) {
		if (sort_events(v, n) < 0) {
			ret = core_error_set(err, -ENOMEM, "out of memory");
			goto out;
		}
		for (i = 0; i < n && ret >= 0; i++)
			ret = sink->event(sink->ctx, rd, &v[i]);
		if (ret < 0)
			sink_err(ret, name, err);
	} else {
		free(v);
		v = NULL;
		ret = merge(runs, nruns, sink, rd, name, err);
	}
out:
	for (i = 0; i < nruns; i++) {
		fclose(runs[i].fp);
		free(runs[i].buf);
	}
	free(runs);
	free(v);
	return ret;
}

/* Whether the trace's writer says its rows are in the order we read. */
static int promised(const struct prof_trace_reader *rd)
{
	const char *o = prof_trace_meta(rd, PROF_TRACE_ORDER_META);

	return o && !strcmp(o, PROF_TRACE_ORDER_START);
}

int prof_report_scan(FILE *fp, const char *name, int read_flags, size_t chunk,
		     const struct prof_scan_sink *sink,
		     struct prof_trace_reader **reader,
		     struct prof_scan_stats *stats, struct core_error *err)
{
	struct prof_trace_reader *rd = NULL;
	struct prof_ev ev, prev;
	struct stat sb;
	FILE *tee = NULL;
	off_t start = -1;
	int ret, have = 0, no_restart = 0;

	*reader = NULL;
	if (stats)
		memset(stats, 0, sizeof(*stats));
	if (chunk < 2)
		chunk = 2;
	if (chunk > (1u << 30))
		chunk = 1u << 30;
	if (fstat(fileno(fp), &sb) == 0 && S_ISREG(sb.st_mode))
		start = ftello(fp);
	if ((ret = prof_trace_reader_new(&rd, fp, name, read_flags, err)) < 0)
		return ret;
	if (start < 0) {
		if (!(tee = prof_report_tmpfile())) {
			ret = core_error_errno(err, errno, "creating a temporary file to sort '%s'", name);
			goto fail;
		}
		prof_trace_reader_tee(rd, tee);
	}
	while ((ret = prof_trace_read(rd, &ev, err)) > 0) {
		if (!have && tee && promised(rd)) {
			/* Ordered by its writer: no copy to read again. */
			prof_trace_reader_tee(rd, NULL);
			fclose(tee);
			tee = NULL;
			no_restart = 1;
		}
		if (have && ev.start <= prev.start && prof_ev_cmp(&prev, &ev) > 0) {
			if (no_restart) {
				ret = core_error_set(err, -EBADMSG, "'%s': line %lld: out of time order, "
						     "though its meta row '%s' says it is in order",
						     name, (long long)ev.line, PROF_TRACE_ORDER_META);
				goto fail;
			}
			break;
		}
		if ((ret = sink->event(sink->ctx, rd, &ev)) < 0) {
			sink_err(ret, name, err);
			goto fail;
		}
		if (stats)
			stats->events++;
		/* What prof_ev_cmp looks at. */
		prev.start = ev.start;
		prev.end = ev.end;
		prev.value = ev.value;
		prev.line = ev.line;
		have = 1;
	}
	if (ret < 0)
		goto fail;
	if (ret == 0) {
		if (stats)
			stats->sorted = 1;
		if (tee)
			fclose(tee);
		*reader = rd;
		return 0;
	}
	/* Out of order: start again, sorting. */
	prof_trace_reader_free(rd);
	rd = NULL;
	if ((ret = sink->restart(sink->ctx)) < 0) {
		sink_err(ret, name, err);
		goto fail;
	}
	if (tee) {
		if (fflush(tee) != 0) {
			ret = core_error_errno(err, errno, "writing a temporary file to sort '%s'", name);
			goto fail;
		}
		rewind(tee);
	} else if (fseeko(fp, start, SEEK_SET) != 0) {
		ret = core_error_errno(err, errno, "rewinding '%s'", name);
		goto fail;
	}
	if ((ret = prof_trace_reader_new2(&rd, tee, fp, name, read_flags, err)) < 0)
		goto fail;
	if (stats)
		stats->events = 0;
	ret = sorted_pass(rd, chunk, sink, name, stats, err);
	if (ret < 0)
		goto fail;
	if (tee)
		fclose(tee);
	*reader = rd;
	return 0;
fail:
	if (tee)
		fclose(tee);
	prof_trace_reader_free(rd);
	return ret;
}
