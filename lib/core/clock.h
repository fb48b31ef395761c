/*
 * Clocks in integer nanoseconds.
 *
 * core_clock_mono_ns: CLOCK_MONOTONIC, for durations; never jumps.
 * core_clock_real_ns: CLOCK_REALTIME, nanoseconds since the Unix epoch; the
 *   clock of trace timestamps (CUPTI reports the same base).
 * Both are read through the vDSO: no system call on Linux.
 */
#ifndef CORE_CLOCK_H
#define CORE_CLOCK_H

#include <stdint.h>
#include <time.h>

static inline int64_t core_clock_ns(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static inline int64_t core_clock_mono_ns(void)
{
	return core_clock_ns(CLOCK_MONOTONIC);
}

static inline int64_t core_clock_real_ns(void)
{
	return core_clock_ns(CLOCK_REALTIME);
}

/* Sleep for `ns` nanoseconds, resuming after signals. */
void core_clock_sleep_ns(int64_t ns);

#endif
