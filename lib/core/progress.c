#include "core/progress.h"

#include <stdio.h>
#include <unistd.h>

#include "core/clock.h"

#define BAR_WIDTH 30
#define DRAW_INTERVAL_NS 100000000

void core_progress_start(struct core_progress *p, const char *label, uint64_t total)
{
	p->label = label;
	p->total = total;
	p->start_ns = core_clock_mono_ns();
	p->last_draw_ns = 0;
	p->enabled = isatty(STDERR_FILENO);
	p->drawn = 0;
}

void core_progress_force(struct core_progress *p, int enabled)
{
	p->enabled = enabled;
}

static void draw(struct core_progress *p, uint64_t done, int64_t now)
{
	double secs = (double)(now - p->start_ns) / 1e9;
	double rate = secs > 0 ? (double)done / secs : 0;

	if (p->total) {
		uint64_t d = done > p->total ? p->total : done;
		int fill = (int)(BAR_WIDTH * d / p->total), i;
		char bar[BAR_WIDTH + 3], eta[48] = "";

		bar[0] = '\0';
		if (!p->no_bar) {
			bar[0] = '[';
			for (i = 0; i < BAR_WIDTH; i++)
				bar[i + 1] = i < fill ? '#' : '.';
			bar[BAR_WIDTH + 1] = ']';
			bar[BAR_WIDTH + 2] = '\0';
		}
		if (p->eta && rate > 0) {
			double left = (double)(p->total - d) / rate;

			snprintf(eta, sizeof(eta), " ETA %ld:%02ld:%02ld", (long)left / 3600,
				 (long)left / 60 % 60, (long)left % 60);
		}
		fprintf(stderr, "\r%s %s%s%3d%% %llu/%llu %.3g/s%s\033[K",
			p->label ? p->label : "", bar, bar[0] ? " " : "", (int)(100 * d / p->total),
			(unsigned long long)done, (unsigned long long)p->total, rate, eta);
	} else {
		fprintf(stderr, "\r%s %llu %.3g/s\033[K", p->label ? p->label : "",
			(unsigned long long)done, rate);
	}
	fflush(stderr);
	p->drawn = 1;
	p->last_draw_ns = now;
}

void core_progress_update(struct core_progress *p, uint64_t done)
{
	int64_t now;

	if (!p->enabled)
		return;
	now = core_clock_mono_ns();
	if (p->drawn && now - p->last_draw_ns < DRAW_INTERVAL_NS)
		return;
	draw(p, done, now);
}

void core_progress_finish(struct core_progress *p)
{
	if (p->enabled && p->drawn) {
		fputs("\r\033[K", stderr);
		fflush(stderr);
	}
	p->drawn = 0;
}
