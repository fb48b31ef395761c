/* Atomic output: the old file survives every failure before commit. */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/atomic.h"
#include "test.h"

static char *slurp(const char *path)
{
	static char buf[4096];
	FILE *fp = fopen(path, "r");
	size_t n;

	if (!fp)
		return NULL;
	n = fread(buf, 1, sizeof(buf) - 1, fp);
	buf[n] = '\0';
	fclose(fp);
	return buf;
}

static int count_entries(const char *dir)
{
	char cmd[600];
	FILE *p;
	int n = -1;

	snprintf(cmd, sizeof(cmd), "ls -A '%s' | wc -l", dir);
	p = popen(cmd, "r");
	if (p && fscanf(p, "%d", &n) != 1)
		n = -1;
	if (p)
		pclose(p);
	return n;
}

static void write_file(const char *path, const char *text)
{
	FILE *fp = fopen(path, "w");

	fputs(text, fp);
	fclose(fp);
}

int main(void)
{
	struct core_error err = CORE_ERROR_INIT;
	struct core_atomic af = CORE_ATOMIC_INIT;
	char path[600], dir[512];
	struct rlimit old, lim;
	int ret, i;

	snprintf(dir, sizeof(dir), "%s/out", test_tmpdir());
	mkdir(dir, 0777);
	snprintf(path, sizeof(path), "%s/result.csv", dir);

	/* A new file appears only at commit. */
	TEST_EQ_LONG(core_atomic_open(&af, path, 0, &err), 0, "open a new file");
	fputs("new\n", af.fp);
	TEST_OK(access(path, F_OK) != 0, "destination absent before commit");
	TEST_EQ_LONG(core_atomic_commit(&af, &err), 0, "commit");
	TEST_EQ_STR(slurp(path), "new\n", "content after commit");
	TEST_EQ_LONG(count_entries(dir), 1, "no temporary file left behind");

	/* An existing file is never replaced without FORCE. */
	ret = core_atomic_open(&af, path, 0, &err);
	TEST_EQ_LONG(ret, -EEXIST, "existing file without FORCE");
	TEST_OK(strstr(err.msg, "--force") != NULL, "message suggests --force: %s", err.msg);

	/* Abort leaves the old file as it was. */
	write_file(path, "old\n");
	core_atomic_open(&af, path, CORE_ATOMIC_FORCE, &err);
	fputs("half-written", af.fp);
	core_atomic_abort(&af);
	TEST_EQ_STR(slurp(path), "old\n", "abort keeps the old file");
	TEST_EQ_LONG(count_entries(dir), 1, "abort removes the temporary file");

	/* A write that fails (file size limit, like a full disk) keeps the old file. */
	signal(SIGXFSZ, SIG_IGN);
	getrlimit(RLIMIT_FSIZE, &old);
	lim = old;
	lim.rlim_cur = 1000;
	setrlimit(RLIMIT_FSIZE, &lim);
	core_atomic_open(&af, path, CORE_ATOMIC_FORCE, &err);
	for (i = 0; i < 1000; i++)
		fputs("0123456789\n", af.fp);
	ret = core_atomic_commit(&af, &err);
	setrlimit(RLIMIT_FSIZE, &old);
	TEST_EQ_LONG(ret, -EFBIG, "a failed write makes commit fail");
	TEST_OK(strstr(err.msg, "result.csv") && strstr(err.msg, "too large"),
		"message names the file and the reason: %s", err.msg);
	TEST_EQ_STR(slurp(path), "old\n", "failed write keeps the old file");
	TEST_EQ_LONG(count_entries(dir), 1, "failed write removes the temporary file");

	/* A folder that does not exist. */
	ret = core_atomic_open(&af, "/nonexistent-dir/x.csv", 0, &err);
	TEST_EQ_LONG(ret, -ENOENT, "missing folder fails at open");

	/* FORCE replaces, and keeps the permissions of a normal new file. */
	core_atomic_open(&af, path, CORE_ATOMIC_FORCE, &err);
	fputs("replaced\n", af.fp);
	TEST_EQ_LONG(core_atomic_commit(&af, &err), 0, "commit with FORCE");
	TEST_EQ_STR(slurp(path), "replaced\n", "FORCE replaces the file");
	return test_done();
}
