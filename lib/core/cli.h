/*
 * Command-line parsing for programs (cmd/ only), on getopt_long.
 *
 * A program describes its options once, in a table of struct core_opt, and
 * gets for free:
 *   -h, --help     usage, summary and option list on stdout, exit 0
 *   --version      "prog (rlkit) VERSION" on stdout, exit 0
 *   --list-opts    machine-readable option list on stdout, exit 0; the
 *                  completion generator (completion/generate) reads it
 *   a bad option   "prog: error: ..." and the usage lines on stderr, exit 2
 *
 * --list-opts prints one tab-separated line per option:
 *   option <TAB> -s <TAB> --long <TAB> ARG <TAB> choices <TAB> help
 * (empty fields stay empty; choices are "a|b|c"), and one line per
 * subcommand:
 *   command <TAB> name <TAB> help
 *
 * The usage lines are the contract with the man page: the SYNOPSIS of
 * man/man1/<prog>.1 renders to the same text (checked by a test).
 *
 * Programs with subcommands (cule-bench run, trace, games, info) list them
 * in a table of struct core_cmd, as git and perf do, and call
 * core_cli_dispatch() from main().  Each subcommand then gets the same
 * treatment: "prog CMD --help" shows the usage lines of CMD, an unknown
 * command is a usage error (exit 2), --help lists the commands with their
 * help lines, and --list-opts lists them for completion.
 */
#ifndef CORE_CLI_H
#define CORE_CLI_H

#include <getopt.h>

/* Keys for long-only options start here, so they never clash with letters. */
#define CORE_OPT_LONG_ONLY 256

struct core_opt {
	const char *name;	/* long name without "--"; NULL ends the table */
	int key;		/* short letter, or CORE_OPT_LONG_ONLY + n */
	const char *arg;	/* argument name such as "FILE", NULL for a flag */
	const char *help;	/* one line, lowercase, no full stop */
	const char *choices;	/* "table|csv|json" for completion, or NULL */
};

struct core_cmd {
	const char *name;	/* NULL ends the table */
	/*
	 * Runs the subcommand: argv[0] is its name, argv[1..] its options
	 * and operands (parse them with core_cli_parse); returns the exit
	 * status.  `ctx` is core_cli_dispatch's.
	 */
	int (*fn)(int argc, char **argv, void *ctx);
	const char *help;	/* one line, lowercase, no full stop */
	/*
	 * The long names of the options of core_cli.opts that the command
	 * takes, separated by spaces ("rom format output"); NULL: all of
	 * them.  Another option of the table is a usage error under this
	 * command, and its --help lists only these (and the built-in ones).
	 */
	const char *opts;
};

struct core_cli {
	/* Usage lines without the program name, separated by '\n'. */
	const char *usage;
	/* One sentence said under the usage lines in --help. */
	const char *summary;
	/* Optional text printed after the option list (commands, examples). */
	const char *footer;
	const struct core_opt *opts;
	/* Optional subcommands (see core_cli_dispatch). */
	const struct core_cmd *cmds;
	/*
	 * The subcommand run when the first argument is an option or absent
	 * ("cule-bench --rom x.bin" runs "run"); NULL: a command is needed.
	 */
	const char *default_cmd;
	/* Stop at the first non-option (programs that run a COMMAND). */
	int stop_at_nonopt;
};

/*
 * Parse argv.  For each option of cli->opts, calls handle(key, optarg, ctx);
 * the handler returns 0, or calls core_cli_usage_error() itself.
 * Handles the built-in options as described above.
 * Returns optind: the index of the first operand.
 */
int core_cli_parse(const struct core_cli *cli, int argc, char **argv,
		   int (*handle)(int key, const char *arg, void *ctx), void *ctx);

/*
 * Run the subcommand of cli->cmds named by argv[1], with argv shifted by
 * one, or cli->default_cmd with the whole argv when argv[1] is absent or
 * starts with '-' (so "prog --help" is the program's help).  An unknown
 * name, or no name and no default, is a usage error (exit 2).  Returns
 * what the subcommand returns.
 */
int core_cli_dispatch(const struct core_cli *cli, int argc, char **argv, void *ctx);

/* The subcommand being run by core_cli_dispatch, or NULL (also while the
 * default command runs without being named). */
const struct core_cmd *core_cli_command(void);

/* Print "prog: error: <msg>", the usage lines and a --help hint to stderr;
 * exit 2. */
_Noreturn void core_cli_usage_error(const struct core_cli *cli,
				    const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Print the help to stdout (used by -h): under a subcommand, its usage
 * lines and help line only. */
void core_cli_help(const struct core_cli *cli);

/* The toolkit version, "X.Y.Z". */
const char *core_cli_version(void);

/*
 * Number parsing for option arguments: the whole string must be a number
 * within [min, max].  Return 0, or -EINVAL / -ERANGE.
 */
int core_cli_parse_long(const char *s, long min, long max, long *out);
int core_cli_parse_double(const char *s, double min, double max, double *out);

#endif
