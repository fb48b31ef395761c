/*
 * cule-bench: Atari 2600 games at scale, with the Arcade Learning
 * Environment's semantics: throughput on CPU threads or a CUDA GPU,
 * frame-by-frame traces for comparing with ALE, the supported games, and
 * what a ROM is.
 */
#include <errno.h>
#include <jansson.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "atari/batch.h"
#include "atari/cuda.h"
#include "atari/env.h"
#include "atari/trace.h"
#include "core/atomic.h"
#include "core/cli.h"
#include "core/clock.h"
#include "core/exitcode.h"
#include "core/json.h"
#include "core/msg.h"

enum {
	OPT_FRAMESKIP = CORE_OPT_LONG_ONLY,
	OPT_STICKY,
	OPT_MAX_FRAMES,
	OPT_NOOP_MAX,
	OPT_EPISODIC,
	OPT_MAXPOOL,
	OPT_OBS,
	OPT_RESIZE,
	OPT_DIFFICULTY,
	OPT_STEPS,
};

static const struct core_opt opts[] = {
	{ "rom", 'r', "FILE", "ROM image to run", NULL },
	{ "game", 'g', "NAME", "use the settings of game NAME (the ROM must be that game's)", NULL },
	{ "cart", 'c', "TYPE", "force the cartridge type instead of detecting it",
	  "2K|4K|F8|F8SC|F6|F6SC|F4|F4SC|E0|FE|3F|E7" },
	{ "envs", 'e', "N", "environments run at once (default 64)", NULL },
	{ "backend", 'b', "NAME", "run on CPU threads or a CUDA GPU (default cpu)", "cpu|cuda" },
	{ "threads", 't', "N", "CPU threads (default: one per available CPU)", NULL },
	{ "steps", OPT_STEPS, "N", "steps per environment (default 1000)", NULL },
	{ "frames", 'n', "N", "trace: steps to trace, with random actions", NULL },
	{ "actions", 'a', "FILE", "trace: actions to trace, one per line", NULL },
	{ "seed", 's', "S", "seed of random actions, sticky actions, noop starts (default 0)", NULL },
	{ "frameskip", OPT_FRAMESKIP, "N", "frames per step (default 4; trace: 1)", NULL },
	{ "sticky", OPT_STICKY, "P", "repeat_action_probability (default 0.25; trace: 0)", NULL },
	{ "max-frames", OPT_MAX_FRAMES, "N", "frames per episode, 0 for no cap (default 108000)", NULL },
	{ "noop-max", OPT_NOOP_MAX, "N", "up to N random NOOP steps after a reset (default 0)", NULL },
	{ "episodic-life", OPT_EPISODIC, NULL, "end the episode when a life is lost", NULL },
	{ "maxpool", OPT_MAXPOOL, NULL, "observe the maximum of the last two frames", NULL },
	{ "obs", OPT_OBS, "TYPE", "observation computed each step (default none)",
	  "none|index|gray|rgb" },
	{ "resize", OPT_RESIZE, NULL, "resize observations to 84x84 (area averaging)", NULL },
	{ "difficulty", OPT_DIFFICULTY, "N", "difficulty switches: 0-3, bit 0 left A, bit 1 right A", NULL },
	{ "format", 'f', "FORMAT", "output format (default: table on a terminal, else csv)",
	  "table|csv|json" },
	{ "output", 'o', "FILE", "write to FILE (atomically) instead of standard output", NULL },
	{ "force", 'F', NULL, "replace an existing output file", NULL },
	{ NULL, 0, NULL, NULL, NULL },
};

static const struct core_cmd cmds[] = {
	{ "run", "measure throughput: frames per second over many environments (default)" },
	{ "trace", "print RAM, reward and screen MD5 after every frame, as ale-trace.py does" },
	{ "games", "list the supported games, their MD5s and cartridge types" },
	{ "info", "describe a ROM: size, MD5, cartridge type, game" },
	{ NULL, NULL },
};

static const struct core_cli cli = {
	.usage = "[run] --rom FILE [options]\n"
		 "trace --rom FILE [--frames N | --actions FILE] [options]\n"
		 "games [--format FORMAT]\n"
		 "info [--format FORMAT] ROM",
	.summary = "Run Atari 2600 games at scale with the semantics of the Arcade Learning Environment.",
	.footer = "Commands:\n"
		  "  run     measure throughput: frames per second over many environments (default)\n"
		  "  trace   print RAM, reward and screen MD5 after every frame\n"
		  "  games   list the supported games, their MD5s and cartridge types\n"
		  "  info    describe a ROM: size, MD5, cartridge type, game\n",
	.opts = opts,
	.cmds = cmds,
};

enum format { F_TABLE, F_CSV, F_JSON, F_DEFAULT };

struct args {
	const char *rom, *game, *actions, *output;
	int cart, envs, threads, cuda, force, obs_set;
	long steps, frames;
	int have_frameskip, have_sticky;
	enum format format;
	struct atari_env_config cfg;
};

static long parse_num(const char *arg, long min, long max, const char *what)
{
	long v;

	if (core_cli_parse_long(arg, min, max, &v) < 0)
		core_cli_usage_error(&cli, "bad %s '%s' (%ld to %ld)", what, arg, min, max);
	return v;
}

static int handle(int key, const char *arg, void *ctx)
{
	struct args *a = ctx;
	double d;

	switch (key) {
	case 'r': a->rom = arg; break;
	case 'g': a->game = arg; break;
	case 'c':
		a->cart = atari_cart_type_parse(arg);
		if (!a->cart)
			core_cli_usage_error(&cli, "unknown cartridge type '%s'", arg);
		break;
	case 'e': a->envs = (int)parse_num(arg, 1, 1 << 24, "number of environments"); break;
	case 'b':
		if (strcmp(arg, "cpu") && strcmp(arg, "cuda"))
			core_cli_usage_error(&cli, "unknown backend '%s' (cpu or cuda)", arg);
		a->cuda = !strcmp(arg, "cuda");
		break;
	case 't': a->threads = (int)parse_num(arg, 1, 4096, "number of threads"); break;
	case OPT_STEPS: a->steps = parse_num(arg, 1, 1L << 40, "number of steps"); break;
	case 'n': a->frames = parse_num(arg, 1, 1L << 32, "number of frames"); break;
	case 'a': a->actions = arg; break;
	case 's': a->cfg.seed = (uint64_t)parse_num(arg, 0, INT64_MAX, "seed"); break;
	case OPT_FRAMESKIP:
		a->cfg.frameskip = (int)parse_num(arg, 1, 1000, "frame skip");
		a->have_frameskip = 1;
		break;
	case OPT_STICKY:
		if (core_cli_parse_double(arg, 0, 1, &d) < 0)
			core_cli_usage_error(&cli, "bad probability '%s' (0 to 1)", arg);
		a->cfg.repeat_action_probability = (float)d;
		a->have_sticky = 1;
		break;
	case OPT_MAX_FRAMES: a->cfg.max_frames = (int)parse_num(arg, 0, INT32_MAX, "frame cap"); break;
	case OPT_NOOP_MAX: a->cfg.noop_max = (int)parse_num(arg, 0, 100000, "noop maximum"); break;
	case OPT_EPISODIC: a->cfg.episodic_life = 1; break;
	case OPT_MAXPOOL: a->cfg.maxpool = 1; break;
	case OPT_OBS:
		if (!strcmp(arg, "none")) a->cfg.obs = ATARI_OBS_NONE;
		else if (!strcmp(arg, "index")) a->cfg.obs = ATARI_OBS_INDEX;
		else if (!strcmp(arg, "gray")) a->cfg.obs = ATARI_OBS_GRAY;
		else if (!strcmp(arg, "rgb")) a->cfg.obs = ATARI_OBS_RGB;
		else core_cli_usage_error(&cli, "unknown observation '%s' (none, index, gray or rgb)", arg);
		a->obs_set = 1;
		break;
	case OPT_RESIZE: a->cfg.resize = 1; break;
	case OPT_DIFFICULTY: a->cfg.difficulty = (int)parse_num(arg, 0, 3, "difficulty"); break;
	case 'f':
		if (!strcmp(arg, "table")) a->format = F_TABLE;
		else if (!strcmp(arg, "csv")) a->format = F_CSV;
		else if (!strcmp(arg, "json")) a->format = F_JSON;
		else core_cli_usage_error(&cli, "unknown format '%s' (table, csv or json)", arg);
		break;
	case 'o': a->output = arg; break;
	case 'F': a->force = 1; break;
	default: return -1;
	}
	return 0;
}

/* ---- Output of records as a table, CSV or JSON ---- */

#define MAX_COLS 16
#define MAX_ROWS 128

struct table {
	int ncols, nrows;
	const char *cols[MAX_COLS];
	int numeric[MAX_COLS];
	char *cells[MAX_ROWS][MAX_COLS];
};

static void table_add(struct table *t, int row, int col, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static void table_add(struct table *t, int row, int col, const char *fmt, ...)
{
	va_list ap;
	char buf[256];

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	t->cells[row][col] = strdup(buf);
	if (!t->cells[row][col])
		core_msg_die(CORE_EXIT_FAIL, "out of memory");
	if (row + 1 > t->nrows)
		t->nrows = row + 1;
}

static int table_write(FILE *fp, const struct table *t, enum format f)
{
	int width[MAX_COLS];

	if (f == F_JSON) {
		for (int r = 0; r < t->nrows; r++) {
			json_t *o = json_object();

			for (int c = 0; c < t->ncols; c++) {
				const char *s = t->cells[r][c];

				json_object_set_new(o, t->cols[c], t->numeric[c] ?
						    json_real(strtod(s, NULL)) : json_string(s));
				if (t->numeric[c] && !strchr(s, '.'))
					json_object_set_new(o, t->cols[c],
							    json_integer(strtoll(s, NULL, 10)));
			}
			if (core_json_write(fp, o, 0) < 0) {
				json_decref(o);
				return -EIO;
			}
			json_decref(o);
		}
		return 0;
	}
	for (int c = 0; c < t->ncols; c++) {
		width[c] = (int)strlen(t->cols[c]);
		for (int r = 0; r < t->nrows; r++)
			if ((int)strlen(t->cells[r][c]) > width[c])
				width[c] = (int)strlen(t->cells[r][c]);
	}
	for (int r = -1; r < t->nrows; r++) {
		for (int c = 0; c < t->ncols; c++) {
			const char *s = r < 0 ? t->cols[c] : t->cells[r][c];

			if (f == F_CSV)
				fprintf(fp, "%s%s", c ? "," : "", s);
			else if (t->numeric[c])
				fprintf(fp, "%s%*s", c ? "  " : "", width[c], s);
			else
				fprintf(fp, "%s%-*s", c ? "  " : "", c == t->ncols - 1 ? 0 : width[c], s);
		}
		fputc('\n', fp);
	}
	return ferror(fp) ? -EIO : 0;
}

static void table_free(struct table *t)
{
	for (int r = 0; r < t->nrows; r++)
		for (int c = 0; c < t->ncols; c++)
			free(t->cells[r][c]);
}

/* ---- ROM and game ---- */

static const char *controller_name(const struct atari_game *g)
{
	return g->controller == ATARI_JOYSTICK ? "joystick" : "paddles";
}

/* Load the ROM and find its game; exits with a message on failure. */
static const struct atari_game *load_rom(struct atari_rom *rom, const struct args *a)
{
	struct core_error err = CORE_ERROR_INIT;
	const struct atari_game *g;
	int ret = atari_rom_load_file(rom, a->rom, a->cart, &err);

	if (ret < 0)
		core_msg_die(CORE_EXIT_FAIL, "%s", err.msg);
	g = atari_game_by_md5(rom->md5);
	if (a->game) {
		const struct atari_game *want = atari_game_by_name(a->game);

		if (!want)
			core_msg_die(CORE_EXIT_USAGE, "unknown game '%s' (see cule-bench games)", a->game);
		if (want != g)
			core_msg_die(CORE_EXIT_FAIL,
				     "'%s' is not the ROM of game '%s' (MD5 %s, expected %s)",
				     a->rom, a->game, rom->md5, want->md5);
	}
	return g ? g : &atari_games[0];
}

static FILE *open_output(struct core_atomic *af, const struct args *a)
{
	struct core_error err = CORE_ERROR_INIT;

	if (core_atomic_open(af, a->output ? a->output : "-", a->force ? CORE_ATOMIC_FORCE : 0,
			     &err) < 0)
		core_msg_die(CORE_EXIT_FAIL, "%s", err.msg);
	return af->fp;
}

static int close_output(struct core_atomic *af)
{
	struct core_error err = CORE_ERROR_INIT;

	if (core_atomic_commit(af, &err) < 0) {
		core_msg_error("%s", err.msg);
		return CORE_EXIT_FAIL;
	}
	return core_msg_close_stream(stdout) < 0 ? CORE_EXIT_FAIL : CORE_EXIT_OK;
}

static enum format default_format(const struct args *a)
{
	if (a->format != F_DEFAULT)
		return a->format;
	return !a->output && isatty(STDOUT_FILENO) ? F_TABLE : F_CSV;
}

/* ---- Commands ---- */

static int cmd_games(const struct args *a)
{
	struct table t = { 6, 0, { "game", "title", "md5", "cart", "controller", "parity" },
			   { 0 }, { { 0 } } };
	struct core_atomic af = CORE_ATOMIC_INIT;
	FILE *fp = open_output(&af, a);

	for (int i = 1; i < atari_games_count; i++) {
		const struct atari_game *g = &atari_games[i];

		table_add(&t, i - 1, 0, "%s", g->name);
		table_add(&t, i - 1, 1, "%s", g->title);
		table_add(&t, i - 1, 2, "%s", g->md5);
		table_add(&t, i - 1, 3, "%s", g->cart ? atari_cart_type_name(g->cart) : "auto");
		table_add(&t, i - 1, 4, "%s", controller_name(g));
		table_add(&t, i - 1, 5, "%s", g->verified > 0 ? "yes" : g->verified < 0 ? "n/a" : "no");
	}
	if (table_write(fp, &t, default_format(a)) < 0) {
		table_free(&t);
		core_atomic_abort(&af);
		core_msg_die(CORE_EXIT_FAIL, "writing output failed");
	}
	table_free(&t);
	return close_output(&af);
}

static int cmd_info(const struct args *a)
{
	struct table t = { 9, 0, { "file", "bytes", "md5", "cart", "game", "controller",
				   "state_bytes", "env_bytes", "parity" },
			   { 0, 1, 0, 0, 0, 0, 1, 1, 0 }, { { 0 } } };
	struct core_atomic af = CORE_ATOMIC_INIT;
	struct atari_rom rom = ATARI_ROM_INIT;
	const struct atari_game *g = load_rom(&rom, a);
	FILE *fp = open_output(&af, a);

	table_add(&t, 0, 0, "%s", a->rom);
	table_add(&t, 0, 1, "%u", rom.size);
	table_add(&t, 0, 2, "%s", rom.md5);
	table_add(&t, 0, 3, "%s", atari_cart_type_name(rom.type));
	table_add(&t, 0, 4, "%s", g->id ? g->name : "unknown");
	table_add(&t, 0, 5, "%s", controller_name(g));
	table_add(&t, 0, 6, "%zu", sizeof(struct atari_machine));
	table_add(&t, 0, 7, "%zu", sizeof(struct atari_env));
	table_add(&t, 0, 8, "%s", g->verified > 0 ? "yes" : g->verified < 0 ? "n/a" : "no");
	if (table_write(fp, &t, default_format(a)) < 0) {
		table_free(&t);
		core_atomic_abort(&af);
		core_msg_die(CORE_EXIT_FAIL, "writing output failed");
	}
	table_free(&t);
	atari_rom_release(&rom);
	return close_output(&af);
}

static int cmd_trace(struct args *a)
{
	struct core_error err = CORE_ERROR_INIT;
	struct core_atomic af = CORE_ATOMIC_INIT;
	struct atari_rom rom = ATARI_ROM_INIT;
	const struct atari_game *g;
	int *actions = NULL;
	long n = 0;
	FILE *fp;
	int ret;

	if (!a->frames == !a->actions)
		core_cli_usage_error(&cli, "trace needs one of --frames or --actions");
	if (a->have_frameskip && a->cfg.frameskip != 1)
		core_cli_usage_error(&cli, "trace runs with --frameskip 1");
	a->cfg.frameskip = 1;
	if (!a->have_sticky)
		a->cfg.repeat_action_probability = 0;
	g = load_rom(&rom, a);
	if (a->actions) {
		FILE *in = strcmp(a->actions, "-") ? fopen(a->actions, "r") : stdin;

		if (!in)
			core_msg_die(CORE_EXIT_FAIL, "cannot open '%s': %s", a->actions, strerror(errno));
		ret = atari_trace_read_actions(in, a->actions, &actions, &n, &err);
		if (in != stdin)
			fclose(in);
		if (ret < 0)
			core_msg_die(CORE_EXIT_FAIL, "%s", err.msg);
	} else {
		n = a->frames;
		actions = malloc(sizeof(*actions) * (size_t)n);
		if (!actions)
			core_msg_die(CORE_EXIT_FAIL, "out of memory");
		atari_trace_random_actions(g, a->cfg.seed, actions, n);
	}
	fp = open_output(&af, a);
	ret = atari_trace_write(fp, &rom, g, &a->cfg, actions, n, &err);
	free(actions);
	atari_rom_release(&rom);
	if (ret < 0) {
		core_atomic_abort(&af);
		core_msg_die(CORE_EXIT_FAIL, "%s", err.msg);
	}
	return close_output(&af);
}

static int cmd_run(struct args *a)
{
	struct core_error err = CORE_ERROR_INIT;
	struct core_atomic af = CORE_ATOMIC_INIT;
	struct atari_rom rom = ATARI_ROM_INIT;
	struct atari_batch_stats st;
	struct table t = { 11, 0, { "game", "backend", "envs", "threads", "frameskip", "steps",
				    "frames", "episodes", "reward", "seconds", "fps" },
			   { 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1 }, { { 0 } } };
	const struct atari_game *g;
	double seconds;
	int threads = 0;
	FILE *fp;

	g = load_rom(&rom, a);
	if (a->cuda) {
		int ret = atari_cuda_run(&rom, g, &a->cfg, a->envs, a->steps, &st, &seconds, &err);

		if (ret < 0)
			core_msg_die(ret == -ENODEV || ret == -ENOSYS ? CORE_EXIT_MISSING :
				     CORE_EXIT_FAIL, "%s", err.msg);
	} else {
		struct atari_batch b;
		int64_t t0;

		if (atari_batch_init(&b, &rom, g, &a->cfg, a->envs, a->threads, &err) < 0)
			core_msg_die(CORE_EXIT_FAIL, "%s", err.msg);
		threads = b.threads < b.n ? b.threads : b.n;
		t0 = core_clock_mono_ns();
		if (atari_batch_run(&b, a->steps, &st, &err) < 0)
			core_msg_die(CORE_EXIT_FAIL, "%s", err.msg);
		seconds = (double)(core_clock_mono_ns() - t0) / 1e9;
		atari_batch_release(&b);
	}
	fp = open_output(&af, a);
	table_add(&t, 0, 0, "%s", g->id ? g->name : "unknown");
	table_add(&t, 0, 1, "%s", a->cuda ? "cuda" : "cpu");
	table_add(&t, 0, 2, "%d", a->envs);
	table_add(&t, 0, 3, "%d", threads);
	table_add(&t, 0, 4, "%d", a->cfg.frameskip);
	table_add(&t, 0, 5, "%llu", (unsigned long long)st.steps);
	table_add(&t, 0, 6, "%llu", (unsigned long long)st.frames);
	table_add(&t, 0, 7, "%llu", (unsigned long long)st.episodes);
	table_add(&t, 0, 8, "%lld", (long long)st.reward);
	table_add(&t, 0, 9, "%.3f", seconds);
	table_add(&t, 0, 10, "%.0f", seconds > 0 ? (double)st.frames / seconds : 0.0);
	atari_rom_release(&rom);
	if (table_write(fp, &t, default_format(a)) < 0) {
		table_free(&t);
		core_atomic_abort(&af);
		core_msg_die(CORE_EXIT_FAIL, "writing output failed");
	}
	table_free(&t);
	return close_output(&af);
}

int main(int argc, char **argv)
{
	struct args a = { 0 };
	const char *cmd = "run";
	int first;

	core_msg_init(argv[0]);
	a.cfg = (struct atari_env_config)ATARI_ENV_CONFIG_INIT;
	a.envs = 64;
	a.steps = 1000;
	a.format = F_DEFAULT;
	if (argc > 1 && argv[1][0] != '-') {
		for (int i = 0; cmds[i].name; i++)
			if (!strcmp(argv[1], cmds[i].name))
				cmd = cmds[i].name;
		if (strcmp(cmd, argv[1]) && strcmp(argv[1], "run") != 0) {
			/* Not a command: "info" takes a ROM operand, others none. */
			core_cli_usage_error(&cli, "unknown command '%s'", argv[1]);
		}
		argv[1] = argv[0];
		argv++;
		argc--;
	}
	first = core_cli_parse(&cli, argc, argv, handle, &a);
	if (!strcmp(cmd, "info")) {
		if (argc - first == 1 && !a.rom)
			a.rom = argv[first];
		else if (argc - first != 0 || !a.rom)
			core_cli_usage_error(&cli, "info takes one ROM");
		return cmd_info(&a);
	}
	if (argc > first)
		core_cli_usage_error(&cli, "unexpected argument '%s'", argv[first]);
	if (!strcmp(cmd, "games"))
		return cmd_games(&a);
	if (!a.rom)
		core_cli_usage_error(&cli, "%s needs --rom FILE", cmd);
	if (!strcmp(cmd, "trace"))
		return cmd_trace(&a);
	return cmd_run(&a);
}
