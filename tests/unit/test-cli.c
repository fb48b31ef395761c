/* Subcommand dispatch (core_cli_dispatch): which function runs, with which
 * arguments, and which command the help describes. */
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/cli.h"
#include "core/msg.h"
#include "test.h"

struct seen {
	const char *cmd;
	int argc;
	const char *argv0, *argv1;
	const struct core_cmd *current;
};

static int run(int argc, char **argv, void *ctx, const char *name)
{
	struct seen *s = ctx;

	s->cmd = name;
	s->argc = argc;
	s->argv0 = argv[0];
	s->argv1 = argc > 1 ? argv[1] : NULL;
	s->current = core_cli_command();
	return 7;
}

static const struct core_cli cli;

static int handle(int key, const char *arg, void *ctx)
{
	*(int *)ctx += key;
	return 0;
}

/* Command c parses its options: the sum of their keys, or 100 + the exit
 * status of a usage error (core_cli_usage_error exits, so in a child). */
static int cmd_c(int argc, char **argv, void *ctx)
{
	int status, keys = 0;
	pid_t pid;

	fflush(NULL);
	pid = fork();
	if (pid == 0) {
		if (!freopen("/dev/null", "w", stderr))
			_exit(99);
		core_cli_parse(&cli, argc, argv, handle, &keys);
		_exit(keys);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status) == 2 ? 102 : WEXITSTATUS(status);
}

static int cmd_a(int argc, char **argv, void *ctx) { return run(argc, argv, ctx, "a"); }
static int cmd_b(int argc, char **argv, void *ctx) { return run(argc, argv, ctx, "b"); }

static const struct core_opt opts[] = {
	{ "x", 'x', NULL, "x", NULL },
	{ "y", 'y', NULL, "y", NULL },
	{ NULL, 0, NULL, NULL, NULL },
};

static const struct core_cmd cmds[] = {
	{ "a", cmd_a, "do a", NULL },
	{ "b", cmd_b, "do b", NULL },
	{ "c", cmd_c, "do c", "x" },
	{ NULL, NULL, NULL, NULL },
};

static const struct core_cli cli = {
	.usage = "[a] [options]\nb FILE\nc [-x]",
	.opts = opts,
	.cmds = cmds,
	.default_cmd = "a",
};

int main(void)
{
	char prog[] = "prog", a[] = "a", b[] = "b", file[] = "f.txt", opt[] = "--x";
	char *argv1[] = { prog, b, file, NULL };
	char *argv2[] = { prog, opt, NULL };
	char *argv3[] = { prog, NULL };
	char *argv4[] = { prog, a, NULL };
	struct seen s = { 0 };

	core_msg_init("prog");
	TEST_EQ_LONG(core_cli_dispatch(&cli, 3, argv1, &s), 7, "returns the command's status");
	TEST_EQ_STR(s.cmd, "b", "a named command runs");
	TEST_EQ_LONG(s.argc, 2, "argv shifted by one");
	TEST_EQ_STR(s.argv0, "b", "argv[0] is the command");
	TEST_EQ_STR(s.argv1, "f.txt", "then its operands");
	TEST_OK(s.current == &cmds[1], "core_cli_command: the command being run");
	TEST_OK(core_cli_command() == NULL, "core_cli_command: none after it returns");

	memset(&s, 0, sizeof(s));
	core_cli_dispatch(&cli, 2, argv2, &s);
	TEST_EQ_STR(s.cmd, "a", "an option first: the default command");
	TEST_EQ_LONG(s.argc, 2, "with the whole argv");
	TEST_EQ_STR(s.argv1, "--x", "options kept");
	TEST_OK(s.current == NULL, "the default command shows the program's help");

	memset(&s, 0, sizeof(s));
	core_cli_dispatch(&cli, 1, argv3, &s);
	TEST_EQ_STR(s.cmd, "a", "no argument: the default command");

	memset(&s, 0, sizeof(s));
	core_cli_dispatch(&cli, 2, argv4, &s);
	TEST_EQ_STR(s.cmd, "a", "the default command by name");
	TEST_EQ_LONG(s.argc, 1, "by name: shifted");
	TEST_OK(s.current == &cmds[0], "by name: its own help");

	{
		char c[] = "c", x[] = "-x", y[] = "--y";
		char *ok[] = { prog, c, x, NULL }, *bad[] = { prog, c, y, NULL };

		TEST_EQ_LONG(core_cli_dispatch(&cli, 3, ok, &s), 'x',
			     "a command takes the options it lists");
		TEST_EQ_LONG(core_cli_dispatch(&cli, 3, bad, &s), 102,
			     "another option of the table is a usage error under it");
	}
	return test_done();
}
