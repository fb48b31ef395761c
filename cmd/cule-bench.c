/*
 * cule-bench: Atari 2600 games at scale, with the Arcade Learning
 * Environment's semantics: throughput on CPU threads or a CUDA GPU,
 * frame-by-frame traces for comparing with ALE, the supported games, and
 * what a ROM is.
 */
#include <errno.h>
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
#include "core/msg.h"
#include "core/table.h"

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
	OPT_RESET,
	OPT_MODE,
};

static const struct core_opt opts[] = {
	{ "rom", 'r', "FILE", "ROM image to run", NULL },
	{ "game", 'g', "NAME", "use the settings of game NAME (the ROM must be that game's)", NULL },
	{ "cart", 'c', "TYPE", "force the cartridge type instead of detecting it",
	  "2K|4K|F8|F8SC|F6|F6SC|F4|F4SC|E0|FE|3F|E7|DPC" },
	{ "envs", 'e', "N", "environments run at once (default 64)", NULL },
	{ "backend", 'b', "NAME", "run on CPU threads or a CUDA GPU (default cpu)", "cpu|cuda" },
	{ "threads", 't', "N", "CPU threads (default: one per available CPU)", NULL },
	{ "steps", OPT_STEPS, "N", "steps per environment (default 1000)", NULL },
	{ "frames", 'n', "N", "trace: steps to trace, with random actions", NULL },
	{ "reset", OPT_RESET, NULL, "trace: reset after loading, as Gymnasium does", NULL },
	{ "actions", 'a', "FILE", "trace: actions to trace, one per line", NULL },
	{ "seed", 's', "S", "seed of random actions, sticky actions, noop starts (default 0)", NULL },
	{ "frameskip", OPT_FRAMESKIP, "N", "frames per step (default 4; trace: 1)", NULL },
	{ "sticky", OPT_STICKY, "P", "repeat_action_probability (default 0.25; trace: 0)", NULL },
	{ "max-frames", OPT_MAX_FRAMES, "N", "frames per episode, 0 for no cap (default 108000)", NULL },
	{ "noop-max", OPT_NOOP_MAX, "N", "up to N random NOOP frames after a reset (default 0)", NULL },
	{ "episodic-life", OPT_EPISODIC, NULL, "end the episode when a life is lost", NULL },
	{ "maxpool", OPT_MAXPOOL, NULL, "observe the maximum of the last two frames of a step", NULL },
	{ "obs", OPT_OBS, "TYPE", "observation computed each step (default none)",
	  "none|index|gray|rgb" },
	{ "resize", OPT_RESIZE, NULL, "resize observations to 84x84 (area averaging)", NULL },
	{ "mode", OPT_MODE, "N", "game mode, one of the game's modes (default: the game's default)", NULL },
	{ "difficulty", OPT_DIFFICULTY, "N", "difficulty, one of the game's (bit 0 left A, bit 1 right A; default 0)", NULL },
	{ "format", 'f', "FORMAT", "output format (default: table on a terminal, else csv)",
	  "table|csv|json|jsonl" },
	{ "output", 'o', "FILE", "write to FILE (atomically) instead of standard output", NULL },
	{ "force", 'F', NULL, "replace an existing output file", NULL },
	{ NULL, 0, NULL, NULL, NULL },
};

static int cmd_run(int argc, char **argv, void *ctx);
static int cmd_trace(int argc, char **argv, void *ctx);
static int cmd_games(int argc, char **argv, void *ctx);
static int cmd_info(int argc, char **argv, void *ctx);

/* The options of the environments, taken by run and trace. */
#define ENV_OPTS "rom game cart seed frameskip sticky max-frames noop-max episodic-life " \
	"maxpool obs resize mode difficulty output force"

static const struct core_cmd cmds[] = {
	{ "run", cmd_run, "measure throughput: frames per second over many environments (default)",
	  ENV_OPTS " envs backend threads steps format" },
	{ "trace", cmd_trace, "print RAM, reward and screen MD5 after every frame, as ale-trace.py does",
	  ENV_OPTS " frames actions reset" },
	{ "games", cmd_games, "list the supported games, their MD5s and cartridge types",
	  "format output force" },
	{ "info", cmd_info, "describe a ROM: size, MD5, cartridge type, game",
	  "rom game cart format output force" },
	{ NULL, NULL, NULL, NULL },
};

static const struct core_cli cli = {
	.usage = "[run] --rom FILE [options]\n"
		 "trace --rom FILE [--frames N | --actions FILE] [options]\n"
		 "games [--format FORMAT]\n"
		 "info [--format FORMAT] ROM",
	.summary = "Run Atari 2600 games at scale with the semantics of the Arcade Learning Environment.",
	.opts = opts,
	.cmds = cmds,
	.default_cmd = "run",
};

/* A core_format, or F_DEFAULT: the one rule of core_format_default(). */
#define F_DEFAULT (-1)

struct args {
	const char *rom, *game, *actions, *output;
	int cart, envs, threads, cuda, force, obs_set;
	long steps, frames;
	int have_frameskip, have_sticky, reset;
	int format;
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
	case OPT_RESET: a->reset = 1; break;
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
	case OPT_MODE: a->cfg.mode = (int)parse_num(arg, 0, 65535, "mode"); break;
	case 'f':
		if ((a->format = core_format_parse(arg, CORE_FORMATS_ALL)) < 0)
			core_cli_usage_error(&cli, "unknown format '%s' (table, csv, json or jsonl)", arg);
		break;
	case 'o': a->output = arg; break;
	case 'F': a->force = 1; break;
	default: return -1;
	}
	return 0;
}

/* ---- ROM and game ---- */

static const char *controller_name(const struct atari_game *g)
{
	return g->controller == ATARI_JOYSTICK ? "joystick" : "paddles";
}

/* The mode and difficulty must be the game's (as ALE lists them). */
static void check_settings(const struct atari_game *g, const struct atari_env_config *cfg)
{
	struct core_error err = CORE_ERROR_INIT;

	if (atari_game_check(g, cfg->mode, cfg->difficulty, &err) < 0)
		core_cli_usage_error(&cli, "%s", err.msg);
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
	g = g ? g : &atari_games[0];
	check_settings(g, &a->cfg);
	return g;
}

/*
 * The output file, opened before the work so that a bad -o fails at once;
 * removed at exit unless committed (core_atomic_abort is safe after a
 * commit).
 */
static struct core_atomic out = CORE_ATOMIC_INIT;

static void abort_output(void)
{
	core_atomic_abort(&out);
}

static FILE *open_output(const struct args *a)
{
	struct core_error err = CORE_ERROR_INIT;

	if (core_atomic_open(&out, a->output ? a->output : "-", a->force ? CORE_ATOMIC_FORCE : 0,
			     &err) < 0)
		core_msg_die(CORE_EXIT_FAIL, "%s", err.msg);
	atexit(abort_output);
	return out.fp;
}

/* Write the table and commit the output; returns the exit status. */
static int finish(struct core_table *t, const struct args *a)
{
	struct core_error err = CORE_ERROR_INIT;
	int ret = core_table_write(out.fp, t, a->format == F_DEFAULT ?
				   core_format_default(a->output) : (enum core_format)a->format);

	core_table_release(t);
	if (ret < 0)
		core_msg_die(CORE_EXIT_FAIL, "%s", ret == -ENOMEM ? "out of memory" :
			     "writing output failed");
	if (core_atomic_commit(&out, &err) < 0) {
		core_msg_error("%s", err.msg);
		return CORE_EXIT_FAIL;
	}
	return core_msg_close_stream(stdout) < 0 ? CORE_EXIT_FAIL : CORE_EXIT_OK;
}

static void check(int ret)
{
	if (ret < 0)
		core_msg_die(CORE_EXIT_FAIL, "out of memory");
}

static const char *parity_name(const struct atari_game *g)
{
	return g->verified > 0 ? "yes" : g->verified < 0 ? "n/a" : "no";
}

/* Options and operands of a command; `operand` receives the one operand
 * the command takes (NULL: none). */
static struct args *parse(int argc, char **argv, void *ctx, const char **operand)
{
	struct args *a = ctx;
	int first = core_cli_parse(&cli, argc, argv, handle, a);

	if (operand && argc - first == 1)
		*operand = argv[first];
	else if (argc > first)
		core_cli_usage_error(&cli, "unexpected argument '%s'", argv[first]);
	return a;
}

/* ---- Commands ---- */

/* "0 1 2": a game's modes or difficulties, space-separated (static buffer). */
static const char *value_list(const struct atari_game *g,
			      int (*list)(const struct atari_game *, int *, int))
{
	static char buf[2048];
	int v[512], n = list(g, v, 512);
	size_t len = 0;

	buf[0] = 0;
	for (int i = 0; i < n && i < 512 && len < sizeof(buf); i++)
		len += (size_t)snprintf(buf + len, sizeof(buf) - len, "%s%d", i ? " " : "", v[i]);
	return buf;
}

static int cmd_games(int argc, char **argv, void *ctx)
{
	static const struct core_col cols[] = {
		{ .name = "game" }, { .name = "title" }, { .name = "md5" },
		{ .name = "cart" }, { .name = "controller" }, { .name = "parity" },
		{ .name = "modes" }, { .name = "difficulties" }, { .name = "reference" },
	};
	const struct args *a = parse(argc, argv, ctx, NULL);
	struct core_table t;

	open_output(a);
	core_table_init(&t, cols, 9, 0);
	for (int i = 1; i < atari_games_count; i++) {
		const struct atari_game *g = &atari_games[i];

		check(core_table_add_row(&t, 0));
		check(core_table_set_str(&t, 0, g->name));
		check(core_table_set_str(&t, 1, g->title));
		check(core_table_set_str(&t, 2, g->md5));
		check(core_table_set_str(&t, 3, g->cart ? atari_cart_type_name(g->cart) : "auto"));
		check(core_table_set_str(&t, 4, controller_name(g)));
		check(core_table_set_str(&t, 5, parity_name(g)));
		check(core_table_set_str(&t, 6, value_list(g, atari_game_modes)));
		check(core_table_set_str(&t, 7, value_list(g, atari_game_difficulties)));
		check(core_table_set_str(&t, 8, atari_game_reference_name(g)));
	}
	return finish(&t, a);
}

static int cmd_info(int argc, char **argv, void *ctx)
{
	static const struct core_col cols[] = {
		{ .name = "file" }, { .name = "bytes", .type = CORE_COL_BYTES },
		{ .name = "md5" }, { .name = "cart" }, { .name = "game" }, { .name = "controller" },
		{ .name = "state_bytes", .type = CORE_COL_BYTES },
		{ .name = "env_bytes", .type = CORE_COL_BYTES }, { .name = "parity" },
		{ .name = "reference" },
	};
	const char *operand = NULL;
	struct args *a = parse(argc, argv, ctx, &operand);
	struct atari_rom rom = ATARI_ROM_INIT;
	const struct atari_game *g;
	struct core_table t;

	if (operand && !a->rom)
		a->rom = operand;
	else if (operand || !a->rom)
		core_cli_usage_error(&cli, "info takes one ROM");
	open_output(a);
	g = load_rom(&rom, a);
	core_table_init(&t, cols, 10, CORE_TABLE_RECORD);
	check(core_table_add_row(&t, 0));
	check(core_table_set_str(&t, 0, a->rom));
	check(core_table_set_bytes(&t, 1, rom.size));
	check(core_table_set_str(&t, 2, rom.md5));
	check(core_table_set_str(&t, 3, atari_cart_type_name(rom.type)));
	check(core_table_set_str(&t, 4, g->id ? g->name : "unknown"));
	check(core_table_set_str(&t, 5, controller_name(g)));
	check(core_table_set_bytes(&t, 6, sizeof(struct atari_machine)));
	check(core_table_set_bytes(&t, 7, sizeof(struct atari_env)));
	check(core_table_set_str(&t, 8, parity_name(g)));
	check(core_table_set_str(&t, 9, atari_game_reference_name(g)));
	atari_rom_release(&rom);
	return finish(&t, a);
}

static int cmd_trace(int argc, char **argv, void *ctx)
{
	struct args *a = parse(argc, argv, ctx, NULL);
	struct core_error err = CORE_ERROR_INIT;
	struct atari_rom rom = ATARI_ROM_INIT;
	const struct atari_game *g;
	int *actions = NULL;
	long n = 0;
	int ret;

	if (!a->rom)
		core_cli_usage_error(&cli, "trace needs --rom FILE");
	if (!a->frames == !a->actions)
		core_cli_usage_error(&cli, "trace needs one of --frames or --actions");
	if (a->have_frameskip && a->cfg.frameskip != 1)
		core_cli_usage_error(&cli, "trace runs with --frameskip 1");
	a->cfg.frameskip = 1;
	if (!a->have_sticky)
		a->cfg.repeat_action_probability = 0;
	open_output(a);
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
	ret = atari_trace_write(out.fp, &rom, g, &a->cfg, a->reset, actions, n, &err);
	free(actions);
	atari_rom_release(&rom);
	if (ret < 0)
		core_msg_die(CORE_EXIT_FAIL, "%s", err.msg);
	if (core_atomic_commit(&out, &err) < 0) {
		core_msg_error("%s", err.msg);
		return CORE_EXIT_FAIL;
	}
	return core_msg_close_stream(stdout) < 0 ? CORE_EXIT_FAIL : CORE_EXIT_OK;
}

static int cmd_run(int argc, char **argv, void *ctx)
{
	static const struct core_col cols[] = {
		{ .name = "game" }, { .name = "backend" },
		{ .name = "envs", .type = CORE_COL_INT },
		{ .name = "threads", .type = CORE_COL_INT },
		{ .name = "frameskip", .type = CORE_COL_INT },
		{ .name = "steps", .type = CORE_COL_INT },
		{ .name = "frames", .type = CORE_COL_INT },
		{ .name = "episodes", .type = CORE_COL_INT },
		{ .name = "reward", .type = CORE_COL_INT },
		{ .name = "seconds", .type = CORE_COL_DURATION, .unit = "s", .decimals = 3 },
		{ .name = "fps", .type = CORE_COL_FLOAT, .decimals = 0 },
		{ .name = "state_bytes", .type = CORE_COL_INT },
		{ .name = "env_bytes", .type = CORE_COL_INT },
	};
	struct args *a = parse(argc, argv, ctx, NULL);
	struct core_error err = CORE_ERROR_INIT;
	struct atari_rom rom = ATARI_ROM_INIT;
	struct atari_batch_stats st;
	struct core_table t;
	const struct atari_game *g;
	double seconds;
	int threads = 0, height;

	if (!a->rom)
		core_cli_usage_error(&cli, "run needs --rom FILE");
	open_output(a);
	g = load_rom(&rom, a);
	if (a->cuda) {
		int ret = atari_cuda_run(&rom, g, &a->cfg, a->envs, a->steps, &st, &seconds, &err);

		if (ret < 0)
			core_msg_die(ret == -ENODEV || ret == -ENOSYS ? CORE_EXIT_MISSING :
				     CORE_EXIT_FAIL, "%s", err.msg);
		height = atari_env_probe_height(&rom, g, &a->cfg, 0);
	} else {
		struct atari_batch b;
		int64_t t0;

		if (atari_batch_init(&b, &rom, g, &a->cfg, a->envs, a->threads, &err) < 0)
			core_msg_die(CORE_EXIT_FAIL, "%s", err.msg);
		threads = b.threads < b.n ? b.threads : b.n;
		height = b.height;
		t0 = core_clock_mono_ns();
		if (atari_batch_run(&b, a->steps, &st, &err) < 0)
			core_msg_die(CORE_EXIT_FAIL, "%s", err.msg);
		seconds = (double)(core_clock_mono_ns() - t0) / 1e9;
		atari_batch_release(&b);
	}
	core_table_init(&t, cols, 13, CORE_TABLE_RECORD);
	check(core_table_add_row(&t, 0));
	check(core_table_set_str(&t, 0, g->id ? g->name : "unknown"));
	check(core_table_set_str(&t, 1, a->cuda ? "cuda" : "cpu"));
	check(core_table_set_int(&t, 2, a->envs));
	check(core_table_set_int(&t, 3, threads));
	check(core_table_set_int(&t, 4, a->cfg.frameskip));
	check(core_table_set_int(&t, 5, (int64_t)st.steps));
	check(core_table_set_int(&t, 6, (int64_t)st.frames));
	check(core_table_set_int(&t, 7, (int64_t)st.episodes));
	check(core_table_set_int(&t, 8, (int64_t)st.reward));
	check(core_table_set_ns(&t, 9, (int64_t)(seconds * 1e9 + 0.5)));
	check(core_table_set_float(&t, 10, seconds > 0 ? (double)st.frames / seconds : 0.0));
	check(core_table_set_int(&t, 11, (int64_t)sizeof(struct atari_env)));
	check(core_table_set_int(&t, 12, (int64_t)atari_batch_env_bytes(&a->cfg, height)));
	atari_rom_release(&rom);
	return finish(&t, a);
}

int main(int argc, char **argv)
{
	struct args a = { 0 };

	core_msg_init(argv[0]);
	a.cfg = (struct atari_env_config)ATARI_ENV_CONFIG_INIT;
	a.envs = 64;
	a.steps = 1000;
	a.format = F_DEFAULT;
	return core_cli_dispatch(&cli, argc, argv, &a);
}
