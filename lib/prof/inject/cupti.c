/*
 * The CUDA injection library: the CUDA driver calls InitializeInjection
 * when the program initialises CUDA, because rlprof-record names this
 * library in CUDA_INJECTION64_PATH.  It subscribes to CUPTI's callbacks
 * for the runtime and driver APIs (each call becomes a cuda_api record of
 * the calling thread, with its correlation id) and enables activity
 * records of kernels (concurrent), copies and memsets, which CUPTI hands
 * back in buffers (prof/cupti_merge.h turns both into trace rows).
 *
 * libcupti is opened with dlopen, not linked, so that the library loads
 * into any process (Python uses it for the recorder) whether or not CUPTI
 * or a driver exists; RLPROF_CUPTI_LIB names it, else a copy the process
 * already loaded, the build's, or the soname.  Whatever fails, CUDA goes
 * on and the process's ".gpu" line (prof/cupti_status.h) says why.
 *
 * Timestamps: CUPTI takes its timestamps from the recorder's clock
 * (cuptiActivityRegisterTimestampCallback); where that call is missing,
 * an offset measured at start maps CUPTI's clock to it.
 */
#include <cupti.h>
#include <dlfcn.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/clock.h"
#include "prof/cupti_merge.h"
#include "prof/cupti_status.h"
#include "prof/demangle.h"
#include "prof/recorder.h"
#include "prof/trace.h"

#if CUPTI_API_VERSION >= 130000
typedef CUpti_ActivityKernel10 kernel_rec;
#else
typedef CUpti_ActivityKernel9 kernel_rec;
#endif
typedef CUpti_ActivityMemcpy6 memcpy_rec;
typedef CUpti_ActivityMemset4 memset_rec;

#define API_DEPTH 16
#define BUFFER_SIZE (4u << 20)

#define CUPTI_FUNCS(X) X(cuptiSubscribe) X(cuptiEnableDomain) X(cuptiActivityEnable) \
	X(cuptiActivityRegisterCallbacks) X(cuptiActivityFlushAll) \
	X(cuptiActivityGetNextRecord) X(cuptiActivityGetNumDroppedRecords) \
	X(cuptiGetResultString) X(cuptiGetVersion) X(cuptiGetTimestamp)
#define DECLARE(f) static __typeof__(f) *p_##f;
CUPTI_FUNCS(DECLARE)
static __typeof__(cuptiActivityRegisterTimestampCallback) *p_ts_callback;

static CUpti_SubscriberHandle subscriber;
static int64_t ts_offset;		/* recorder clock - CUPTI clock */
static _Atomic int started;
static _Atomic uint64_t dropped_total;

static __thread int api_depth __attribute__((tls_model("initial-exec")));
static __thread int64_t api_start[API_DEPTH];

static const char *result_text(CUptiResult r)
{
	const char *s = NULL;

	if (p_cuptiGetResultString)
		p_cuptiGetResultString(r, &s);
	return s ? s : "unknown CUPTI error";
}

static uint64_t CUPTIAPI now_ns(void)
{
	return (uint64_t)core_clock_real_ns();
}

static void CUPTIAPI on_api(void *ud, CUpti_CallbackDomain domain, CUpti_CallbackId id,
			    const void *data)
{
	const CUpti_CallbackData *cb = data;
	char text[PROF_SPOOL_TEXT_MAX];
	int64_t t = core_clock_real_ns();
	size_t len;
	int d;

	(void)ud;
	(void)id;
	if (domain != CUPTI_CB_DOMAIN_RUNTIME_API && domain != CUPTI_CB_DOMAIN_DRIVER_API)
		return;
	if (cb->callbackSite == CUPTI_API_ENTER) {
		if (api_depth < API_DEPTH)
			api_start[api_depth] = t;
		api_depth++;
		return;
	}
	if (api_depth == 0)
		return;
	d = --api_depth;
	if (d >= API_DEPTH)
		return;
	len = prof_cupti_api_text(text, t, cb->functionName ? cb->functionName : "");
	prof_rec_add_at(api_start[d], PROF_REC_API, 0, cb->correlationId, 0, text, len);
}

static void CUPTIAPI buffer_requested(uint8_t **buf, size_t *size, size_t *max_records)
{
	*buf = aligned_alloc(8, BUFFER_SIZE);
	*size = *buf ? BUFFER_SIZE : 0;
	*max_records = 0;
}

static const char *copy_name(uint8_t kind)
{
	static const char *const names[] = {
		[CUPTI_ACTIVITY_MEMCPY_KIND_HTOD] = "memcpy HtoD",
		[CUPTI_ACTIVITY_MEMCPY_KIND_DTOH] = "memcpy DtoH",
		[CUPTI_ACTIVITY_MEMCPY_KIND_HTOA] = "memcpy HtoA",
		[CUPTI_ACTIVITY_MEMCPY_KIND_ATOH] = "memcpy AtoH",
		[CUPTI_ACTIVITY_MEMCPY_KIND_ATOA] = "memcpy AtoA",
		[CUPTI_ACTIVITY_MEMCPY_KIND_ATOD] = "memcpy AtoD",
		[CUPTI_ACTIVITY_MEMCPY_KIND_DTOA] = "memcpy DtoA",
		[CUPTI_ACTIVITY_MEMCPY_KIND_DTOD] = "memcpy DtoD",
		[CUPTI_ACTIVITY_MEMCPY_KIND_HTOH] = "memcpy HtoH",
		[CUPTI_ACTIVITY_MEMCPY_KIND_PTOP] = "memcpy PtoP",
	};

	return kind < sizeof(names) / sizeof(names[0]) && names[kind] ? names[kind] : "memcpy";
}

static void add_gpu(uint64_t start, uint64_t end, uint32_t device, uint32_t stream,
		    uint32_t corr, enum prof_category cat, const char *name)
{
	char text[PROF_SPOOL_TEXT_MAX];
	struct prof_spool_gpu g;
	size_t len;

	memset(&g, 0, sizeof(g));
	g.end = (int64_t)end + ts_offset;
	g.correlation = corr;
	g.device = device;
	g.stream = stream;
	g.category = cat;
	len = prof_cupti_gpu_text(text, &g, name);
	prof_rec_add_at((int64_t)start + ts_offset, PROF_REC_GPU, 0, corr, 0, text, len);
}

static void CUPTIAPI buffer_completed(CUcontext ctx, uint32_t stream, uint8_t *buf,
				      size_t size, size_t valid)
{
	CUpti_Activity *rec = NULL;
	size_t dropped = 0;

	while (p_cuptiActivityGetNextRecord(buf, valid, &rec) == CUPTI_SUCCESS) {
		switch (rec->kind) {
		case CUPTI_ACTIVITY_KIND_KERNEL:
		case CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL: {
			const kernel_rec *k = (const void *)rec;

			add_gpu(k->start, k->end, k->deviceId, k->streamId, k->correlationId,
				PROF_CAT_KERNEL, k->name ? prof_demangle(k->name) : "");
			break;
		}
		case CUPTI_ACTIVITY_KIND_MEMCPY: {
			const memcpy_rec *m = (const void *)rec;

			add_gpu(m->start, m->end, m->deviceId, m->streamId, m->correlationId,
				PROF_CAT_MEMCPY, copy_name(m->copyKind));
			break;
		}
		case CUPTI_ACTIVITY_KIND_MEMSET: {
			const memset_rec *m = (const void *)rec;

			add_gpu(m->start, m->end, m->deviceId, m->streamId, m->correlationId,
				PROF_CAT_MEMSET, "memset");
			break;
		}
		default:
			break;
		}
	}
	if (p_cuptiActivityGetNumDroppedRecords(ctx, stream, &dropped) == CUPTI_SUCCESS &&
	    dropped > 0) {
		char msg[96];
		int n = snprintf(msg, sizeof(msg), "dropped %zu GPU activity records "
				 "(CUPTI's buffers were full)", dropped);

		atomic_fetch_add(&dropped_total, dropped);
		prof_rec_add(PROF_REC_WARNING, 0, 0, 0, msg, (size_t)n);
	}
	(void)size;
	free(buf);
}

/*
 * The recorder's finish hook: get what CUPTI still holds.  Not after a
 * fault (the process state is suspect), nor from a signal that came in
 * the middle of a CUDA call of this thread (CUPTI's locks may be held).
 */
static void flush_hook(int sig)
{
	if (sig == SIGSEGV || sig == SIGBUS || sig == SIGILL || sig == SIGFPE ||
	    sig == SIGABRT || (sig && api_depth > 0))
		return;
	p_cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
}

static void *open_cupti(char *why, size_t size)
{
	/* Any copy the process loaded already (a framework's), whatever its
	 * version: a second CUPTI in one process would not work; the version
	 * check then says whether it fits. */
	static const char *const loaded[] = { "libcupti.so.13", "libcupti.so.12", "libcupti.so" };
#if CUPTI_API_VERSION >= 130000
	static const char *const sonames[] = { "libcupti.so.13", "libcupti.so" };
#else
	static const char *const sonames[] = { "libcupti.so.12", "libcupti.so" };
#endif
	const char *env = getenv("RLPROF_CUPTI_LIB");
	void *h;
	size_t i;

	if (env && *env) {
		if (!(h = dlopen(env, RTLD_NOW | RTLD_GLOBAL)))
			snprintf(why, size, "CUPTI library '%s' cannot be loaded", env);
		return h;
	}
	for (i = 0; i < sizeof(loaded) / sizeof(loaded[0]); i++)
		if ((h = dlopen(loaded[i], RTLD_NOW | RTLD_GLOBAL | RTLD_NOLOAD)))
			return h;
#ifdef PROF_CUPTI_LIB
	if ((h = dlopen(PROF_CUPTI_LIB, RTLD_NOW | RTLD_GLOBAL)))
		return h;
#endif
	for (i = 0; i < sizeof(sonames) / sizeof(sonames[0]); i++)
		if ((h = dlopen(sonames[i], RTLD_NOW | RTLD_GLOBAL)))
			return h;
	snprintf(why, size, "no CUPTI library (%s cannot be loaded)", sonames[0]);
	return NULL;
}

static int version_fits(uint32_t v)
{
#if CUPTI_API_VERSION >= 130000
	return v >= 130000;
#else
	return v >= CUPTI_API_VERSION && v < 130000;
#endif
}

/* 0, or -1 with why. */
static int start_cupti(char *what, char *why, size_t size)
{
	static const CUpti_ActivityKind kinds[] = { CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL,
		CUPTI_ACTIVITY_KIND_MEMCPY, CUPTI_ACTIVITY_KIND_MEMSET };
	void *h = open_cupti(why, size);
	CUptiResult r;
	uint32_t v = 0;
	uint64_t t0 = 0;
	size_t i;

	if (!h)
		return -1;
#define LOOKUP(f) if (!(p_##f = (__typeof__(f) *)dlsym(h, #f))) { \
		snprintf(why, size, "the CUPTI library lacks %s", #f); return -1; }
	CUPTI_FUNCS(LOOKUP)
#undef LOOKUP
	p_ts_callback = (__typeof__(cuptiActivityRegisterTimestampCallback) *)
		dlsym(h, "cuptiActivityRegisterTimestampCallback");
	if ((r = p_cuptiGetVersion(&v)) != CUPTI_SUCCESS || !version_fits(v)) {
		snprintf(why, size, "CUPTI API version %u does not fit this build's (%u)",
			 v, (unsigned)CUPTI_API_VERSION);
		return -1;
	}
	if ((r = p_cuptiSubscribe(&subscriber, on_api, NULL)) != CUPTI_SUCCESS) {
		if (r == CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED)
			snprintf(why, size, "another CUPTI subscriber is present "
				 "(Nsight Systems, a framework's profiler): %s", result_text(r));
		else
			snprintf(why, size, "CUPTI cannot start: %s", result_text(r));
		return -1;
	}
	if (!p_ts_callback || p_ts_callback(now_ns) != CUPTI_SUCCESS) {
		if (p_cuptiGetTimestamp(&t0) == CUPTI_SUCCESS)
			ts_offset = core_clock_real_ns() - (int64_t)t0;
	}
	if ((r = p_cuptiEnableDomain(1, subscriber, CUPTI_CB_DOMAIN_RUNTIME_API)) != CUPTI_SUCCESS ||
	    (r = p_cuptiEnableDomain(1, subscriber, CUPTI_CB_DOMAIN_DRIVER_API)) != CUPTI_SUCCESS ||
	    (r = p_cuptiActivityRegisterCallbacks(buffer_requested, buffer_completed)) != CUPTI_SUCCESS) {
		snprintf(why, size, "CUPTI callbacks refused: %s", result_text(r));
		return -1;
	}
	for (i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
		if ((r = p_cuptiActivityEnable(kinds[i])) != CUPTI_SUCCESS) {
			snprintf(why, size, "CUPTI activity records refused: %s", result_text(r));
			return -1;
		}
	snprintf(what, size, "CUPTI API version %u%s", v,
		 ts_offset ? ", timestamps mapped by offset" : "");
	return 0;
}

static void flush_at_exit(void)
{
	if (atomic_load(&started))
		p_cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
}

/* Called by the CUDA driver once per process; 1 means success to it. */
int InitializeInjection(void);
__attribute__((visibility("default"))) int InitializeInjection(void)
{
	const char *spool = getenv(PROF_SPOOL_ENV);
	char what[256] = "", why[256] = "";
	int ok;

	if (atomic_exchange(&started, 1) || !spool || !*spool || !prof_rec_active())
		return 1;
	ok = start_cupti(what, why, sizeof(why)) == 0;
	{
		char meta[300];
		int n = snprintf(meta, sizeof(meta), "cupti%c%s", 0, ok ? what : why);

		prof_rec_add(PROF_REC_META, 0, 0, 0, meta, (size_t)n);
	}
	if (ok) {
		prof_rec_set_finish_hook(flush_hook);
		atexit(flush_at_exit);
	} else {
		atomic_store(&started, 0);
		prof_rec_add(PROF_REC_WARNING, 0, 0, 0, why, strlen(why));
	}
	prof_gpu_status_write(spool, ok, ok ? what : why);
	return 1;
}
