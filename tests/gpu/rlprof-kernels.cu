// A CUDA program with known GPU work, for tests/gpu/rlprof.sh: kernels that
// spin for a given time on the GPU's global timer, copies and a memset,
// inside NVTX operations:
//   copies   64 MiB host to device, a memset, 64 MiB device to host
//   phase_a  5 x spin_a (2 ms) on one stream, one after the other
//   phase_b  5 x (spin_b on one stream beside spin_c on another, 1 ms each)
//   idle     50 ms of host sleep, no GPU work
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <cuda_runtime.h>
#include <nvtx3/nvToolsExt.h>

__device__ void spin(long long ns)
{
	unsigned long long t0, t;

	asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t0));
	do {
		asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
	} while ((long long)(t - t0) < ns);
}

__global__ void spin_a(long long ns) { spin(ns); }
__global__ void spin_b(long long ns) { spin(ns); }
__global__ void spin_c(long long ns) { spin(ns); }

#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
	fprintf(stderr, "rlprof-kernels: error: %s: %s\n", #x, cudaGetErrorString(e_)); \
	return 3; } } while (0)

int main()
{
	const size_t bytes = 64u << 20;
	cudaStream_t s1, s2, s3;
	void *dev, *host;
	struct timespec idle = { 0, 50000000 };

	CHECK(cudaFree(0));
	CHECK(cudaStreamCreate(&s1));
	CHECK(cudaStreamCreate(&s2));
	CHECK(cudaStreamCreate(&s3));
	CHECK(cudaMalloc(&dev, bytes));
	CHECK(cudaMallocHost(&host, bytes));

	nvtxRangePushA("copies");
	CHECK(cudaMemcpy(dev, host, bytes, cudaMemcpyHostToDevice));
	CHECK(cudaMemset(dev, 0, bytes));
	CHECK(cudaMemcpy(host, dev, bytes, cudaMemcpyDeviceToHost));
	nvtxRangePop();

	nvtxRangePushA("phase_a");
	for (int i = 0; i < 5; i++)
		spin_a<<<1, 1, 0, s1>>>(2000000);
	CHECK(cudaStreamSynchronize(s1));
	nvtxRangePop();

	nvtxRangePushA("phase_b");
	for (int i = 0; i < 5; i++) {
		spin_b<<<1, 1, 0, s2>>>(1000000);
		spin_c<<<1, 1, 0, s3>>>(1000000);
	}
	CHECK(cudaDeviceSynchronize());
	nvtxRangePop();

	nvtxRangePushA("idle");
	nanosleep(&idle, NULL);
	nvtxRangePop();

	CHECK(cudaFree(dev));
	CHECK(cudaFreeHost(host));
	return 0;
}
