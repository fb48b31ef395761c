#include "fiber/pool-int.h"

void pool_window_note(struct pool *p, int64_t ns)
{
	/* A moving mean over about the last 32 tasks. */
	if (p->task_ns_avg <= 0)
		p->task_ns_avg = (double)ns;
	else
		p->task_ns_avg += ((double)ns - p->task_ns_avg) / 32;
}

long pool_window(const struct pool *p)
{
	const struct fiber_pool_opts *o = p->o;
	double want;

	if (o->prefetch_max <= o->prefetch || p->task_ns_avg <= 0)
		return o->prefetch;
	want = POOL_WINDOW_NS / (p->task_ns_avg > 1 ? p->task_ns_avg : 1);
	if (want <= (double)o->prefetch)
		return o->prefetch;
	return want >= (double)o->prefetch_max ? o->prefetch_max : (long)want;
}
