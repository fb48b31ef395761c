/*
 * NVTX v3 injection: NVTX loads the library named by NVTX_INJECTION64_PATH
 * and calls InitializeInjectionNvtx2, which fills the CORE and CORE2
 * callback tables with these functions.  Every NVTX call of the program
 * (C, C++, PyTorch, the Python nvtx package) then lands in the recorder.
 * Ranges, marks, domains, registered strings and thread names are kept;
 * colours, payloads and categories are not.
 */
#include <nvtx3/nvToolsExt.h>

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "prof/recorder.h"
#include "prof/rlprof.h"

/* What our domain and string handles point to.  They live as long as the
 * process (NVTX has no call to release them), on one list. */
struct handle {
	struct handle *next;
	uint32_t domain;
	char text[];
};

static pthread_mutex_t handles_lock = PTHREAD_MUTEX_INITIALIZER;
static struct handle *handles;

static uint32_t domain_of(nvtxDomainHandle_t d)
{
	return d ? ((const struct handle *)(const void *)d)->domain : 0;
}

/* The name of an event: ASCII, registered, or wide converted into buf. */
static const char *attr_text(const nvtxEventAttributes_t *a, char *buf, size_t cap)
{
	if (!a)
		return "";
	switch (a->messageType) {
	case NVTX_MESSAGE_TYPE_ASCII:
		return a->message.ascii ? a->message.ascii : "";
	case NVTX_MESSAGE_TYPE_REGISTERED:
		return a->message.registered ?
		       ((const struct handle *)(const void *)a->message.registered)->text : "";
	case NVTX_MESSAGE_TYPE_UNICODE:
		prof_rec_utf8(buf, cap, a->message.unicode);
		return buf;
	default:
		return "";
	}
}

static void add_text(enum prof_spool_type type, uint32_t domain, uint64_t u, const char *s)
{
	prof_rec_add(type, domain, u, 0, s ? s : "", s ? strlen(s) : 0);
}

static void add_attr(enum prof_spool_type type, uint32_t domain, uint64_t u,
		     const nvtxEventAttributes_t *a)
{
	char buf[PROF_SPOOL_TEXT_MAX];

	add_text(type, domain, u, attr_text(a, buf, sizeof(buf)));
}

static void add_wide(enum prof_spool_type type, uint32_t domain, uint64_t u,
		     const wchar_t *w)
{
	char buf[PROF_SPOOL_TEXT_MAX];

	prof_rec_utf8(buf, sizeof(buf), w);
	add_text(type, domain, u, buf);
}

static int push(uint32_t domain, const nvtxEventAttributes_t *a)
{
	char buf[PROF_SPOOL_TEXT_MAX];

	return prof_rec_push(domain, attr_text(a, buf, sizeof(buf)));
}

static uint64_t start(uint32_t domain, const nvtxEventAttributes_t *a)
{
	uint64_t id;

	if (!prof_rec_active())
		return 0;
	id = prof_rec_range_id();
	add_attr(PROF_REC_START, domain, id, a);
	return id;
}

/* CORE */
static void mark_ex(const nvtxEventAttributes_t *a) { add_attr(PROF_REC_MARK, 0, 0, a); }
static void mark_a(const char *m) { add_text(PROF_REC_MARK, 0, 0, m); }
static void mark_w(const wchar_t *m) { add_wide(PROF_REC_MARK, 0, 0, m); }
static nvtxRangeId_t start_ex(const nvtxEventAttributes_t *a) { return start(0, a); }

static nvtxRangeId_t start_a(const char *m)
{
	return rlprof_start(m);
}

static nvtxRangeId_t start_w(const wchar_t *m)
{
	uint64_t id;

	if (!prof_rec_active())
		return 0;
	id = prof_rec_range_id();
	add_wide(PROF_REC_START, 0, id, m);
	return id;
}

static void end(nvtxRangeId_t id) { rlprof_end(id); }
static int push_ex(const nvtxEventAttributes_t *a) { return push(0, a); }
static int push_a(const char *m) { return prof_rec_push(0, m); }

static int push_w(const wchar_t *m)
{
	char buf[PROF_SPOOL_TEXT_MAX];

	prof_rec_utf8(buf, sizeof(buf), m);
	return prof_rec_push(0, buf);
}

static int pop(void) { return prof_rec_pop(0); }
static void name_category_a(uint32_t c, const char *n) { (void)c; (void)n; }
static void name_category_w(uint32_t c, const wchar_t *n) { (void)c; (void)n; }

/* Thread names apply to the calling thread only (the trace has no way to
 * name another thread from here). */
static void name_thread_a(uint32_t tid, const char *n)
{
	if (tid == (uint32_t)syscall(SYS_gettid))
		rlprof_thread_name(n);
}

static void name_thread_w(uint32_t tid, const wchar_t *n)
{
	if (tid == (uint32_t)syscall(SYS_gettid))
		add_wide(PROF_REC_THREAD, 0, 0, n);
}

/* CORE2 */
static void d_mark_ex(nvtxDomainHandle_t d, const nvtxEventAttributes_t *a)
{
	add_attr(PROF_REC_MARK, domain_of(d), 0, a);
}

static nvtxRangeId_t d_start_ex(nvtxDomainHandle_t d, const nvtxEventAttributes_t *a)
{
	return start(domain_of(d), a);
}

static void d_end(nvtxDomainHandle_t d, nvtxRangeId_t id)
{
	if (id)
		prof_rec_add(PROF_REC_END, domain_of(d), id, 0, NULL, 0);
}

static int d_push_ex(nvtxDomainHandle_t d, const nvtxEventAttributes_t *a)
{
	return push(domain_of(d), a);
}

static int d_pop(nvtxDomainHandle_t d) { return prof_rec_pop(domain_of(d)); }

static nvtxResourceHandle_t d_resource_create(nvtxDomainHandle_t d, nvtxResourceAttributes_t *a)
{
	(void)d; (void)a;
	return NULL;
}

static void d_resource_destroy(nvtxResourceHandle_t r) { (void)r; }
static void d_name_category_a(nvtxDomainHandle_t d, uint32_t c, const char *n) { (void)d; (void)c; (void)n; }
static void d_name_category_w(nvtxDomainHandle_t d, uint32_t c, const wchar_t *n) { (void)d; (void)c; (void)n; }

static struct handle *handle_new(uint32_t domain, const char *s)
{
	size_t len = s ? strlen(s) : 0;
	struct handle *h = malloc(sizeof(*h) + len + 1);

	if (!h)
		return NULL;
	h->domain = domain;
	memcpy(h->text, s ? s : "", len);
	h->text[len] = 0;
	pthread_mutex_lock(&handles_lock);
	h->next = handles;
	handles = h;
	pthread_mutex_unlock(&handles_lock);
	return h;
}

static nvtxStringHandle_t d_register_a(nvtxDomainHandle_t d, const char *s)
{
	return (nvtxStringHandle_t)(void *)handle_new(domain_of(d), s);
}

static nvtxStringHandle_t d_register_w(nvtxDomainHandle_t d, const wchar_t *w)
{
	char buf[PROF_SPOOL_TEXT_MAX];

	prof_rec_utf8(buf, sizeof(buf), w);
	return d_register_a(d, buf);
}

/* One handle per domain, so that equal names share one. */
static nvtxDomainHandle_t d_create_a(const char *name)
{
	uint32_t id = prof_rec_domain(name);
	struct handle *h;

	pthread_mutex_lock(&handles_lock);
	for (h = handles; h; h = h->next)
		if (h->domain == id && !strcmp(h->text, name ? name : ""))
			break;
	pthread_mutex_unlock(&handles_lock);
	if (!h)
		h = handle_new(id, name);
	return (nvtxDomainHandle_t)(void *)h;
}

static nvtxDomainHandle_t d_create_w(const wchar_t *w)
{
	char buf[PROF_SPOOL_TEXT_MAX];

	prof_rec_utf8(buf, sizeof(buf), w);
	return d_create_a(buf);
}

static void d_destroy(nvtxDomainHandle_t d) { (void)d; }
static void initialize(const void *reserved) { (void)reserved; }

#define FN(f) ((NvtxFunctionPointer)(void (*)(void))(f))

static int fill(const NvtxExportTableCallbacks *cb, NvtxCallbackModule module,
		const NvtxFunctionPointer *fns, unsigned int n)
{
	NvtxFunctionTable table = NULL;
	unsigned int size = 0, i;

	if (!cb->GetModuleFunctionTable(module, &table, &size) || !table)
		return 0;
	for (i = 1; i < n && i < size; i++)
		if (fns[i] && table[i])
			*table[i] = fns[i];
	return 1;
}

RLPROF_API int InitializeInjectionNvtx2(NvtxGetExportTableFunc_t get);

int InitializeInjectionNvtx2(NvtxGetExportTableFunc_t get)
{
	const NvtxExportTableCallbacks *cb;
	NvtxFunctionPointer core[NVTX_CBID_CORE_SIZE] = { 0 };
	NvtxFunctionPointer core2[NVTX_CBID_CORE2_SIZE] = { 0 };

	/* Not recording: refuse, and NVTX calls stay no-ops. */
	if (!get || !prof_rec_active())
		return 0;
	cb = get(NVTX_ETID_CALLBACKS);
	if (!cb || cb->struct_size < sizeof(*cb))
		return 0;
	core[NVTX_CBID_CORE_MarkEx] = FN(mark_ex);
	core[NVTX_CBID_CORE_MarkA] = FN(mark_a);
	core[NVTX_CBID_CORE_MarkW] = FN(mark_w);
	core[NVTX_CBID_CORE_RangeStartEx] = FN(start_ex);
	core[NVTX_CBID_CORE_RangeStartA] = FN(start_a);
	core[NVTX_CBID_CORE_RangeStartW] = FN(start_w);
	core[NVTX_CBID_CORE_RangeEnd] = FN(end);
	core[NVTX_CBID_CORE_RangePushEx] = FN(push_ex);
	core[NVTX_CBID_CORE_RangePushA] = FN(push_a);
	core[NVTX_CBID_CORE_RangePushW] = FN(push_w);
	core[NVTX_CBID_CORE_RangePop] = FN(pop);
	core[NVTX_CBID_CORE_NameCategoryA] = FN(name_category_a);
	core[NVTX_CBID_CORE_NameCategoryW] = FN(name_category_w);
	core[NVTX_CBID_CORE_NameOsThreadA] = FN(name_thread_a);
	core[NVTX_CBID_CORE_NameOsThreadW] = FN(name_thread_w);
	core2[NVTX_CBID_CORE2_DomainMarkEx] = FN(d_mark_ex);
	core2[NVTX_CBID_CORE2_DomainRangeStartEx] = FN(d_start_ex);
	core2[NVTX_CBID_CORE2_DomainRangeEnd] = FN(d_end);
	core2[NVTX_CBID_CORE2_DomainRangePushEx] = FN(d_push_ex);
	core2[NVTX_CBID_CORE2_DomainRangePop] = FN(d_pop);
	core2[NVTX_CBID_CORE2_DomainResourceCreate] = FN(d_resource_create);
	core2[NVTX_CBID_CORE2_DomainResourceDestroy] = FN(d_resource_destroy);
	core2[NVTX_CBID_CORE2_DomainNameCategoryA] = FN(d_name_category_a);
	core2[NVTX_CBID_CORE2_DomainNameCategoryW] = FN(d_name_category_w);
	core2[NVTX_CBID_CORE2_DomainRegisterStringA] = FN(d_register_a);
	core2[NVTX_CBID_CORE2_DomainRegisterStringW] = FN(d_register_w);
	core2[NVTX_CBID_CORE2_DomainCreateA] = FN(d_create_a);
	core2[NVTX_CBID_CORE2_DomainCreateW] = FN(d_create_w);
	core2[NVTX_CBID_CORE2_DomainDestroy] = FN(d_destroy);
	core2[NVTX_CBID_CORE2_Initialize] = FN(initialize);
	return fill(cb, NVTX_CB_MODULE_CORE, core, NVTX_CBID_CORE_SIZE) &&
	       fill(cb, NVTX_CB_MODULE_CORE2, core2, NVTX_CBID_CORE2_SIZE);
}
