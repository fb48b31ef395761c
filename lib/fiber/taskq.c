#include "fiber/taskq.h"

#include <errno.h>
#include <stdlib.h>

void fiber_task_free(struct fiber_task *t)
{
	if (!t)
		return;
	json_decref(t->id);
	free(t->line);
	free(t->record);
	free(t);
}

int fiber_taskq_add(struct fiber_taskq *q, struct fiber_task *t)
{
	if (q->next - q->base >= q->wcap) {
		size_t cap = q->wcap ? 2 * q->wcap : 1024;
		struct fiber_task **v = calloc(cap, sizeof(*v));
		uint64_t s;

		if (!v)
			return -ENOMEM;
		for (s = q->base; s < q->next; s++)
			v[s & (cap - 1)] = fiber_taskq_at(q, s);
		free(q->win);
		q->win = v;
		q->wcap = cap;
	}
	t->seq = q->next++;
	q->win[t->seq & (q->wcap - 1)] = t;
	return 0;
}

void fiber_taskq_drop(struct fiber_taskq *q, uint64_t seq)
{
	fiber_task_free(fiber_taskq_at(q, seq));
	q->win[seq & (q->wcap - 1)] = NULL;
	while (q->base < q->next && !fiber_taskq_at(q, q->base))
		q->base++;
}

int fiber_taskq_push(struct fiber_taskq *q, uint64_t seq, int front)
{
	return front ? core_ring_push_front(&q->ready, seq) : core_ring_push(&q->ready, seq);
}

uint64_t fiber_taskq_pop(struct fiber_taskq *q)
{
	return core_ring_pop(&q->ready);
}

void fiber_taskq_release(struct fiber_taskq *q)
{
	for (; q->base < q->next; q->base++)
		if (q->wcap)
			fiber_task_free(fiber_taskq_at(q, q->base));
	free(q->win);
	core_ring_release(&q->ready);
	*q = (struct fiber_taskq)FIBER_TASKQ_INIT;
}
