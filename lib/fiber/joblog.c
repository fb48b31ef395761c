#include "fiber/joblog.h"

#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/input.h"
#include "core/json.h"

/* Only blank lines left: a bad line before them is the torn end. */
static int at_end(struct core_jsonl_reader *r)
{
	char *text;
	size_t len, i;
	int ret;

	while ((ret = core_jsonl_read_line(r, &text, &len, NULL)) > 0) {
		for (i = 0; i < len; i++)
			if (text[i] != ' ' && text[i] != '\t' && text[i] != '\r')
				return 0;
	}
	return ret == 0;
}

/* Read the records of fd into done; *good gets the length of whole records. */
static int load(struct fiber_joblog *j, struct core_map *done, off_t *good,
		struct core_error *err)
{
	struct core_jsonl_reader *r;
	int ret;

	*good = 0;
	ret = core_jsonl_reader_new_fn(&r, core_read_fd_fn, &j->fd, j->path, err);
	if (ret < 0)
		return ret;
	for (;;) {
		struct core_map_entry *e;
		json_t *v = NULL, *id;
		const char *text;
		size_t len;
		char *key;
		long line;

		ret = core_jsonl_read(r, &v, err);
		if (ret == 0)
			break;
		if (ret < 0 && ret != -EBADMSG && ret != -EMSGSIZE)
			goto out;
		line = core_jsonl_line(r);
		if (core_jsonl_torn(r)) {
			json_decref(v);	/* a torn last line: dropped */
			ret = 0;
			break;
		}
		id = json_is_object(v) ? json_object_get(v, "id") : NULL;
		key = id ? fiber_task_key(id) : NULL;
		if (!key) {
			json_decref(v);
			if (at_end(r)) {
				ret = 0;	/* a torn last line that happens to end in a newline */
				break;
			}
			core_error_set(err, -EINVAL, "'%s': line %ld: not a result record", j->path, line);
			if (err)
				err->line = line;
			ret = -EINVAL;
			goto out;
		}
		text = core_jsonl_text(r, &len);
		ret = core_map_put(done, key, strlen(key), &e);
		free(key);
		json_decref(v);
		/* A later record of the same id (a task run again) wins. */
		if (ret == 0) {
			free(e->value.p);
			e->value.p = NULL;
		}
		if (ret >= 0 && !(e->value.p = strndup(text, len)))
			ret = -ENOMEM;
		if (ret < 0) {
			ret = core_error_set(err, -ENOMEM, "out of memory");
			goto out;
		}
		ret = 0;
		*good = (off_t)core_jsonl_offset(r);
	}
	ret = 0;
out:
	core_jsonl_reader_free(r);
	return ret;
}

int fiber_joblog_open(struct fiber_joblog *j, const char *path, int resume,
		      struct core_map *done, struct core_error *err)
{
	struct stat st;
	off_t good;
	int ret;

	j->path = strdup(path);
	if (!j->path)
		return core_error_set(err, -ENOMEM, "out of memory");
	j->fd = open(path, O_RDWR | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
	if (j->fd < 0)
		return core_error_errno(err, errno, "cannot open '%s'", path);
	if (fstat(j->fd, &st) < 0)
		return core_error_errno(err, errno, "cannot stat '%s'", path);
	if (st.st_size == 0)
		return 0;
	if (!resume)
		return core_error_set(err, -EEXIST,
				      "joblog '%s' is not empty: add --resume to continue that run", path);
	ret = load(j, done, &good, err);
	if (ret < 0)
		return ret;
	/* b.off tracks consumed bytes; good is the end of the last whole record. */
	if (good < st.st_size && ftruncate(j->fd, good) < 0)
		return core_error_errno(err, errno, "cannot cut the torn end of '%s'", path);
	return 0;
}

int fiber_joblog_add(struct fiber_joblog *j, const char *rec, size_t len)
{
	if (core_buf_append(&j->pending, rec, len) < 0 ||
	    core_buf_append(&j->pending, "\n", 1) < 0)
		return -ENOMEM;
	return 0;
}

int fiber_joblog_commit(struct fiber_joblog *j, struct core_error *err)
{
	if (j->fd < 0 || core_buf_pending(&j->pending) == 0)
		return 0;
	while (core_buf_pending(&j->pending) > 0) {
		ssize_t n = core_buf_write_fd(&j->pending, j->fd);

		if (n < 0)
			return core_error_errno(err, (int)-n, "cannot write '%s'", j->path);
	}
	if (fdatasync(j->fd) < 0)
		return core_error_errno(err, errno, "cannot sync '%s'", j->path);
	return 0;
}

void fiber_joblog_release(struct fiber_joblog *j)
{
	if (j->fd >= 0)
		close(j->fd);
	j->fd = -1;
	free(j->path);
	j->path = NULL;
	core_buf_release(&j->pending);
}
