/* Taking the profiler's cost out of a breakdown; see calib.h. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/table.h"
#include "prof/calib.h"

static int cpu_slot(int s)
{
	return s <= PROF_SLOT_BOTH_NATIVE || s == PROF_SLOT_CPU_SYSTEM || s == PROF_SLOT_BOTH_SYSTEM;
}

/* Off-CPU host time: where the recorder puts short segments it did not
 * measure on a CPU. */
static int off_slot(int s)
{
	return s == PROF_SLOT_RUNNABLE || s == PROF_SLOT_WAIT;
}

/*
 * Take up to `want` ns out of the slots of rows[0..n) that in_slot()
 * accepts, in proportion to their time; returns what was taken.
 */
static int64_t take_from(prof_slots *rows, size_t n, int64_t want, int (*in_slot)(int))
{
	__int128 cpu = 0;
	int64_t got = 0, left;
	size_t i;
	int s;

	for (i = 0; i < n; i++)
		for (s = 0; s < PROF_SLOT_COUNT; s++)
			if (in_slot(s) && rows[i][s] > 0)
				cpu += rows[i][s];
	if (want <= 0 || cpu <= 0)
		return 0;
	if (want >= cpu) {
		for (i = 0; i < n; i++)
			for (s = 0; s < PROF_SLOT_COUNT; s++)
				if (in_slot(s) && rows[i][s] > 0)
					rows[i][s] = 0;
		return (int64_t)cpu;
	}
	for (i = 0; i < n; i++)
		for (s = 0; s < PROF_SLOT_COUNT; s++)
			if (in_slot(s) && rows[i][s] > 0) {
				int64_t d = (int64_t)((__int128)rows[i][s] * want / cpu);

				rows[i][s] -= d;
				got += d;
			}
	/* The rounding, a nanosecond at a time from slots that still hold some. */
	left = want - got;
	for (i = 0; i < n && left; i++)
		for (s = 0; s < PROF_SLOT_COUNT && left; s++)
			if (in_slot(s) && rows[i][s] > 0) {
				rows[i][s]--;
				left--;
			}
	return want - left;
}

static int runnable_slot(int s)
{
	return s == PROF_SLOT_RUNNABLE;
}

static int64_t slots_sum(const prof_slots *rows, size_t n, int (*in_slot)(int))
{
	int64_t t = 0;
	size_t i;
	int s;

	for (i = 0; i < n; i++)
		for (s = 0; s < PROF_SLOT_COUNT; s++)
			if (in_slot(s) && rows[i][s] > 0)
				t += rows[i][s];
	return t;
}

/*
 * CPU slots first, then runnable and wait.  CPU time taken out also takes
 * its share of the runnable time: on a busy machine a thread waited for a
 * CPU for the profiler's work as for its own, runnable/cpu ns per ns.
 */
static int64_t take(prof_slots *rows, size_t n, int64_t want, int64_t *clamped, int64_t *on_cpu)
{
	int64_t cpu = slots_sum(rows, n, cpu_slot), run = slots_sum(rows, n, runnable_slot);
	int64_t got = take_from(rows, n, want, cpu_slot), queued = 0;

	*on_cpu += got;
	if (got > 0 && cpu > 0 && run > 0)
		queued = take_from(rows, n, (int64_t)((__int128)got * run / cpu), runnable_slot);
	got += take_from(rows, n, want - got, off_slot);
	*clamped += want - got;
	return got + queued;
}

static int has_time(const prof_slots *row)
{
	return slots_sum(row, 1, cpu_slot) > 0 || slots_sum(row, 1, off_slot) > 0;
}

/*
 * The cost that an operation had too little time for was spent beside it:
 * a push or a pop costs time on both sides of its timestamp, in shares
 * that vary with the recorder's path.  It goes to the process's other
 * operations with boundaries, in proportion to their weights w, while
 * they have time left; what none can hold stays clamped.  Returns what
 * was taken.
 */
static int64_t spill(struct prof_bd_process *p, const double *w, int64_t *clamped,
		     int64_t *on_cpu)
{
	int64_t removed = 0;

	for (size_t round = 0; *clamped > 0 && round < p->nkeys; round++) {
		int64_t left = *clamped, given = 0;
		double wl = 0, cum = 0;
		size_t i;

		for (i = 0; i < p->nkeys; i++)
			if (w[i] > 0 && has_time(&p->op[i]))
				wl += w[i];
		if (wl <= 0)
			break;
		*clamped = 0;
		/* Cumulative rounding: the wants add up to `left` exactly. */
		for (i = 0; i < p->nkeys; i++) {
			int64_t want;

			if (w[i] <= 0 || !has_time(&p->op[i]))
				continue;
			cum += w[i];
			want = (int64_t)((double)left * cum / wl + 0.5) - given;
			given += want;
			removed += take(&p->op[i], 1, want, clamped, on_cpu);
		}
	}
	return removed;
}

static double cost_of(const struct prof_calib *cal, int s)
{
	return cal->cost[s].measured && cal->cost[s].ns > 0 ? cal->cost[s].ns : 0;
}

static int correct_process(struct prof_bd_process *p, const struct prof_calib *cal,
			   struct prof_calib_count cnt, const char *us, struct prof_calib_fix *fix)
{
	double *w, total = 0, cost = 0;
	int64_t removed = 0, clamped = 0, on_cpu = 0;
	size_t i;
	int s;

	for (s = 0; s < PROF_CALIB_NSOURCES; s++) {
		double n = prof_calib_events(&cnt, s, us);

		cost += n * cost_of(cal, s);
		fix->events[s] += (uint64_t)(n + 0.5);
	}
	if (cost < 0.5 || !p->nkeys)
		return 0;
	if (!(w = calloc(p->nkeys, sizeof(*w))))
		return -ENOMEM;
	for (i = 0; i < p->nnodes; i++) {
		const struct prof_bd_node *nd = &p->nodes[i];
		double c = (double)nd->calls.calls;
		uint32_t up = nd->parent ? p->nodes[nd->parent - 1].key : PROF_KEY_UNANNOTATED;

		w[nd->key] += c / 2;
		w[up] += c / 2;
		total += c;
	}
	if (total <= 0) {
		w[PROF_KEY_UNANNOTATED] = 1;
		total = 1;
	}
	for (i = 0; i < p->nkeys; i++) {
		int64_t want, got;

		if (w[i] <= 0)
			continue;
		want = (int64_t)(cost * w[i] / total + 0.5);
		got = take(&p->op[i], 1, want, &clamped, &on_cpu);
		removed += got;
	}
	removed += spill(p, w, &clamped, &on_cpu);
	free(w);
	if (p->phase) {
		int64_t got = take_from(p->phase, p->nkeys, removed, cpu_slot);

		take_from(p->phase, p->nkeys, removed - got, off_slot);
	}
	p->wall -= removed;
	fix->removed_ns += removed;
	fix->removed_cpu_ns += on_cpu;
	fix->clamped_ns += clamped;
	return 0;
}

int prof_calib_correct(struct prof_breakdown *bd, const struct prof_calib *cal,
		       const struct prof_calib_counts *counts, const char *cpu_sample_us,
		       struct prof_calib_fix *fix)
{
	size_t i;
	int ret;

	fix->applied = 1;
	for (i = 0; i < bd->nprocs; i++) {
		struct prof_bd_process *p = &bd->procs[i];

		fix->wall_ns += p->wall;
		if ((ret = correct_process(p, cal, prof_calib_counts_of(counts, p->pid), cpu_sample_us, fix)) < 0)
			return ret;
	}
	return 0;
}

void prof_calib_fix_text(char *buf, size_t size, const struct prof_calib_fix *fix)
{
	char removed[32], wall[32], clamped[32], events[160] = "";
	size_t len = 0;
	int s;

	if (!fix->applied) {
		snprintf(buf, size, "corrected: no");
		return;
	}
	core_fmt_human_ns(removed, sizeof(removed), fix->removed_ns);
	core_fmt_human_ns(wall, sizeof(wall), fix->wall_ns);
	for (s = 0; s < PROF_CALIB_NSOURCES; s++)
		if (fix->events[s] && len < sizeof(events))
			len += (size_t)snprintf(events + len, sizeof(events) - len, "%s%llu %s",
						len ? ", " : "", (unsigned long long)fix->events[s],
						prof_calib_source_name(s));
	snprintf(buf, size, "corrected: %s of profiler cost removed (%.2f %% of %s profiled; %s events)%s%s%s, "
		 "calibration '%s'",
		 removed, fix->wall_ns > 0 ? 100.0 * (double)fix->removed_ns / (double)fix->wall_ns : 0.0,
		 wall, len ? events : "no", fix->clamped_ns ? ", " : "",
		 fix->clamped_ns ? (core_fmt_human_ns(clamped, sizeof(clamped), fix->clamped_ns), clamped) : "",
		 fix->clamped_ns ? " clamped" : "", fix->calibration ? fix->calibration : "");
}
