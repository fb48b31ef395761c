#include "prof/report_perfetto.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/grow.h"
#include "core/map.h"
#include "prof/report_filter.h"

/* Field numbers of Perfetto's protos/perfetto/trace (wire types below). */
enum {
	TRACE_PACKET = 1,
	PACKET_TIMESTAMP = 8, PACKET_SEQUENCE_ID = 10, PACKET_TRACK_EVENT = 11,
	PACKET_SEQUENCE_FLAGS = 13, PACKET_TRACK_DESCRIPTOR = 60,
	EVENT_DEBUG_ANNOTATIONS = 4, EVENT_TYPE = 9, EVENT_TRACK_UUID = 11,
	EVENT_CATEGORIES = 22, EVENT_NAME = 23, EVENT_DOUBLE_COUNTER_VALUE = 44,
	ANNOTATION_STRING_VALUE = 6, ANNOTATION_NAME = 10,
	TRACK_UUID = 1, TRACK_NAME = 2, TRACK_PROCESS = 3, TRACK_THREAD = 4,
	TRACK_PARENT_UUID = 5, TRACK_COUNTER = 8,
	PROCESS_PID = 1, PROCESS_NAME = 6,
	THREAD_PID = 1, THREAD_TID = 2, THREAD_NAME = 5,
};

enum { WIRE_VARINT = 0, WIRE_I64 = 1, WIRE_LEN = 2 };
enum { SLICE_BEGIN = 1, SLICE_END = 2, INSTANT = 3, COUNTER = 4 };
#define SEQ_INCREMENTAL_STATE_CLEARED 1
#define SEQUENCE 1

enum tkind { TK_PROCESS, TK_THREAD, TK_CPU, TK_PHASE, TK_GPU, TK_COUNTER };

struct track {
	int64_t pid, a, b;	/* thread, cpu: a = tid; gpu: a = device, b = stream; counter: a = name */
	int kind, lane;		/* lane > 0: a further track for crossing ranges */
	int64_t *ends;		/* ends of the ranges open on it, innermost last */
	size_t nends, cap;
};

struct pending {
	int64_t end;
	uint64_t serial;
	size_t track;
};

/* Bytes of a message being encoded. */
struct pbuf {
	unsigned char *d;
	size_t n, cap;
};

struct prof_perfetto {
	FILE *fp;
	struct prof_window win;
	int first_packet, nomem;
	struct track *tracks;
	size_t ntracks, tracks_cap, last;
	struct core_map index;	/* (pid, kind, a, b, lane) -> track */
	struct pending *heap;
	size_t nheap, heap_cap;
	uint64_t serial;
	struct prof_pidset only;	/* prof_perfetto_only() */
	struct pbuf msg, sub, pkt, out;
	const struct prof_trace_reader *r;	/* names tracks made now */
};

/* --- the protobuf encoder --- */

static int room(struct prof_perfetto *p, struct pbuf *b, size_t n)
{
	if (CORE_GROW(b->d, b->cap, b->n + n) < 0) {
		p->nomem = 1;
		return -ENOMEM;
	}
	return 0;
}

static void put(struct prof_perfetto *p, struct pbuf *b, const void *d, size_t n)
{
	if (n && room(p, b, n) == 0) {
		memcpy(b->d + b->n, d, n);
		b->n += n;
	}
}

static void varint(struct prof_perfetto *p, struct pbuf *b, uint64_t v)
{
	if (b->n + 10 > b->cap && room(p, b, 10) < 0)
		return;
	while (v > 0x7f) {
		b->d[b->n++] = (unsigned char)(v | 0x80);
		v >>= 7;
	}
	b->d[b->n++] = (unsigned char)v;
}

static void pb_uint(struct prof_perfetto *p, struct pbuf *b, int field, uint64_t v)
{
	varint(p, b, (uint64_t)field << 3 | WIRE_VARINT);
	varint(p, b, v);
}

static void pb_bytes(struct prof_perfetto *p, struct pbuf *b, int field, const void *d, size_t n)
{
	varint(p, b, (uint64_t)field << 3 | WIRE_LEN);
	varint(p, b, n);
	put(p, b, d, n);
}

static void pb_str(struct prof_perfetto *p, struct pbuf *b, int field, const char *s)
{
	pb_bytes(p, b, field, s, strlen(s));
}

static void pb_msg(struct prof_perfetto *p, struct pbuf *b, int field, const struct pbuf *m)
{
	pb_bytes(p, b, field, m->d, m->n);
}

static void pb_double(struct prof_perfetto *p, struct pbuf *b, int field, double d)
{
	unsigned char x[8];
	uint64_t u;
	int i;

	memcpy(&u, &d, sizeof(u));
	for (i = 0; i < 8; i++)
		x[i] = (unsigned char)(u >> (8 * i));
	varint(p, b, (uint64_t)field << 3 | WIRE_I64);
	put(p, b, x, 8);
}

static void clear(struct pbuf *b)
{
	b->n = 0;
}

/* A TracePacket holding p->msg as `field`, at ts (none when < 0). */
static int packet(struct prof_perfetto *p, int field, int64_t ts)
{
	clear(&p->pkt);
	clear(&p->out);
	if (ts >= 0)
		pb_uint(p, &p->pkt, PACKET_TIMESTAMP, (uint64_t)ts);
	pb_uint(p, &p->pkt, PACKET_SEQUENCE_ID, SEQUENCE);
	if (p->first_packet) {
		pb_uint(p, &p->pkt, PACKET_SEQUENCE_FLAGS, SEQ_INCREMENTAL_STATE_CLEARED);
		p->first_packet = 0;
	}
	pb_msg(p, &p->pkt, field, &p->msg);
	/* The Trace's field header, then the packet as it is. */
	varint(p, &p->out, (uint64_t)TRACE_PACKET << 3 | WIRE_LEN);
	varint(p, &p->out, p->pkt.n);
	if (p->nomem)
		return -ENOMEM;
	if (fwrite(p->out.d, 1, p->out.n, p->fp) != p->out.n ||
	    fwrite(p->pkt.d, 1, p->pkt.n, p->fp) != p->pkt.n)
		return -EIO;
	return 0;
}

/* --- tracks --- */

/* Small numbers: a uuid is a varint in every event. */
static uint64_t uuid(size_t track)
{
	return track + 1;
}

static const char *process_name(const struct prof_trace_reader *r, int64_t pid)
{
	const struct prof_process *pr;
	const struct prof_thread *th;
	size_t n = prof_trace_processes(r, &pr), i;

	for (i = 0; i < n; i++)
		if (pr[i].pid == pid && pr[i].name)
			return prof_trace_str(r, pr[i].name);
	n = prof_trace_threads(r, &th);
	for (i = 0; i < n; i++)
		if (th[i].pid == pid && th[i].tid == pid && th[i].name)
			return prof_trace_str(r, th[i].name);
	return NULL;
}

static const char *thread_name(const struct prof_trace_reader *r, int64_t pid, int64_t tid)
{
	const struct prof_thread *th;
	size_t n = prof_trace_threads(r, &th), i;

	for (i = 0; i < n; i++)
		if (th[i].pid == pid && th[i].tid == tid && th[i].name)
			return prof_trace_str(r, th[i].name);
	return NULL;
}

static int find(struct prof_perfetto *p, int64_t pid, int kind, int64_t a, int64_t b, int lane, size_t *out);

/* The TrackDescriptor packet of track i, with the names r knows. */
static int describe(struct prof_perfetto *p, size_t i, const struct prof_trace_reader *r)
{
	const struct track *t = &p->tracks[i];
	size_t parent = 0;
	const char *name = NULL;
	char buf[96];

	/* The parent first: describing it uses the message buffers. */
	if (t->kind != TK_PROCESS) {
		if (find(p, t->pid, TK_PROCESS, 0, 0, 0, &parent) < 0)
			return -ENOMEM;
		t = &p->tracks[i];
	}
	clear(&p->msg);
	clear(&p->sub);
	pb_uint(p, &p->msg, TRACK_UUID, uuid(i));
	switch (t->kind) {
	case TK_PROCESS:
		pb_uint(p, &p->sub, PROCESS_PID, (uint64_t)t->pid);
		if ((name = process_name(r, t->pid)))
			pb_str(p, &p->sub, PROCESS_NAME, name);
		pb_msg(p, &p->msg, TRACK_PROCESS, &p->sub);
		return packet(p, PACKET_TRACK_DESCRIPTOR, -1);
	case TK_THREAD:
		if (!t->lane) {
			pb_uint(p, &p->sub, THREAD_PID, (uint64_t)t->pid);
			pb_uint(p, &p->sub, THREAD_TID, (uint64_t)t->a);
			if ((name = thread_name(r, t->pid, t->a)))
				pb_str(p, &p->sub, THREAD_NAME, name);
			pb_msg(p, &p->msg, TRACK_THREAD, &p->sub);
			return packet(p, PACKET_TRACK_DESCRIPTOR, -1);
		}
		snprintf(buf, sizeof(buf), "%" PRId64, t->a);
		break;
	case TK_CPU:
		snprintf(buf, sizeof(buf), "%" PRId64 " cpu", t->a);
		break;
	case TK_PHASE:
		snprintf(buf, sizeof(buf), "phases");
		break;
	case TK_GPU:
		if (t->b >= 0)
			snprintf(buf, sizeof(buf), "GPU %" PRId64 " stream %" PRId64, t->a, t->b);
		else
			snprintf(buf, sizeof(buf), "GPU %" PRId64, t->a);
		break;
	default:
		snprintf(buf, sizeof(buf), "%.90s", prof_trace_str(r, (uint32_t)t->a));
		break;
	}
	if (t->lane)
		snprintf(buf + strlen(buf), sizeof(buf) - strlen(buf), " (%d)", t->lane + 1);
	pb_uint(p, &p->msg, TRACK_PARENT_UUID, uuid(parent));
	pb_str(p, &p->msg, TRACK_NAME, buf);
	if (t->kind == TK_COUNTER)
		pb_msg(p, &p->msg, TRACK_COUNTER, &p->sub);
	return packet(p, PACKET_TRACK_DESCRIPTOR, -1);
}

/* The track (pid, kind, a, b, lane), made and described on first use. */
static int find(struct prof_perfetto *p, int64_t pid, int kind, int64_t a, int64_t b, int lane, size_t *out)
{
	int64_t key[5] = { pid, kind, a, b, lane };
	struct core_map_entry *e;
	struct track *t;
	int ret;

	if (p->last < p->ntracks) {
		t = &p->tracks[p->last];
		if (t->pid == pid && t->kind == kind && t->a == a && t->b == b && t->lane == lane) {
			*out = p->last;
			return 0;
		}
	}
	if ((ret = core_map_put(&p->index, key, sizeof(key), &e)) < 0)
		return ret;
	if (!ret) {
		*out = p->last = (size_t)e->value.u;
		return 0;
	}
	e->value.u = p->ntracks;
	if (CORE_GROW(p->tracks, p->tracks_cap, p->ntracks + 1) < 0)
		return -ENOMEM;
	t = &p->tracks[p->ntracks];
	memset(t, 0, sizeof(*t));
	t->pid = pid;
	t->kind = kind;
	t->a = a;
	t->b = b;
	t->lane = lane;
	*out = p->last = p->ntracks++;
	return describe(p, *out, p->r);
}

/* --- events --- */

static int track_event(struct prof_perfetto *p, size_t track, int type, int64_t ts,
		       const char *name, const char *cat)
{
	clear(&p->msg);
	pb_uint(p, &p->msg, EVENT_TYPE, (uint64_t)type);
	pb_uint(p, &p->msg, EVENT_TRACK_UUID, uuid(track));
	if (cat)
		pb_str(p, &p->msg, EVENT_CATEGORIES, cat);
	if (name)
		pb_str(p, &p->msg, EVENT_NAME, name);
	return 0;
}

static int heap_less(const struct pending *x, const struct pending *y)
{
	/* Of ranges ending together, the inner one (begun later) ends first. */
	return x->end != y->end ? x->end < y->end : x->serial > y->serial;
}

static int heap_push(struct prof_perfetto *p, int64_t end, size_t track)
{
	struct pending e = { end, ++p->serial, track };
	size_t i;

	if (CORE_GROW(p->heap, p->heap_cap, p->nheap + 1) < 0)
		return -ENOMEM;
	for (i = p->nheap++; i && heap_less(&e, &p->heap[(i - 1) / 2]); i = (i - 1) / 2)
		p->heap[i] = p->heap[(i - 1) / 2];
	p->heap[i] = e;
	return 0;
}

static void heap_pop(struct prof_perfetto *p)
{
	struct pending last = p->heap[--p->nheap];
	size_t i = 0, c;

	while ((c = 2 * i + 1) < p->nheap) {
		if (c + 1 < p->nheap && heap_less(&p->heap[c + 1], &p->heap[c]))
			c++;
		if (!heap_less(&p->heap[c], &last))
			break;
		p->heap[i] = p->heap[c];
		i = c;
	}
	if (p->nheap)
		p->heap[i] = last;
}

/* End the ranges that end by t (all when t is INT64_MAX). */
static int flush(struct prof_perfetto *p, int64_t t)
{
	int ret;

	while (p->nheap && p->heap[0].end <= t) {
		struct pending e = p->heap[0];

		heap_pop(p);
		p->tracks[e.track].nends--;
		track_event(p, e.track, SLICE_END, e.end, NULL, NULL);
		if ((ret = packet(p, PACKET_TRACK_EVENT, e.end)) < 0)
			return ret;
	}
	return 0;
}

/* A track of (pid, kind, a, b) on which [a0, b0] nests. */
static int lane_for(struct prof_perfetto *p, int64_t pid, int kind, int64_t a, int64_t b,
		    int64_t b0, size_t *out)
{
	int lane;

	for (lane = 0;; lane++) {
		const struct track *t;

		if (find(p, pid, kind, a, b, lane, out) < 0)
			return -ENOMEM;
		t = &p->tracks[*out];
		if (!t->nends || t->ends[t->nends - 1] >= b0)
			return 0;
	}
}

int prof_perfetto_new(struct prof_perfetto **out, FILE *fp, int64_t from, int64_t to)
{
	struct prof_perfetto *p = calloc(1, sizeof(*p));

	*out = p;
	if (!p)
		return -ENOMEM;
	p->fp = fp;
	prof_window_init(&p->win, from, to);
	p->last = (size_t)-1;
	p->first_packet = 1;
	return 0;
}

int prof_perfetto_only(struct prof_perfetto *p, int64_t pid)
{
	return prof_pidset_add(&p->only, pid);
}

static void forget(struct prof_perfetto *p)
{
	size_t i;

	for (i = 0; i < p->ntracks; i++)
		free(p->tracks[i].ends);
	p->ntracks = 0;
	core_map_release(&p->index, NULL);
	p->nheap = 0;
	p->last = (size_t)-1;
}

void prof_perfetto_free(struct prof_perfetto *p)
{
	if (!p)
		return;
	forget(p);
	free(p->tracks);
	free(p->heap);
	prof_pidset_release(&p->only);
	free(p->msg.d);
	free(p->sub.d);
	free(p->pkt.d);
	free(p->out.d);
	free(p);
}

int prof_perfetto_restart(struct prof_perfetto *p)
{
	fflush(p->fp);
	if (fseeko(p->fp, 0, SEEK_SET) != 0 || ftruncate(fileno(p->fp), 0) != 0)
		return -EIO;
	forget(p);
	prof_window_reset(&p->win);
	p->first_packet = 1;
	return 0;
}

int prof_perfetto_event(struct prof_perfetto *p, const struct prof_trace_reader *r,
			const struct prof_ev *ev)
{
	int64_t a, b;
	const char *name = prof_trace_str(r, ev->name), *cat = "op";
	struct track *t;
	size_t tr;
	int ret;

	p->r = r;
	if (!prof_window_clip(&p->win, ev, &a, &b))
		return 0;
	if ((ret = flush(p, a)) < 0)
		return ret;
	switch (ev->kind) {
	case PROF_KIND_OP:
		if (ev->domain)
			cat = prof_trace_str(r, ev->domain);
		ret = lane_for(p, ev->pid, TK_THREAD, ev->tid, 0, b, &tr);
		break;
	case PROF_KIND_CPU:
		name = prof_category_name(ev->cat);
		cat = "cpu";
		ret = lane_for(p, ev->pid, TK_CPU, ev->tid, 0, b, &tr);
		break;
	case PROF_KIND_PHASE:
		cat = "phase";
		ret = lane_for(p, ev->pid, TK_PHASE, 0, 0, b, &tr);
		break;
	case PROF_KIND_GPU:
		cat = prof_category_name(ev->cat);
		if (!*name)
			name = cat;
		ret = lane_for(p, ev->pid, TK_GPU, ev->device, ev->stream, b, &tr);
		break;
	case PROF_KIND_MARK:
		if ((ret = find(p, ev->pid, TK_THREAD, ev->tid, 0, 0, &tr)) < 0)
			return ret;
		track_event(p, tr, INSTANT, a, name, "mark");
		return packet(p, PACKET_TRACK_EVENT, a);
	case PROF_KIND_SAMPLE:
		/* An instant on its thread's track: the file, the category. */
		if ((ret = find(p, ev->pid, TK_THREAD, ev->tid, 0, 0, &tr)) < 0)
			return ret;
		track_event(p, tr, INSTANT, a, name, prof_category_name(ev->cat));
		return packet(p, PACKET_TRACK_EVENT, a);
	case PROF_KIND_WARNING:
		if ((ret = find(p, ev->pid, TK_PROCESS, 0, 0, 0, &tr)) < 0)
			return ret;
		track_event(p, tr, INSTANT, a, "warning", "warning");
		clear(&p->sub);
		pb_str(p, &p->sub, ANNOTATION_NAME, "detail");
		pb_str(p, &p->sub, ANNOTATION_STRING_VALUE, prof_trace_str(r, ev->detail));
		pb_msg(p, &p->msg, EVENT_DEBUG_ANNOTATIONS, &p->sub);
		return packet(p, PACKET_TRACK_EVENT, a);
	case PROF_KIND_COUNTER:
		if ((ret = find(p, ev->pid, TK_COUNTER, ev->name, 0, 0, &tr)) < 0)
			return ret;
		track_event(p, tr, COUNTER, a, NULL, NULL);
		pb_double(p, &p->msg, EVENT_DOUBLE_COUNTER_VALUE, ev->value);
		return packet(p, PACKET_TRACK_EVENT, a);
	default:
		return 0;
	}
	if (ret < 0)
		return ret;
	t = &p->tracks[tr];
	if (CORE_GROW(t->ends, t->cap, t->nends + 1) < 0 || heap_push(p, b, tr) < 0)
		return -ENOMEM;
	t->ends[t->nends++] = b;
	track_event(p, tr, SLICE_BEGIN, a, name, cat);
	return packet(p, PACKET_TRACK_EVENT, a);
}

int prof_perfetto_finish(struct prof_perfetto *p, const struct prof_trace_reader *r)
{
	size_t i;
	int ret;

	p->r = r;
	if ((ret = flush(p, INT64_MAX)) < 0)
		return ret;
	/* Names that came after the first use of their track. */
	for (i = 0; i < p->ntracks; i++) {
		const struct track *t = &p->tracks[i];

		if ((t->kind == TK_PROCESS || (t->kind == TK_THREAD && !t->lane)) && prof_pidset_has(&p->only, t->pid) &&
		    (ret = describe(p, i, r)) < 0)
			return ret;
	}
	if (fflush(p->fp) != 0 || ferror(p->fp))
		return -EIO;
	return 0;
}
