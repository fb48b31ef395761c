/* fiber/memlimit.h without a real cgroup: the kernel's kill counts as
 * read from a group's files, and what an end is said to mean. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fiber/memlimit.h"
#include "test.h"

static void put(const char *dir, const char *file, const char *text)
{
	char path[PATH_MAX + 64];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	f = fopen(path, "w");
	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

static void test_none(void)
{
	struct fiber_memlimit m = FIBER_MEMLIMIT_INIT;
	char buf[300];

	fiber_memlimit_init(&m, 0);
	TEST_EQ_LONG(m.kind, FIBER_MEMLIMIT_NONE, "no limit: nothing");
	TEST_EQ_LONG(fiber_memlimit_kills(&m), -1, "no kill count");
	TEST_EQ_LONG(fiber_memlimit_explain(&m, -1, W_EXITCODE(0, SIGKILL), NULL, "worker", buf,
					    sizeof(buf)), 0, "memory explains nothing");
	TEST_EQ_STR(buf, "", "and says nothing");
	fiber_memlimit_release(&m);
}

static void test_rlimit(void)
{
	struct fiber_memlimit m = FIBER_MEMLIMIT_INIT;
	struct fiber_memlimit_tail t = { "", 0 };
	struct core_spawn sp = CORE_SPAWN_INIT;
	char buf[300], big[1000];

	setenv("FIBERRUN_MEM_LIMIT_RLIMIT", "1", 1);
	fiber_memlimit_init(&m, 314572800);
	unsetenv("FIBERRUN_MEM_LIMIT_RLIMIT");
	TEST_EQ_LONG(m.kind, FIBER_MEMLIMIT_RLIMIT, "FIBERRUN_MEM_LIMIT_RLIMIT: RLIMIT_AS");
	fiber_memlimit_spawn(&m, &sp);
	TEST_EQ_LONG(sp.limit_as, 314572800, "the command gets RLIMIT_AS");
	TEST_EQ_LONG(sp.cgroup_fd, -1, "and no group");
	TEST_EQ_LONG(fiber_memlimit_explain(&m, -1, W_EXITCODE(0, SIGSEGV), NULL, "worker", buf,
					    sizeof(buf)), 1, "SIGSEGV: perhaps");
	TEST_EQ_STR(buf, "the worker ended with signal SIGSEGV, perhaps out of memory: its address "
		    "space was limited to 314572800 bytes by --mem-limit (RLIMIT_AS)", "said so");
	TEST_EQ_LONG(fiber_memlimit_explain(&m, -1, W_EXITCODE(0, SIGTERM), NULL, "worker", buf,
					    sizeof(buf)), 0, "SIGTERM: not memory");
	TEST_EQ_LONG(fiber_memlimit_explain(&m, -1, W_EXITCODE(1, 0), NULL, "command", buf,
					    sizeof(buf)), 0, "exit 1, nothing on stderr: not known");
	fiber_memlimit_tail_add(&t, "Traceback (most recent call last):\n  File \"<string>\"\n", 53);
	fiber_memlimit_tail_add(&t, "MemoryError\n", 12);
	TEST_EQ_LONG(fiber_memlimit_explain(&m, -1, W_EXITCODE(1, 0), &t, "command", buf,
					    sizeof(buf)), 2, "exit 1 after a MemoryError: certain");
	TEST_EQ_STR(buf, "out of memory: the command raised MemoryError at its --mem-limit of "
		    "314572800 bytes (RLIMIT_AS), and ended with exit 1", "said so");
	TEST_EQ_LONG(fiber_memlimit_explain(&m, -1, 0, &t, "command", buf, sizeof(buf)), 0,
		     "exit 0: nothing to explain");
	t.n = 0;
	fiber_memlimit_tail_add(&t, "MemoryError: cannot allocate\r\n\n", 31);
	TEST_EQ_LONG(fiber_memlimit_explain(&m, -1, W_EXITCODE(1, 0), &t, "command", buf,
					    sizeof(buf)), 2, "\"MemoryError: why\" too");
	fiber_memlimit_tail_add(&t, "print('MemoryError')\n", 21);
	TEST_EQ_LONG(fiber_memlimit_explain(&m, -1, W_EXITCODE(1, 0), &t, "command", buf,
					    sizeof(buf)), 0, "only the last line counts");
	t.n = 0;
	fiber_memlimit_tail_add(&t, "MemoryErrors\n", 13);
	TEST_EQ_LONG(fiber_memlimit_explain(&m, -1, W_EXITCODE(1, 0), &t, "command", buf,
					    sizeof(buf)), 0, "another word is not it");
	memset(big, 'x', sizeof(big));
	fiber_memlimit_tail_add(&t, big, sizeof(big));
	fiber_memlimit_tail_add(&t, "\nMemoryError\n", 13);
	TEST_EQ_LONG(t.n, sizeof(t.b), "the tail keeps its size");
	TEST_EQ_LONG(memcmp(t.b + sizeof(t.b) - 13, "\nMemoryError\n", 13), 0, "and the end");
	TEST_EQ_LONG(fiber_memlimit_explain(&m, -1, W_EXITCODE(1, 0), &t, "command", buf,
					    sizeof(buf)), 2, "after a long stderr");
	fiber_memlimit_release(&m);
}

/* A folder that stands for a group: its files as the kernel writes them. */
static void test_counts(void)
{
	struct fiber_memlimit m = FIBER_MEMLIMIT_INIT;
	char dir[PATH_MAX], buf[300];

	snprintf(dir, sizeof(dir), "%s/group", test_tmpdir());
	mkdir(dir, 0755);
	m.bytes = 1 << 20;
	m.kind = FIBER_MEMLIMIT_CGROUP2;
	snprintf(m.dir, sizeof(m.dir), "%s", dir);
	TEST_EQ_LONG(fiber_memlimit_kills(&m), -1, "no memory.events: not known");
	put(dir, "memory.events", "low 0\nhigh 0\nmax 12\noom 1\noom_kill 0\noom_group_kill 0\n");
	TEST_EQ_LONG(fiber_memlimit_kills(&m), 0, "v2: oom_kill 0");
	put(dir, "memory.events", "low 0\nhigh 0\nmax 12\noom 2\noom_kill 2\noom_group_kill 0\n");
	TEST_EQ_LONG(fiber_memlimit_kills(&m), 2, "v2: oom_kill 2, not oom_group_kill");
	TEST_EQ_LONG(fiber_memlimit_explain(&m, 1, W_EXITCODE(0, SIGKILL), NULL, "worker", buf,
					    sizeof(buf)), 2, "a kill since: certain");
	TEST_EQ_STR(buf, "out of memory: the worker was killed by the kernel at its --mem-limit of "
		    "1048576 bytes (memory cgroup)", "said so");
	TEST_EQ_LONG(fiber_memlimit_explain(&m, 1, W_EXITCODE(3, 0), NULL, "command", buf,
					    sizeof(buf)), 2, "a process of it killed: certain");
	TEST_EQ_STR(buf, "out of memory: the kernel killed a process of the command at its "
		    "--mem-limit of 1048576 bytes (memory cgroup), and the command ended with exit 3",
		    "said so, with its own end");
	TEST_EQ_LONG(fiber_memlimit_explain(&m, 2, W_EXITCODE(0, SIGKILL), NULL, "worker", buf,
					    sizeof(buf)), 0, "no kill since: someone else's SIGKILL");
	TEST_EQ_LONG(fiber_memlimit_explain(&m, 2, W_EXITCODE(0, SIGSEGV), NULL, "worker", buf,
					    sizeof(buf)), 0, "a SIGSEGV in a group is not memory");
	m.kind = FIBER_MEMLIMIT_CGROUP1;
	put(dir, "memory.oom_control", "oom_kill_disable 0\nunder_oom 0\noom_kill 3\n");
	TEST_EQ_LONG(fiber_memlimit_kills(&m), 3, "v1: oom_kill 3");
	put(dir, "memory.oom_control", "oom_kill_disable 0\nunder_oom 0\n");
	TEST_EQ_LONG(fiber_memlimit_kills(&m), -1, "v1 before Linux 4.13: not known");
	TEST_EQ_LONG(fiber_memlimit_explain(&m, -1, W_EXITCODE(0, SIGKILL), NULL, "worker", buf,
					    sizeof(buf)), 1, "then SIGKILL: perhaps");
	TEST_EQ_STR(buf, "the worker ended with signal SIGKILL, perhaps out of memory: its memory "
		    "cgroup was limited to 1048576 bytes by --mem-limit", "said so");
}

int main(void)
{
	test_none();
	test_rlimit();
	test_counts();
	return test_done();
}
