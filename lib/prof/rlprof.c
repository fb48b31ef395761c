#include "prof/rlprof.h"

#include <string.h>

#include "prof/recorder.h"
#include "prof/trace.h"

static size_t len_of(const char *s)
{
	return s ? strlen(s) : 0;
}

int rlprof_enabled(void)
{
	return prof_rec_active();
}

int rlprof_push(const char *name)
{
	return prof_rec_push(0, name);
}

int rlprof_pop(void)
{
	return prof_rec_pop(0);
}

uint64_t rlprof_start(const char *name)
{
	uint64_t id;

	if (!prof_rec_active())
		return 0;
	id = prof_rec_range_id();
	prof_rec_add(PROF_REC_START, 0, id, 0, name ? name : "", len_of(name));
	return id;
}

void rlprof_end(uint64_t id)
{
	if (id)
		prof_rec_add(PROF_REC_END, 0, id, 0, NULL, 0);
}

void rlprof_mark(const char *name)
{
	prof_rec_add(PROF_REC_MARK, 0, 0, 0, name ? name : "", len_of(name));
}

void rlprof_phase(const char *name)
{
	prof_rec_add(PROF_REC_PHASE, 0, 0, 0, name ? name : "", len_of(name));
}

void rlprof_counter(const char *name, double value)
{
	uint64_t bits;

	memcpy(&bits, &value, sizeof(bits));
	prof_rec_add(PROF_REC_COUNTER, 0, bits, 0, name ? name : "", len_of(name));
}

void rlprof_meta(const char *key, const char *value)
{
	char buf[PROF_SPOOL_TEXT_MAX];
	size_t k = len_of(key), v = len_of(value);

	if (!key || k + 1 >= sizeof(buf))
		return;
	if (k + 1 + v >= sizeof(buf))
		v = sizeof(buf) - k - 2;
	memcpy(buf, key, k);
	buf[k] = 0;
	memcpy(buf + k + 1, value ? value : "", v);
	prof_rec_add(PROF_REC_META, 0, 0, 0, buf, k + 1 + v);
}

void rlprof_thread_name(const char *name)
{
	prof_rec_add(PROF_REC_THREAD, 0, 0, 0, name ? name : "", len_of(name));
}

void rlprof_cpu(int category)
{
	if (category >= 0 && category < PROF_CAT_COUNT)
		prof_rec_add(PROF_REC_CPU, 0, 0, (uint8_t)category, NULL, 0);
}

int rlprof_category_id(const char *name)
{
	return name ? prof_category_parse(name) : -1;
}

void rlprof_finish(void)
{
	prof_rec_finish();
}
