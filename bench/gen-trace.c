/*
 * Synthetic rlprof trace for benchmarks: N events of one training loop in
 * time order (8 per step: step, inference, python, backend, cuda_api,
 * kernel, wait, simulator), CSV on standard output.
 *
 *	gen-trace N [reverse]
 *
 * "reverse" writes the steps last first, so that the reader must sort.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
	long long n = argc > 1 ? atoll(argv[1]) : 1000000, steps = (n + 7) / 8, i, k = 0;
	int rev = argc > 2 && !strcmp(argv[2], "reverse");
	const long long t0 = 1700000000000000000LL;
	static char buf[1 << 20];

	setvbuf(stdout, buf, _IOFBF, sizeof(buf));
	puts("kind,pid,tid,start_ns,end_ns,name,category,domain,device,stream,correlation,value,detail");
	for (i = 0; i < steps; i++) {
		long long b = t0 + (rev ? steps - 1 - i : i) * 10000;

		printf("op,4242,4242,%lld,%lld,step,,rl,,,,0,\n", b, b + 9000);
		printf("cpu,4242,4242,%lld,%lld,,python,,,,,,\n", b, b + 2000);
		printf("op,4242,4242,%lld,%lld,inference,,rl,,,,1,\n", b + 2000, b + 6000);
		printf("cpu,4242,4242,%lld,%lld,,backend,,,,,,\n", b + 2000, b + 3000);
		printf("cpu,4242,4242,%lld,%lld,,cuda_api,,,,,,\n", b + 3000, b + 3500);
		printf("gpu,4242,,%lld,%lld,sgemm,kernel,,0,7,%lld,,\n", b + 3200, b + 7000, ++k);
		printf("cpu,4242,4242,%lld,%lld,,wait,,,,,,\n", b + 3500, b + 6000);
		printf("cpu,4242,4242,%lld,%lld,,simulator,,,,,,\n", b + 6000, b + 8500);
	}
	return fflush(stdout) != 0;
}
