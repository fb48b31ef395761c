#include "core/cli.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/exitcode.h"
#include "core/msg.h"

#ifndef RLKIT_VERSION
#define RLKIT_VERSION "0.0.0"
#endif

enum {
	KEY_HELP = 'h',
	KEY_VERSION = CORE_OPT_LONG_ONLY - 1,
	KEY_LIST_OPTS = CORE_OPT_LONG_ONLY - 2,
};

static const struct core_opt builtin_opts[] = {
	{ "help", KEY_HELP, NULL, "show this help and exit", NULL },
	{ "version", KEY_VERSION, NULL, "show the version and exit", NULL },
	{ "list-opts", KEY_LIST_OPTS, NULL, "list the options for shell completion and exit", NULL },
	{ NULL, 0, NULL, NULL, NULL },
};

const char *core_cli_version(void)
{
	return RLKIT_VERSION;
}

static size_t count_opts(const struct core_opt *o)
{
	size_t n = 0;

	while (o && o[n].name)
		n++;
	return n;
}

static const struct core_cmd *current_cmd;
/* The command whose options apply: current_cmd, or the default command. */
static const struct core_cmd *opts_cmd;

const struct core_cmd *core_cli_command(void)
{
	return current_cmd;
}

/* Whether command c takes the option named `name`. */
static int cmd_takes(const struct core_cmd *c, const char *name)
{
	size_t n = strlen(name);
	const char *p;

	if (!c || !c->opts)
		return 1;
	for (p = c->opts; *p; ) {
		size_t len = strcspn(p, " ");

		if (len == n && !strncmp(p, name, n))
			return 1;
		p += len;
		p += strspn(p, " ");
	}
	return 0;
}

static const struct core_opt *opt_by_key(const struct core_opt *o, int key)
{
	for (; o && o->name; o++)
		if (o->key == key)
			return o;
	return NULL;
}

/* Whether a usage line is that of command `name`: "name ..." or "[name] ...". */
static int usage_of(const char *line, size_t len, const char *name)
{
	size_t n = strlen(name);

	if (len > n && !strncmp(line, name, n) && line[n] == ' ')
		return 1;
	return len > n + 2 && line[0] == '[' && !strncmp(line + 1, name, n) && line[n + 1] == ']';
}

static void print_usage_lines(const struct core_cli *cli, FILE *fp)
{
	const char *usage = cli->usage ? cli->usage : "[options]";
	int first = 1, pass;

	/* Under a subcommand, its own lines; all of them if it has none. */
	for (pass = current_cmd ? 0 : 1; pass < 2 && first; pass++) {
		const char *p = usage;

		while (*p) {
			const char *nl = strchr(p, '\n');
			size_t len = nl ? (size_t)(nl - p) : strlen(p);

			if (pass || usage_of(p, len, current_cmd->name)) {
				fprintf(fp, "%s %s %.*s\n", first ? "usage:" : "   or:",
					core_msg_prog(), (int)len, p);
				first = 0;
			}
			p += len;
			if (*p == '\n')
				p++;
		}
	}
}

static void print_cmds(const struct core_cli *cli, FILE *fp)
{
	const struct core_cmd *c;
	int w = 0;

	for (c = cli->cmds; c && c->name; c++)
		if ((int)strlen(c->name) > w)
			w = (int)strlen(c->name);
	fprintf(fp, "\nCommands:\n");
	for (c = cli->cmds; c && c->name; c++)
		fprintf(fp, "  %-*s  %s\n", w, c->name, c->help ? c->help : "");
}

static void print_opt(const struct core_opt *o, FILE *fp)
{
	char left[80];
	int n;

	if (o->key > 0 && o->key < CORE_OPT_LONG_ONLY - 2)
		n = snprintf(left, sizeof(left), "  -%c, --%s", o->key, o->name);
	else
		n = snprintf(left, sizeof(left), "      --%s", o->name);
	if (o->arg && n > 0 && (size_t)n < sizeof(left))
		snprintf(left + n, sizeof(left) - (size_t)n, " %s", o->arg);
	if (strlen(left) < 28)
		fprintf(fp, "%-28s%s\n", left, o->help ? o->help : "");
	else
		fprintf(fp, "%s\n%28s%s\n", left, "", o->help ? o->help : "");
}

void core_cli_help(const struct core_cli *cli)
{
	const struct core_opt *o;

	print_usage_lines(cli, stdout);
	if (current_cmd && current_cmd->help)
		printf("\n%s: %s\n", current_cmd->name, current_cmd->help);
	else if (cli->summary)
		printf("\n%s\n", cli->summary);
	if (cli->cmds && !current_cmd)
		print_cmds(cli, stdout);
	printf("\nOptions:\n");
	for (o = cli->opts; o && o->name; o++)
		if (cmd_takes(current_cmd, o->name))
			print_opt(o, stdout);
	for (o = builtin_opts; o->name; o++)
		print_opt(o, stdout);
	if (cli->footer)
		printf("\n%s", cli->footer);
	printf("\nSee %s(1) for details.\n", core_msg_prog());
}

static void list_opts(const struct core_cli *cli)
{
	const struct core_opt *tables[2] = { cli->opts, builtin_opts };
	const struct core_cmd *c;
	size_t t;

	for (t = 0; t < 2; t++) {
		const struct core_opt *o;

		for (o = tables[t]; o && o->name; o++) {
			printf("option\t");
			if (o->key > 0 && o->key < CORE_OPT_LONG_ONLY - 2)
				printf("-%c", o->key);
			printf("\t--%s\t%s\t%s\t%s\n", o->name, o->arg ? o->arg : "",
			       o->choices ? o->choices : "", o->help ? o->help : "");
		}
	}
	for (c = cli->cmds; c && c->name; c++)
		printf("command\t%s\t%s\n", c->name, c->help ? c->help : "");
}

void core_cli_usage_error(const struct core_cli *cli, const char *fmt, ...)
{
	char buf[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	core_msg_error("%s", buf);
	print_usage_lines(cli, stderr);
	fprintf(stderr, "Try '%s --help' for more information.\n", core_msg_prog());
	exit(CORE_EXIT_USAGE);
}

static int finish_builtin(int status)
{
	if (core_msg_close_stream(stdout) != 0)
		status = CORE_EXIT_FAIL;
	exit(status);
}

/* getopt's tables, held here while parsing: a usage error, --help or a
 * handler may end the process before they are freed, and memory that is
 * still reachable then is no leak. */
static struct option *longopts;
static char *shortopts;

int core_cli_parse(const struct core_cli *cli, int argc, char **argv,
		   int (*handle)(int key, const char *arg, void *ctx), void *ctx)
{
	size_t nuser = count_opts(cli->opts), nbuiltin = count_opts(builtin_opts);
	size_t i, s = 0;
	int c;

	longopts = calloc(nuser + nbuiltin + 1, sizeof(*longopts));
	shortopts = calloc(3 * (nuser + nbuiltin) + 3, 1);
	if (!longopts || !shortopts)
		core_msg_die(CORE_EXIT_FAIL, "out of memory");
	if (cli->stop_at_nonopt)
		shortopts[s++] = '+';
	shortopts[s++] = ':';	/* report a missing argument as ':' */
	for (i = 0; i < nuser + nbuiltin; i++) {
		const struct core_opt *o = i < nuser ? &cli->opts[i] : &builtin_opts[i - nuser];

		longopts[i].name = o->name;
		longopts[i].has_arg = o->arg ? required_argument : no_argument;
		longopts[i].val = o->key;
		if (o->key > 0 && o->key < 128) {
			shortopts[s++] = (char)o->key;
			if (o->arg)
				shortopts[s++] = ':';
		}
	}

	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, shortopts, longopts, NULL)) != -1) {
		switch (c) {
		case KEY_HELP:
			core_cli_help(cli);
			finish_builtin(CORE_EXIT_OK);
			break;
		case KEY_VERSION:
			printf("%s (rlkit) %s\n", core_msg_prog(), RLKIT_VERSION);
			finish_builtin(CORE_EXIT_OK);
			break;
		case KEY_LIST_OPTS:
			list_opts(cli);
			finish_builtin(CORE_EXIT_OK);
			break;
		case ':':
			if (optopt && optopt < 128)
				core_cli_usage_error(cli, "option '-%c' needs an argument", optopt);
			core_cli_usage_error(cli, "option '%s' needs an argument", argv[optind - 1]);
			break;
		case '?':
			if (optopt && optopt < 128)
				core_cli_usage_error(cli, "unknown option '-%c'", optopt);
			core_cli_usage_error(cli, "unknown option '%s'", argv[optind - 1]);
			break;
		default: {
			const struct core_opt *o = opt_by_key(cli->opts, c);

			if (o && !cmd_takes(opts_cmd, o->name))
				core_cli_usage_error(cli, "'%s' does not take option '--%s'",
						     opts_cmd->name, o->name);
			if (!handle || handle(c, optarg, ctx) != 0)
				core_cli_usage_error(cli, "bad option");
			break;
		}
		}
	}
	free(longopts);
	free(shortopts);
	longopts = NULL;
	shortopts = NULL;
	return optind;
}

int core_cli_dispatch(const struct core_cli *cli, int argc, char **argv, void *ctx)
{
	const struct core_cmd *c;
	const char *name = argc > 1 && argv[1][0] != '-' ? argv[1] : NULL;
	int ret;

	if (!name) {
		for (c = cli->cmds; cli->default_cmd && c && c->name; c++)
			if (!strcmp(c->name, cli->default_cmd))
				break;
		if (!cli->default_cmd || !c || !c->name) {
			/* Still answer --help, --version and --list-opts. */
			core_cli_parse(cli, argc, argv, NULL, NULL);
			core_cli_usage_error(cli, "no command given");
		}
		/* The program's own help, not the command's, but the
		 * command's options. */
		opts_cmd = c;
		ret = c->fn(argc, argv, ctx);
		opts_cmd = NULL;
		return ret;
	}
	for (c = cli->cmds; c && c->name; c++)
		if (!strcmp(c->name, name))
			break;
	if (!c || !c->name)
		core_cli_usage_error(cli, "unknown command '%s'", name);
	current_cmd = opts_cmd = c;
	ret = c->fn(argc - 1, argv + 1, ctx);
	current_cmd = opts_cmd = NULL;
	return ret;
}

int core_cli_parse_long(const char *s, long min, long max, long *out)
{
	char *end;
	long v;

	if (!s || !*s)
		return -EINVAL;
	errno = 0;
	v = strtol(s, &end, 0);
	if (*end)
		return -EINVAL;
	if (errno == ERANGE || v < min || v > max)
		return -ERANGE;
	*out = v;
	return 0;
}

int core_cli_parse_double(const char *s, double min, double max, double *out)
{
	char *end;
	double v;

	if (!s || !*s)
		return -EINVAL;
	errno = 0;
	v = strtod(s, &end);
	if (*end || isnan(v))
		return -EINVAL;
	if (errno == ERANGE || v < min || v > max)
		return -ERANGE;
	*out = v;
	return 0;
}
