/*
 * The master's tasks: a window of every task read and not yet written
 * out, by input sequence number [base, next), and the queue of tasks
 * waiting for a worker (retries go to its front).
 *
 * The queue owns the tasks in its window; fiber_taskq_drop frees one and
 * moves `base` past every dropped task at the start of the window.
 */
#ifndef FIBER_TASKQ_H
#define FIBER_TASKQ_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

#include "core/ring.h"

enum fiber_task_state { FIBER_TASK_QUEUED, FIBER_TASK_RUNNING, FIBER_TASK_DONE };

struct fiber_task {
	uint64_t seq;		/* input order, from 0 */
	json_t *id;		/* string or integer (owned) */
	char *line;		/* the task line, without newline; NULL once done */
	size_t len;
	long attempts;		/* attempts started */
	long lineno;		/* its input line */
	int state;
	char *record;		/* the result record, once done (NULL when spilled) */
	uint64_t spill_off;	/* --keep-order: where a spilled record waits */
	size_t spill_len;	/* its length; 0: not spilled */
};

struct fiber_taskq {
	struct fiber_task **win;	/* win[seq & (wcap - 1)] */
	size_t wcap;
	uint64_t base, next;
	struct core_ring ready;		/* waiting sequence numbers */
};

#define FIBER_TASKQ_INIT { NULL, 0, 0, 0, CORE_RING_INIT }

/* Give t the next sequence number and take it into the window. 0 or -ENOMEM. */
int fiber_taskq_add(struct fiber_taskq *q, struct fiber_task *t);
/* The task with sequence number seq in the window, or NULL once dropped. */
static inline struct fiber_task *fiber_taskq_at(const struct fiber_taskq *q, uint64_t seq)
{
	return q->win[seq & (q->wcap - 1)];
}
/* Free a task of the window and advance base over dropped tasks. */
void fiber_taskq_drop(struct fiber_taskq *q, uint64_t seq);
/* Tasks in the window. */
static inline uint64_t fiber_taskq_size(const struct fiber_taskq *q)
{
	return q->next - q->base;
}
/* Queue seq for a worker, at the back or (front = 1) at the front. */
int fiber_taskq_push(struct fiber_taskq *q, uint64_t seq, int front);
/* Take the first waiting sequence number; core_ring_count(&q->ready)
 * must be above 0. */
uint64_t fiber_taskq_pop(struct fiber_taskq *q);
/* Free every task and the queue's memory. */
void fiber_taskq_release(struct fiber_taskq *q);

void fiber_task_free(struct fiber_task *t);

#endif
