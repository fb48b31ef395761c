/* The merge (prof/merge.h): the spool files of a directory, in name order,
 * each read in two passes (prof/merge_replay.h). */
#include "prof/merge.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/grow.h"
#include "prof/merge_replay.h"
#include "prof/spool.h"

static int merge_file(struct prof_merge *m, const char *path, struct prof_trace_writer *w,
		      struct core_error *err)
{
	struct replay rp;
	struct prof_spool_reader r;
	struct core_error torn = CORE_ERROR_INIT;
	const struct prof_spool_rec *rec;
	FILE *fp = fopen(path, "rb");
	int64_t pid = -1;
	int ret, wret = 0;

	if (!fp)
		return core_error_errno(err, errno, "cannot open '%s'", path);
	memset(&rp, 0, sizeof(rp));
	prof_spool_reader_init(&r, fp, path);
	ret = prof_merge_collect(m, &r, &rp, &torn);
	if (ret == -ENOMEM)
		goto out;
	prof_merge_replay_clear(&rp);
	rewind(fp);
	prof_spool_reader_release(&r);
	prof_spool_reader_init(&r, fp, path);
	while (!wret && (ret = prof_spool_read(&r, NULL)) > 0) {
		struct proc *p = prof_merge_proc_get(m, r.chunk.pid);

		if (!p) {
			ret = -ENOMEM;
			break;
		}
		pid = p->pid;
		for (rec = NULL; !wret && (rec = prof_spool_next(&r, rec));)
			wret = prof_merge_replay_rec(m, &rp, w, p, r.chunk.tid, rec);
	}
	if (!wret && pid >= 0)
		wret = prof_merge_replay_end(m, &rp, w, pid);
	if (!wret && torn.code && pid >= 0)
		wret = prof_merge_warning(w, pid, 0, 0, NULL,
				    "the recorded data ends with a torn write; later events are lost");
	ret = wret;
out:
	prof_spool_reader_release(&r);
	prof_merge_replay_release(&rp);
	fclose(fp);
	if (ret == -ENOMEM)
		return core_error_set(err, -ENOMEM, "out of memory");
	if (ret < 0)
		return core_error_errno(err, -ret, "writing the trace failed");
	return 0;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The spool files of dir, sorted, in *names; their count or -errno. */
static int list_dir(const char *dir, char ***names, struct core_error *err)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	size_t n = 0, cap = 0;

	*names = NULL;
	if (!d)
		return core_error_errno(err, errno, "cannot read '%s'", dir);
	while ((e = readdir(d))) {
		size_t len = strlen(e->d_name);

		if (len < 7 || strcmp(e->d_name + len - 6, ".spool"))
			continue;
		if (CORE_GROW(*names, cap, n + 1) < 0 ||
		    asprintf(&(*names)[n], "%s/%s", dir, e->d_name) < 0) {
			closedir(d);
			while (n)
				free((*names)[--n]);
			free(*names);
			*names = NULL;
			return core_error_set(err, -ENOMEM, "out of memory");
		}
		n++;
	}
	closedir(d);
	if (n)
		qsort(*names, n, sizeof(**names), by_name);
	return (int)n;
}

int prof_merge_scan(struct prof_merge *m, const char *dir, struct core_error *err)
{
	char **names;
	int n = list_dir(dir, &names, err), i, ret = 0;

	if (n < 0)
		return n;
	for (i = 0; i < n; i++) {
		FILE *fp = ret ? NULL : fopen(names[i], "rb");
		struct prof_spool_reader r;
		const struct prof_spool_rec *rec;
		int found = 0;

		if (fp) {
			prof_spool_reader_init(&r, fp, names[i]);
			while (!found && prof_spool_read(&r, NULL) > 0) {
				for (rec = NULL; !found && (rec = prof_spool_next(&r, rec));)
					found = rec->type == PROF_REC_SEG;
				if (found) {
					struct proc *p = prof_merge_proc_get(m, r.chunk.pid);

					if (!p)
						ret = core_error_set(err, -ENOMEM, "out of memory");
					else
						p->segments = 1;
				}
			}
			prof_spool_reader_release(&r);
			fclose(fp);
		}
		free(names[i]);
	}
	free(names);
	return ret;
}


int prof_merge_dir(struct prof_merge *m, const char *dir, struct prof_trace_writer *w,
		   struct core_error *err)
{
	char **names;
	int n = list_dir(dir, &names, err), i, ret = 0;

	if (n < 0)
		return n;
	for (i = 0; i < n; i++) {
		if (!ret)
			ret = merge_file(m, names[i], w, err);
		free(names[i]);
	}
	free(names);
	return ret;
}

