#include "core/clock.h"

#include <errno.h>

void core_clock_sleep_ns(int64_t ns)
{
	struct timespec ts;

	if (ns <= 0)
		return;
	ts.tv_sec = (time_t)(ns / 1000000000);
	ts.tv_nsec = (long)(ns % 1000000000);
	while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
		;
}
