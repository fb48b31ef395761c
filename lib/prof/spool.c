#include "prof/spool.h"

#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/clock.h"
#include "core/grow.h"

int prof_spool_dir_make(char *buf, size_t size, struct core_error *err)
{
	const char *tmp = getenv("TMPDIR");
	int i, e = EEXIST;

	if (!tmp || !*tmp)
		tmp = "/tmp";
	for (i = 0; i < 100 && e == EEXIST; i++) {
		snprintf(buf, size, "%s/rlprof.%d.%ld", tmp, (int)getpid(),
			 (long)(core_clock_mono_ns() % 1000000007));
		if (mkdir(buf, 0700) == 0)
			return 0;
		e = errno;
	}
	return core_error_errno(err, e, "cannot create a folder in '%s'", tmp);
}

void prof_spool_dir_remove(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;

	while (d && (e = readdir(d))) {
		char *path;

		if (e->d_name[0] == '.' || asprintf(&path, "%s/%s", dir, e->d_name) < 0)
			continue;
		unlink(path);
		free(path);
	}
	if (d)
		closedir(d);
	rmdir(dir);
}

void prof_spool_reader_init(struct prof_spool_reader *r, FILE *fp, const char *name)
{
	memset(r, 0, sizeof(*r));
	r->fp = fp;
	r->name = name;
}

void prof_spool_reader_release(struct prof_spool_reader *r)
{
	free(r->data);
	r->data = NULL;
	r->cap = 0;
}

/* Every record of the chunk has a sane size and ends inside it. */
static int chunk_valid(const unsigned char *data, size_t size)
{
	size_t off = 0;

	while (off < size) {
		const struct prof_spool_rec *rec = (const void *)(data + off);

		if (size - off < sizeof(*rec) || rec->size < sizeof(*rec) ||
		    rec->size % 8 || rec->size > size - off)
			return 0;
		if (rec->size > sizeof(*rec) && data[off + rec->size - 1] != 0 &&
		    memchr(data + off + sizeof(*rec), 0, rec->size - sizeof(*rec)) == NULL)
			return 0;
		off += rec->size;
	}
	return 1;
}

int prof_spool_read(struct prof_spool_reader *r, struct core_error *err)
{
	size_t n = fread(&r->chunk, 1, sizeof(r->chunk), r->fp);

	if (n == 0 && feof(r->fp))
		return 0;
	if (n != sizeof(r->chunk) || r->chunk.magic != PROF_SPOOL_MAGIC ||
	    r->chunk.size > (64u << 20))
		goto bad;
	if (CORE_GROW(r->data, r->cap, r->chunk.size) < 0)
		return core_error_set(err, -ENOMEM, "out of memory");
	if (fread(r->data, 1, r->chunk.size, r->fp) != r->chunk.size ||
	    !chunk_valid(r->data, r->chunk.size))
		goto bad;
	r->offset += (long)(sizeof(r->chunk) + r->chunk.size);
	return 1;
bad:
	return core_error_set(err, -EBADMSG, "'%s': torn or corrupt chunk at byte %ld",
			      r->name, r->offset);
}

const struct prof_spool_rec *prof_spool_next(const struct prof_spool_reader *r,
					     const struct prof_spool_rec *prev)
{
	size_t off = prev ? (size_t)((const unsigned char *)prev - r->data) + prev->size : 0;

	if (off + sizeof(*prev) > r->chunk.size)
		return NULL;
	return (const void *)(r->data + off);
}
