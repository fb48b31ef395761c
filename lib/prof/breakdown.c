#include "prof/breakdown.h"
#include "core/grow.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* An open interval; a stack keeps them in start order, dead ones lazily. */
struct iv {
	int64_t tid;
	uint64_t serial;
	uint32_t key;
	uint32_t node;		/* op: its node in the call tree */
	uint8_t cat, dead;
};

struct stack {
	struct iv *v;
	size_t n, cap, dead;
};

enum { T_OP, T_CPU, T_PHASE, T_GPU };

struct endent {
	int64_t end;
	uint64_t serial;
	int type;
};

struct prof_bd_state {
	struct stack st[3];	/* op, cpu, phase */
	struct endent *heap;
	size_t nheap, capheap;
	uint64_t serial;
	int64_t gpu_open;
	int64_t cur, first, last;
	int started;
};

static const char *const slot_res[PROF_SLOT_COUNT] = {
	"CPU", "CPU", "CPU", "CPU", "CPU",
	"CPU+GPU", "CPU+GPU", "CPU+GPU", "CPU+GPU", "CPU+GPU",
	"GPU", "none", "CPU", "CPU+GPU", "none",
};

static const char *const slot_cat[PROF_SLOT_COUNT] = {
	"python", "simulator", "backend", "cuda_api", "native",
	"python", "simulator", "backend", "cuda_api", "native",
	"gpu", "wait", "system", "system", "runnable",
};

const char *prof_slot_resource(int slot)
{
	return slot >= 0 && slot < PROF_SLOT_COUNT ? slot_res[slot] : "";
}

const char *prof_slot_category(int slot)
{
	return slot >= 0 && slot < PROF_SLOT_COUNT ? slot_cat[slot] : "";
}

int prof_ev_cmp(const struct prof_ev *a, const struct prof_ev *b)
{
	if (a->start != b->start)
		return a->start < b->start ? -1 : 1;
	if (a->end != b->end)
		return a->end > b->end ? -1 : 1;
	if (a->value != b->value)
		return a->value < b->value ? -1 : 1;
	return (a->line > b->line) - (a->line < b->line);
}

int prof_breakdown_new(struct prof_breakdown **out, int64_t from, int64_t to)
{
	struct prof_breakdown *bd = calloc(1, sizeof(*bd));

	*out = NULL;
	if (!bd || !(bd->keys = calloc(2, sizeof(char *))) ||
	    !(bd->keys[0] = strdup("[unannotated]")) || !(bd->keys[1] = strdup("[no phase]"))) {
		prof_breakdown_free(bd);
		return -ENOMEM;
	}
	bd->nkeys = bd->capkeys = 2;
	bd->from = from;
	bd->to = to;
	bd->lo = INT64_MIN;
	bd->hi = INT64_MAX;
	bd->t0 = INT64_MAX;
	bd->tend = INT64_MIN;
	bd->lastproc = (size_t)-1;
	bd->only_pid = -1;
	*out = bd;
	return 0;
}

static void state_free(struct prof_bd_state *s)
{
	int i;

	if (!s)
		return;
	for (i = 0; i < 3; i++)
		free(s->st[i].v);
	free(s->heap);
	free(s);
}

static void proc_release(struct prof_bd_process *p)
{
	size_t j;

	free(p->name);
	free(p->op);
	free(p->phase);
	free(p->calls);
	for (j = 0; j < p->nnodes; j++)
		prof_hist_release(&p->nodes[j].calls);
	free(p->nodes);
	core_map_release(&p->nodemap, NULL);
	state_free(p->state);
}

void prof_breakdown_free(struct prof_breakdown *bd)
{
	size_t i;

	if (!bd)
		return;
	for (i = 0; i < bd->nkeys; i++)
		free(bd->keys[i]);
	free(bd->keys);
	for (i = 0; i < bd->nprocs; i++)
		proc_release(&bd->procs[i]);
	free(bd->procs);
	free(bd->gpus);
	free(bd->keymap);
	free(bd);
}

size_t prof_breakdown_keep(struct prof_breakdown *bd,
			   int (*keep)(const struct prof_bd_process *p, void *ctx), void *ctx)
{
	size_t i, n = 0;

	for (i = 0; i < bd->nprocs; i++) {
		if (keep(&bd->procs[i], ctx))
			bd->procs[n++] = bd->procs[i];
		else
			proc_release(&bd->procs[i]);
	}
	bd->nprocs = n;
	bd->lastproc = (size_t)-1;
	return n;
}

static struct prof_bd_process *proc_find(struct prof_breakdown *bd, int64_t pid)
{
	struct prof_bd_process *p;
	size_t i;

	for (i = 0; i < bd->nprocs; i++)
		if (bd->procs[i].pid == pid) {
			bd->lastproc = i;
			return &bd->procs[i];
		}
	if (CORE_GROW(bd->procs, bd->capprocs, bd->nprocs + 1) < 0)
		return NULL;
	p = &bd->procs[bd->nprocs];
	memset(p, 0, sizeof(*p));
	p->pid = pid;
	p->parent = -1;
	if (!(p->state = calloc(1, sizeof(*p->state))))
		return NULL;
	bd->lastproc = bd->nprocs++;
	return p;
}

/* The process `pid`, made on first use; NULL when out of memory. */
static inline struct prof_bd_process *proc_get(struct prof_breakdown *bd, int64_t pid)
{
	if (bd->lastproc < bd->nprocs && bd->procs[bd->lastproc].pid == pid)
		return &bd->procs[bd->lastproc];
	return proc_find(bd, pid);
}

static int proc_grow_keys(struct prof_bd_process *p, size_t k)
{
	/* Three arrays of one size: they grow alike, from the same capacity. */
	size_t n = p->nkeys, n_phase = p->nkeys, n_calls = p->nkeys, i;

	if (CORE_GROW(p->op, n, k + 1) < 0 || CORE_GROW(p->phase, n_phase, k + 1) < 0 ||
	    CORE_GROW(p->calls, n_calls, k + 1) < 0)
		return -ENOMEM;
	for (i = p->nkeys; i < n; i++) {
		memset(p->op[i], 0, sizeof(p->op[i]));
		memset(p->phase[i], 0, sizeof(p->phase[i]));
		p->calls[i] = 0;
	}
	p->nkeys = n;
	return 0;
}

/* Make the tables of `p` hold key `k`. */
static inline int proc_keys(struct prof_bd_process *p, size_t k)
{
	return k < p->nkeys ? 0 : proc_grow_keys(p, k);
}

/* The key of a reader string id, made on first use. */
static int key_of(struct prof_breakdown *bd, const struct prof_trace_reader *r,
		  uint32_t id, uint32_t *key)
{
	size_t n = bd->nkeymap;

	if (id >= n) {
		if (CORE_GROW(bd->keymap, bd->nkeymap, (size_t)id + 1) < 0)
			return -ENOMEM;
		memset(bd->keymap + n, 0, (bd->nkeymap - n) * sizeof(*bd->keymap));
	}
	if (!bd->keymap[id]) {
		if (CORE_GROW(bd->keys, bd->capkeys, bd->nkeys + 1) < 0 ||
		    !(bd->keys[bd->nkeys] = strdup(prof_trace_str(r, id))))
			return -ENOMEM;
		bd->keymap[id] = (uint32_t)++bd->nkeys;
	}
	*key = bd->keymap[id] - 1;
	return 0;
}

static const struct iv *stack_top(const struct stack *s)
{
	return s->n ? &s->v[s->n - 1] : NULL;
}

/* The index of the interval `serial`, or where it would be. */
static inline size_t stack_find(const struct stack *s, uint64_t serial)
{
	size_t lo = 0, hi = s->n;

	/* Mostly the innermost interval ends first. */
	if (s->n && s->v[s->n - 1].serial == serial)
		return s->n - 1;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (s->v[mid].serial < serial)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static void stack_kill_slow(struct stack *s, uint64_t serial);

/* Mostly the innermost interval ends, of a stack without dead ones. */
static inline void stack_kill(struct stack *s, uint64_t serial)
{
	if (s->n && !s->dead && s->v[s->n - 1].serial == serial)
		s->n--;
	else
		stack_kill_slow(s, serial);
}

static void stack_kill_slow(struct stack *s, uint64_t serial)
{
	size_t lo = stack_find(s, serial), i, j;

	if (lo >= s->n || s->v[lo].serial != serial || s->v[lo].dead)
		return;
	s->v[lo].dead = 1;
	s->dead++;
	while (s->n && s->v[s->n - 1].dead) {
		s->n--;
		s->dead--;
	}
	if (s->dead > 16 && s->dead * 2 > s->n) {
		for (i = j = 0; i < s->n; i++)
			if (!s->v[i].dead)
				s->v[j++] = s->v[i];
		s->n = j;
		s->dead = 0;
	}
}

static inline int heap_push(struct prof_bd_state *s, int64_t end, uint64_t serial, int type)
{
	size_t i;

	if (CORE_GROW(s->heap, s->capheap, s->nheap + 1) < 0)
		return -ENOMEM;
	i = s->nheap++;
	while (i && s->heap[(i - 1) / 2].end > end) {
		s->heap[i] = s->heap[(i - 1) / 2];
		i = (i - 1) / 2;
	}
	s->heap[i] = (struct endent){ end, serial, type };
	return 0;
}

static void heap_pop_slow(struct prof_bd_state *s);

/* Mostly one range is open: nothing to sift. */
static inline void heap_pop(struct prof_bd_state *s)
{
	if (s->nheap == 1)
		s->nheap = 0;
	else
		heap_pop_slow(s);
}

static void heap_pop_slow(struct prof_bd_state *s)
{
	struct endent last = s->heap[--s->nheap];
	size_t i = 0, c;

	while ((c = 2 * i + 1) < s->nheap) {
		if (c + 1 < s->nheap && s->heap[c + 1].end < s->heap[c].end)
			c++;
		if (s->heap[c].end >= last.end)
			break;
		s->heap[i] = s->heap[c];
		i = c;
	}
	if (s->nheap)
		s->heap[i] = last;
}

/* The slot of category cat, without and with GPU work open: a lookup, no branch. */
static const uint8_t slot_tab[PROF_CAT_COUNT][2] = {
	[PROF_CAT_NONE] = { PROF_SLOT_CPU_NATIVE, PROF_SLOT_BOTH_NATIVE },
	[PROF_CAT_PYTHON] = { PROF_SLOT_CPU_PYTHON, PROF_SLOT_BOTH_PYTHON },
	[PROF_CAT_SIMULATOR] = { PROF_SLOT_CPU_SIMULATOR, PROF_SLOT_BOTH_SIMULATOR },
	[PROF_CAT_BACKEND] = { PROF_SLOT_CPU_BACKEND, PROF_SLOT_BOTH_BACKEND },
	[PROF_CAT_CUDA_API] = { PROF_SLOT_CPU_CUDA_API, PROF_SLOT_BOTH_CUDA_API },
	[PROF_CAT_NATIVE] = { PROF_SLOT_CPU_NATIVE, PROF_SLOT_BOTH_NATIVE },
	[PROF_CAT_WAIT] = { PROF_SLOT_WAIT, PROF_SLOT_GPU },
	[PROF_CAT_GPU] = { PROF_SLOT_CPU_NATIVE, PROF_SLOT_BOTH_NATIVE },
	[PROF_CAT_KERNEL] = { PROF_SLOT_CPU_NATIVE, PROF_SLOT_BOTH_NATIVE },
	[PROF_CAT_MEMCPY] = { PROF_SLOT_CPU_NATIVE, PROF_SLOT_BOTH_NATIVE },
	[PROF_CAT_MEMSET] = { PROF_SLOT_CPU_NATIVE, PROF_SLOT_BOTH_NATIVE },
	[PROF_CAT_SYSTEM] = { PROF_SLOT_CPU_SYSTEM, PROF_SLOT_BOTH_SYSTEM },
	[PROF_CAT_RUNNABLE] = { PROF_SLOT_RUNNABLE, PROF_SLOT_GPU },
};

static inline int slot_of(int cat, int gpu)
{
	return (unsigned)cat < PROF_CAT_COUNT ? slot_tab[cat][gpu] :
	       gpu ? PROF_SLOT_BOTH_NATIVE : PROF_SLOT_CPU_NATIVE;
}

/* Account [a, b) of process p with its current state. */
static inline __attribute__((always_inline)) void segment(struct prof_breakdown *bd, struct prof_bd_process *p, int64_t a, int64_t b)
{
	struct prof_bd_state *s = p->state;
	const struct iv *op, *ph;
	const struct stack *cpu = &s->st[T_CPU];
	int cat = PROF_CAT_NATIVE, slot;
	size_t i;

	if (a < bd->lo)
		a = bd->lo;
	if (b > bd->hi)
		b = bd->hi;
	if (b <= a)
		return;
	op = stack_top(&s->st[T_OP]);
	ph = stack_top(&s->st[T_PHASE]);
	for (i = cpu->n; i-- > 0;)
		if (!cpu->v[i].dead && (!op || cpu->v[i].tid == op->tid)) {
			cat = cpu->v[i].cat;
			break;
		}
	slot = slot_of(cat, s->gpu_open > 0);
	p->op[op ? op->key : PROF_KEY_UNANNOTATED][slot] += b - a;
	if (op)
		p->nodes[op->node].exclusive += b - a;
	p->phase[ph ? ph->key : PROF_KEY_NO_PHASE][slot] += b - a;
	p->wall += b - a;
}

/* Move the sweep of p to time t, closing the ranges that end by then. */
static inline __attribute__((always_inline)) void advance(struct prof_breakdown *bd, struct prof_bd_process *p, int64_t t)
{
	struct prof_bd_state *s = p->state;

	while (s->nheap && s->heap[0].end <= t) {
		struct endent e = s->heap[0];

		if (e.end > s->cur) {
			segment(bd, p, s->cur, e.end);
			s->cur = e.end;
		}
		heap_pop(s);
		if (e.type == T_GPU)
			s->gpu_open--;
		else
			stack_kill(&s->st[e.type], e.serial);
	}
	if (t > s->cur) {
		segment(bd, p, s->cur, t);
		s->cur = t;
	}
}

static struct prof_gpu_util *gpu_get(struct prof_breakdown *bd, int32_t device)
{
	size_t i;

	for (i = 0; i < bd->ngpus; i++)
		if (bd->gpus[i].device == device)
			return &bd->gpus[i];
	if (CORE_GROW(bd->gpus, bd->capgpus, bd->ngpus + 1) < 0)
		return NULL;
	memset(&bd->gpus[bd->ngpus], 0, sizeof(*bd->gpus));
	bd->gpus[bd->ngpus].device = device;
	bd->gpus[bd->ngpus].ustart = bd->gpus[bd->ngpus].uend = INT64_MIN;
	bd->gpus[bd->ngpus].last[0] = bd->gpus[bd->ngpus].last[1] = -1;
	return &bd->gpus[bd->ngpus++];
}

static int gpu_add(struct prof_breakdown *bd, const struct prof_ev *ev)
{
	/* Windows per second, so that 1/6 s windows are exact. */
	static const int64_t per_s[2] = { 6, 1 };
	struct prof_gpu_util *g = gpu_get(bd, ev->device);
	int64_t a = ev->start > bd->lo ? ev->start : bd->lo;
	int64_t b = ev->end < bd->hi ? ev->end : bd->hi;
	int i;

	if (!g)
		return -ENOMEM;
	if (b < a)
		return 0;
	if (a > g->uend) {
		if (g->uend > g->ustart)
			g->busy += g->uend - g->ustart;
		g->ustart = a;
		g->uend = b;
	} else if (b > g->uend) {
		g->uend = b;
	}
	if (ev->cat != PROF_CAT_KERNEL)
		return 0;
	for (i = 0; i < 2; i++) {
		int64_t base = bd->lo > bd->t0 ? bd->lo : bd->t0;
		int64_t w0 = (a - base) * per_s[i] / 1000000000;
		int64_t w1 = (b > a ? b - 1 - base : a - base) * per_s[i] / 1000000000;

		if (w0 <= g->last[i])
			w0 = g->last[i] + 1;
		if (w1 >= w0) {
			g->active[i] += (uint64_t)(w1 - w0 + 1);
			g->last[i] = w1;
		}
	}
	return 0;
}

/* The node of key under `parent` (index + 1, 0 for a root), made on first use. */
static int node_of(struct prof_bd_process *p, uint32_t parent, uint32_t key, uint32_t *out)
{
	uint32_t k[2] = { parent, key };
	uint32_t *last_key = parent ? &p->nodes[parent - 1].last_key : &p->root_key;
	uint32_t *last = parent ? &p->nodes[parent - 1].last_child : &p->root_child;
	struct core_map_entry *e;
	struct prof_bd_node *n;
	int ret;
	uint32_t i;

	/* A loop calls the same children over and over: try the last one first. */
	if (*last && *last_key == key) {
		*out = *last - 1;
		return 0;
	}
	if ((ret = core_map_put(&p->nodemap, k, sizeof(k), &e)) < 0)
		return ret;
	if (!ret) {
		*out = (uint32_t)e->value.u;
		*last_key = key;
		*last = *out + 1;
		return 0;
	}
	if (CORE_GROW(p->nodes, p->capnodes, p->nnodes + 1) < 0)
		return -ENOMEM;
	n = &p->nodes[p->nnodes];
	memset(n, 0, sizeof(*n));
	n->key = key;
	n->parent = parent;
	n->depth = parent ? p->nodes[parent - 1].depth + 1 : 0;
	for (i = parent; i && !n->recursive; i = p->nodes[i - 1].parent)
		n->recursive = p->nodes[i - 1].key == key;
	e->value.u = p->nnodes;
	*out = (uint32_t)p->nnodes++;
	/* Growing p->nodes may have moved what last points into. */
	if (parent) {
		p->nodes[parent - 1].last_key = key;
		p->nodes[parent - 1].last_child = *out + 1;
	} else {
		p->root_key = key;
		p->root_child = *out + 1;
	}
	return 0;
}

/* A call of operation `key`: find its node and count it. */
static int op_call(struct prof_breakdown *bd, struct prof_bd_process *p,
		   const struct prof_ev *ev, uint32_t key, uint32_t *node)
{
	const struct stack *ops = &p->state->st[T_OP];
	uint32_t parent = 0;
	int64_t a = ev->start > bd->lo ? ev->start : bd->lo;
	int64_t b = ev->end < bd->hi ? ev->end : bd->hi;
	size_t i;

	for (i = ops->n; i-- > 0;)
		if (!ops->v[i].dead && ops->v[i].tid == ev->tid) {
			parent = ops->v[i].node + 1;
			break;
		}
	if (node_of(p, parent, key, node) < 0)
		return -ENOMEM;
	/* Calls that overlap the window; an instant counts inside it. */
	if (ev->start == ev->end ? ev->start >= bd->lo && ev->start < bd->hi : b > a) {
		p->calls[key]++;
		return prof_hist_add(&p->nodes[*node].calls, b > a ? b - a : 0);
	}
	return 0;
}

int prof_breakdown_op_calls(const struct prof_bd_process *p, size_t key,
			    struct prof_hist *calls, int64_t *inclusive)
{
	size_t i;

	*inclusive = 0;
	for (i = 0; i < p->nnodes; i++) {
		const struct prof_bd_node *n = &p->nodes[i];

		if (n->key != key)
			continue;
		if (prof_hist_merge(calls, &n->calls) < 0)
			return -ENOMEM;
		if (!n->recursive)
			*inclusive += n->calls.sum;
	}
	return 0;
}

int prof_breakdown_add(struct prof_breakdown *bd, const struct prof_trace_reader *r,
		       const struct prof_ev *ev)
{
	struct prof_bd_process *p;
	struct prof_bd_state *s;
	struct stack *st;
	uint32_t key = 0, node = 0;
	int type;

	if (bd->t0 == INT64_MAX) {
		bd->t0 = ev->start;
		if (bd->from != INT64_MIN)
			bd->lo = ev->start + bd->from;
		if (bd->to != INT64_MAX)
			bd->hi = ev->start + bd->to;
	}
	if (ev->end > bd->tend)
		bd->tend = ev->end;
	bd->events++;
	switch (ev->kind) {
	case PROF_KIND_OP: type = T_OP; break;
	case PROF_KIND_CPU: type = T_CPU; break;
	case PROF_KIND_PHASE: type = T_PHASE; break;
	case PROF_KIND_GPU: type = T_GPU; break;
	default: return 0;
	}
	if (!(p = proc_get(bd, ev->pid)))
		return -ENOMEM;
	s = p->state;
	if (!s->started) {
		s->started = 1;
		s->cur = s->first = ev->start;
		s->last = ev->end;
		if (proc_keys(p, 1) < 0)
			return -ENOMEM;
	}
	if (ev->end > s->last)
		s->last = ev->end;
	advance(bd, p, ev->start);
	if (type == T_GPU) {
		s->gpu_open++;
		if (gpu_add(bd, ev) < 0)
			return -ENOMEM;
		return heap_push(s, ev->end, 0, T_GPU);
	}
	if (type != T_CPU) {
		if (key_of(bd, r, ev->name, &key) < 0 || proc_keys(p, key) < 0)
			return -ENOMEM;
	}
	if (type == T_OP && op_call(bd, p, ev, key, &node) < 0)
		return -ENOMEM;
	st = &s->st[type];
	if (CORE_GROW(st->v, st->cap, st->n + 1) < 0)
		return -ENOMEM;
	st->v[st->n++] = (struct iv){ ev->tid, ++s->serial, key, node, ev->cat, 0 };
	return heap_push(s, ev->end, s->serial, type);
}

int prof_breakdown_finish(struct prof_breakdown *bd, const struct prof_trace_reader *r)
{
	const struct prof_process *pr;
	const struct prof_thread *th;
	size_t np = prof_trace_processes(r, &pr), nt = prof_trace_threads(r, &th), i, j;

	for (i = 0; i < bd->ngpus; i++) {
		struct prof_gpu_util *g = &bd->gpus[i];
		int64_t a = bd->lo > bd->t0 ? bd->lo : bd->t0;
		int64_t b = bd->hi < bd->tend ? bd->hi : bd->tend;

		if (g->uend > g->ustart)
			g->busy += g->uend - g->ustart;
		g->ustart = g->uend = INT64_MIN;
		g->span = b > a ? b - a : 0;
		g->windows[0] = (uint64_t)((g->span * 6 + 999999999) / 1000000000);
		g->windows[1] = (uint64_t)((g->span + 999999999) / 1000000000);
	}
	/* Processes known only from process rows count too. */
	for (i = 0; i < np; i++)
		if (pr[i].start != INT64_MIN && pr[i].end != INT64_MAX &&
		    (bd->only_pid < 0 || pr[i].pid == bd->only_pid) && !proc_get(bd, pr[i].pid))
			return -ENOMEM;
	for (i = 0; i < bd->nprocs; i++) {
		struct prof_bd_process *p = &bd->procs[i];
		struct prof_bd_state *s = p->state;
		const char *name = "";

		if (proc_keys(p, 1) < 0)
			return -ENOMEM;
		if (s->started)
			advance(bd, p, s->last);
		for (j = 0; j < np; j++) {
			if (pr[j].pid != p->pid)
				continue;
			name = prof_trace_str(r, pr[j].name);
			p->parent = pr[j].parent;
			if (pr[j].start == INT64_MIN || pr[j].end == INT64_MAX)
				break;
			/* Only unannotated native time happens outside the events. */
			if (!s->started) {
				s->started = 1;
				s->cur = s->first = s->last = pr[j].start;
			}
			if (pr[j].start < s->first) {
				s->cur = pr[j].start;
				segment(bd, p, pr[j].start, s->first);
			}
			if (pr[j].end > s->last) {
				s->cur = s->last;
				segment(bd, p, s->last, pr[j].end);
			}
			break;
		}
		for (j = 0; !*name && j < nt; j++)
			if (th[j].pid == p->pid && th[j].tid == p->pid)
				name = prof_trace_str(r, th[j].name);
		if (!(p->name = strdup(name)))
			return -ENOMEM;
		state_free(p->state);
		p->state = NULL;
	}
	return 0;
}
