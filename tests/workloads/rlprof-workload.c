/*
 * rlprof-workload: the built-in workloads that the rlprof-record tests,
 * benchmarks and demo record.  Each mode annotates with NVTX (or the C
 * API) and does known amounts of busy and sleeping work.
 *
 *   rlprof-workload busy-sleep BUSY_MS SLEEP_MS N   N x (busy, sleep) in "step"
 *   rlprof-workload threads N MS       N threads, each "work" busy for MS
 *   rlprof-workload fork               a fork()ed child and a fork+exec'd one
 *   rlprof-workload fork-chain N       N generations, each forked by the one
 *                                      before as soon as it has begun "gen-K"
 *   rlprof-workload exit-thread        a second thread calls exit(3)
 *   rlprof-workload crash              SIGSEGV inside an open range
 *   rlprof-workload wait               opens "waiting", prints "ready PID", sleeps until killed
 *   rlprof-workload unbalanced         one pop too many and one push left open
 *   rlprof-workload domains            NVTX domains, marks, start/end, wide names
 *   rlprof-workload capi               the C API: phases, counters, meta, ranges
 *   rlprof-workload spin N [capi]      N empty push/pop pairs; prints ns per pair
 *   rlprof-workload small-ops N WORK   N x "step" holding "compute" and "update":
 *                                      many small ranges of fixed work (WORK loop
 *                                      iterations), so that a run takes longer
 *                                      when the profiler adds cost (calibration)
 *   rlprof-workload code-pointers MS   "busy" for MS ms, its stack frame full of
 *                                      pointers into the math library's code
 *                                      (data, not return addresses)
 */
#include <nvtx3/nvToolsExt.h>

#include <dlfcn.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/clock.h"
#include "prof/rlprof.h"

static void busy_ms(long ms)
{
	int64_t end = core_clock_mono_ns() + ms * 1000000;
	volatile unsigned long x = 0;

	while (core_clock_mono_ns() < end)
		x++;
}

static void sleep_ms(long ms)
{
	core_clock_sleep_ns(ms * 1000000);
}

static int busy_sleep(long busy, long sleep, long n)
{
	long i;

	for (i = 0; i < n; i++) {
		nvtxRangePushA("step");
		nvtxRangePushA("busy");
		busy_ms(busy);
		nvtxRangePop();
		nvtxRangePushA("sleep");
		sleep_ms(sleep);
		nvtxRangePop();
		nvtxRangePop();
	}
	return 0;
}

static long thread_ms;

static void *thread_main(void *arg)
{
	char name[32];

	snprintf(name, sizeof(name), "worker-%ld", (long)(intptr_t)arg);
	nvtxRangePushA(name);
	nvtxRangePushA("work");
	busy_ms(thread_ms);
	nvtxRangePop();
	nvtxRangePop();
	return NULL;
}

static int threads(long n, long ms)
{
	pthread_t *t = calloc((size_t)n, sizeof(*t));
	long i;

	thread_ms = ms;
	nvtxRangePushA("main");
	for (i = 0; i < n; i++)
		pthread_create(&t[i], NULL, thread_main, (void *)(intptr_t)i);
	for (i = 0; i < n; i++)
		pthread_join(t[i], NULL);
	nvtxRangePop();
	free(t);
	return 0;
}

static int fork_mode(const char *self)
{
	pid_t a, b;
	int status, ret = 0;

	nvtxRangePushA("parent");
	a = fork();
	if (a == 0) {
		nvtxRangePushA("forked-child");
		busy_ms(5);
		nvtxRangePop();
		nvtxRangePop();	/* the parent's "parent": not the child's */
		exit(0);
	}
	b = fork();
	if (b == 0) {
		execl(self, self, "busy-sleep", "2", "1", "2", (char *)NULL);
		_exit(127);
	}
	waitpid(a, &status, 0);
	ret |= !WIFEXITED(status) || WEXITSTATUS(status);
	waitpid(b, &status, 0);
	ret |= !WIFEXITED(status) || WEXITSTATUS(status);
	nvtxRangePop();
	return ret;
}

/* Each fork comes while the forking process's sampler thread may still be
 * starting (it is started again in every child). */
static int fork_chain(long n)
{
	char name[32];
	long g;
	pid_t p;
	int status = 0;

	for (g = 0;; g++) {
		snprintf(name, sizeof(name), "gen-%ld", g);
		nvtxRangePushA(name);
		if (g == n)
			break;
		p = fork();
		if (p < 0)
			return 1;
		if (p > 0) {
			if (waitpid(p, &status, 0) != p)
				return 1;
			break;
		}
		nvtxRangePop();	/* the parent's range: not this process's */
	}
	nvtxRangePop();
	return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : 1;
}

static void *exit_thread_main(void *arg)
{
	(void)arg;
	nvtxRangePushA("exiting-thread");
	busy_ms(2);
	exit(3);
}

static int exit_thread(void)
{
	pthread_t t;

	nvtxRangePushA("main-open");
	pthread_create(&t, NULL, exit_thread_main, NULL);
	pthread_join(t, NULL);
	return 0;
}

static int crash(void)
{
	/* Not NULL, which the undefined-behaviour sanitizer would catch first. */
	volatile uintptr_t addr = 8;
	volatile int *p = (volatile int *)addr;

	nvtxRangePushA("before-crash");
	busy_ms(2);
	nvtxRangePop();
	nvtxRangePushA("crashing");
	return *p;
}

static _Noreturn void wait_mode(void)
{
	nvtxRangePushA("waiting");
	printf("ready %ld\n", (long)getpid());
	fflush(stdout);
	for (;;)
		pause();
}

static int unbalanced(void)
{
	nvtxRangePushA("balanced");
	nvtxRangePop();
	nvtxRangePop();
	nvtxRangePushA("left-open");
	busy_ms(1);
	return 0;
}

static int domains(void)
{
	nvtxDomainHandle_t d = nvtxDomainCreateA("workload");
	nvtxStringHandle_t s = nvtxDomainRegisterStringA(d, "registered");
	nvtxEventAttributes_t a;
	nvtxRangeId_t id;

	memset(&a, 0, sizeof(a));
	a.version = NVTX_VERSION;
	a.size = NVTX_EVENT_ATTRIB_STRUCT_SIZE;
	a.messageType = NVTX_MESSAGE_TYPE_ASCII;
	a.message.ascii = "in-domain";
	nvtxDomainRangePushEx(d, &a);
	a.messageType = NVTX_MESSAGE_TYPE_REGISTERED;
	a.message.registered = s;
	nvtxDomainRangePushEx(d, &a);
	busy_ms(1);
	nvtxDomainRangePop(d);
	nvtxDomainRangePop(d);
	a.messageType = NVTX_MESSAGE_TYPE_ASCII;
	a.message.ascii = "domain-mark";
	nvtxDomainMarkEx(d, &a);
	nvtxMarkA("mark");
	nvtxRangePushW(L"wide-\u00e9t\u00e9");
	nvtxRangePop();
	id = nvtxRangeStartA("start-end");
	busy_ms(1);
	nvtxRangeEnd(id);
	nvtxNameOsThreadA((uint32_t)gettid(), "named-main");
	nvtxMarkA("after-name");
	return 0;
}

static int capi(void)
{
	uint64_t id;

	rlprof_meta("workload", "capi");
	rlprof_thread_name("capi-main");
	rlprof_phase("warmup");
	rlprof_push("setup");
	busy_ms(2);
	rlprof_pop();
	rlprof_phase("training");
	rlprof_push("inference");
	busy_ms(2);
	rlprof_push("nested");
	rlprof_pop();
	rlprof_pop();
	rlprof_counter("episode_return", 21.5);
	rlprof_mark("checkpoint");
	id = rlprof_start("async");
	busy_ms(1);
	rlprof_end(id);
	rlprof_phase(NULL);
	return rlprof_enabled() ? 0 : 4;
}

static int spin(long n, int use_capi)
{
	int64_t t0;
	long i;

	/* The first call initializes; keep it out of the timing. */
	if (use_capi) {
		rlprof_push("warm");
		rlprof_pop();
	} else {
		nvtxRangePushA("warm");
		nvtxRangePop();
	}
	t0 = core_clock_mono_ns();
	if (use_capi) {
		for (i = 0; i < n; i++) {
			rlprof_push("pair");
			rlprof_pop();
		}
	} else {
		for (i = 0; i < n; i++) {
			nvtxRangePushA("pair");
			nvtxRangePop();
		}
	}
	printf("%.2f\n", (double)(core_clock_mono_ns() - t0) / (double)n);
	return 0;
}

static void work(long iters)
{
	volatile unsigned long x = 1;
	long i;

	for (i = 0; i < iters; i++)
		x = x * 2654435761u + (unsigned long)i;
}

static int small_ops(long n, long iters)
{
	long i;

	for (i = 0; i < n; i++) {
		nvtxRangePushA("step");
		nvtxRangePushA("compute");
		work(iters);
		nvtxRangePop();
		nvtxRangePushA("update");
		work(iters / 2);
		nvtxRangePop();
		nvtxRangePop();
	}
	return 0;
}

static long num(const char *s)
{
	char *end;
	long v = s ? strtol(s, &end, 10) : -1;

	if (!s || *end || v < 0) {
		fprintf(stderr, "rlprof-workload: bad number '%s'\n", s ? s : "");
		exit(2);
	}
	return v;
}

/* A sampler that takes any word of the stack that points into code for a
 * return address counts this loop as the math library's. */
static int code_pointers(long ms)
{
	volatile uintptr_t words[32];
	void *m = dlopen("libm.so.6", RTLD_NOW), *f = m ? dlsym(m, "cos") : NULL;
	int64_t end;
	size_t i;

	if (!f)
		return 1;
	for (i = 0; i < 32; i++)
		words[i] = (uintptr_t)f;
	nvtxRangePushA("busy");
	end = core_clock_mono_ns() + ms * 1000000;
	for (i = 0; core_clock_mono_ns() < end; i++)
		words[i & 31] = words[(i + 1) & 31];
	nvtxRangePop();
	return 0;
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "";

	if (!strcmp(mode, "busy-sleep") && argc == 5)
		return busy_sleep(num(argv[2]), num(argv[3]), num(argv[4]));
	if (!strcmp(mode, "threads") && argc == 4)
		return threads(num(argv[2]), num(argv[3]));
	if (!strcmp(mode, "fork") && argc == 2)
		return fork_mode(argv[0]);
	if (!strcmp(mode, "fork-chain") && argc == 3)
		return fork_chain(num(argv[2]));
	if (!strcmp(mode, "exit-thread") && argc == 2)
		return exit_thread();
	if (!strcmp(mode, "crash") && argc == 2)
		return crash();
	if (!strcmp(mode, "wait") && argc == 2)
		wait_mode();
	if (!strcmp(mode, "unbalanced") && argc == 2)
		return unbalanced();
	if (!strcmp(mode, "domains") && argc == 2)
		return domains();
	if (!strcmp(mode, "capi") && argc == 2)
		return capi();
	if (!strcmp(mode, "spin") && (argc == 3 || argc == 4))
		return spin(num(argv[2]), argc == 4 && !strcmp(argv[3], "capi"));
	if (!strcmp(mode, "small-ops") && argc == 4)
		return small_ops(num(argv[2]), num(argv[3]));
	if (!strcmp(mode, "code-pointers") && argc == 3)
		return code_pointers(num(argv[2]));
	fprintf(stderr, "usage: rlprof-workload MODE [ARG...] (see the source for modes)\n");
	return 2;
}
