/*
 * A fiberrun pool worker in C, speaking protocol 2 (fiberrun-protocol(5)):
 * each task holds a number of seconds (plain, or a JSON object
 * {"sleep": S}); the worker sleeps that long and answers {"slept": S}.
 * Used by bench/fiber-overhead.
 *
 *	cc -O2 -o sleep-worker sleep-worker.c
 *	yes 0.01 | head -n 10 | fiberrun --pool --lines -n 4 -- ./sleep-worker
 *
 * Protocol 2 in short: say "ready" on the result descriptor
 * ($FIBERRUN_RESULT_FD); read "task ID LEN", LEN bytes and a newline on
 * standard input; answer "ok ID LEN", LEN bytes and a newline (or "error
 * ID LEN" and a message) on the result descriptor.  Standard output is
 * free for anything else.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

int main(void)
{
	const char *fd = getenv("FIBERRUN_RESULT_FD");
	FILE *res = fd ? fdopen(atoi(fd), "w") : NULL;
	unsigned long long id;
	size_t len;
	char *task = NULL;

	if (!res) {
		fprintf(stderr, "sleep-worker: run me under fiberrun --pool (no FIBERRUN_RESULT_FD)\n");
		return 2;
	}
	fputs("ready\n", res);
	fflush(res);
	while (scanf("task %llu %zu", &id, &len) == 2 && getchar() == '\n') {
		const char *p;
		char out[64];
		double s;
		int n;

		if (!(task = realloc(task, len + 1)) || fread(task, 1, len, stdin) != len || getchar() != '\n')
			return 1;
		task[len] = '\0';
		p = strstr(task, "\"sleep\"");
		s = p ? atof(strchr(p, ':') + 1) : atof(task);
		if (s > 0) {
			struct timespec ts = { (time_t)s, (long)((s - (double)(time_t)s) * 1e9) };

			nanosleep(&ts, NULL);
		}
		n = snprintf(out, sizeof(out), "{\"slept\":%g}", s);
		fprintf(res, "ok %llu %d\n%s\n", id, n, out);
		fflush(res);
	}
	free(task);
	return 0;
}
