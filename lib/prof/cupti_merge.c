#include "prof/cupti_merge.h"

#include <string.h>

/* The text after a head of hlen bytes, or NULL when the record is short. */
static const char *after(const struct prof_spool_rec *rec, void *head, size_t hlen)
{
	size_t room = rec->size > sizeof(*rec) ? rec->size - sizeof(*rec) : 0;
	const char *p = (const char *)(rec + 1);

	if (room < hlen + 1 || !memchr(p + hlen, 0, room - hlen))
		return NULL;
	memcpy(head, p, hlen);
	return p + hlen;
}

int prof_cupti_merge_rec(struct prof_trace_writer *w, int64_t pid, int64_t tid,
			 const struct prof_spool_rec *rec)
{
	struct prof_event ev = PROF_EVENT_INIT;
	struct prof_spool_gpu g;
	struct prof_spool_api a;
	int ret;

	ev.pid = pid;
	ev.start_ns = rec->t;
	switch (rec->type) {
	case PROF_REC_GPU:
		if (!(ev.name = after(rec, &g, sizeof(g))))
			return 1;
		if (g.category != PROF_CAT_KERNEL && g.category != PROF_CAT_MEMCPY &&
		    g.category != PROF_CAT_MEMSET)
			return 1;
		ev.kind = PROF_KIND_GPU;
		ev.has = PROF_EV_PID | PROF_EV_START | PROF_EV_END | PROF_EV_DEVICE |
			 PROF_EV_STREAM | PROF_EV_CORRELATION;
		ev.end_ns = g.end < rec->t ? rec->t : g.end;
		ev.category = (enum prof_category)g.category;
		ev.device = g.device;
		ev.stream = g.stream;
		ev.correlation = (int64_t)g.correlation;
		break;
	case PROF_REC_API:
		if (!(ev.name = after(rec, &a, sizeof(a))))
			return 1;
		ev.kind = PROF_KIND_CPU;
		ev.has = PROF_EV_PID | PROF_EV_TID | PROF_EV_START | PROF_EV_END |
			 PROF_EV_CORRELATION;
		ev.tid = tid;
		ev.end_ns = a.end < rec->t ? rec->t : a.end;
		ev.category = PROF_CAT_CUDA_API;
		ev.correlation = (int64_t)rec->u;
		break;
	default:
		return 0;
	}
	ret = prof_trace_write(w, &ev);
	return ret < 0 ? ret : 1;
}
