/* The calibration runs; see calib_run.h. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/cli.h"
#include "core/clock.h"
#include "core/spawn.h"
#include "prof/calib_run.h"
#include "prof/report_scan.h"

/* What a run records: a source alone, or everything (validation). */
#define RUN_BASE (-1)
#define RUN_ALL PROF_CALIB_NSOURCES

static const char *run_name(int kind)
{
	return kind == RUN_BASE ? "uninstrumented" : kind == RUN_ALL ? "instrumented" :
	       prof_calib_source_name(kind);
}

struct runner {
	const struct prof_calib_run_opts *o;
	int null_fd, err_fd;
	char trace[64], times[64];
	size_t done, total;
};

int prof_calib_timed(char **argv, const char *path, struct core_error *err)
{
	struct core_spawn sp = CORE_SPAWN_INIT;
	static const char *const unset[] = { PROF_CALIB_TIMES_ENV, NULL };
	struct rusage ru;
	int64_t t0, t1, cpu;
	FILE *fp;
	int st, ret;

	sp.argv = argv;
	sp.env_unset = unset;
	sp.keep_ignored = 1;
	t0 = core_clock_real_ns();
	if ((ret = core_spawn_start(&sp, err)) < 0)
		return ret;
	while (wait4(sp.pid, &st, 0, &ru) < 0)
		if (errno != EINTR)
			return core_error_errno(err, errno, "cannot wait for '%s'", argv[0]);
	t1 = core_clock_real_ns();
	cpu = ((int64_t)ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1000000000 +
	      ((int64_t)ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1000;
	if (!(fp = fopen(path, "w")))
		return core_error_errno(err, errno, "cannot open '%s'", path);
	fprintf(fp, "%lld %lld\n", (long long)(t1 - t0), (long long)cpu);
	if (fclose(fp) != 0)
		return core_error_errno(err, errno, "cannot write '%s'", path);
	return core_spawn_exit_code(st);
}

static int read_times(const char *path, int64_t *wall, int64_t *cpu, struct core_error *err)
{
	FILE *fp = fopen(path, "r");
	long long w, c;
	int n;

	if (!fp)
		return core_error_errno(err, errno, "the timing wrapper wrote no '%s'", path);
	n = fscanf(fp, "%lld %lld", &w, &c);
	fclose(fp);
	if (n != 2)
		return core_error_set(err, -EINVAL, "the timing wrapper wrote a bad '%s'", path);
	*wall = w;
	*cpu = c;
	return 0;
}

static void tail_of(int fd, char *buf, size_t size)
{
	off_t end = lseek(fd, 0, SEEK_END), from;
	ssize_t n;
	char *p;
	int lines = 0;

	buf[0] = 0;
	if (end <= 0)
		return;
	from = end > (off_t)size - 1 ? end - (off_t)size + 1 : 0;
	n = pread(fd, buf, size - 1, from);
	if (n <= 0)
		return;
	buf[n] = 0;
	while (n > 0 && buf[n - 1] == '\n')
		buf[--n] = 0;
	/* The last 5 lines, and whole lines only when cut. */
	for (p = buf + n; p > buf; p--)
		if (p[-1] == '\n' && ++lines == 5)
			break;
	if (p == buf && from > 0 && (p = strchr(buf, '\n')))
		p++;
	if (p && p != buf)
		memmove(buf, p, strlen(p) + 1);
}

static void append_log(int from, int to)
{
	char buf[65536];
	ssize_t n;
	off_t off = 0;

	while ((n = pread(from, buf, sizeof(buf), off)) > 0) {
		if (write(to, buf, (size_t)n) != n)
			return;
		off += n;
	}
}

int prof_calib_trace_events(const char *path, uint64_t events[PROF_CALIB_NSOURCES],
			    int64_t *run_ns, struct core_error *err)
{
	struct prof_calib_counts c = PROF_CALIB_COUNTS_INIT;
	struct prof_trace_reader *r = NULL;
	const struct prof_process *pr;
	const char *us;
	struct prof_ev ev;
	FILE *fp = fopen(path, "r");
	size_t n, i, k, best;
	int ret;

	memset(events, 0, PROF_CALIB_NSOURCES * sizeof(*events));
	*run_ns = -1;
	if (!fp)
		return core_error_errno(err, errno, "cannot open '%s'", path);
	if ((ret = prof_trace_reader_new(&r, fp, path, 0, err)) < 0)
		goto out;
	while ((ret = prof_trace_read(r, &ev, err)) > 0)
		if (prof_calib_count(&c, &ev) < 0) {
			ret = core_error_set(err, -ENOMEM, "out of memory");
			goto out;
		}
	if (ret < 0)
		goto out;
	us = prof_trace_meta(r, "cpu_sample_us");
	for (i = 0; i < c.n; i++)
		for (k = 0; k < PROF_CALIB_NSOURCES; k++)
			events[k] += (uint64_t)(prof_calib_events(&c.v[i], (int)k, us) + 0.5);
	n = prof_trace_processes(r, &pr);
	for (i = 0, best = n; i < n; i++) {
		if (pr[i].start == INT64_MIN || pr[i].end == INT64_MAX)
			continue;
		for (k = 0; k < n && pr[k].pid != pr[i].parent; k++)
			;
		if (k == n && (best == n || pr[i].start < pr[best].start))
			best = i;
	}
	if (best < n)
		*run_ns = pr[best].end - pr[best].start;
out:
	prof_trace_reader_free(r);
	prof_calib_counts_release(&c);
	fclose(fp);
	return ret;
}

/*
 * Run once: kind RUN_BASE, a source, or RUN_ALL; with a trace for the
 * instrumented ones.  *ns and events[] are filled.
 */
static int run_one(struct runner *rn, int kind, int64_t *ns, int64_t *cpu,
		   uint64_t events[PROF_CALIB_NSOURCES],
		   struct prof_calib_failure *fail, struct core_error *err)
{
	const struct prof_calib_run_opts *o = rn->o;
	struct core_spawn sp = CORE_SPAWN_INIT;
	static const char *const hook_on[] = { "RLPROF_PYHOOK", NULL };
	char times_env[128];
	const char *env[] = { times_env, NULL, NULL };
	char **argv, **rec = NULL;
	size_t n, i = 0;
	int st, ret;

	memset(events, 0, PROF_CALIB_NSOURCES * sizeof(*events));
	snprintf(times_env, sizeof(times_env), "%s=%s", PROF_CALIB_TIMES_ENV, rn->times);
	unlink(rn->times);
	for (n = 0; o->argv[n]; n++)
		;
	if (!(rec = calloc(n + 13, sizeof(*rec))))
		return core_error_set(err, -ENOMEM, "out of memory");
	argv = rec;
	if (kind == RUN_BASE) {
		env[1] = o->base_env;
	} else {
		rec[i++] = (char *)o->record;
		rec[i++] = "-o";
		rec[i++] = rn->trace;
		rec[i++] = "--force";
		rec[i++] = "--sample";
		rec[i++] = "0";
		if (kind == PROF_CALIB_ANNOTATIONS || kind == PROF_CALIB_PYTHON_HOOK) {
			rec[i++] = "--cpu-sample";
			rec[i++] = "0";
		}
		rec[i++] = "--";
		if (kind == PROF_CALIB_ANNOTATIONS)
			env[1] = "RLPROF_PYHOOK=off";
		else
			sp.env_unset = hook_on;
	}
	rec[i++] = (char *)o->self;
	memcpy(rec + i, o->argv, (n + 1) * sizeof(*rec));
	sp.env_set = env;
	sp.argv = argv;
	if (!o->show_output) {
		sp.out_fd = o->log_fd >= 0 ? o->log_fd : rn->null_fd;
		sp.err_fd = rn->err_fd;
		if (ftruncate(rn->err_fd, 0) < 0) {
			ret = core_error_errno(err, errno, "cannot empty a temporary file");
			goto out;
		}
	}
	if ((ret = core_spawn_start(&sp, err)) < 0) {
		fail->exec_errno = sp.exec_errno;
		goto out;
	}
	while (waitpid(sp.pid, &st, 0) < 0)
		if (errno != EINTR) {
			ret = core_error_errno(err, errno, "cannot wait for the command");
			goto out;
		}
	if (!o->show_output && o->log_fd >= 0)
		append_log(rn->err_fd, o->log_fd);
	if (core_spawn_exit_code(st)) {
		fail->run = run_name(kind);
		fail->exit_code = core_spawn_exit_code(st);
		fail->tail[0] = 0;
		if (!o->show_output)
			tail_of(rn->err_fd, fail->tail, sizeof(fail->tail));
		ret = -ECHILD;
		goto out;
	}
	if ((ret = read_times(rn->times, ns, cpu, err)) < 0)
		goto out;
	if (kind != RUN_BASE) {
		int64_t run;

		if ((ret = prof_calib_trace_events(rn->trace, events, &run, err)) < 0)
			goto out;
	}
	ret = 0;
	rn->done++;
	if (o->progress)
		o->progress(o->ctx, rn->done, rn->total);
out:
	free(rec);
	return ret;
}

static int runner_init(struct runner *rn, const struct prof_calib_run_opts *o, struct core_error *err)
{
	const char *tmp = getenv("TMPDIR");
	char path[4096];
	int fd;

	memset(rn, 0, sizeof(*rn));
	rn->o = o;
	rn->null_fd = rn->err_fd = -1;
	rn->trace[0] = rn->times[0] = 0;
	if ((rn->null_fd = open("/dev/null", O_WRONLY | O_CLOEXEC)) < 0)
		return core_error_errno(err, errno, "cannot open '/dev/null'");
	snprintf(path, sizeof(path), "%s/rlprof-calibrate-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if ((rn->err_fd = mkostemp(path, O_CLOEXEC)) < 0)
		return core_error_errno(err, errno, "cannot create a temporary file in '%s'",
					tmp && *tmp ? tmp : "/tmp");
	unlink(path);
	snprintf(path, sizeof(path), "%s/rlprof-calibrate-XXXXXX.csv", tmp && *tmp ? tmp : "/tmp");
	if ((fd = mkostemps(path, 4, O_CLOEXEC)) < 0)
		return core_error_errno(err, errno, "cannot create a temporary file in '%s'",
					tmp && *tmp ? tmp : "/tmp");
	close(fd);
	if (strlen(path) >= sizeof(rn->trace)) {
		unlink(path);
		return core_error_set(err, -ENAMETOOLONG, "TMPDIR is too long");
	}
	strcpy(rn->trace, path);
	snprintf(path, sizeof(path), "%s/rlprof-calibrate-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if ((fd = mkostemp(path, O_CLOEXEC)) < 0)
		return core_error_errno(err, errno, "cannot create a temporary file in '%s'",
					tmp && *tmp ? tmp : "/tmp");
	close(fd);
	if (strlen(path) >= sizeof(rn->times)) {
		unlink(path);
		return core_error_set(err, -ENAMETOOLONG, "TMPDIR is too long");
	}
	strcpy(rn->times, path);
	return 0;
}

static void runner_release(struct runner *rn)
{
	if (rn->null_fd >= 0)
		close(rn->null_fd);
	if (rn->err_fd >= 0)
		close(rn->err_fd);
	if (rn->trace[0])
		unlink(rn->trace);
	if (rn->times[0])
		unlink(rn->times);
}

int prof_calib_run(const struct prof_calib_run_opts *o, struct prof_calib *cal,
		   struct prof_calib_failure *fail, struct core_error *err)
{
	struct runner rn;
	uint64_t ev[PROF_CALIB_NSOURCES];
	size_t n, len = 1;
	int i, s, ret, max, hook = 1;
	int64_t ns, cpu;

	*cal = (struct prof_calib)PROF_CALIB_INIT;
	if ((ret = runner_init(&rn, o, err)) < 0)
		goto out;
	max = o->repeat > 0 ? o->repeat : PROF_CALIB_AUTO_MAX;
	rn.total = (size_t)max * (1 + PROF_CALIB_NSOURCES);
	if (prof_calib_machine(cal) < 0 || !(cal->recorder = malloc(64))) {
		ret = core_error_set(err, -ENOMEM, "out of memory");
		goto out;
	}
	snprintf(cal->recorder, 64, "rlprof-record %s", core_cli_version());
	for (n = 0; o->argv[n]; n++)
		len += strlen(o->argv[n]) + 1;
	if (!(cal->argv = calloc(n + 1, sizeof(char *))) || !(cal->command = calloc(1, len))) {
		ret = core_error_set(err, -ENOMEM, "out of memory");
		goto out;
	}
	for (n = 0; o->argv[n]; n++) {
		if (!(cal->argv[n] = strdup(o->argv[n]))) {
			ret = core_error_set(err, -ENOMEM, "out of memory");
			goto out;
		}
		if (n)
			strcat(cal->command, " ");
		strcat(cal->command, o->argv[n]);
	}
	cal->created_ns = core_clock_real_ns();
	for (i = 0; i < max; i++) {
		if ((ret = run_one(&rn, RUN_BASE, &ns, &cpu, ev, fail, err)) < 0)
			goto out;
		if (prof_calib_runs_add(&cal->base, ns, cpu, 0) < 0)
			goto nomem;
		for (s = 0; s < PROF_CALIB_NSOURCES; s++) {
			if (s == PROF_CALIB_PYTHON_HOOK && !hook)
				continue;
			if ((ret = run_one(&rn, s, &ns, &cpu, ev, fail, err)) < 0)
				goto out;
			if (prof_calib_runs_add(&cal->runs[s], ns, cpu, ev[s]) < 0)
				goto nomem;
			if (s == PROF_CALIB_PYTHON_HOOK && !ev[s]) {
				/* Not a Python command: no hook to measure. */
				hook = 0;
				rn.total -= (size_t)max - 1;
			}
		}
		if (o->repeat <= 0 && i + 1 >= PROF_CALIB_AUTO_MIN) {
			/* Enough when the correction is known well enough. */
			prof_calib_compute(cal);
			if (prof_calib_default_uncertainty(cal) <= PROF_CALIB_AUTO_PCT / 100 *
			    (double)prof_calib_runs_median_cpu(&cal->base))
				break;
		}
	}
	prof_calib_compute(cal);
	ret = 0;
	goto out;
nomem:
	ret = core_error_set(err, -ENOMEM, "out of memory");
out:
	runner_release(&rn);
	if (ret < 0)
		prof_calib_release(cal);
	return ret;
}

/* Breakdown and event counts of one trace, for validation. */
struct scan {
	struct prof_breakdown *bd;
	struct prof_calib_counts counts;
};

static int scan_event(void *ctx, const struct prof_trace_reader *r, const struct prof_ev *ev)
{
	struct scan *sc = ctx;

	if (prof_calib_count(&sc->counts, ev) < 0)
		return -ENOMEM;
	return prof_breakdown_add(sc->bd, r, ev);
}

static int scan_restart(void *ctx)
{
	struct scan *sc = ctx;

	prof_breakdown_free(sc->bd);
	sc->bd = NULL;
	prof_calib_counts_release(&sc->counts);
	return prof_breakdown_new(&sc->bd, INT64_MIN, INT64_MAX) < 0 ? -ENOMEM : 0;
}

static int correct_trace(const char *path, const struct prof_calib *cal,
			 struct prof_calib_fix *fix, struct core_error *err)
{
	struct scan sc = { NULL, PROF_CALIB_COUNTS_INIT };
	struct prof_scan_sink sink = { scan_event, scan_restart, &sc };
	struct prof_trace_reader *r = NULL;
	FILE *fp = fopen(path, "r");
	int ret;

	if (!fp)
		return core_error_errno(err, errno, "cannot open '%s'", path);
	if (prof_breakdown_new(&sc.bd, INT64_MIN, INT64_MAX) < 0) {
		ret = core_error_set(err, -ENOMEM, "out of memory");
		goto out;
	}
	if ((ret = prof_report_scan(fp, path, 0, PROF_SCAN_CHUNK_DEFAULT, &sink, &r, NULL, err)) < 0)
		goto out;
	if (prof_breakdown_finish(sc.bd, r) < 0 ||
	    prof_calib_correct(sc.bd, cal, &sc.counts, prof_trace_meta(r, "cpu_sample_us"), fix) < 0)
		ret = core_error_set(err, -ENOMEM, "out of memory");
out:
	prof_breakdown_free(sc.bd);
	prof_calib_counts_release(&sc.counts);
	prof_trace_reader_free(r);
	fclose(fp);
	return ret;
}

int prof_calib_validate(const struct prof_calib_run_opts *o, const struct prof_calib *cal,
			struct prof_calib_validation *v, struct prof_calib_failure *fail,
			struct core_error *err)
{
	struct prof_calib_runs base = { 0, NULL, NULL, NULL };
	struct runner rn;
	uint64_t ev[PROF_CALIB_NSOURCES];
	size_t i, n = o->repeat > 0 ? (size_t)o->repeat : PROF_CALIB_AUTO_MIN;
	/* Per instrumented run: */
	enum { WALL, CPU, CORRECTED, CORRECTED_CPU, REMOVED, REMOVED_CPU, CLAMPED, NCOLS };
	int64_t *col[NCOLS] = { NULL }, ns, cpu;
	int ret, k;

	memset(v, 0, sizeof(*v));
	if ((ret = runner_init(&rn, o, err)) < 0)
		goto out;
	rn.total = 2 * n;
	for (k = 0; k < NCOLS; k++)
		if (!(col[k] = calloc(n, sizeof(*col[k]))))
			goto nomem;
	for (i = 0; i < n; i++) {
		struct prof_calib_fix fix;

		memset(&fix, 0, sizeof(fix));
		if ((ret = run_one(&rn, RUN_BASE, &ns, &cpu, ev, fail, err)) < 0)
			goto out;
		if (prof_calib_runs_add(&base, ns, cpu, 0) < 0)
			goto nomem;
		if ((ret = run_one(&rn, RUN_ALL, &col[WALL][i], &col[CPU][i], ev, fail, err)) < 0 ||
		    (ret = correct_trace(rn.trace, cal, &fix, err)) < 0)
			goto out;
		col[CORRECTED][i] = col[WALL][i] - fix.removed_ns;
		col[CORRECTED_CPU][i] = col[CPU][i] - fix.removed_cpu_ns;
		col[REMOVED][i] = fix.removed_ns;
		col[REMOVED_CPU][i] = fix.removed_cpu_ns;
		col[CLAMPED][i] = fix.clamped_ns;
		v->fix = fix;
	}
	v->runs = (int)n;
	v->uninstrumented_ns = prof_calib_runs_median(&base);
	v->uninstrumented_cpu_ns = prof_calib_runs_median_cpu(&base);
	v->instrumented_ns = prof_calib_median(col[WALL], n);
	v->instrumented_cpu_ns = prof_calib_median(col[CPU], n);
	v->corrected_ns = prof_calib_median(col[CORRECTED], n);
	v->corrected_cpu_ns = prof_calib_median(col[CORRECTED_CPU], n);
	v->fix.removed_ns = prof_calib_median(col[REMOVED], n);
	v->fix.removed_cpu_ns = prof_calib_median(col[REMOVED_CPU], n);
	v->fix.clamped_ns = prof_calib_median(col[CLAMPED], n);
	if (v->uninstrumented_cpu_ns > 0) {
		v->cpu_error_pct = 100.0 * (double)(v->corrected_cpu_ns - v->uninstrumented_cpu_ns) /
				   (double)v->uninstrumented_cpu_ns;
		v->cpu_uncorrected_pct = 100.0 * (double)(v->instrumented_cpu_ns - v->uninstrumented_cpu_ns) /
					 (double)v->uninstrumented_cpu_ns;
	}
	if (v->uninstrumented_ns > 0) {
		v->error_pct = 100.0 * (double)(v->corrected_ns - v->uninstrumented_ns) /
			       (double)v->uninstrumented_ns;
		v->uncorrected_pct = 100.0 * (double)(v->instrumented_ns - v->uninstrumented_ns) /
				     (double)v->uninstrumented_ns;
	}
	ret = 0;
	goto out;
nomem:
	ret = core_error_set(err, -ENOMEM, "out of memory");
out:
	for (k = 0; k < NCOLS; k++)
		free(col[k]);
	free(base.ns);
	free(base.cpu);
	free(base.events);
	runner_release(&rn);
	return ret;
}
