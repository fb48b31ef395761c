/*
 * The breakdown sweep: where the time of each process went, per operation,
 * resource and category, after RL-Scope.
 *
 * Events must come in time order: by start_ns, then longer first (so that
 * of two ranges starting together the shorter, inner one comes last), then
 * by nesting depth, then by input line (prof_ev_cmp; lib/prof/report_scan.h
 * delivers that order).  The sweep walks the boundaries of each process in
 * order and assigns every instant between its first and last event to:
 *
 *  - one key: the innermost open operation, that is the open op that
 *    started last, whatever its thread (for one thread: the innermost of
 *    the nesting); "[unannotated]" when none is open.  With phases the key
 *    is the phase that started last, "[no phase]" when none is open.
 *  - one slot (resource, category): the category is that of the innermost
 *    open cpu row of the owning operation's thread (of any thread for
 *    unannotated time), "native" when there is none; the resource is CPU,
 *    or CPU+GPU when a gpu row of the process is running then; a "wait" row
 *    is resource "none", or GPU/gpu when GPU work runs.
 *
 * Memory is O(open intervals) per process (plus the name tables), whatever
 * the trace length.  A process row extends the profiled time of its
 * process beyond its events (unannotated native time).  With a window
 * [from, to) (ns from the trace start, the start of the first event), only
 * the time inside it counts.
 *
 * GPU utilisation per device (all processes together): the busy time is
 * the union of kernel, memcpy and memset intervals; the nvidia-smi figure
 * is the fraction of sampling windows (aligned on the trace start) in which
 * a kernel ran, for windows of 1/6 s and 1 s, the range of periods
 * nvidia-smi uses.
 *
 *	struct prof_breakdown *bd;
 *	prof_breakdown_new(&bd, INT64_MIN, INT64_MAX);
 *	while (...) prof_breakdown_add(bd, r, &ev);    // time order
 *	prof_breakdown_finish(bd, r);
 *	... bd->procs[i].op[key][slot], bd->keys[key]
 *	prof_breakdown_free(bd);
 */
#ifndef PROF_BREAKDOWN_H
#define PROF_BREAKDOWN_H

#include <stddef.h>
#include <stdint.h>

#include "core/error.h"
#include "core/map.h"
#include "prof/breakdown_hist.h"
#include "prof/trace_read.h"

/* Slots: (resource, category) pairs of breakdown rows, in report order. */
enum prof_slot {
	PROF_SLOT_CPU_PYTHON, PROF_SLOT_CPU_SIMULATOR, PROF_SLOT_CPU_BACKEND,
	PROF_SLOT_CPU_CUDA_API, PROF_SLOT_CPU_NATIVE,
	PROF_SLOT_BOTH_PYTHON, PROF_SLOT_BOTH_SIMULATOR, PROF_SLOT_BOTH_BACKEND,
	PROF_SLOT_BOTH_CUDA_API, PROF_SLOT_BOTH_NATIVE,
	PROF_SLOT_GPU,
	PROF_SLOT_WAIT,
	PROF_SLOT_CPU_SYSTEM, PROF_SLOT_BOTH_SYSTEM,
	PROF_SLOT_RUNNABLE,	/* none/runnable: ready, waiting for a CPU */
	PROF_SLOT_COUNT
};

/* "CPU", "CPU+GPU", "GPU", "none" and "python", ..., "gpu", "wait". */
const char *prof_slot_resource(int slot);
const char *prof_slot_category(int slot);

/* Keys 0 and 1 are always these two. */
#define PROF_KEY_UNANNOTATED 0	/* "[unannotated]" */
#define PROF_KEY_NO_PHASE 1	/* "[no phase]" */

typedef int64_t prof_slots[PROF_SLOT_COUNT];

struct prof_bd_state;

/*
 * A node of the call tree of a process: an operation under its parent,
 * the innermost operation of the same thread open when it started (none
 * for a root).  A call counts when it overlaps the window; its duration is
 * the part inside the window.  The inclusive time of a node is the sum of
 * its calls' durations (threads running the same node at once add up);
 * its exclusive time is the time it owned in the sweep.
 */
struct prof_bd_node {
	uint32_t key;
	uint32_t parent;	/* node index + 1; 0 for a root */
	uint32_t depth;		/* 0 for a root */
	int recursive;		/* an ancestor has the same key */
	int64_t exclusive;
	struct prof_hist calls;	/* durations of its calls */
	uint32_t last_key, last_child;	/* internal: the child found last (index + 1) */
};

struct prof_bd_process {
	int64_t pid;
	int64_t parent;		/* parent pid from the process row, -1 unknown */
	char *name;		/* command or main thread name, "" if unknown */
	int64_t wall;		/* profiled wall time (ns), inside the window */
	prof_slots *op;		/* op[key]: time per slot of operation `key` */
	prof_slots *phase;	/* phase[key]: time per slot of phase `key` */
	uint64_t *calls;	/* calls[key]: op rows overlapping the window */
	size_t nkeys;		/* size of op, phase and calls */
	struct prof_bd_node *nodes;	/* the call tree, parents before children */
	size_t nnodes, capnodes;
	struct core_map nodemap;	/* (parent, key) -> node index */
	uint32_t root_key, root_child;	/* internal: the root found last (index + 1) */
	struct prof_bd_state *state;
};

struct prof_gpu_util {
	int32_t device;		/* -1 when the trace gives none */
	int64_t busy;		/* ns of the union of GPU activity */
	int64_t span;		/* ns from the first to the last event */
	uint64_t windows[2];	/* sampling windows of the span, 1/6 s and 1 s */
	uint64_t active[2];	/* of those, windows in which a kernel ran */
	int64_t ustart, uend;	/* internal: the union block being built */
	int64_t last[2];	/* internal: last window counted */
};

struct prof_breakdown {
	char **keys;		/* names of operations and phases */
	size_t nkeys, capkeys;
	struct prof_bd_process *procs;
	size_t nprocs, capprocs;
	struct prof_gpu_util *gpus;
	size_t ngpus, capgpus;
	int64_t t0, tend;	/* first start and last end of events (ns) */
	int64_t lo, hi;		/* the window, absolute; set by the first event */
	int64_t from, to;	/* the window as given, relative to t0 */
	uint64_t events;	/* events added */
	int64_t only_pid;	/* -1: every process; else set before adding */
	uint32_t *keymap;	/* reader string id -> key + 1 */
	size_t nkeymap;
	size_t lastproc;
};

/*
 * [from, to): ns from the trace start; INT64_MIN, INT64_MAX: everything.
 * To keep one process only, set bd->only_pid before adding events: the
 * caller still passes only its events, and process rows of other
 * processes are then ignored too.
 */
int prof_breakdown_new(struct prof_breakdown **out, int64_t from, int64_t to);
/* Add one event; `r` resolves its names.  Returns 0 or -ENOMEM. */
int prof_breakdown_add(struct prof_breakdown *bd, const struct prof_trace_reader *r,
		       const struct prof_ev *ev);
/* Close every range, add the process rows' time, name the processes. */
int prof_breakdown_finish(struct prof_breakdown *bd, const struct prof_trace_reader *r);
void prof_breakdown_free(struct prof_breakdown *bd);

/*
 * Keep only the processes for which keep(process, ctx) is true (after
 * prof_breakdown_finish); the GPU figures stay those of the whole trace.
 * Returns the number of processes kept.
 */
size_t prof_breakdown_keep(struct prof_breakdown *bd,
			   int (*keep)(const struct prof_bd_process *p, void *ctx), void *ctx);

/*
 * The calls of operation `key` in process p, over every node of the tree
 * that has that key: *calls gets their durations (initialise it with
 * PROF_HIST_INIT; release it), *inclusive the time inside them, counting a
 * call made inside a call of the same operation once.  Returns 0 or
 * -ENOMEM.
 */
int prof_breakdown_op_calls(const struct prof_bd_process *p, size_t key,
			    struct prof_hist *calls, int64_t *inclusive);

/* The order of events the sweep needs; <0, 0, >0 like strcmp. */
int prof_ev_cmp(const struct prof_ev *a, const struct prof_ev *b);

#endif
