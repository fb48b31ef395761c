/*
 * Evolution strategies worker for fiberrun, on a C environment (cart-pole
 * balancing, the classic control task) with a linear policy.
 *
 * Only seeds and fitness cross the wire.  Every worker builds the same
 * noise table (2^20 Gaussian numbers from a fixed seed); a perturbation is
 * the slice of the table starting at its seed.  A task line is
 *
 *	SEED SIGN NPAIRS S1 W1 S2 W2 ...
 *
 * where the (S, W) pairs are every past update, in order: the parameters
 * are the sum of W * noise(S).  A worker remembers how many pairs it has
 * applied and applies only the new ones, so a replaced worker simply
 * starts from zero.  It evaluates the parameters plus SIGN * sigma *
 * noise(SEED) and answers the fitness (steps balanced, up to 500).
 *
 *	cc -O2 $(pkg-config --cflags rlkit) -o es-worker es-worker.c -lm
 *	python3 es.py --worker ./es-worker          (see es.py)
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/splitmix.h"

#define TABLE_SIZE (1 << 20)
#define DIM 5			/* 4 observations and a bias */
#define SIGMA 0.1
#define MAX_STEPS 500

static float table[TABLE_SIZE + DIM];
static double theta[DIM];
static long applied;

static void table_build(void)
{
	uint64_t s = 12345;
	long i;

	for (i = 0; i < TABLE_SIZE + DIM; i += 2) {
		double u = core_splitmix64_unit(&s) + 1e-300, v = core_splitmix64_unit(&s);
		double r = sqrt(-2 * log(u));

		table[i] = (float)(r * cos(2 * M_PI * v));
		if (i + 1 < TABLE_SIZE + DIM)
			table[i + 1] = (float)(r * sin(2 * M_PI * v));
	}
}

/* Cart-pole, as in Barto, Sutton and Anderson (1983). */
static int cartpole(const double *w, uint64_t seed)
{
	double x, dx, a, da;
	int t;

	x = core_splitmix64_unit(&seed) * 0.1 - 0.05;
	dx = core_splitmix64_unit(&seed) * 0.1 - 0.05;
	a = core_splitmix64_unit(&seed) * 0.1 - 0.05;
	da = core_splitmix64_unit(&seed) * 0.1 - 0.05;
	for (t = 0; t < MAX_STEPS; t++) {
		double f = w[0] * x + w[1] * dx + w[2] * a + w[3] * da + w[4] > 0 ? 10.0 : -10.0;
		double c = cos(a), s = sin(a);
		double tmp = (f + 0.05 * da * da * s) / 1.1;
		double acc_a = (9.8 * s - c * tmp) / (0.5 * (4.0 / 3.0 - 0.1 * c * c / 1.1));
		double acc_x = tmp - 0.05 * acc_a * c / 1.1;

		x += 0.02 * dx;
		dx += 0.02 * acc_x;
		a += 0.02 * da;
		da += 0.02 * acc_a;
		if (fabs(x) > 2.4 || fabs(a) > 12 * M_PI / 180)
			break;
	}
	return t;
}

int main(void)
{
	static char line[1 << 22];

	table_build();
	while (fgets(line, sizeof(line), stdin)) {
		char *p = line, *end;
		long seed = strtol(p, &end, 10), sign, npairs, i;
		double w[DIM];
		int bad = end == p || seed < 0 || seed >= TABLE_SIZE;

		p = end;
		sign = strtol(p, &end, 10);
		bad |= end == p;
		p = end;
		npairs = strtol(p, &end, 10);
		bad |= end == p || npairs < applied;
		for (i = 0; i < npairs && !bad; i++) {
			long s = strtol(p = end, &end, 10);
			double wt = strtod(p = end, &end);
			int k;

			bad |= end == p || s < 0 || s >= TABLE_SIZE;
			if (i < applied || bad)
				continue;
			for (k = 0; k < DIM; k++)
				theta[k] += wt * table[s + k];
		}
		if (bad) {
			printf("!bad task: want SEED SIGN NPAIRS and NPAIRS seed/weight pairs\n");
			fflush(stdout);
			continue;
		}
		applied = npairs;
		for (i = 0; i < DIM; i++)
			w[i] = theta[i] + (double)sign * SIGMA * table[seed + i];
		printf("%d\n", cartpole(w, (uint64_t)seed));
		fflush(stdout);
	}
	return 0;
}
