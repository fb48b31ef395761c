#include "fiber/joblog.h"

#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Read the records of fd into done; *good gets the length of whole records. */
static int load(struct fiber_joblog *j, struct core_map *done, off_t *good,
		struct core_error *err)
{
	struct core_buf b = CORE_BUF_INIT;
	long lineno = 0;
	ssize_t n;
	int ret = 0;

	*good = 0;
	while ((n = core_buf_read_fd(&b, j->fd, 1 << 16)) > 0)
		;
	if (n < 0) {
		ret = core_error_errno(err, (int)-n, "cannot read '%s'", j->path);
		goto out;
	}
	while (core_buf_pending(&b) > 0) {
		char *start = b.data + b.off, *nl = memchr(start, '\n', core_buf_pending(&b));
		struct core_map_entry *e;
		json_error_t jerr;
		json_t *v, *id;
		char *key;

		lineno++;
		if (!nl)
			break;	/* torn last line: dropped */
		*nl = '\0';
		v = json_loads(start, 0, &jerr);
		id = json_is_object(v) ? json_object_get(v, "id") : NULL;
		key = id ? fiber_task_key(id) : NULL;
		if (!key) {
			json_decref(v);
			if ((size_t)(nl + 1 - b.data) == b.len)
				break;	/* a torn last line that happens to end in a newline */
			ret = core_error_set_line(err, -EINVAL, lineno,
						  "'%s': not a result record", j->path);
			goto out;
		}
		ret = core_map_put(done, key, strlen(key), &e);
		free(key);
		json_decref(v);
		if (ret == 1 && !(e->value.p = strdup(start)))
			ret = -ENOMEM;
		if (ret < 0) {
			ret = core_error_set(err, -ENOMEM, "out of memory");
			goto out;
		}
		ret = 0;
		core_buf_consume(&b, (size_t)(nl + 1 - start));
		*good = (off_t)(nl + 1 - b.data);
	}
out:
	core_buf_release(&b);
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
