/*
 * The recorder end to end inside this process: C API calls land in a spool
 * folder, the merger turns them into rows.  Also: pairing rules, flushing
 * of small buffers, threads, torn spool files, process facts.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "prof/merge.h"
#include "prof/rlprof.h"
#include "prof/spool.h"
#include "test.h"

static char spool[512];

/* Merge the spool folder; returns the CSV text (without meta rows). */
static char *merge(const struct prof_process_info *info, int *ret)
{
	struct prof_trace_writer w;
	struct prof_merge *m;
	struct core_error err = CORE_ERROR_INIT;
	char *out = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&out, &len);

	prof_merge_new(&m);
	if (info)
		prof_merge_process(m, info);
	prof_trace_writer_init(&w, fp, PROF_TRACE_CSV);
	*ret = prof_merge_dir(m, spool, &w, &err);
	if (*ret == 0)
		*ret = prof_merge_finish(m, &w);
	prof_merge_free(m);
	fclose(fp);
	return out;
}

/* How many lines of text start with `prefix` and contain `part`. */
static int count(const char *text, const char *prefix, const char *part)
{
	const char *line = text;
	int n = 0;

	while (line && *line) {
		const char *nl = strchr(line, '\n');
		size_t len = nl ? (size_t)(nl - line) : strlen(line);
		char *copy = strndup(line, len);

		if (!strncmp(copy, prefix, strlen(prefix)) && strstr(copy, part))
			n++;
		free(copy);
		line = nl ? nl + 1 : NULL;
	}
	return n;
}

static uint64_t async_id;

static void *worker(void *arg)
{
	int i;

	(void)arg;
	rlprof_thread_name("worker");
	for (i = 0; i < 100; i++) {
		rlprof_push("w");
		rlprof_pop();
	}
	rlprof_end(async_id);	/* started on the main thread */
	return NULL;
}

static void test_recorder(void)
{
	pthread_t t;
	char *csv, buf[64];
	int ret, i;

	TEST_EQ_LONG(rlprof_push("x"), 0, "push: first level is 0");
	TEST_EQ_LONG(rlprof_pop(), 0, "pop: level of the closed range");
	TEST_EQ_LONG(rlprof_enabled(), 1, "enabled: with the spool folder set");
	rlprof_phase("training");
	for (i = 0; i < 1000; i++) {	/* 4 KiB buffers: many flushes */
		rlprof_push("loop");
		rlprof_push("inner");
		rlprof_pop();
		rlprof_pop();
	}
	rlprof_pop();			/* unbalanced */
	rlprof_counter("ret", 1.5);
	rlprof_meta("key", "value");
	rlprof_mark("m");
	rlprof_cpu(rlprof_category_id("simulator"));
	rlprof_cpu(rlprof_category_id("python"));
	rlprof_cpu(0);
	async_id = rlprof_start("async");
	pthread_create(&t, NULL, worker, NULL);
	pthread_join(t, NULL);
	rlprof_end(424242);		/* never started */
	rlprof_push("open");
	rlprof_finish();
	rlprof_push("after-finish");	/* not recorded any more */

	csv = merge(NULL, &ret);
	TEST_EQ_LONG(ret, 0, "merge: succeeds");
	TEST_EQ_LONG(count(csv, "op,", ",loop,,,,,,0,"), 1000, "op: every outer range, level 0");
	TEST_EQ_LONG(count(csv, "op,", ",inner,,,,,,1,"), 1000, "op: every inner range, level 1");
	TEST_EQ_LONG(count(csv, "op,", ",w,"), 100, "op: the thread's ranges");
	TEST_EQ_LONG(count(csv, "op,", ",async,,,,,,,"), 1, "op: start/end across threads");
	TEST_EQ_LONG(count(csv, "op,", ",open,,,,,,0,unclosed"), 1, "op: open at the end is unclosed");
	TEST_EQ_LONG(count(csv, "op,", "after-finish"), 0, "finish: stops recording");
	TEST_EQ_LONG(count(csv, "warning,", ",unbalanced pop"), 1, "warning: unbalanced pop");
	TEST_EQ_LONG(count(csv, "warning,", ",end of a range that was not started"), 1,
		     "warning: end without start");
	TEST_EQ_LONG(count(csv, "counter,", ",ret,,,,,,1.5,"), 1, "counter row");
	TEST_EQ_LONG(count(csv, "meta,", ",key,,,,,,,value"), 1, "meta row");
	TEST_EQ_LONG(count(csv, "mark,", ",m,"), 1, "mark row");
	TEST_EQ_LONG(count(csv, "cpu,", ",simulator,"), 1, "cpu: simulator interval");
	TEST_EQ_LONG(count(csv, "cpu,", ",python,"), 1, "cpu: python interval, ended by 0");
	TEST_EQ_LONG(count(csv, "phase,", ",training,"), 1, "phase: open phase ends with the process");
	TEST_EQ_LONG(count(csv, "thread,", ",worker,"), 1, "thread: named by the API");
	snprintf(buf, sizeof(buf), "process,%d,", (int)getpid());
	TEST_EQ_LONG(count(csv, buf, ",running"), 1, "process: this one, still running");
	free(csv);
}

static void test_torn(void)
{
	char path[600], *csv;
	FILE *fp;
	struct prof_spool_chunk c = { PROF_SPOOL_MAGIC, 32, 777, 777 };
	struct prof_spool_rec r;
	struct prof_process_info info = { 777, 1, 100, 900, "fake", "exit 0", 0 };
	int ret;

	snprintf(path, sizeof(path), "%s/777.0.spool", spool);
	fp = fopen(path, "wb");
	memset(&r, 0, sizeof(r));
	r.size = 32;
	r.type = PROF_REC_PUSH;
	r.t = 200;
	fwrite(&c, sizeof(c), 1, fp);
	fwrite(&r, sizeof(r), 1, fp);
	fwrite("torn\0\0\0\0", 8, 1, fp);
	fwrite(&c, sizeof(c), 1, fp);	/* a chunk header with no records after it */
	fclose(fp);
	csv = merge(&info, &ret);
	TEST_EQ_LONG(ret, 0, "torn: merge goes on");
	TEST_EQ_LONG(count(csv, "op,777,777,200,900,torn,", ",unclosed"), 1,
		     "torn: what came before is kept, open until the known end");
	TEST_EQ_LONG(count(csv, "warning,777,", "torn write"), 1, "torn: a warning row");
	TEST_EQ_LONG(count(csv, "process,777,,100,900,fake,", ",1,exit 0"), 1,
		     "process: facts from outside win");
	free(csv);
	unlink(path);
}

/* Damaged spool files (bit flips, cuts, garbage) never crash the merger,
 * and give either rows or a clean error. */
static void test_damaged(void)
{
	char path[600], *csv;
	unsigned char good[4096], bad[4096];
	size_t n = 0, i, len;
	unsigned long seed = 12345;
	struct prof_spool_chunk c = { PROF_SPOOL_MAGIC, 0, 55, 55 };
	struct prof_spool_rec r;
	int round, ret, clean = 1;

	/* A valid file: one chunk of pushes, pops, meta and domain records. */
	n = sizeof(c);
	for (i = 0; i < 40; i++) {
		static const uint8_t types[] = { PROF_REC_PUSH, PROF_REC_POP, PROF_REC_META,
			PROF_REC_DOMAIN, PROF_REC_START, PROF_REC_END, PROF_REC_CPU, PROF_REC_PHASE };
		memset(&r, 0, sizeof(r));
		r.type = types[i % 8];
		r.size = 32;
		r.domain = (uint32_t)(i % 3);
		r.t = 1000 + (int64_t)i;
		r.u = i % 5;
		r.arg = (uint8_t)(i % 4);
		memcpy(good + n, &r, sizeof(r));
		memcpy(good + n + sizeof(r), "ab\0cd\0\0\0", 8);
		n += 32;
	}
	c.size = (uint32_t)(n - sizeof(c));
	memcpy(good, &c, sizeof(c));
	snprintf(path, sizeof(path), "%s/55.0.spool", spool);
	for (round = 0; round < 400; round++) {
		FILE *fp;

		memcpy(bad, good, n);
		len = n;
		for (i = 0; i < 1 + (size_t)round % 8; i++) {
			seed = seed * 6364136223846793005UL + 1442695040888963407UL;
			if (round % 5 == 4)
				len = (seed >> 33) % n;		/* cut */
			else
				bad[(seed >> 33) % n] ^= (unsigned char)(1u << ((seed >> 20) % 8));
		}
		fp = fopen(path, "wb");
		fwrite(bad, 1, len, fp);
		fclose(fp);
		csv = merge(NULL, &ret);
		if (ret != 0 && ret != -ENOMEM)
			clean = 0;
		free(csv);
	}
	TEST_OK(clean, "damaged spool files: merged without error every time");
	unlink(path);
}

int main(void)
{
	snprintf(spool, sizeof(spool), "%s/spool", test_tmpdir());
	mkdir(spool, 0700);
	setenv(PROF_SPOOL_ENV, spool, 1);
	setenv("RLPROF_BUFFER_KB", "4", 1);
	test_recorder();
	/* The recorder's files are done with; the torn one is alone. */
	system("rm -f -- \"$RLPROF_SPOOL_DIR\"/*.spool");
	test_torn();
	test_damaged();
	return test_done();
}
