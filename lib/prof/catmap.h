/*
 * The category map: which CPU category the machine code of each file
 * counts as (share/rlprof-categories, rlprof-record(1) CATEGORY MAP).
 *
 *	struct prof_catmap m = PROF_CATMAP_INIT;
 *	if (prof_catmap_load(&m, path, &line) < 0) ...	// -errno; -EINVAL: bad `line`
 *	cat = prof_catmap_classify(&m, "/usr/lib/libtorch_cpu.so");
 *	prof_catmap_release(&m);
 *
 * A rule is "PATTERN CATEGORY": a fnmatch(3) pattern without flags ('*'
 * matches '/' too) on the file's full path, and one of python, simulator,
 * backend, cuda_api, native, inherit or interpreter.  The first rule that matches
 * decides; no match is native.  The map lives in the recorded process
 * (it uses nothing of lib/core) and is read once, before sampling starts.
 */
#ifndef PROF_CATMAP_H
#define PROF_CATMAP_H

#include <stddef.h>

#include "prof/trace.h"

/* Not trace categories (prof/cpusample.h): the caller's category; the
 * interpreter's, python while it runs Python code (its eval loop called
 * it), its caller's when an extension did (allocation, argument parsing,
 * reference counting on behalf of numpy or torch). */
#define PROF_CATMAP_INHERIT (-2)
#define PROF_CATMAP_INTERPRETER (-3)

struct prof_catmap_rule {
	char *pattern;
	int cat;		/* enum prof_category or PROF_CATMAP_INHERIT */
};

struct prof_catmap {
	struct prof_catmap_rule *v;
	size_t n, cap;
};

#define PROF_CATMAP_INIT { NULL, 0, 0 }

/* Add the rules of `text` (len bytes).  Returns 0, -ENOMEM, or -EINVAL
 * with *bad_line set to the 1-based number of the first malformed line
 * (the rules before it are kept). */
int prof_catmap_parse(struct prof_catmap *m, const char *text, size_t len, int *bad_line);
/* The same for a file; -errno when it cannot be read. */
int prof_catmap_load(struct prof_catmap *m, const char *path, int *bad_line);

/* The category of code from `path` (NULL or "": no file: native). */
int prof_catmap_classify(const struct prof_catmap *m, const char *path);

void prof_catmap_release(struct prof_catmap *m);

#endif
