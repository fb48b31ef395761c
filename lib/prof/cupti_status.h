/*
 * Whether GPU activity was recorded, and if not, why: what the CUDA
 * injection library (lib/prof/inject/cupti.c) tells rlprof-record.
 *
 * Each process in which CUDA loaded the injection library writes one line
 * to "<spool>/<pid>.<n>.gpu": "1 <what>" when CUPTI records its GPU
 * activity, "0 <why not>" when it cannot.  After the run rlprof-record
 * reads them (prof_gpu_status_read) and, when no process wrote one, asks
 * whether a CUDA driver exists at all (prof_gpu_probe).
 */
#ifndef PROF_CUPTI_STATUS_H
#define PROF_CUPTI_STATUS_H

#include <stddef.h>

/* The library rlprof-record looks for as the CUDA driver ("libcuda.so.1",
 * or this variable's value when set: tests name a missing one). */
#define PROF_GPU_DRIVER_ENV "RLPROF_CUDA_DRIVER"

/* Write this process's line; 0 or -errno.  Async-signal-unsafe. */
int prof_gpu_status_write(const char *spool, int ok, const char *text);

/*
 * Read the lines of `spool`: 1 when some process recorded (buf gets "CUPTI
 * ..." of the first), 0 when none did but some said why (buf gets the
 * first reason), -1 when no process loaded the injection library.
 */
int prof_gpu_status_read(const char *spool, char *buf, size_t size);

/*
 * Is there a GPU to record?  full=0: only whether the CUDA driver library
 * loads (cheap); full=1: also cuInit and the device count (initialises
 * CUDA in this process).  Returns 0, or -1 with the reason in buf
 * ("no CUDA driver (libcuda.so.1: ...)", "no GPU (cuInit: ...)").
 */
int prof_gpu_probe(int full, char *buf, size_t size);

#endif
