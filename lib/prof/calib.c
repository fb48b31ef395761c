/* Calibration files and the per-source costs; see calib.h. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "core/grow.h"
#include "core/json.h"
#include "prof/calib.h"

static const char *const source_names[PROF_CALIB_NSOURCES] = {
	"annotations", "python-hook", "cpu-sampling",
};

const char *prof_calib_source_name(int s)
{
	return s >= 0 && s < PROF_CALIB_NSOURCES ? source_names[s] : "unknown";
}

int prof_calib_source_parse(const char *s)
{
	int i;

	for (i = 0; i < PROF_CALIB_NSOURCES; i++)
		if (!strcmp(s, source_names[i]))
			return i;
	return -1;
}

static void runs_release(struct prof_calib_runs *r)
{
	free(r->ns);
	free(r->cpu);
	free(r->events);
	memset(r, 0, sizeof(*r));
}

void prof_calib_release(struct prof_calib *cal)
{
	size_t i;
	int s;

	free(cal->recorder);
	free(cal->host);
	free(cal->kernel);
	free(cal->arch);
	free(cal->cpu_model);
	free(cal->command);
	for (i = 0; cal->argv && cal->argv[i]; i++)
		free(cal->argv[i]);
	free(cal->argv);
	runs_release(&cal->base);
	for (s = 0; s < PROF_CALIB_NSOURCES; s++)
		runs_release(&cal->runs[s]);
	*cal = (struct prof_calib)PROF_CALIB_INIT;
}

int prof_calib_runs_add(struct prof_calib_runs *r, int64_t ns, int64_t cpu, uint64_t events)
{
	int64_t *t = realloc(r->ns, (r->n + 1) * sizeof(*t));
	uint64_t *e;

	if (!t)
		return -ENOMEM;
	r->ns = t;
	if (!(t = realloc(r->cpu, (r->n + 1) * sizeof(*t))))
		return -ENOMEM;
	r->cpu = t;
	r->cpu[r->n] = cpu;
	if (!(e = realloc(r->events, (r->n + 1) * sizeof(*e))))
		return -ENOMEM;
	r->events = e;
	r->ns[r->n] = ns;
	r->events[r->n++] = events;
	return 0;
}

static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

int64_t prof_calib_median(const int64_t *v, size_t n)
{
	int64_t *t, m;

	if (!n)
		return 0;
	if (!(t = malloc(n * sizeof(*t))))
		return v[n / 2];
	memcpy(t, v, n * sizeof(*t));
	qsort(t, n, sizeof(*t), cmp_i64);
	m = n % 2 ? t[n / 2] : t[n / 2 - 1] + (t[n / 2] - t[n / 2 - 1]) / 2;
	free(t);
	return m;
}

int64_t prof_calib_runs_median(const struct prof_calib_runs *r)
{
	return prof_calib_median(r->ns, r->n);
}

int64_t prof_calib_runs_median_cpu(const struct prof_calib_runs *r)
{
	return prof_calib_median(r->cpu, r->n);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* The cost per event of each repeat of source s into v (room for its
 * runs); how many. */
static size_t repeat_costs(const struct prof_calib *cal, int s, double *v)
{
	const struct prof_calib_runs *on = &cal->runs[s];
	const struct prof_calib_runs *base = s == PROF_CALIB_ANNOTATIONS ? &cal->base :
					     &cal->runs[PROF_CALIB_ANNOTATIONS];
	size_t i, n = 0;

	for (i = 0; i < on->n && i < base->n; i++)
		if (on->events[i])
			v[n++] = (double)(on->cpu[i] - base->cpu[i]) / (double)on->events[i];
	return n;
}

static double median_sorted(const double *v, size_t n)
{
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

void prof_calib_compute(struct prof_calib *cal)
{
	int s;

	for (s = 0; s < PROF_CALIB_NSOURCES; s++) {
		struct prof_calib_cost *c = &cal->cost[s];
		size_t cap = cal->runs[s].n, n, i;
		double sum = 0, sq = 0, *v = cap ? malloc(cap * sizeof(*v)) : NULL;

		n = v ? repeat_costs(cal, s, v) : 0;
		for (i = 0; i < n; i++) {
			sum += v[i];
			sq += v[i] * v[i];
		}
		c->measured = n > 0;
		c->samples = n;
		c->mean = n ? sum / (double)n : 0;
		c->spread = n > 1 ? sqrt(fmax(0, (sq - sum * sum / (double)n) / (double)(n - 1))) : 0;
		if (n) {
			qsort(v, n, sizeof(*v), cmp_double);
			c->ns = median_sorted(v, n);
		}
		free(v);
	}
}

double prof_calib_uncertainty(const struct prof_calib *cal, int s)
{
	const struct prof_calib_runs *r = &cal->runs[s];
	double *v = r->n ? malloc(r->n * sizeof(*v)) : NULL, se = 0;
	size_t n = v ? repeat_costs(cal, s, v) : 0, i;

	if (n >= 2) {
		for (i = 0; i < n; i++)
			v[i] = fabs(v[i] - cal->cost[s].ns);
		qsort(v, n, sizeof(*v), cmp_double);
		se = 1.2533 * 1.4826 * median_sorted(v, n) / sqrt((double)n);
	}
	free(v);
	return se;
}

double prof_calib_events_median(const struct prof_calib *cal, int s)
{
	const struct prof_calib_runs *r = &cal->runs[s];
	int64_t *e = r->n ? malloc(r->n * sizeof(*e)) : NULL;
	double m = 0;
	size_t i;

	if (e) {
		for (i = 0; i < r->n; i++)
			e[i] = (int64_t)r->events[i];
		m = (double)prof_calib_median(e, r->n);
	}
	free(e);
	return m;
}

double prof_calib_default_uncertainty(const struct prof_calib *cal)
{
	return prof_calib_uncertainty(cal, PROF_CALIB_ANNOTATIONS) *
	       prof_calib_events_median(cal, PROF_CALIB_ANNOTATIONS) +
	       prof_calib_uncertainty(cal, PROF_CALIB_CPU_SAMPLING) *
	       prof_calib_events_median(cal, PROF_CALIB_CPU_SAMPLING);
}

static char *cpu_model(void)
{
	FILE *fp = fopen("/proc/cpuinfo", "r");
	char line[512], *p, *v = NULL;

	while (fp && !v && fgets(line, sizeof(line), fp)) {
		if (strncmp(line, "model name", 10) && strncmp(line, "Model", 5) &&
		    strncmp(line, "cpu model", 9))
			continue;
		if (!(p = strchr(line, ':')))
			continue;
		p += 1 + strspn(p + 1, " \t");
		p[strcspn(p, "\n")] = 0;
		v = strdup(p);
	}
	if (fp)
		fclose(fp);
	return v ? v : strdup("unknown");
}

int prof_calib_machine(struct prof_calib *cal)
{
	struct utsname u;
	char host[256] = "";

	if (uname(&u) < 0)
		memset(&u, 0, sizeof(u));
	gethostname(host, sizeof(host) - 1);
	cal->host = strdup(host);
	cal->kernel = malloc(strlen(u.sysname) + strlen(u.release) + 2);
	if (cal->kernel)
		sprintf(cal->kernel, "%s %s", u.sysname, u.release);
	cal->arch = strdup(u.machine);
	cal->cpu_model = cpu_model();
	cal->cpus = sysconf(_SC_NPROCESSORS_ONLN);
	return cal->host && cal->kernel && cal->arch && cal->cpu_model ? 0 : -ENOMEM;
}

/* --- JSON --- */

static json_t *runs_json(const struct prof_calib_runs *r, int events)
{
	json_t *o = json_object(), *t = json_array(), *u = json_array(), *e = events ? json_array() : NULL;
	size_t i;

	for (i = 0; i < r->n; i++) {
		json_array_append_new(t, json_integer(r->ns[i]));
		json_array_append_new(u, json_integer(r->cpu[i]));
		if (e)
			json_array_append_new(e, json_integer((json_int_t)r->events[i]));
	}
	json_object_set_new(o, "runs_ns", t);
	json_object_set_new(o, "cpu_ns", u);
	if (e)
		json_object_set_new(o, "events", e);
	json_object_set_new(o, "median_ns", json_integer(prof_calib_runs_median(r)));
	json_object_set_new(o, "median_cpu_ns", json_integer(prof_calib_runs_median_cpu(r)));
	return o;
}

static json_t *str_or_null(const char *s)
{
	return s ? json_string(s) : json_null();
}

json_t *prof_calib_to_json(const struct prof_calib *cal)
{
	json_t *root = json_object(), *m = json_object(), *cmd = json_array(), *srcs = json_object();
	size_t i;
	int s;

	if (!root || !m || !cmd || !srcs) {
		json_decref(root);
		json_decref(m);
		json_decref(cmd);
		json_decref(srcs);
		return NULL;
	}
	json_object_set_new(root, "format", json_string("rlprof-calibration"));
	json_object_set_new(root, "version", json_integer(1));
	json_object_set_new(root, "recorder", str_or_null(cal->recorder));
	json_object_set_new(m, "host", str_or_null(cal->host));
	json_object_set_new(m, "kernel", str_or_null(cal->kernel));
	json_object_set_new(m, "arch", str_or_null(cal->arch));
	json_object_set_new(m, "cpu_model", str_or_null(cal->cpu_model));
	json_object_set_new(m, "cpus", json_integer(cal->cpus));
	json_object_set_new(root, "machine", m);
	for (i = 0; cal->argv && cal->argv[i]; i++)
		json_array_append_new(cmd, json_string(cal->argv[i]));
	json_object_set_new(root, "command", cmd);
	json_object_set_new(root, "created_ns", json_integer(cal->created_ns));
	json_object_set_new(root, "repeat", json_integer((json_int_t)cal->base.n));
	json_object_set_new(root, "uninstrumented", runs_json(&cal->base, 0));
	for (s = 0; s < PROF_CALIB_NSOURCES; s++) {
		const struct prof_calib_cost *c = &cal->cost[s];
		json_t *o = runs_json(&cal->runs[s], 1);

		if (c->measured) {
			json_object_set_new(o, "ns_per_event", json_real(c->ns));
			json_object_set_new(o, "mean_ns_per_event", json_real(c->mean));
			json_object_set_new(o, "spread_ns", json_real(c->spread));
		} else {
			json_object_set_new(o, "ns_per_event", json_null());
			json_object_set_new(o, "mean_ns_per_event", json_null());
			json_object_set_new(o, "spread_ns", json_null());
		}
		json_object_set_new(o, "samples", json_integer((json_int_t)c->samples));
		json_object_set_new(srcs, source_names[s], o);
	}
	json_object_set_new(root, "sources", srcs);
	return root;
}

static int bad(struct core_error *err, const char *name, const char *field, const char *what)
{
	return core_error_set(err, -EINVAL, "'%s': %s: %s", name, field, what);
}

static int get_str(const json_t *o, const char *key, char **out, int optional,
		   const char *name, const char *field, struct core_error *err)
{
	const json_t *v = json_object_get(o, key);

	if ((!v || json_is_null(v)) && optional)
		return 0;
	if (!json_is_string(v))
		return bad(err, name, field, v ? "not a string" : "missing");
	if (!(*out = strdup(json_string_value(v))))
		return core_error_set(err, -ENOMEM, "out of memory");
	return 0;
}

static int get_runs(const json_t *o, struct prof_calib_runs *r, int events,
		    const char *name, const char *field, struct core_error *err)
{
	const json_t *t = json_object_get(o, "runs_ns"), *e = json_object_get(o, "events");
	const json_t *u = json_object_get(o, "cpu_ns");
	char f[96];
	size_t i;

	snprintf(f, sizeof(f), "%s.runs_ns", field);
	if (!json_is_array(t))
		return bad(err, name, f, t ? "not an array" : "missing");
	if (events && (!json_is_array(e) || json_array_size(e) != json_array_size(t))) {
		snprintf(f, sizeof(f), "%s.events", field);
		return bad(err, name, f, !e ? "missing" : !json_is_array(e) ? "not an array" :
			   "not as long as runs_ns");
	}
	if (u && (!json_is_array(u) || json_array_size(u) != json_array_size(t))) {
		snprintf(f, sizeof(f), "%s.cpu_ns", field);
		return bad(err, name, f, !json_is_array(u) ? "not an array" : "not as long as runs_ns");
	}
	for (i = 0; i < json_array_size(t); i++) {
		const json_t *v = json_array_get(t, i), *n = events ? json_array_get(e, i) : NULL;
		const json_t *cv = u ? json_array_get(u, i) : v;

		if (!json_is_integer(v) || json_integer_value(v) < 0) {
			snprintf(f, sizeof(f), "%s.runs_ns[%zu]", field, i);
			return bad(err, name, f, "not a non-negative integer");
		}
		if (events && (!json_is_integer(n) || json_integer_value(n) < 0)) {
			snprintf(f, sizeof(f), "%s.events[%zu]", field, i);
			return bad(err, name, f, "not a non-negative integer");
		}
		if (!json_is_integer(cv) || json_integer_value(cv) < 0) {
			snprintf(f, sizeof(f), "%s.cpu_ns[%zu]", field, i);
			return bad(err, name, f, "not a non-negative integer");
		}
		if (prof_calib_runs_add(r, json_integer_value(v), json_integer_value(cv),
					n ? (uint64_t)json_integer_value(n) : 0) < 0)
			return core_error_set(err, -ENOMEM, "out of memory");
	}
	return 0;
}

static int get_cost(const json_t *o, struct prof_calib_cost *c, const char *name,
		    const char *field, struct core_error *err)
{
	const json_t *m = json_object_get(o, "ns_per_event"), *s = json_object_get(o, "spread_ns");
	const json_t *n = json_object_get(o, "samples");
	char f[96];

	snprintf(f, sizeof(f), "%s.ns_per_event", field);
	if (!m)
		return bad(err, name, f, "missing");
	if (json_is_null(m))
		return 0;
	if (!json_is_number(m) || !isfinite(json_number_value(m)))
		return bad(err, name, f, "not a number or null");
	c->measured = 1;
	c->ns = c->mean = json_number_value(m);
	if ((m = json_object_get(o, "mean_ns_per_event")) && !json_is_null(m)) {
		snprintf(f, sizeof(f), "%s.mean_ns_per_event", field);
		if (!json_is_number(m) || !isfinite(json_number_value(m)))
			return bad(err, name, f, "not a number or null");
		c->mean = json_number_value(m);
	}
	if (s && !json_is_null(s)) {
		snprintf(f, sizeof(f), "%s.spread_ns", field);
		if (!json_is_number(s) || json_number_value(s) < 0)
			return bad(err, name, f, "not a non-negative number");
		c->spread = json_number_value(s);
	}
	if (json_is_integer(n) && json_integer_value(n) >= 0)
		c->samples = (size_t)json_integer_value(n);
	return 0;
}

static int from_json(struct prof_calib *cal, const json_t *root, const char *name,
		     struct core_error *err)
{
	const json_t *v, *m, *cmd, *srcs;
	size_t i, len = 1;
	int s, ret;

	if (!json_is_object(root))
		return bad(err, name, "the document", "not an object");
	v = json_object_get(root, "format");
	if (!json_is_string(v) || strcmp(json_string_value(v), "rlprof-calibration"))
		return bad(err, name, "format", "not \"rlprof-calibration\"");
	v = json_object_get(root, "version");
	if (!json_is_integer(v))
		return bad(err, name, "version", v ? "not an integer" : "missing");
	if (json_integer_value(v) != 1)
		return bad(err, name, "version", "unknown version (this program reads 1)");
	if ((ret = get_str(root, "recorder", &cal->recorder, 1, name, "recorder", err)) < 0)
		return ret;
	m = json_object_get(root, "machine");
	if (!json_is_object(m))
		return bad(err, name, "machine", m ? "not an object" : "missing");
	if ((ret = get_str(m, "host", &cal->host, 1, name, "machine.host", err)) < 0 ||
	    (ret = get_str(m, "kernel", &cal->kernel, 1, name, "machine.kernel", err)) < 0 ||
	    (ret = get_str(m, "arch", &cal->arch, 1, name, "machine.arch", err)) < 0 ||
	    (ret = get_str(m, "cpu_model", &cal->cpu_model, 1, name, "machine.cpu_model", err)) < 0)
		return ret;
	if (json_is_integer(json_object_get(m, "cpus")))
		cal->cpus = (long)json_integer_value(json_object_get(m, "cpus"));
	cmd = json_object_get(root, "command");
	if (!json_is_array(cmd) || !json_array_size(cmd))
		return bad(err, name, "command", cmd ? "not a non-empty array" : "missing");
	if (!(cal->argv = calloc(json_array_size(cmd) + 1, sizeof(char *))))
		return core_error_set(err, -ENOMEM, "out of memory");
	for (i = 0; i < json_array_size(cmd); i++) {
		if (!json_is_string(json_array_get(cmd, i)))
			return bad(err, name, "command", "not an array of strings");
		if (!(cal->argv[i] = strdup(json_string_value(json_array_get(cmd, i)))))
			return core_error_set(err, -ENOMEM, "out of memory");
		len += strlen(cal->argv[i]) + 1;
	}
	if (!(cal->command = calloc(1, len)))
		return core_error_set(err, -ENOMEM, "out of memory");
	for (i = 0; cal->argv[i]; i++) {
		if (i)
			strcat(cal->command, " ");
		strcat(cal->command, cal->argv[i]);
	}
	v = json_object_get(root, "created_ns");
	if (json_is_integer(v))
		cal->created_ns = json_integer_value(v);
	v = json_object_get(root, "uninstrumented");
	if (!json_is_object(v))
		return bad(err, name, "uninstrumented", v ? "not an object" : "missing");
	if ((ret = get_runs(v, &cal->base, 0, name, "uninstrumented", err)) < 0)
		return ret;
	srcs = json_object_get(root, "sources");
	if (!json_is_object(srcs))
		return bad(err, name, "sources", srcs ? "not an object" : "missing");
	for (s = 0; s < PROF_CALIB_NSOURCES; s++) {
		char f[64];

		snprintf(f, sizeof(f), "sources.%s", source_names[s]);
		v = json_object_get(srcs, source_names[s]);
		if (!v)
			continue;	/* a source this machine could not measure */
		if (!json_is_object(v))
			return bad(err, name, f, "not an object");
		if ((ret = get_runs(v, &cal->runs[s], 1, name, f, err)) < 0 ||
		    (ret = get_cost(v, &cal->cost[s], name, f, err)) < 0)
			return ret;
	}
	return 0;
}

int prof_calib_from_json(struct prof_calib *cal, const json_t *root, const char *name,
			 struct core_error *err)
{
	int ret;

	*cal = (struct prof_calib)PROF_CALIB_INIT;
	if ((ret = from_json(cal, root, name, err)) < 0)
		prof_calib_release(cal);
	return ret;
}

int prof_calib_load(struct prof_calib *cal, const char *path, struct core_error *err)
{
	json_t *root = core_json_load_file(path, err);
	int ret;

	*cal = (struct prof_calib)PROF_CALIB_INIT;
	if (!root)
		return err && err->code ? err->code : -EINVAL;
	ret = prof_calib_from_json(cal, root, strcmp(path, "-") ? path : "standard input", err);
	json_decref(root);
	return ret;
}

int prof_calib_check(const struct prof_calib *cal, const struct prof_trace_reader *r,
		     void (*fn)(void *ctx, const char *what), void *ctx)
{
	static const char *const keys[] = { "host", "recorder", "command" };
	const char *mine[3] = { cal->host, cal->recorder, cal->command };
	char buf[1024];
	int i, n = 0;

	for (i = 0; i < 3; i++) {
		const char *theirs = prof_trace_meta(r, keys[i]);

		if (!mine[i] || !theirs || !strcmp(mine[i], theirs))
			continue;
		snprintf(buf, sizeof(buf), "%s '%s' (the trace's: '%s')", keys[i], mine[i], theirs);
		fn(ctx, buf);
		n++;
	}
	return n;
}

/* --- counting --- */

int prof_calib_count(struct prof_calib_counts *c, const struct prof_ev *ev)
{
	struct prof_calib_count *p;
	size_t i;

	switch (ev->kind) {
	case PROF_KIND_OP:
	case PROF_KIND_MARK:
	case PROF_KIND_PHASE:
	case PROF_KIND_COUNTER:
	case PROF_KIND_CPU:
		break;
	default:
		return 0;
	}
	if (c->last < c->n && c->v[c->last].pid == ev->pid) {
		i = c->last;
	} else {
		for (i = 0; i < c->n && c->v[i].pid != ev->pid; i++)
			;
		if (i == c->n) {
			if (CORE_GROW(c->v, c->cap, c->n + 1) < 0)
				return -ENOMEM;
			c->v[c->n++] = (struct prof_calib_count){ ev->pid, 0, 0, 0 };
		}
		c->last = i;
	}
	p = &c->v[i];
	if (ev->kind == PROF_KIND_CPU) {
		p->cpu++;
		if (ev->cat != PROF_CAT_WAIT && ev->cat != PROF_CAT_RUNNABLE &&
		    ev->end > ev->start)
			p->cpu_ns += ev->end - ev->start;
	} else
		p->annotations++;
	return 0;
}

void prof_calib_counts_release(struct prof_calib_counts *c)
{
	free(c->v);
	*c = (struct prof_calib_counts)PROF_CALIB_COUNTS_INIT;
}

struct prof_calib_count prof_calib_counts_of(const struct prof_calib_counts *c, int64_t pid)
{
	size_t i;

	for (i = 0; i < c->n; i++)
		if (c->v[i].pid == pid)
			return c->v[i];
	return (struct prof_calib_count){ pid, 0, 0, 0 };
}

double prof_calib_events(const struct prof_calib_count *n, int s, const char *us)
{
	int hook = us && !strcmp(us, "0");
	double period = us && atol(us) > 0 ? (double)atol(us) * 1000 : 1e6;

	switch (s) {
	case PROF_CALIB_ANNOTATIONS:
		return (double)n->annotations;
	case PROF_CALIB_PYTHON_HOOK:
		return hook ? (double)n->cpu : 0;
	case PROF_CALIB_CPU_SAMPLING:
		return hook || !n->cpu ? 0 : (double)n->annotations + (double)n->cpu_ns / period;
	}
	return 0;
}
