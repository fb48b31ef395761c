#include "prof/report.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

enum { T_PROCESS, T_KEY, T_DEPTH, T_CALLS, T_EXCL, T_INCL, T_MEAN, T_P50, T_P95, T_MAX,
       T_PERCENT, T_NCOLS };

static const struct core_col tree_cols[T_NCOLS] = {
	{ .name = "process", .flags = CORE_COL_NO_TABLE },
	{ .name = "operation", .max_width = 60 },
	{ .name = "depth", .type = CORE_COL_INT, .flags = CORE_COL_NO_TABLE },
	PROF_CALL_STAT_COLS,
	{ .name = "percent", .type = CORE_COL_FLOAT, .decimals = 2, .title = "%" },
};

static const struct prof_bd_node *sort_nodes;
static const struct prof_breakdown *sort_bd;

/* Children together, under their parent; then by inclusive time, name. */
static int node_cmp(const void *pa, const void *pb)
{
	const struct prof_bd_node *a = &sort_nodes[*(const size_t *)pa];
	const struct prof_bd_node *b = &sort_nodes[*(const size_t *)pb];

	if (a->parent != b->parent)
		return a->parent < b->parent ? -1 : 1;
	if (a->calls.sum != b->calls.sum)
		return a->calls.sum > b->calls.sum ? -1 : 1;
	return strcmp(sort_bd->keys[a->key], sort_bd->keys[b->key]);
}

static double pct(int64_t ns, int64_t wall)
{
	return wall > 0 ? 100.0 * (double)ns / (double)wall : 0.0;
}

static int add_row(struct core_table *t, const char *pid, const char *key, uint32_t depth,
		   enum core_format f)
{
	char buf[512];

	if (f == CORE_FORMAT_TABLE && depth) {
		snprintf(buf, sizeof(buf), "%*s%.400s", (int)(depth > 40 ? 80 : 2 * depth), "", key);
		key = buf;
	}
	if (core_table_add_row(t, 0) < 0 || core_table_set_str(t, T_PROCESS, pid) < 0 ||
	    core_table_set_str(t, T_KEY, key) < 0)
		return -ENOMEM;
	core_table_set_int(t, T_DEPTH, depth);
	return 0;
}

/* The call tree of one process, depth first. */
static int process_rows(struct core_table *t, const struct prof_breakdown *bd,
			const struct prof_bd_process *p, enum core_format f)
{
	size_t n = p->nnodes, i, *order = NULL, *start = NULL, *stack = NULL, sp = 0;
	int64_t unannotated = 0;
	char pid[32];
	int s, ret = -ENOMEM;

	snprintf(pid, sizeof(pid), "%" PRId64, p->pid);
	if (!(order = malloc((n + 1) * sizeof(*order))) ||
	    !(start = calloc(n + 2, sizeof(*start))) || !(stack = malloc((n + 1) * sizeof(*stack))))
		goto out;
	for (i = 0; i < n; i++)
		order[i] = i;
	sort_nodes = p->nodes;
	sort_bd = bd;
	qsort(order, n, sizeof(*order), node_cmp);
	/* start[q]..start[q + 1]: the children of parent q (node index + 1). */
	for (i = 0; i < n; i++)
		start[p->nodes[i].parent + 1]++;
	for (i = 1; i < n + 2; i++)
		start[i] += start[i - 1];
	/* stack[]: positions in order[] of the next child to visit, per level. */
	stack[sp++] = start[0];
	while (sp) {
		size_t pos = stack[sp - 1], q = sp > 1 ? order[stack[sp - 2] - 1] + 1 : 0;
		const struct prof_bd_node *nd;

		if (pos >= start[q + 1]) {
			sp--;
			continue;
		}
		stack[sp - 1]++;
		nd = &p->nodes[order[pos]];
		if (!nd->calls.calls && !nd->exclusive)
			continue;
		if (add_row(t, pid, bd->keys[nd->key], nd->depth, f) < 0)
			goto out;
		core_table_set_int(t, T_CALLS, (int64_t)nd->calls.calls);
		core_table_set_ns(t, T_EXCL, nd->exclusive);
		core_table_set_ns(t, T_INCL, nd->calls.sum);
		if (nd->calls.calls) {
			core_table_set_ns(t, T_MEAN, (nd->calls.sum + (int64_t)(nd->calls.calls / 2)) /
						     (int64_t)nd->calls.calls);
			core_table_set_ns(t, T_P50, prof_hist_percentile(&nd->calls, 50));
			core_table_set_ns(t, T_P95, prof_hist_percentile(&nd->calls, 95));
			core_table_set_ns(t, T_MAX, nd->calls.max);
		}
		core_table_set_float(t, T_PERCENT, pct(nd->calls.sum, p->wall));
		stack[sp++] = start[order[pos] + 1];
	}
	for (s = 0; s < PROF_SLOT_COUNT; s++)
		unannotated += p->op[PROF_KEY_UNANNOTATED][s];
	if (unannotated) {
		if (add_row(t, pid, bd->keys[PROF_KEY_UNANNOTATED], 0, f) < 0)
			goto out;
		core_table_set_ns(t, T_EXCL, unannotated);
		core_table_set_ns(t, T_INCL, unannotated);
		core_table_set_float(t, T_PERCENT, pct(unannotated, p->wall));
	}
	ret = 0;
out:
	free(order);
	free(start);
	free(stack);
	return ret;
}

int prof_report_tree(FILE *fp, const struct prof_report *rep, enum core_format f)
{
	const struct prof_breakdown *bd = rep->bd;
	struct core_table t;
	size_t i, j;
	int ret = 0;

	core_table_init(&t, tree_cols, T_NCOLS, 0);
	for (i = 0; i < bd->nprocs && ret == 0; i++) {
		const struct prof_bd_process *p = &bd->procs[i];
		struct prof_report_group g;
		char head[512];

		if (!p->wall && !p->nnodes)
			continue;
		for (j = 0; j < rep->ngroups && rep->groups[j].pid != p->pid; j++)
			;
		if (j == rep->ngroups)
			continue;	/* not in the report (-p) */
		memset(&g, 0, sizeof(g));
		g.pid = p->pid;
		g.process = p->name;
		g.wall = p->wall;
		prof_report_heading(head, sizeof(head), &g);
		if (core_table_section(&t, head) < 0)
			ret = -ENOMEM;
		else
			ret = process_rows(&t, bd, p, f);
	}
	if (ret == 0) {
		if (f == CORE_FORMAT_TABLE && !t.nrows)
			fputs("no profiled time\n", fp);
		else if (f == CORE_FORMAT_JSON && (ret = prof_report_json_value(fp, &t)) == 0)
			fputc('\n', fp);
		else if (f != CORE_FORMAT_JSON)
			ret = core_table_write(fp, &t, f);
	}
	core_table_release(&t);
	return ret < 0 ? ret : ferror(fp) ? -EIO : 0;
}
