/*
 * HOSTDEV marks functions compiled both for the CPU and as CUDA device code:
 * __host__ __device__ under nvcc, nothing otherwise.  The emulator core is
 * written once in plain C with it, so the CPU backend, the tests and the
 * CUDA kernels run the same source and give bit-identical results.
 */
#ifndef CORE_HOSTDEV_H
#define CORE_HOSTDEV_H

#ifdef __CUDACC__
#define HOSTDEV __host__ __device__
#else
#define HOSTDEV
#endif

#endif
