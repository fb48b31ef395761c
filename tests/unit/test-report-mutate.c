/*
 * Robustness and invariants of the trace reader and the breakdown:
 * - mutated traces (bytes replaced, deleted, lines doubled, cut short)
 *   never crash, and every failure has a message;
 * - random well-formed traces: each process's rows add up to its wall
 *   time, and any row order gives the same breakdown (streamed or sorted
 *   in runs).
 * Deterministic: a fixed-seed generator.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "prof/breakdown.h"
#include "prof/report.h"
#include "prof/report_chrome.h"
#include "prof/report_scan.h"
#include "test.h"

#define HDR "kind,pid,tid,start_ns,end_ns,name,category,domain,device,stream,correlation,value,detail\n"

static uint64_t rng = 88172645463325252ull;

static uint64_t next(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static unsigned pick(unsigned n)
{
	return (unsigned)(next() % n);
}

struct ctx {
	struct prof_breakdown *bd;
	struct prof_chrome *chrome;
};

static int on_event(void *c, const struct prof_trace_reader *r, const struct prof_ev *ev)
{
	struct ctx *x = c;
	int ret = prof_breakdown_add(x->bd, r, ev);

	return ret < 0 ? ret : x->chrome ? prof_chrome_event(x->chrome, r, ev) : 0;
}

static int on_restart(void *c)
{
	struct ctx *x = c;

	prof_breakdown_free(x->bd);
	if (x->chrome && prof_chrome_restart(x->chrome) < 0)
		return -1;
	return prof_breakdown_new(&x->bd, INT64_MIN, INT64_MAX);
}

/* Analyse `text`; returns the breakdown (NULL on a read error, *err set). */
static struct prof_breakdown *analyse(const char *text, size_t len, int flags, size_t chunk,
				      int all_formats, struct core_error *err)
{
	struct ctx c = { NULL, NULL };
	struct prof_scan_sink sink = { on_event, on_restart, &c };
	struct prof_trace_reader *r;
	FILE *fp = fmemopen((void *)text, len, "r"), *out = NULL, *cfp = NULL;
	int ret;

	prof_breakdown_new(&c.bd, INT64_MIN, INT64_MAX);
	if (all_formats) {
		cfp = tmpfile();
		prof_chrome_new(&c.chrome, cfp, INT64_MIN, INT64_MAX);
	}
	ret = prof_report_scan(fp, "m", flags | (all_formats ? PROF_READ_ALL_NAMES : 0), chunk,
			       &sink, &r, NULL, err);
	fclose(fp);
	if (ret < 0) {
		prof_breakdown_free(c.bd);
		prof_chrome_free(c.chrome);
		if (cfp)
			fclose(cfp);
		return NULL;
	}
	prof_breakdown_finish(c.bd, r);
	if (all_formats && (out = fopen("/dev/null", "w"))) {
		struct prof_report rep;
		int by;

		for (by = 0; by < 4; by++) {
			if (prof_report_build(&rep, c.bd, by) < 0)
				continue;
			rep.problems = prof_trace_problems(r);
			prof_report_csv(out, &rep);
			prof_report_table(out, &rep);
			prof_report_json(out, &rep);
			prof_report_svg(out, &rep);
			prof_report_release(&rep);
		}
		prof_chrome_finish(c.chrome, r);
		fclose(out);
	}
	prof_chrome_free(c.chrome);
	if (cfp)
		fclose(cfp);
	prof_trace_reader_free(r);
	return c.bd;
}

static const char base[] = HDR
	"meta,,,,,clock,,,,,,,CLOCK_REALTIME\n"
	"thread,100,100,1000,11000,MainThread,,,,,,,\n"
	"cpu,100,100,2000,3000,,python,,,,,,\n"
	"op,100,100,3000,6000,\"in,fer\"\"ence\",,rl,,,,1,\n"
	"gpu,100,,4200,7000,sgemm,kernel,,0,7,42,,\n"
	"cpu,100,100,4500,6000,,wait,,,,,,\n"
	"op,100,100,2000,10000,step,,rl,,,,0,unclosed\n"
	"phase,100,100,2000,9000,train,,,,,,,\n"
	"mark,100,100,2500,2500,tick,,rl,,,,,\n"
	"counter,100,100,2600,,loss,,,,,,0.25,\n"
	"warning,100,100,2700,,,,,,,,,dropped 1 events\n"
	"process,100,,1000,11000,python train.py,,,,,,1,exit 0\n";

static void test_mutations(void)
{
	static const char alphabet[] = ",\"\n\r{}:0123456789-abcz \t";
	char *buf = malloc(2 * sizeof(base) + 256);
	int i, failed = 0, unexplained = 0;

	for (i = 0; i < 2000; i++) {
		size_t len = sizeof(base) - 1;
		int m, nm = 1 + pick(4), strict = i & 1;
		struct core_error err = CORE_ERROR_INIT;
		struct prof_breakdown *bd;

		memcpy(buf, base, len);
		for (m = 0; m < nm; m++) {
			size_t at = pick((unsigned)len), n;

			switch (pick(4)) {
			case 0:	/* replace a byte */
				buf[at] = alphabet[pick(sizeof(alphabet) - 1)];
				break;
			case 1:	/* delete a range */
				n = 1 + pick(8);
				if (at + n > len)
					n = len - at;
				memmove(buf + at, buf + at + n, len - at - n);
				len -= n;
				break;
			case 2:	/* double a stretch */
				n = 1 + pick(60);
				if (at + n > len)
					n = len - at;
				if (len + n < 2 * sizeof(base)) {
					memmove(buf + at + n, buf + at, len - at);
					len += n;
				}
				break;
			default:	/* cut short */
				len = at + 1;
				break;
			}
		}
		bd = analyse(buf, len, strict ? PROF_READ_STRICT : 0, 1 + pick(8), 1, &err);
		if (!bd) {
			failed++;
			unexplained += !err.msg[0];
		}
		prof_breakdown_free(bd);
	}
	TEST_OK(failed > 0 && failed < 2000, "mutations: some fail (%d of 2000), none crash", failed);
	TEST_EQ_LONG(unexplained, 0, "every failure has a message");
	free(buf);
}

/* A random trace: processes with nested ops, cpu rows, phases, gpu rows. */
static size_t random_trace(char *out, size_t size, int64_t *walls, int nproc)
{
	size_t n = (size_t)snprintf(out, size, HDR);
	int p;

	for (p = 0; p < nproc; p++) {
		int64_t t = 1000 + pick(100), end = t, pid = 10 + p;
		int k;

		for (k = 0; k < 30; k++) {
			int64_t a = t + pick(50), b = a + 1 + pick(400), c = a + pick((unsigned)(b - a));
			int64_t d = c + pick((unsigned)(b - c) + 1), tid = pid + pick(2);
			static const char *const cats[] = { "python", "simulator", "backend", "cuda_api", "wait" };

			n += (size_t)snprintf(out + n, size - n, "op,%lld,%lld,%lld,%lld,op%u,,,,,,0,\n",
					      (long long)pid, (long long)tid, (long long)a, (long long)b, pick(5));
			n += (size_t)snprintf(out + n, size - n, "op,%lld,%lld,%lld,%lld,in%u,,,,,,1,\n",
					      (long long)pid, (long long)tid, (long long)c, (long long)d, pick(3));
			int64_t e = a + pick(20);

			n += (size_t)snprintf(out + n, size - n, "cpu,%lld,%lld,%lld,%lld,,%s,,,,,,\n",
					      (long long)pid, (long long)tid, (long long)e,
					      (long long)(e + (b - a) + pick(20)), cats[pick(5)]);
			n += (size_t)snprintf(out + n, size - n, "gpu,%lld,,%lld,%lld,k,%s,,%u,%u,,,\n",
					      (long long)pid, (long long)c + pick(300), (long long)d + 300 + pick(300),
					      pick(2) ? "kernel" : "memcpy", pick(2), pick(3));
			if (pick(3) == 0)
				n += (size_t)snprintf(out + n, size - n, "phase,%lld,%lld,%lld,%lld,ph%u,,,,,,,\n",
						      (long long)pid, (long long)tid, (long long)a, (long long)b + pick(100), pick(2));
			t = b + pick(100);
			if (d + 600 > end)
				end = d + 600;
			if (b + 40 > end)
				end = b + 40;
			if (e + (b - a) + 20 > end)
				end = e + (b - a) + 20;
		}
		walls[p] = end;
	}
	return n;
}

/* Shuffle the rows after the header. */
static void shuffle(char *text, size_t len, char *out)
{
	char *lines[4096], *p = strchr(text, '\n') + 1, *o = out;
	size_t nl = 0, i;

	memcpy(o, text, (size_t)(p - text));
	o += p - text;
	while (p < text + len && nl < 4096) {
		lines[nl++] = p;
		p = strchr(p, '\n') + 1;
	}
	for (i = nl; i > 1; i--) {
		size_t j = pick((unsigned)i);
		char *t = lines[i - 1];

		lines[i - 1] = lines[j];
		lines[j] = t;
	}
	for (i = 0; i < nl; i++) {
		size_t l = (size_t)(strchr(lines[i], '\n') - lines[i]) + 1;

		memcpy(o, lines[i], l);
		o += l;
	}
}

static int same(const struct prof_breakdown *a, const struct prof_breakdown *b)
{
	size_t i, j, k;

	if (a->nprocs != b->nprocs)
		return 0;
	for (i = 0; i < a->nprocs; i++) {
		const struct prof_bd_process *p = &a->procs[i], *q = NULL;

		for (j = 0; j < b->nprocs; j++)
			if (b->procs[j].pid == p->pid)
				q = &b->procs[j];
		if (!q || p->wall != q->wall)
			return 0;
		for (k = 0; k < a->nkeys; k++) {
			size_t kb;
			int s;

			for (kb = 0; kb < b->nkeys && strcmp(b->keys[kb], a->keys[k]); kb++)
				;
			for (s = 0; s < PROF_SLOT_COUNT; s++) {
				int64_t va = k < p->nkeys ? p->op[k][s] : 0;
				int64_t vb = kb < q->nkeys ? q->op[kb][s] : 0;

				if (va != vb)
					return 0;
			}
		}
	}
	return a->gpus && b->gpus && a->ngpus == b->ngpus;
}

static void test_invariants(void)
{
	static char text[1 << 18], mixed[1 << 18];
	int round, sums_ok = 1, order_ok = 1;

	for (round = 0; round < 40; round++) {
		int64_t walls[3];
		int nproc = 1 + pick(3);
		size_t len = random_trace(text, sizeof(text), walls, nproc);
		struct core_error err = CORE_ERROR_INIT;
		struct prof_breakdown *a, *b;
		size_t i, k;

		shuffle(text, len, mixed);
		a = analyse(text, len, PROF_READ_STRICT, 1 << 20, 0, &err);
		b = analyse(mixed, len, PROF_READ_STRICT, 1 + pick(64), 0, &err);
		if (!a || !b) {
			TEST_OK(0, "round %d: %s", round, err.msg);
			prof_breakdown_free(a);
			prof_breakdown_free(b);
			continue;
		}
		for (i = 0; i < a->nprocs; i++) {
			int64_t sum = 0;
			int s;

			for (k = 0; k < a->procs[i].nkeys; k++)
				for (s = 0; s < PROF_SLOT_COUNT; s++)
					sum += a->procs[i].op[k][s];
			sums_ok &= sum == a->procs[i].wall;
			for (s = 0, sum = 0; s < PROF_SLOT_COUNT; s++)
				for (k = 0; k < a->procs[i].nkeys; k++)
					sum += a->procs[i].phase[k][s];
			sums_ok &= sum == a->procs[i].wall;
		}
		order_ok &= same(a, b);
		prof_breakdown_free(a);
		prof_breakdown_free(b);
	}
	TEST_OK(sums_ok, "random traces: operations and phases add up to the wall time");
	TEST_OK(order_ok, "random traces: shuffled rows, sorted in runs, give the same breakdown");
}

int main(void)
{
	test_mutations();
	test_invariants();
	return test_done();
}
