/*
 * The spool: how a recorded process hands its events to rlprof-record.
 *
 * Each process being recorded appends to its own spool file,
 * "<dir>/<pid>.<n>.spool" (n tells apart recorders of one process image
 * and images that exec replaced), in the folder that rlprof-record names in
 * the environment variable RLPROF_SPOOL_DIR.  A file is a sequence of
 * chunks; each chunk is one write(2) of one thread's buffer:
 *
 *	struct prof_spool_chunk  (magic, size of the records, pid, tid)
 *	records, each a struct prof_spool_rec followed by its text
 *
 * Records are 8-byte aligned, native byte order (the file never leaves the
 * machine), and carry timestamps of CLOCK_REALTIME in nanoseconds.  A
 * process killed in the middle of a write leaves a torn last chunk; readers
 * stop there and say so.
 */
#ifndef PROF_SPOOL_H
#define PROF_SPOOL_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "core/error.h"

#define PROF_SPOOL_ENV "RLPROF_SPOOL_DIR"
#define PROF_SPOOL_MAGIC 0x53504c52u	/* "RLPS" */
/* Text of one record is cut to this many bytes. */
#define PROF_SPOOL_TEXT_MAX 2048

struct prof_spool_chunk {
	uint32_t magic;
	uint32_t size;		/* bytes of records after this header */
	uint32_t pid;
	uint32_t tid;
};

enum prof_spool_type {
	PROF_REC_PUSH = 1,	/* domain, t, text=name */
	PROF_REC_POP,		/* domain, t */
	PROF_REC_MARK,		/* domain, t, text=name */
	PROF_REC_START,		/* domain, t, u=range id, text=name */
	PROF_REC_END,		/* domain, t, u=range id */
	PROF_REC_PHASE,		/* t, text=name ("" ends the phase) */
	PROF_REC_CPU,		/* t, arg=category (PROF_CAT_NONE: none) */
	PROF_REC_COUNTER,	/* t, u=double bits, text=name */
	PROF_REC_META,		/* t, text="key\0value" */
	PROF_REC_THREAD,	/* t, text=thread name */
	PROF_REC_THREAD_END,	/* t */
	PROF_REC_DOMAIN,	/* u=domain id, text=name */
	PROF_REC_PROC,		/* t=start, u=parent pid, arg=1 when forked
				 * (not exec'd), text=command line */
	PROF_REC_EXIT,		/* t, arg=0 exit (u=status) | 1 signal (u=signo) */
	PROF_REC_WARNING,	/* t, text=what happened */
	PROF_REC_SEG,		/* t=start, text=struct prof_spool_seg (binary) */
	PROF_REC_GPU,		/* t=start, text=struct prof_spool_gpu, then the name */
	PROF_REC_API,		/* t=start, u=correlation id, text=struct
				 * prof_spool_api, then the function's name */
	PROF_REC_SAMPLE,	/* t, u=tid of the sampled thread, arg=category
				 * (PROF_SEG_*), domain=its CPU ns (at most
				 * 2^32 - 1), text=the file of the code */
	PROF_REC_TYPE_COUNT
};

/* Sampled CPU categories, indexes of prof_spool_seg.w. */
enum prof_seg_cat {
	PROF_SEG_PYTHON, PROF_SEG_SIMULATOR, PROF_SEG_BACKEND, PROF_SEG_CUDA_API,
	PROF_SEG_NATIVE, PROF_SEG_SYSTEM, PROF_SEG_NCAT
};

/*
 * One segment of a thread (prof/cpusample.h): from the record's t to
 * `end`, the thread was `cpu` ns on a CPU, `runnable` ns ready but not
 * running, and blocked for the rest; `w` are the CPU ns of the samples
 * taken in it, by category (their sum is near `cpu` only over many
 * segments).  `tid` is the thread's, whoever wrote the record.
 */
struct prof_spool_seg {
	int64_t end;
	int64_t cpu;
	int64_t runnable;
	uint32_t tid;
	uint32_t samples;
	int64_t w[PROF_SEG_NCAT];
};

/* GPU activity from CUPTI (prof/cupti_merge.h): a kernel, copy or memset. */
struct prof_spool_gpu {
	int64_t end;
	uint64_t correlation;
	uint32_t device;
	uint32_t stream;
	uint32_t category;	/* PROF_CAT_KERNEL, PROF_CAT_MEMCPY, PROF_CAT_MEMSET */
	uint32_t pad;
};

/* A CUDA runtime or driver API call of the recording thread, to `end`. */
struct prof_spool_api {
	int64_t end;
};

struct prof_spool_rec {
	uint16_t size;		/* whole record with text, multiple of 8 */
	uint8_t type;		/* enum prof_spool_type */
	uint8_t arg;
	uint32_t domain;	/* 0: the default domain */
	int64_t t;
	uint64_t u;
	/* NUL-terminated text follows when the type has one */
};

/* Size of a record carrying `textlen` bytes of text (plus NUL), aligned. */
static inline size_t prof_spool_rec_size(size_t textlen)
{
	return (sizeof(struct prof_spool_rec) + textlen + 1 + 7) & ~(size_t)7;
}

static inline const char *prof_spool_rec_text(const struct prof_spool_rec *r)
{
	return r->size > sizeof(*r) ? (const char *)(r + 1) : "";
}

/*
 * The spool folder: prof_spool_dir_make creates a new private one in
 * $TMPDIR (else /tmp) and writes its path into buf; -errno and err when
 * it cannot.  prof_spool_dir_remove deletes it with its files.
 */
int prof_spool_dir_make(char *buf, size_t size, struct core_error *err);
void prof_spool_dir_remove(const char *dir);

/*
 * Reading a spool file, chunk by chunk.  prof_spool_read returns 1 with the
 * next chunk (its records in `data`, `size` bytes, valid until the next
 * call), 0 at the end, or -EBADMSG for a torn or corrupt chunk (err says
 * where; what came before is good).
 */
struct prof_spool_reader {
	FILE *fp;
	const char *name;
	struct prof_spool_chunk chunk;
	unsigned char *data;
	size_t cap;
	long offset;
};

void prof_spool_reader_init(struct prof_spool_reader *r, FILE *fp, const char *name);
int prof_spool_read(struct prof_spool_reader *r, struct core_error *err);
void prof_spool_reader_release(struct prof_spool_reader *r);

/*
 * Iterate over the records of the current chunk:
 *	const struct prof_spool_rec *rec = NULL;
 *	while ((rec = prof_spool_next(r, rec))) ...
 * Records with a bad size end the iteration (the reader checked them).
 */
const struct prof_spool_rec *prof_spool_next(const struct prof_spool_reader *r,
					     const struct prof_spool_rec *prev);

#endif
