/*
 * A stand-in for libcupti, for tests without a GPU: the injection library
 * (lib/prof/inject/cupti.c) loads it through RLPROF_CUPTI_LIB.  When the
 * driver API domain is enabled it reports one call, "cuLaunchKernel" with
 * correlation id 7, on the calling thread (enter, then exit 1 ms later);
 * a flush hands back one buffer with a kernel "_Z11fake_kernelPfi", the
 * mangled name of fake_kernel(float*, int) (correlation
 * 7, device 0, stream 3, 2 ms) and a host-to-device copy (correlation 7,
 * stream 4, 1 ms), and reports 3 dropped records.  FAKE_CUPTI_FAIL=1 makes
 * cuptiSubscribe fail as when another subscriber is present.
 */
#include <cupti.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static CUpti_CallbackFunc api_cb;
static CUpti_BuffersCallbackRequestFunc request;
static CUpti_BuffersCallbackCompleteFunc complete;
static CUpti_TimestampCallbackFunc clock_cb;
static int flushed;

static uint64_t now(void)
{
	struct timespec ts;

	if (clock_cb)
		return clock_cb();
	clock_gettime(CLOCK_REALTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

CUptiResult CUPTIAPI cuptiGetVersion(uint32_t *v)
{
	*v = CUPTI_API_VERSION;
	return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiGetResultString(CUptiResult r, const char **s)
{
	*s = r == CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED ?
	     "CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED" : "CUPTI_ERROR_UNKNOWN";
	return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiSubscribe(CUpti_SubscriberHandle *h, CUpti_CallbackFunc cb, void *ud)
{
	const char *fail = getenv("FAKE_CUPTI_FAIL");

	if (fail && *fail == '1')
		return CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED;
	*h = (CUpti_SubscriberHandle)1;
	api_cb = cb;
	(void)ud;
	return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiActivityRegisterTimestampCallback(CUpti_TimestampCallbackFunc f)
{
	clock_cb = f;
	return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiGetTimestamp(uint64_t *t)
{
	*t = now();
	return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiEnableDomain(uint32_t enable, CUpti_SubscriberHandle h,
				       CUpti_CallbackDomain d)
{
	CUpti_CallbackData cb;
	struct timespec ms = { 0, 1000000 };

	(void)enable;
	if (d != CUPTI_CB_DOMAIN_DRIVER_API)
		return CUPTI_SUCCESS;
	memset(&cb, 0, sizeof(cb));
	cb.functionName = "cuLaunchKernel";
	cb.correlationId = 7;
	cb.callbackSite = CUPTI_API_ENTER;
	api_cb(NULL, d, 0, &cb);
	nanosleep(&ms, NULL);
	cb.callbackSite = CUPTI_API_EXIT;
	api_cb(NULL, d, 0, &cb);
	(void)h;
	return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiActivityEnable(CUpti_ActivityKind k)
{
	(void)k;
	return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiActivityRegisterCallbacks(CUpti_BuffersCallbackRequestFunc rq,
						    CUpti_BuffersCallbackCompleteFunc cp)
{
	request = rq;
	complete = cp;
	return CUPTI_SUCCESS;
}

/* Records: a kernel, then a copy; the iterator walks this table. */
#if CUPTI_API_VERSION >= 130000
typedef CUpti_ActivityKernel10 kernel_rec;
#else
typedef CUpti_ActivityKernel9 kernel_rec;
#endif
struct fake_buf {
	kernel_rec k;
	CUpti_ActivityMemcpy6 m;
};

CUptiResult CUPTIAPI cuptiActivityFlushAll(uint32_t flag)
{
	uint8_t *buf;
	size_t size, max;
	struct fake_buf *f;
	uint64_t t = now();

	(void)flag;
	if (flushed++ || !request)
		return CUPTI_SUCCESS;
	request(&buf, &size, &max);
	if (!buf || size < sizeof(*f))
		return CUPTI_ERROR_UNKNOWN;
	f = (struct fake_buf *)buf;
	memset(f, 0, sizeof(*f));
	f->k.kind = CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL;
	f->k.start = t - 3000000;
	f->k.end = t - 1000000;
	f->k.deviceId = 0;
	f->k.streamId = 3;
	f->k.correlationId = 7;
	f->k.name = "_Z11fake_kernelPfi";
	f->m.kind = CUPTI_ACTIVITY_KIND_MEMCPY;
	f->m.copyKind = CUPTI_ACTIVITY_MEMCPY_KIND_HTOD;
	f->m.start = t - 1000000;
	f->m.end = t;
	f->m.deviceId = 0;
	f->m.streamId = 4;
	f->m.correlationId = 7;
	complete(NULL, 0, buf, size, sizeof(*f));
	return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiActivityGetNextRecord(uint8_t *buf, size_t valid, CUpti_Activity **rec)
{
	struct fake_buf *f = (struct fake_buf *)buf;

	if (!*rec)
		*rec = (CUpti_Activity *)&f->k;
	else if (*rec == (CUpti_Activity *)&f->k && valid >= sizeof(*f))
		*rec = (CUpti_Activity *)&f->m;
	else
		return CUPTI_ERROR_MAX_LIMIT_REACHED;
	return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiActivityGetNumDroppedRecords(CUcontext c, uint32_t s, size_t *n)
{
	(void)c;
	(void)s;
	*n = 3;
	return CUPTI_SUCCESS;
}
