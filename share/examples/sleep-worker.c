/*
 * A fiberrun pool worker in C: each task line holds a number of seconds
 * (plain, or a JSON object {"sleep": S}); the worker sleeps that long and
 * answers {"slept": S}.  Used by bench/fiber-overhead.
 *
 *	cc -O2 -o sleep-worker sleep-worker.c
 *	yes 0.01 | head -n 10 | fiberrun --pool --lines -n 4 -- ./sleep-worker
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

int main(void)
{
	char line[4096];

	while (fgets(line, sizeof(line), stdin)) {
		const char *p = strstr(line, "\"sleep\"");
		double s = p ? atof(strchr(p, ':') + 1) : atof(line);
		struct timespec ts = { (time_t)s, (long)((s - (double)(time_t)s) * 1e9) };

		if (s > 0)
			nanosleep(&ts, NULL);
		printf("{\"slept\":%g}\n", s);
		fflush(stdout);
	}
	return 0;
}
