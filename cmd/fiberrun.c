/*
 * fiberrun: launch workers locally and across hosts (SPMD mode), and farm
 * tasks to them without losing any (pool mode).
 */
#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/cli.h"
#include "core/exitcode.h"
#include "core/msg.h"
#include "core/progress.h"
#include "core/spawn.h"
#include "core/sys.h"
#include "fiber/agent.h"
#include "fiber/backend.h"
#include "fiber/net.h"
#include "fiber/each.h"
#include "fiber/memlimit.h"
#include "fiber/envpass.h"
#include "fiber/pool.h"
#include "fiber/spmd.h"
#include "fiber/watch.h"
#include "fiber/wire.h"

enum {
	OPT_SSH = CORE_OPT_LONG_ONLY,
	OPT_REMOTE,
	OPT_HALT,
	OPT_RESUME,
	OPT_PREFETCH,
	OPT_BIND,
	OPT_WORKER,
	OPT_STDIN_ENV,
	OPT_MASTER,
	OPT_MAX_LINE,
	OPT_PROTOCOL,
	OPT_START_TIMEOUT,
	OPT_BAD_INPUT,
	OPT_ORDER_BUFFER,
	OPT_HEARTBEAT,
	OPT_ADVERTISE,
	OPT_EACH,
	OPT_EACH_RUN,
	OPT_ENV,
	OPT_WORKDIR,
	OPT_BAR,
	OPT_ETA,
	OPT_RESUME_FAILED,
	OPT_MEM_LIMIT,
};

static const struct core_opt opts[] = {
	{ "workers", 'n', "N", "number of ranks or workers (default: slots in the hosts file, else CPUs)", NULL },
	{ "backend", 'b', "BACKEND", "where to start them (default: ssh with --hosts, else local)", "local|ssh|srun|sbatch" },
	{ "hosts", 'H', "FILE", "hosts for the ssh backend, one host[:slots] per line", NULL },
	{ "ssh", OPT_SSH, "COMMAND", "ssh command line to use (default: ssh)", NULL },
	{ "remote-fiberrun", OPT_REMOTE, "PATH", "fiberrun on the hosts (default: this program's path)", NULL },
	{ "tag", 't', NULL, "prefix each output line with the rank (SPMD)", NULL },
	{ "halt", OPT_HALT, "POLICY", "on a rank's failure: stop the others (failure, default) or wait (never)", "failure|never" },
	{ "pool", 'p', NULL, "pool mode: farm tasks from standard input to the workers", NULL },
	{ "each", OPT_EACH, NULL, "pool mode, one COMMAND per task: {} the task, {#} its number, {NAME} a JSON member", NULL },
	{ "env", OPT_ENV, "NAME", "pass variable NAME (or every NAME* for 'NAME*') to the workers on every host; repeatable", NULL },
	{ "workdir", OPT_WORKDIR, "DIR", "workers work in DIR on every host, created when missing", NULL },
	{ "mem-limit", OPT_MEM_LIMIT, "SIZE", "memory limit of each worker command (a memory cgroup, else RLIMIT_AS), bytes or with K, M, G", NULL },
	{ "lines", 'l', NULL, "tasks are plain lines, not JSON Lines", NULL },
	{ "keep-order", 'k', NULL, "write results in input order (default: completion order)", NULL },
	{ "order-buffer", OPT_ORDER_BUFFER, "BYTES", "with -k: records waiting for their turn kept in memory, the rest on disk (default 64 MiB)", NULL },
	{ "retries", 'r', "N", "attempts per task when workers are lost (default 3)", NULL },
	{ "timeout", 'T', "SECONDS", "time limit per task attempt, from when a ready worker takes it (default: none)", NULL },
	{ "start-timeout", OPT_START_TIMEOUT, "SECONDS", "time for a worker to start and become ready (default 120)", NULL },
	{ "protocol", OPT_PROTOCOL, "VERSION", "worker protocol: 2 (tasks and results carry ids, default) or lines (compatibility)", "2|lines" },
	{ "on-bad-input", OPT_BAD_INPUT, "POLICY", "a bad task line: a record of status invalid (fail, default), dropped (skip) or the end of the run (abort)", "fail|skip|abort" },
	{ "prefetch", OPT_PREFETCH, "N", "tasks in flight per worker (default: 2, up to 256 while tasks take under 0.5 ms)", NULL },
	{ "joblog", 'j', "FILE", "journal of finished tasks, fsynced per batch", NULL },
	{ "resume", OPT_RESUME, NULL, "skip the tasks already in the joblog, re-emit their results", NULL },
	{ "resume-failed", OPT_RESUME_FAILED, NULL, "as --resume, but run again the tasks whose records are not ok", NULL },
	{ "bar", OPT_BAR, NULL, "progress bar on standard error when it is a terminal: done/total, rate, ETA", NULL },
	{ "eta", OPT_ETA, NULL, "progress line on standard error when it is a terminal: done/total, rate, ETA", NULL },
	{ "bind", OPT_BIND, "ADDRESS", "address the master listens on (default 127.0.0.1:0)", NULL },
	{ "max-line", OPT_MAX_LINE, "BYTES", "longest task or result line (default 16 MiB)", NULL },
	{ "quiet", 'q', NULL, "do not warn about lost workers", NULL },
	{ "worker", OPT_WORKER, NULL, "run as a worker agent (started by fiberrun itself)", NULL },
	{ "master", OPT_MASTER, "ADDRESS", "master to connect to (--worker; default $FIBERRUN_MASTER)", NULL },
	{ "stdin-env", OPT_STDIN_ENV, NULL, "read the environment from standard input, stop at its end (remote side)", NULL },
	{ "heartbeat", OPT_HEARTBEAT, "SECONDS", "a worker not heard from for this long is lost, its host taken for gone (default 30; 0: never)", NULL },
	{ "advertise", OPT_ADVERTISE, "ADDRESS", "address the workers connect to, when not the one bound (a relay, NAT)", NULL },
	{ "each-run", OPT_EACH_RUN, NULL, "run as the worker of --each (started by fiberrun itself)", NULL },
	{ NULL, 0, NULL, NULL, NULL },
};

static const struct core_cli cli = {
	.usage = "[-t] [-n N] [-b BACKEND] [-H FILE] -- COMMAND [ARG ...]\n"
		 "--pool [-lk] [-n N] [-b BACKEND] [-j FILE] -- WORKER [ARG ...]\n"
		 "--each [-lk] [-n N] [-b BACKEND] [-j FILE] -- COMMAND [ARG ...]\n"
		 "--worker [--master ADDRESS] -- WORKER [ARG ...]\n"
		 "--stdin-env -- COMMAND [ARG ...]\n"
		 "--each-run [-l] -- COMMAND [ARG ...]",
	.summary = "Launch workers locally and across hosts, and farm tasks to them without losing any.",
	.footer = "Environment of SPMD ranks: FIBERRUN_RANK, FIBERRUN_SIZE, FIBERRUN_LOCAL_RANK,\n"
		  "FIBERRUN_LOCAL_SIZE, FIBERRUN_HOST, FIBERRUN_MASTER_ADDR, FIBERRUN_MASTER_PORT.\n"
		  "Pool workers speak protocol 2: tasks with ids on standard input, results\n"
		  "with ids on descriptor $FIBERRUN_RESULT_FD; --protocol lines for workers\n"
		  "that answer one line per task line (fiberrun-protocol(5)).\n",
	.opts = opts,
	.stop_at_nonopt = 1,
};

struct args {
	long workers, retries, prefetch, max_line, order_buffer;
	int workers_given;
	double timeout, start_timeout;
	int proto_lines, proto_set, bad_input;
	const char *backend, *hosts, *ssh, *remote, *joblog, *bind, *master;
	double heartbeat;
	int heartbeat_set;
	const char *advertise;
	int tag, halt_never, pool, lines, keep_order, resume, quiet, worker, stdin_env;
	int each, each_run, bar, eta, resume_failed;
	const char *workdir;
	unsigned long long mem_limit;
	const char **env;
	size_t nenv;
};

static int handle(int key, const char *arg, void *ctx)
{
	struct args *a = ctx;

	switch (key) {
	case 'n':
		if (core_cli_parse_long(arg, 1, 100000, &a->workers) < 0)
			core_cli_usage_error(&cli, "bad worker count '%s': want 1 to 100000", arg);
		break;
	case 'b':
		if (!fiber_backend_find(arg))
			core_cli_usage_error(&cli, "unknown backend '%s': want local, ssh, srun or sbatch", arg);
		a->backend = arg;
		break;
	case 'H': a->hosts = arg; break;
	case OPT_SSH: a->ssh = arg; break;
	case OPT_REMOTE: a->remote = arg; break;
	case 't': a->tag = 1; break;
	case OPT_HALT:
		if (strcmp(arg, "failure") != 0 && strcmp(arg, "never") != 0)
			core_cli_usage_error(&cli, "bad halt policy '%s': want failure or never", arg);
		a->halt_never = strcmp(arg, "never") == 0;
		break;
	case 'p': a->pool = 1; break;
	case 'l': a->lines = 1; break;
	case 'k': a->keep_order = 1; break;
	case 'r':
		if (core_cli_parse_long(arg, 1, 1000000, &a->retries) < 0)
			core_cli_usage_error(&cli, "bad retry count '%s': want 1 to 1000000", arg);
		break;
	case 'T':
		if (core_cli_parse_double(arg, 0.001, 1e9, &a->timeout) < 0)
			core_cli_usage_error(&cli, "bad timeout '%s': want seconds above 0", arg);
		break;
	case OPT_PREFETCH:
		if (core_cli_parse_long(arg, 1, 1024, &a->prefetch) < 0)
			core_cli_usage_error(&cli, "bad prefetch '%s': want 1 to 1024", arg);
		break;
	case 'j': a->joblog = arg; break;
	case OPT_RESUME: a->resume = 1; break;
	case OPT_BIND: a->bind = arg; break;
	case OPT_MAX_LINE:
		if (core_cli_parse_long(arg, 16, 1L << 30, &a->max_line) < 0)
			core_cli_usage_error(&cli, "bad line length '%s': want 16 to 1073741824", arg);
		break;
	case OPT_ORDER_BUFFER:
		if (core_cli_parse_long(arg, 1, 1L << 40, &a->order_buffer) < 0)
			core_cli_usage_error(&cli, "bad buffer size '%s': want 1 to 1099511627776", arg);
		break;
	case OPT_START_TIMEOUT:
		if (core_cli_parse_double(arg, 0.001, 1e9, &a->start_timeout) < 0)
			core_cli_usage_error(&cli, "bad start timeout '%s': want seconds above 0", arg);
		break;
	case OPT_PROTOCOL:
		if (strcmp(arg, "2") != 0 && strcmp(arg, "lines") != 0)
			core_cli_usage_error(&cli, "bad protocol '%s': want 2 or lines", arg);
		a->proto_lines = strcmp(arg, "lines") == 0;
		a->proto_set = 1;
		break;
	case OPT_BAD_INPUT:
		if (strcmp(arg, "fail") == 0)
			a->bad_input = FIBER_BAD_INPUT_FAIL;
		else if (strcmp(arg, "skip") == 0)
			a->bad_input = FIBER_BAD_INPUT_SKIP;
		else if (strcmp(arg, "abort") == 0)
			a->bad_input = FIBER_BAD_INPUT_ABORT;
		else
			core_cli_usage_error(&cli, "bad input policy '%s': want fail, skip or abort", arg);
		break;
	case 'q': a->quiet = 1; break;
	case OPT_WORKER: a->worker = 1; break;
	case OPT_MASTER: a->master = arg; break;
	case OPT_STDIN_ENV: a->stdin_env = 1; break;
	case OPT_HEARTBEAT:
		if (core_cli_parse_double(arg, 0, 1e9, &a->heartbeat) < 0)
			core_cli_usage_error(&cli, "bad heartbeat '%s': want seconds, 0 for none", arg);
		a->heartbeat_set = 1;
		break;
	case OPT_ADVERTISE: {
		char *h, *port;

		if (fiber_net_split(arg, &h, &port) < 0 || strcmp(port, "0") == 0)
			core_cli_usage_error(&cli, "bad address '%s': want HOST:PORT", arg);
		free(h);
		free(port);
		a->advertise = arg;
		break;
	}
	case OPT_EACH: a->each = a->pool = 1; break;
	case OPT_EACH_RUN: a->each_run = 1; break;
	case OPT_ENV:
		if (!fiber_envpass_valid(arg))
			core_cli_usage_error(&cli, "bad variable name '%s': want NAME or PREFIX*", arg);
		a->env = realloc(a->env, (a->nenv + 1) * sizeof(*a->env));
		if (!a->env)
			core_msg_die(CORE_EXIT_FAIL, "out of memory");
		a->env[a->nenv++] = arg;
		break;
	case OPT_WORKDIR:
		if (!*arg)
			core_cli_usage_error(&cli, "empty working folder");
		a->workdir = arg;
		break;
	case OPT_MEM_LIMIT: {
		char *end;
		double v = strtod(arg, &end);
		double unit = 1;

		if (*end == 'K' || *end == 'k')
			unit = 1024.0, end++;
		else if (*end == 'M' || *end == 'm')
			unit = 1024.0 * 1024, end++;
		else if (*end == 'G' || *end == 'g')
			unit = 1024.0 * 1024 * 1024, end++;
		if (end == arg || *end || v * unit < 1024.0 * 1024 || v * unit > 1e18)
			core_cli_usage_error(&cli, "bad memory limit '%s': want bytes (at least 1M), "
					     "or a number with K, M or G", arg);
		a->mem_limit = (unsigned long long)(v * unit);
		break;
	}
	case OPT_BAR: a->bar = 1; break;
	case OPT_ETA: a->eta = 1; break;
	case OPT_RESUME_FAILED: a->resume = a->resume_failed = 1; break;
	default: return -1;
	}
	return 0;
}

static void warn_cb(void *ctx, const char *msg)
{
	core_msg_warning("%s", msg);
}

static void note_cb(void *ctx, const char *msg)
{
	core_msg_note("%s", msg);
}

static int run_worker(const struct args *a, char **argv)
{
	struct core_error err = CORE_ERROR_INIT;
	struct fiber_agent_opts o = { 0 };
	const char *token = getenv("FIBERRUN_WORKER_TOKEN");
	char *secret = getenv("FIBERRUN_SECRET");
	int status;

	o.master = a->master ? a->master : getenv("FIBERRUN_MASTER");
	if (!o.master)
		core_msg_die(CORE_EXIT_USAGE, "--worker needs --master or FIBERRUN_MASTER");
	if (!secret || strlen(secret) < 16)
		core_msg_die(CORE_EXIT_USAGE, "--worker needs the run's secret in FIBERRUN_SECRET");
	secret = strdup(secret);
	unsetenv("FIBERRUN_SECRET");
	o.secret = secret;
	o.token = token ? strtoull(token, NULL, 10) : 0;
	o.host = getenv("FIBERRUN_HOST");
	o.argv = argv;
	o.watch_fd = -1;
	o.frame_max = a->max_line ? (size_t)a->max_line : FIBER_FRAME_MAX_DEFAULT;
	o.proto2 = !a->proto_lines;
	if (getenv("FIBERRUN_HEARTBEAT"))
		o.heartbeat_s = strtod(getenv("FIBERRUN_HEARTBEAT"), NULL);
	/* --mem-limit: under --each, the runner puts each task's command in the group. */
	o.mem_limit = fiber_memlimit_from_env();
	o.mem_limit_inside = argv[0] && argv[1] && strcmp(argv[1], "--each-run") == 0;
	status = fiber_agent_run(&o, &err);
	if (err.code)
		core_msg_error("%s", err.msg);
	free(secret);
	return status;
}

static int run_stdin_env(char **argv)
{
	struct core_error err = CORE_ERROR_INIT;
	int ret = fiber_env_read(0, &err);

	if (ret < 0)
		core_msg_die(CORE_EXIT_FAIL, "%s", err.msg);
	/* An SPMD rank enters --workdir here; a pool agent enters it itself and tells the master. */
	if (getenv("FIBERRUN_RANK") && fiber_workdir_enter(getenv("FIBERRUN_HOST"), &err) < 0)
		core_msg_die(CORE_EXIT_FAIL, "%s", err.msg);
	ret = fiber_watch_run(argv, 0, &err);
	if (ret < 0) {
		core_msg_error("%s", err.msg);
		return core_spawn_error_exit(ret);
	}
	return ret;
}

static int run_each_run(const struct args *a, char **argv)
{
	struct core_error err = CORE_ERROR_INIT;
	struct fiber_each_opts o = { 0 };
	const char *fd = getenv("FIBERRUN_RESULT_FD");

	if (!fd)
		core_msg_die(CORE_EXIT_USAGE, "--each-run needs FIBERRUN_RESULT_FD (it is started by fiberrun --each)");
	o.argv = argv;
	o.lines = a->lines;
	o.in_fd = 0;
	o.res_fd = atoi(fd);
	o.frame_max = a->max_line ? (size_t)a->max_line : FIBER_FRAME_MAX_DEFAULT;
	o.mem_limit = fiber_memlimit_from_env();
	o.mem_group = getenv("FIBERRUN_MEM_CGROUP");
	if (fiber_each_run(&o, &err) < 0)
		core_msg_die(CORE_EXIT_FAIL, "%s", err.msg);
	return CORE_EXIT_OK;
}

struct bar {
	struct core_progress p;
	int started;
};

static void progress_cb(void *ctx, const struct fiber_pool_stats *st, int input_done)
{
	struct bar *b = ctx;

	if (!b->started) {
		core_progress_start(&b->p, "tasks", 0);
		b->started = 1;
	}
	if (input_done && !b->p.total) {
		b->p.total = (uint64_t)(st->tasks - st->skipped);
		b->p.drawn = 0;	/* the total is known: show it now */
	}
	core_progress_update(&b->p, (uint64_t)(st->ok + st->failed));
}

static int run_pool(const struct args *a, struct fiber_backend *b, char **argv)
{
	static char out_buf[1 << 16];	/* stdout's (glibc sizes a buffer it allocates itself) */
	struct core_error err = CORE_ERROR_INIT;
	struct fiber_pool_opts o = { 0 };
	struct fiber_pool_stats st;
	struct bar bar = { CORE_PROGRESS_INIT, 0 };
	char **each = NULL;
	int ret;

	if (a->each) {
		size_t n = 0, k = 0;

		while (argv[n])
			n++;
		each = calloc(n + 5, sizeof(*each));
		if (!each)
			core_msg_die(CORE_EXIT_FAIL, "out of memory");
		each[k++] = b->self;
		each[k++] = "--each-run";
		if (a->lines)
			each[k++] = "--lines";
		each[k++] = "--";
		memcpy(each + k, argv, n * sizeof(*argv));
		argv = each;
	}
	bar.p.eta = 1;
	bar.p.no_bar = !a->bar;

	o.workers = a->workers;
	o.prefetch = a->prefetch ? a->prefetch : 2;
	o.prefetch_max = a->prefetch ? 0 : 256;	/* by default, more ahead for short tasks */
	o.retries = a->retries ? a->retries : 3;
	o.timeout_s = a->timeout;
	o.keep_order = a->keep_order;
	o.lines = a->lines;
	o.joblog = a->joblog;
	o.resume = a->resume;
	o.argv = argv;
	o.backend = b;
	o.bind = a->bind;
	o.in_fd = 0;
	o.in_name = "<stdin>";
	o.out = stdout;
	o.frame_max = a->max_line ? (size_t)a->max_line : FIBER_FRAME_MAX_DEFAULT;
	o.warn = a->quiet ? NULL : warn_cb;
	o.note = a->quiet ? NULL : note_cb;
	/* Elastic hosts: SIGHUP or a change of the file adds and removes workers. */
	if (b->hosts.n > 0) {
		o.hosts_file = a->hosts;
		o.workers_auto = !a->workers_given;
	}
	o.proto2 = !a->proto_lines;
	o.start_timeout_s = a->start_timeout;
	o.on_bad_input = a->bad_input;
	o.order_memory = (size_t)a->order_buffer;
	o.heartbeat_s = a->heartbeat_set && a->heartbeat == 0 ? -1 : a->heartbeat;
	o.advertise = a->advertise;
	o.resume_failed = a->resume_failed;
	if (a->bar || a->eta) {
		o.progress = progress_cb;
		o.progress_ctx = &bar;
	}
	if (isatty(0)) {
		/*
		 * In the background a read of the terminal would stop us
		 * (SIGTTIN), out of reach of SIGTERM: let it fail instead.
		 */
		signal(SIGTTIN, SIG_IGN);
		if (!a->quiet)
			core_msg_note("reading tasks from the terminal, one per line; end with Ctrl-D");
	}
	/*
	 * Records can be tens of KB (rlkit.pool's pickles): a write per 64 KiB,
	 * not per 4 KiB (a pipe's default buffer).  Output is flushed after
	 * every batch of records, so nothing waits in the buffer.
	 */
	setvbuf(stdout, out_buf, _IOFBF, sizeof(out_buf));
	ret = fiber_pool_run(&o, &st, &err);
	if (bar.started) {
		bar.p.drawn = 0;	/* the last state, then clear the line */
		core_progress_update(&bar.p, (uint64_t)(st.ok + st.failed));
		core_progress_finish(&bar.p);
	}
	free(each);
	if (ret < 0) {
		core_msg_error("%s", err.msg);
		if (st.fatal_status)
			return st.fatal_status;
		return CORE_EXIT_FAIL;
	}
	if (st.signal)
		return 128 + st.signal;
	if (st.failed > 0) {
		if (!a->quiet)
			core_msg_warning("%ld of %ld tasks failed", st.failed, st.tasks);
		/* Only because fiberrun is missing on the hosts: a resource, not the work. */
		if (st.abandoned == st.failed && st.workers_missing > 0 &&
		    st.workers_missing == st.workers_lost)
			return CORE_EXIT_MISSING;
		return CORE_EXIT_FAIL;
	}
	return CORE_EXIT_OK;
}

int main(int argc, char **argv)
{
	struct fiber_backend b = FIBER_BACKEND_INIT;
	struct core_error err = CORE_ERROR_INIT;
	struct args a = { 0 };
	const struct fiber_backend_ops *ops;
	int first, status, modes;

	core_msg_init(argv[0]);
	signal(SIGPIPE, SIG_IGN);
	first = core_cli_parse(&cli, argc, argv, handle, &a);
	if (first < argc && strcmp(argv[first - 1], "--") != 0)
		core_cli_usage_error(&cli, "put '--' before the command");
	if (first >= argc)
		core_cli_usage_error(&cli, "no command given");
	modes = a.pool + a.worker + a.stdin_env + a.each_run;
	if (modes > 1)
		core_cli_usage_error(&cli, "--pool (--each), --worker, --stdin-env and --each-run exclude each other");
	if (a.stdin_env)
		return run_stdin_env(argv + first);
	if (a.each_run)
		return run_each_run(&a, argv + first);
	if (a.worker)
		return run_worker(&a, argv + first);
	if (!a.pool && (a.lines || a.keep_order || a.retries || a.timeout > 0 || a.prefetch ||
			a.joblog || a.resume || a.start_timeout > 0 || a.proto_set || a.bad_input ||
			a.order_buffer || a.heartbeat_set || a.advertise ||
			a.bar || a.eta || a.mem_limit))
		core_cli_usage_error(&cli, "task options need --pool");
	if (a.pool && (a.tag || a.halt_never))
		core_cli_usage_error(&cli, "--tag and --halt are for SPMD mode, not --pool");
	if (a.resume && !a.joblog)
		core_cli_usage_error(&cli, "%s needs --joblog", a.resume_failed ? "--resume-failed" : "--resume");
	ops = fiber_backend_find(a.backend ? a.backend : a.hosts ? "ssh" : "local");
	if (ops->needs_hosts && !a.hosts)
		core_cli_usage_error(&cli, "the %s backend needs --hosts FILE", ops->name);
	if (a.hosts && !ops->needs_hosts)
		core_cli_usage_error(&cli, "--hosts is for the ssh backend");
	if (!a.pool && ops == &fiber_backend_sbatch)
		core_cli_usage_error(&cli, "the sbatch backend starts pool workers only: add --pool");
	if (fiber_backend_init(&b, ops, a.ssh, a.remote, &err) < 0)
		core_msg_die(CORE_EXIT_FAIL, "%s", err.msg);
	if (a.hosts && fiber_hosts_load(&b.hosts, a.hosts, &err) < 0) {
		fiber_backend_release(&b);
		core_msg_die(CORE_EXIT_FAIL, "%s", err.msg);
	}
	if ((a.nenv || a.workdir || a.mem_limit) &&
	    fiber_envpass_collect(a.env, a.nenv, a.workdir, a.mem_limit, &b.env, &err) < 0) {
		fiber_backend_release(&b);
		core_msg_die(CORE_EXIT_FAIL, "%s", err.msg);
	}
	/* Local SPMD ranks are our children: we enter --workdir for them. */
	if (!a.pool && a.workdir && !ops->remote) {
		if (setenv("FIBERRUN_WORKDIR", a.workdir, 1) < 0 ||
		    fiber_workdir_enter(NULL, &err) < 0)
			core_msg_die(CORE_EXIT_FAIL, "%s", err.msg);
	}
	a.workers_given = a.workers > 0;
	if (!a.workers) {
		a.workers = b.hosts.n ? fiber_hosts_slots(&b.hosts) : core_sys_cpus();
	}
	if (a.pool) {
		status = run_pool(&a, &b, argv + first);
	} else {
		struct fiber_spmd_opts o = { 0 };

		o.ranks = a.workers;
		o.argv = argv + first;
		o.backend = &b;
		o.tag = a.tag;
		o.halt_on_failure = !a.halt_never;
		o.out_fd = 1;
		o.err_fd = 2;
		status = fiber_spmd_run(&o, &err);
		if (status < 0) {
			core_msg_error("%s", err.msg);
			status = core_spawn_error_exit(status);	/* a rank not started */
		}
	}
	fiber_envpass_free(b.env);
	b.env = NULL;
	fiber_backend_release(&b);
	free(a.env);
	/* An output error already reported is not reported twice. */
	if (status == 0 && core_msg_close_stream(stdout) != 0)
		status = CORE_EXIT_FAIL;
	return status;
}
