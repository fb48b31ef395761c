#include "prof/report_gpu.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/grow.h"
#include "core/map.h"

#define OP_UNANNOTATED UINT32_MAX
#define OP_UNLINKED (UINT32_MAX - 1)
#define OP_ALL (UINT32_MAX - 2)
#define KERNEL_ALL UINT32_MAX

struct open_op {
	int64_t end;
	uint32_t name;
};

struct thread_stack {
	struct open_op *v;
	size_t n, cap;
};

/* One (pid, operation, kernel) pair's calls. */
struct agg {
	int64_t pid;
	uint32_t op, kernel;
	uint8_t cat;
	uint64_t calls;
	int64_t total, max;
};

struct prof_kernels {
	struct core_map threads;	/* (pid, tid) -> index + 1 in stacks */
	struct thread_stack *stacks;
	size_t nstacks, capstacks;
	struct core_map calls;		/* (pid, correlation) -> operation + 1 */
	struct core_map pairs;		/* (pid, op, kernel, cat) -> index in aggs */
	struct agg *aggs;
	size_t naggs, capaggs;
};

int prof_kernels_new(struct prof_kernels **out)
{
	struct prof_kernels *k = calloc(1, sizeof(*k));

	if (!k)
		return -ENOMEM;
	k->threads = (struct core_map)CORE_MAP_INIT;
	k->calls = (struct core_map)CORE_MAP_INIT;
	k->pairs = (struct core_map)CORE_MAP_INIT;
	*out = k;
	return 0;
}

void prof_kernels_free(struct prof_kernels *k)
{
	size_t i;

	if (!k)
		return;
	for (i = 0; i < k->nstacks; i++)
		free(k->stacks[i].v);
	free(k->stacks);
	free(k->aggs);
	core_map_release(&k->threads, NULL);
	core_map_release(&k->calls, NULL);
	core_map_release(&k->pairs, NULL);
	free(k);
}

static struct thread_stack *stack_of(struct prof_kernels *k, int64_t pid, int64_t tid)
{
	int64_t key[2] = { pid, tid };
	struct core_map_entry *e;
	int ret = core_map_put(&k->threads, key, sizeof(key), &e);

	if (ret < 0)
		return NULL;
	if (ret == 1) {
		if (CORE_GROW(k->stacks, k->capstacks, k->nstacks + 1) < 0)
			return NULL;
		memset(&k->stacks[k->nstacks], 0, sizeof(k->stacks[0]));
		e->value.u = ++k->nstacks;
	}
	return &k->stacks[e->value.u - 1];
}

/* Drop the operations that ended by t. */
static void prune(struct thread_stack *s, int64_t t)
{
	while (s->n && s->v[s->n - 1].end <= t)
		s->n--;
}

static int add_pair(struct prof_kernels *k, int64_t pid, uint32_t op, uint32_t kernel,
		    uint8_t cat, int64_t dur)
{
	struct { int64_t pid; uint32_t op, kernel; uint32_t cat, pad; } key = { pid, op, kernel, cat, 0 };
	struct core_map_entry *e;
	struct agg *a;
	int ret = core_map_put(&k->pairs, &key, sizeof(key), &e);

	if (ret < 0)
		return -ENOMEM;
	if (ret == 1) {
		if (CORE_GROW(k->aggs, k->capaggs, k->naggs + 1) < 0)
			return -ENOMEM;
		memset(&k->aggs[k->naggs], 0, sizeof(k->aggs[0]));
		k->aggs[k->naggs].pid = pid;
		k->aggs[k->naggs].op = op;
		k->aggs[k->naggs].kernel = kernel;
		k->aggs[k->naggs].cat = cat;
		e->value.u = k->naggs++;
	}
	a = &k->aggs[e->value.u];
	a->calls++;
	a->total += dur;
	if (dur > a->max)
		a->max = dur;
	return 0;
}

int prof_kernels_add(struct prof_kernels *k, const struct prof_trace_reader *r,
		     const struct prof_ev *ev)
{
	struct thread_stack *s;
	struct core_map_entry *e;
	int64_t key[2] = { ev->pid, ev->correlation };
	uint32_t op;

	(void)r;
	switch (ev->kind) {
	case PROF_KIND_OP:
		if (!(s = stack_of(k, ev->pid, ev->tid)))
			return -ENOMEM;
		prune(s, ev->start);
		if (CORE_GROW(s->v, s->cap, s->n + 1) < 0)
			return -ENOMEM;
		s->v[s->n++] = (struct open_op){ ev->end, ev->name };
		return 0;
	case PROF_KIND_CPU:
		if (ev->correlation < 0 || ev->cat != PROF_CAT_CUDA_API)
			return 0;
		if (!(s = stack_of(k, ev->pid, ev->tid)))
			return -ENOMEM;
		prune(s, ev->start);
		op = s->n ? s->v[s->n - 1].name : OP_UNANNOTATED;
		if (core_map_put(&k->calls, key, sizeof(key), &e) < 0)
			return -ENOMEM;
		/* Nested calls (a runtime call's driver calls) keep the first. */
		if (!e->value.u)
			e->value.u = (uint64_t)op + 1;
		return 0;
	case PROF_KIND_GPU:
		e = ev->correlation >= 0 ? core_map_find(&k->calls, key, sizeof(key)) : NULL;
		op = e ? (uint32_t)(e->value.u - 1) : OP_UNLINKED;
		return add_pair(k, ev->pid, op, ev->name, ev->cat, ev->end - ev->start);
	default:
		return 0;
	}
}

static int by_total(const void *a, const void *b)
{
	const struct agg *x = a, *y = b;

	return x->total < y->total ? 1 : x->total > y->total ? -1 :
	       x->kernel < y->kernel ? -1 : x->kernel > y->kernel;
}

static const char *op_name(const struct prof_trace_reader *r, uint32_t op)
{
	return op == OP_UNANNOTATED ? "[unannotated]" : op == OP_UNLINKED ? "[unlinked]" :
	       op == OP_ALL ? "[all]" : prof_trace_str(r, op);
}

enum { C_PID, C_OP, C_KERNEL, C_CAT, C_CALLS, C_TOTAL, C_MEAN, C_MAX, C_NCOLS };

static int put_row(struct core_table *t, const struct prof_trace_reader *r, const struct agg *a)
{
	if (core_table_add_row(t, 0) < 0 || core_table_set_int(t, C_PID, a->pid) < 0 ||
	    core_table_set_str(t, C_OP, op_name(r, a->op)) < 0 ||
	    core_table_set_str(t, C_KERNEL, a->kernel == KERNEL_ALL ? "[all]" :
			       prof_trace_str(r, a->kernel)) < 0)
		return -ENOMEM;
	if (a->kernel != KERNEL_ALL)
		core_table_set_str(t, C_CAT, prof_category_name(a->cat));
	core_table_set_int(t, C_CALLS, (int64_t)a->calls);
	core_table_set_ns(t, C_TOTAL, a->total);
	core_table_set_ns(t, C_MEAN, a->calls ? a->total / (int64_t)a->calls : 0);
	core_table_set_ns(t, C_MAX, a->max);
	return 0;
}

/* Sum of v by `key` (op or kernel); the others become "[all]". */
static int fold(const struct agg *v, size_t n, int by_op, struct agg **out, size_t *nout)
{
	struct agg *w = NULL;
	size_t cap = 0, m = 0, i, j;

	for (i = 0; i < n; i++) {
		uint32_t id = by_op ? v[i].op : v[i].kernel;

		for (j = 0; j < m && (by_op ? w[j].op : w[j].kernel) != id; j++)
			;
		if (j == m) {
			if (CORE_GROW(w, cap, m + 1) < 0) {
				free(w);
				return -ENOMEM;
			}
			w[m] = v[i];
			w[m].calls = 0;
			w[m].total = w[m].max = 0;
			if (by_op)
				w[m].kernel = KERNEL_ALL;
			else
				w[m].op = OP_ALL;
			m++;
		}
		w[j].calls += v[i].calls;
		w[j].total += v[i].total;
		if (v[i].max > w[j].max)
			w[j].max = v[i].max;
	}
	*out = w;
	*nout = m;
	return 0;
}

int prof_kernels_table(struct core_table *t, const struct prof_kernels *k,
		       const struct prof_trace_reader *r)
{
	static const struct core_col cols[C_NCOLS] = {
		{ .name = "pid", .type = CORE_COL_INT },
		{ .name = "operation", .type = CORE_COL_STRING },
		{ .name = "kernel", .type = CORE_COL_STRING },
		{ .name = "category", .type = CORE_COL_STRING },
		{ .name = "calls", .type = CORE_COL_INT },
		{ .name = "total_ns", .type = CORE_COL_DURATION, .unit = "ns", .title = "total" },
		{ .name = "mean_ns", .type = CORE_COL_DURATION, .unit = "ns", .title = "mean" },
		{ .name = "max_ns", .type = CORE_COL_DURATION, .unit = "ns", .title = "max" },
	};
	struct agg *all = NULL, *kern = NULL, *ops = NULL;
	size_t i = 0, j, n, nk, no, a, b;
	int ret = -ENOMEM;

	core_table_init(t, cols, C_NCOLS, 0);
	if (k->naggs && !(all = malloc(k->naggs * sizeof(*all))))
		return -ENOMEM;
	if (all)
		memcpy(all, k->aggs, k->naggs * sizeof(*all));
	while (i < k->naggs) {
		/* The aggregates of one process, in first-seen order of pids. */
		for (n = i, j = i; j < k->naggs; j++)
			if (all[j].pid == all[i].pid) {
				struct agg tmp = all[n];

				all[n++] = all[j];
				all[j] = tmp;
			}
		if (fold(all + i, n - i, 0, &kern, &nk) < 0 || fold(all + i, n - i, 1, &ops, &no) < 0)
			goto out;
		qsort(kern, nk, sizeof(*kern), by_total);
		qsort(ops, no, sizeof(*ops), by_total);
		qsort(all + i, n - i, sizeof(*all), by_total);
		for (a = 0; a < nk; a++)
			if (put_row(t, r, &kern[a]) < 0)
				goto out;
		for (a = 0; a < no; a++) {
			if (put_row(t, r, &ops[a]) < 0)
				goto out;
			for (b = i; b < n; b++)
				if (all[b].op == ops[a].op && put_row(t, r, &all[b]) < 0)
					goto out;
		}
		free(kern);
		free(ops);
		kern = ops = NULL;
		i = n;
	}
	ret = 0;
out:
	free(kern);
	free(ops);
	free(all);
	return ret;
}

int prof_kernels_write(FILE *fp, const struct prof_kernels *k,
		       const struct prof_trace_reader *r, enum core_format f)
{
	struct core_table t;
	int ret = prof_kernels_table(&t, k, r);

	if (!ret)
		ret = core_table_write(fp, &t, f);
	core_table_release(&t);
	return ret;
}
