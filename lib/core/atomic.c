#include "core/atomic.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void release(struct core_atomic *af)
{
	free(af->path);
	free(af->tmp);
	af->path = af->tmp = NULL;
	af->fp = NULL;
}

int core_atomic_open(struct core_atomic *af, const char *path, int flags,
		     struct core_error *err)
{
	const char *slash, *base;
	size_t dirlen;
	int fd;

	af->fp = NULL;
	af->tmp = NULL;
	af->path = strdup(path);
	if (!af->path)
		return core_error_set(err, -ENOMEM, "out of memory");
	if (!strcmp(path, "-")) {
		af->fp = stdout;
		return 0;
	}
	if (!(flags & CORE_ATOMIC_FORCE) && access(path, F_OK) == 0) {
		release(af);
		return core_error_set(err, -EEXIST,
				      "'%s' exists (use --force to replace it)", path);
	}
	slash = strrchr(path, '/');
	base = slash ? slash + 1 : path;
	dirlen = slash ? (size_t)(slash - path) + 1 : 0;
	af->tmp = malloc(dirlen + strlen(base) + 16);
	if (!af->tmp) {
		release(af);
		return core_error_set(err, -ENOMEM, "out of memory");
	}
	sprintf(af->tmp, "%.*s.%s.XXXXXX", (int)dirlen, path, base);
	fd = mkstemp(af->tmp);
	if (fd < 0) {
		int e = errno;

		release(af);
		return core_error_errno(err, e, "cannot create a file next to '%s'", path);
	}
	/* mkstemp makes 0600; a normal output file honours the umask. */
	{
		mode_t um = umask(0);

		umask(um);
		fchmod(fd, 0666 & ~um);
	}
	af->fp = fdopen(fd, "w");
	if (!af->fp) {
		int e = errno;

		close(fd);
		unlink(af->tmp);
		release(af);
		return core_error_errno(err, e, "cannot open '%s'", path);
	}
	return 0;
}

static void sync_dir(const char *path)
{
	char *copy = strdup(path);
	int fd;

	if (!copy)
		return;
	fd = open(dirname(copy), O_RDONLY | O_DIRECTORY);
	if (fd >= 0) {
		fsync(fd);
		close(fd);
	}
	free(copy);
}

int core_atomic_commit(struct core_atomic *af, struct core_error *err)
{
	int e = 0;

	if (!af->fp)
		return core_error_set(err, -EINVAL, "no output is open");
	if (!af->tmp) {		/* stdout */
		errno = 0;
		if (fflush(af->fp) != 0 || ferror(af->fp)) {
			e = errno ? errno : EIO;
			release(af);
			return core_error_errno(err, e, "writing output failed");
		}
		release(af);
		return 0;
	}
	errno = 0;
	if (fflush(af->fp) != 0 || ferror(af->fp))
		e = errno ? errno : EIO;
	else if (fsync(fileno(af->fp)) != 0 && errno != EINVAL)
		e = errno;
	if (fclose(af->fp) != 0 && !e)
		e = errno ? errno : EIO;
	af->fp = NULL;
	if (!e && rename(af->tmp, af->path) != 0)
		e = errno;
	if (e) {
		int ret = core_error_errno(err, e, "writing '%s' failed", af->path);

		unlink(af->tmp);
		release(af);
		return ret;
	}
	sync_dir(af->path);
	release(af);
	return 0;
}

void core_atomic_abort(struct core_atomic *af)
{
	if (af->tmp) {
		if (af->fp)
			fclose(af->fp);
		unlink(af->tmp);
	}
	release(af);
}
