/*
 * The 6502 core on a flat 64 KiB memory: Klaus Dormann's functional test
 * (from the shared test data, skipped when absent), cycle counts of every
 * opcode against the data sheet, decimal mode, undocumented opcodes, the
 * dummy accesses that devices see, and the jam opcodes.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "atari/cpu.h"
#include "test.h"

struct flat {
	uint8_t mem[65536];
	uint8_t mem_orig[65536];	/* the image loaded */
	uint64_t cycles;
	/* The last accesses, for the bus-sequence checks. */
	uint16_t log_addr[16];
	uint8_t log_write[16];
	int nlog;
};

static uint8_t flat_read(struct flat *f, uint16_t addr)
{
	f->cycles++;
	if (f->nlog < 16) {
		f->log_addr[f->nlog] = addr;
		f->log_write[f->nlog++] = 0;
	}
	return f->mem[addr];
}

static void flat_write(struct flat *f, uint16_t addr, uint8_t v)
{
	f->cycles++;
	if (f->nlog < 16) {
		f->log_addr[f->nlog] = addr;
		f->log_write[f->nlog++] = 1;
	}
	f->mem[addr] = v;
}

#define CPU_EXEC_NAME flat_exec
#define CPU_EXEC_CTX struct flat
#define CPU_READ(ctx, addr) flat_read(ctx, addr)
#define CPU_WRITE(ctx, addr, v) flat_write(ctx, addr, v)
#include "atari/cpu_exec.h"
#undef CPU_EXEC_NAME
#undef CPU_EXEC_CTX

/* The same core running many instructions per call (threaded dispatch
 * where the compiler has it), stopped by `stop`. */
struct flat_ctx {
	struct flat *f;
	int watch;	/* stop after a write to $0200 */
	int stop;
};

static uint8_t ctx_read(struct flat_ctx *x, uint16_t addr)
{
	return flat_read(x->f, addr);
}

static void ctx_write(struct flat_ctx *x, uint16_t addr, uint8_t v)
{
	flat_write(x->f, addr, v);
	x->stop = x->watch && addr == 0x0200;
}

#undef CPU_READ
#undef CPU_WRITE
#define CPU_EXEC_NAME flat_run
#define CPU_EXEC_CTX struct flat_ctx
#define CPU_READ(ctx, addr) ctx_read(ctx, addr)
#define CPU_WRITE(ctx, addr, v) ctx_write(ctx, addr, v)
#define CPU_EXEC_STOP(ctx) ((ctx)->stop)
#include "atari/cpu_exec.h"
#undef CPU_EXEC_STOP
#undef CPU_EXEC_NAME
#undef CPU_EXEC_CTX
#undef CPU_READ
#undef CPU_WRITE

#ifdef __GNUC__
/*
 * The same core reading its code at host addresses (CPU_CODE): the code
 * is mapped 1K at a time, and not at all in every third 1K, so that runs
 * end at a block's last bytes, jumps leave their block, and some code
 * runs one instruction at a time through the bus.  It is read from a copy
 * of the memory kept up to date where it is mapped and holding jam
 * opcodes where it is not, so that code read at ip where the bus does not
 * map it jams.
 */
struct flat_code {
	struct flat *f;
	uintptr_t end, lo, span, bias;
	uint8_t code[65536];
};

static int code_mapped(uint16_t addr)
{
	return (addr >> 10) % 3 != 2;
}

static struct flat_code *flat_code_new(struct flat *f)
{
	struct flat_code *x = calloc(1, sizeof(*x));

	if (!x)
		abort();
	x->f = f;
	for (unsigned a = 0; a < 65536; a++)
		x->code[a] = code_mapped((uint16_t)a) ? f->mem[a] : 0x02;
	return x;
}

static uint8_t code_read(struct flat_code *x, uint16_t addr)
{
	return flat_read(x->f, addr);
}

static void code_write(struct flat_code *x, uint16_t addr, uint8_t v)
{
	flat_write(x->f, addr, v);
	if (code_mapped(addr))
		x->code[addr] = v;
}

static uintptr_t code_map(struct flat_code *x, uintptr_t ip)
{
	uint16_t pc = (uint16_t)(ip - x->bias);
	unsigned block = pc >> 10;

	x->end = 0;
	if (!code_mapped(pc))
		return ip;
	x->bias = (uintptr_t)x->code;
	x->lo = x->bias + ((uintptr_t)block << 10);
	x->span = 0x400 - 2;
	x->end = x->lo + x->span;
	return x->bias + pc;
}

static void code_jump(struct flat_code *x, uintptr_t ip)
{
	if (ip - x->lo >= x->span)
		x->end = 0;
}

static uint8_t code_fetched(struct flat_code *x, uint8_t v)
{
	x->f->cycles++;
	return v;
}

#define CPU_EXEC_NAME code_step
#define CPU_EXEC_CTX struct flat_code
#define CPU_READ(ctx, addr) code_read(ctx, addr)
#define CPU_WRITE(ctx, addr, v) code_write(ctx, addr, v)
#include "atari/cpu_exec.h"
#undef CPU_EXEC_NAME

#define CPU_EXEC_NAME code_run
#define CPU_EXEC_STOP(ctx) 0
#define CPU_CODE 1
#define CPU_CODE_END(ctx) ((ctx)->end)
#define CPU_CODE_BIAS(ctx) ((ctx)->bias)
#define CPU_CODE_JUMP(ctx, ip) code_jump(ctx, ip)
#define CPU_CODE_MAP(ctx, ip) code_map(ctx, ip)
#define CPU_CODE_STEP(ctx, cpu) code_step(ctx, cpu)
#define CPU_FETCHED(ctx, v) code_fetched(ctx, v)
#define CPU_SKIPPED(ctx) ((ctx)->f->cycles++)
#include "atari/cpu_exec.h"
#endif

static struct flat *flat_new(void)
{
	struct flat *f = calloc(1, sizeof(*f));

	if (!f)
		abort();
	return f;
}

static void cpu_init(struct atari_cpu *c, uint16_t pc)
{
	memset(c, 0, sizeof(*c));
	c->pc = pc;
	c->sp = 0xff;
	c->p = ATARI_CPU_U | ATARI_CPU_B;
}

static int run_flat(void *x, struct atari_cpu *c, int max)
{
	return flat_run(x, c, max);
}

#ifdef __GNUC__
static int run_code(void *x, struct atari_cpu *c, int max)
{
	return code_run(x, c, max);
}
#endif

/*
 * The functional test again, `steps` instructions run many per call by
 * `run`, in chunks of odd sizes: the same registers and cycle count as
 * one instruction per call (`one`, the state that left).
 */
static void functional_chunked(struct flat *f, const struct atari_cpu *one, long steps,
			       int (*run)(void *, struct atari_cpu *, int), void *x,
			       const char *what)
{
	struct atari_cpu c;
	uint64_t cycles = f->cycles;
	long done = 0;
	int bad = 0;

	memcpy(f->mem, f->mem_orig, sizeof(f->mem));
	f->cycles = 0;
	cpu_init(&c, 0x0400);
	while (done < steps && !bad) {
		long want = steps - done < 7919 ? steps - done : 7919;
		int ran = run(x, &c, (int)want);

		bad = ran != want;
		done += ran;
	}
	TEST_OK(!bad && c.pc == one->pc && c.a == one->a && c.x == one->x && c.y == one->y &&
		    c.sp == one->sp && c.p == one->p && f->cycles == cycles, "%s", what);
}

static void test_functional_run(struct flat *f, const struct atari_cpu *one, long steps)
{
	struct flat_ctx x = { f, 0, 0 };
	uint64_t cycles = f->cycles;

	functional_chunked(f, one, steps, run_flat, &x,
			   "functional test, many instructions per call: the same state and cycles");
#ifdef __GNUC__
	struct flat_code *y;

	memcpy(f->mem, f->mem_orig, sizeof(f->mem));
	y = flat_code_new(f);
	f->cycles = cycles;
	functional_chunked(f, one, steps, run_code, y,
			   "functional test, code read at host addresses: the same state and cycles");
	free(y);
#endif
}

#ifdef __GNUC__
/* An instruction in the last bytes of a mapped block runs through the
 * bus; where it jumps out of the block, the code there is mapped anew. */
static void test_code_step_jump(void)
{
	struct flat *f = flat_new();
	struct flat_code *x;
	struct atari_cpu c;
	static const uint8_t to_end[] = { 0x4c, 0xfe, 0x0f };	/* $0C00: JMP $0FFE */
	static const uint8_t away[] = { 0x4c, 0x00, 0x08 };	/* $0FFE: JMP $0800 */
	static const uint8_t there[] = { 0xe8, 0xe8, 0x02 };	/* $0800: INX; INX; jam */

	memset(f->mem, 0xea, sizeof(f->mem));
	memcpy(f->mem + 0x0c00, to_end, sizeof(to_end));
	memcpy(f->mem + 0x0ffe, away, sizeof(away));
	memcpy(f->mem + 0x0800, there, sizeof(there));
	x = flat_code_new(f);
	cpu_init(&c, 0x0c00);
	TEST_EQ_LONG(code_run(x, &c, 100), 5, "code at host addresses: a jump from a block's last bytes");
	TEST_OK(c.jammed && c.x == 2 && c.pc == 0x0802,
		"code at host addresses: the code it jumps to runs through the bus, not the copy");
	free(x);
	free(f);
}
#endif

/* Many per call: a write the caller watches for stops the run after its
 * instruction; a jam stops it, and the next call runs nothing. */
static void test_run_stops(void)
{
	struct flat *f = flat_new();
	struct flat_ctx x = { f, 1, 0 };
	struct atari_cpu c;
	static const uint8_t prog[] = {
		0xe8, 0xe8, 0x8e, 0x00, 0x02,	/* INX; INX; STX $0200 */
		0xe8, 0x02,			/* INX; jam */
	};

	memset(f->mem, 0xea, sizeof(f->mem));
	memcpy(f->mem + 0x0400, prog, sizeof(prog));
	cpu_init(&c, 0x0400);
	TEST_EQ_LONG(flat_run(&x, &c, 100), 3, "run: stops after the watched write's instruction");
	TEST_EQ_LONG(c.x, 2, "run: registers kept when it stops");
	x.stop = 0;
	TEST_EQ_LONG(flat_run(&x, &c, 100), 2, "run: a jam ends the run, counted");
	TEST_OK(c.jammed && c.x == 3 && c.pc == 0x0406, "run: jammed at the jam opcode");
	TEST_EQ_LONG(flat_run(&x, &c, 100), -1, "run: nothing runs once jammed");
	TEST_EQ_LONG(flat_run(&x, &c, 0), -1, "run: max 0 on a jammed CPU");
	free(f);
}

static void test_functional(void)
{
	const char *dir = getenv("RLKIT_TESTDATA");
	char path[512];
	struct flat *f = flat_new();
	struct atari_cpu c;
	FILE *fp;
	long n;
	uint16_t last = 0;
	long steps = 0;

	snprintf(path, sizeof(path), "%s/6502/6502_functional_test.bin",
		 dir ? dir : "../shared/testdata");
	fp = fopen(path, "rb");
	if (!fp) {
		char why[1400], cwd[512] = "";

		if (!dir && !getcwd(cwd, sizeof(cwd)))
			cwd[0] = '\0';
		snprintf(why, sizeof(why), "%s%s%s not found (RLKIT_TESTDATA %s; set it to the "
			 "folder that has 6502/6502_functional_test.bin)", cwd, cwd[0] ? "/" : "",
			 path, dir ? "is set" : "is not set");
		test_skip(why, "functional test: every documented opcode, decimal mode included");
		free(f);
		return;
	}
	n = (long)fread(f->mem, 1, sizeof(f->mem), fp);
	memcpy(f->mem_orig, f->mem, sizeof(f->mem));
	fclose(fp);
	TEST_EQ_LONG(n, 65536, "functional test image is 64 KiB");
	cpu_init(&c, 0x0400);
	for (long i = 0; i < 200000000L; i++, steps++) {
		last = c.pc;
		f->nlog = 16;
		flat_exec(f, &c);
		if (c.pc == last)
			break;
	}
	if (!TEST_EQ_LONG(c.pc, 0x3469, "functional test: every documented opcode, decimal mode included"))
		printf("#   trapped at $%04x (see the test's listing)\n", c.pc);
	TEST_EQ_LONG((long)f->cycles, 96241367L,
		     "functional test: 96,241,367 cycles, as on the chip");
	test_functional_run(f, &c, steps + 1);	/* the trap ran once */
	free(f);
}

/* Cycle counts of the NMOS 6502 without page crossings or taken branches. */
static const uint8_t cycles_table[256] = {
	7, 6, 0, 8, 3, 3, 5, 5, 3, 2, 2, 2, 4, 4, 6, 6,
	2, 5, 0, 8, 4, 4, 6, 6, 2, 4, 2, 7, 4, 4, 7, 7,
	6, 6, 0, 8, 3, 3, 5, 5, 4, 2, 2, 2, 4, 4, 6, 6,
	2, 5, 0, 8, 4, 4, 6, 6, 2, 4, 2, 7, 4, 4, 7, 7,
	6, 6, 0, 8, 3, 3, 5, 5, 3, 2, 2, 2, 3, 4, 6, 6,
	2, 5, 0, 8, 4, 4, 6, 6, 2, 4, 2, 7, 4, 4, 7, 7,
	6, 6, 0, 8, 3, 3, 5, 5, 4, 2, 2, 2, 5, 4, 6, 6,
	2, 5, 0, 8, 4, 4, 6, 6, 2, 4, 2, 7, 4, 4, 7, 7,
	2, 6, 2, 6, 3, 3, 3, 3, 2, 2, 2, 2, 4, 4, 4, 4,
	2, 6, 0, 6, 4, 4, 4, 4, 2, 5, 2, 5, 5, 5, 5, 5,
	2, 6, 2, 6, 3, 3, 3, 3, 2, 2, 2, 2, 4, 4, 4, 4,
	2, 5, 0, 5, 4, 4, 4, 4, 2, 4, 2, 4, 4, 4, 4, 4,
	2, 6, 2, 8, 3, 3, 5, 5, 2, 2, 2, 2, 4, 4, 6, 6,
	2, 5, 0, 8, 4, 4, 6, 6, 2, 4, 2, 7, 4, 4, 7, 7,
	2, 6, 2, 8, 3, 3, 5, 5, 2, 2, 2, 2, 4, 4, 6, 6,
	2, 5, 0, 8, 4, 4, 6, 6, 2, 4, 2, 7, 4, 4, 7, 7,
};

static void test_cycles(void)
{
	struct flat *f = flat_new();
	int bad = 0, jams = 0;

	for (int opc = 0; opc < 256; opc++) {
		struct atari_cpu c;

		memset(f->mem, 0, sizeof(f->mem));
		f->mem[0x0200] = (uint8_t)opc;
		/* Operands $10 $00: no page crossing with X = Y = 0, and
		 * branches fall through with the flags chosen below. */
		f->mem[0x0201] = 0x10;
		f->mem[0x0202] = 0x00;
		cpu_init(&c, 0x0200);
		/* Branch conditions false: N=0 V=0 C=0 Z=0 for BMI/BVS/BCS/BEQ,
		 * set for BPL/BVC/BCC/BNE. */
		if ((opc & 0x1f) == 0x10 && !(opc & 0x20))
			c.p |= (uint8_t)((opc >> 6) == 0 ? ATARI_CPU_N : (opc >> 6) == 1 ?
					 ATARI_CPU_V : (opc >> 6) == 2 ? ATARI_CPU_C : ATARI_CPU_Z);
		f->cycles = 0;
		f->nlog = 16;
		flat_exec(f, &c);
		if (cycles_table[opc] == 0) {
			jams += c.jammed && f->cycles == 1;
			continue;
		}
		if (f->cycles != cycles_table[opc]) {
			printf("#   opcode $%02x: %llu cycles, want %d\n", opc,
			       (unsigned long long)f->cycles, cycles_table[opc]);
			bad++;
		}
	}
	TEST_EQ_LONG(bad, 0, "cycles: every opcode takes its data-sheet cycles");
	TEST_EQ_LONG(jams, 12, "jam: the 12 jam opcodes halt the CPU");
	free(f);
}

static void test_page_cross(void)
{
	struct flat *f = flat_new();
	struct atari_cpu c;

	/* LDA $10FF,X with X=1: 5 cycles, with a dummy read at $1000. */
	memset(f->mem, 0, sizeof(f->mem));
	memcpy(f->mem + 0x200, "\xbd\xff\x10", 3);
	f->mem[0x1100] = 0x42;
	cpu_init(&c, 0x200);
	c.x = 1;
	f->cycles = 0;
	f->nlog = 0;
	flat_exec(f, &c);
	TEST_EQ_LONG(f->cycles, 5, "page cross: LDA abs,X takes one more cycle");
	TEST_EQ_LONG(f->log_addr[3], 0x1000, "page cross: dummy read at the unfixed address");
	TEST_EQ_LONG(c.a, 0x42, "page cross: reads the fixed address");

	/* STA $80,X: dummy read of the base address, then the write. */
	memcpy(f->mem + 0x200, "\x95\x80", 2);
	cpu_init(&c, 0x200);
	c.x = 2;
	c.a = 7;
	f->nlog = 0;
	flat_exec(f, &c);
	TEST_OK(f->log_addr[2] == 0x80 && !f->log_write[2] && f->log_addr[3] == 0x82 &&
		f->log_write[3] && f->mem[0x82] == 7, "zero page,X: dummy read then write");

	/* INC $90: read, write back the old value, write the new one. */
	memcpy(f->mem + 0x200, "\xe6\x90", 2);
	f->mem[0x90] = 9;
	cpu_init(&c, 0x200);
	f->nlog = 0;
	flat_exec(f, &c);
	TEST_OK(f->nlog == 5 && f->log_write[3] && f->log_write[4] && f->mem[0x90] == 10,
		"read-modify-write: double write, as the chip does");

	/* Taken branch across a page: 4 cycles. */
	memset(f->mem, 0, sizeof(f->mem));
	memcpy(f->mem + 0x2f0, "\xd0\x20", 2);
	cpu_init(&c, 0x2f0);
	f->cycles = 0;
	flat_exec(f, &c);
	TEST_OK(f->cycles == 4 && c.pc == 0x312, "branch: taken across a page costs 4 cycles");
	free(f);
}

static void test_decimal_and_illegal(void)
{
	struct flat *f = flat_new();
	struct atari_cpu c;

	/* SED; LDA #$58; CLC; ADC #$46 -> $04 carry; SBC #$05 -> $98 borrow */
	memset(f->mem, 0, sizeof(f->mem));
	memcpy(f->mem + 0x200, "\xf8\xa9\x58\x18\x69\x46", 6);
	cpu_init(&c, 0x200);
	for (int i = 0; i < 4; i++)
		flat_exec(f, &c);
	TEST_OK(c.a == 0x04 && (c.p & ATARI_CPU_C), "decimal: $58 + $46 = $04 carry 1");
	memcpy(f->mem + 0x206, "\x18\xe9\x05", 3);
	flat_exec(f, &c);
	flat_exec(f, &c);
	TEST_OK(c.a == 0x98 && !(c.p & ATARI_CPU_C), "decimal: $04 - $05 - 1 = $98 borrow");

	/* LAX $80; SAX $81; DCP $82; ISB $83 */
	memset(f->mem, 0, sizeof(f->mem));
	memcpy(f->mem + 0x200, "\xa7\x80\xa2\x0f\x87\x81\xc7\x82\xe7\x83", 10);
	f->mem[0x80] = 0x3c;
	f->mem[0x82] = 0x3d;
	f->mem[0x83] = 0x01;
	cpu_init(&c, 0x200);
	flat_exec(f, &c);
	TEST_OK(c.a == 0x3c && c.x == 0x3c, "LAX: loads A and X");
	flat_exec(f, &c);
	flat_exec(f, &c);
	TEST_EQ_LONG(f->mem[0x81], 0x0c, "SAX: stores A AND X");
	flat_exec(f, &c);
	TEST_OK(f->mem[0x82] == 0x3c && (c.p & ATARI_CPU_Z) && (c.p & ATARI_CPU_C),
		"DCP: decrements and compares");
	c.p |= ATARI_CPU_C;
	flat_exec(f, &c);
	TEST_OK(f->mem[0x83] == 0x02 && c.a == 0x3a, "ISB: increments and subtracts");

	/* A jammed CPU stays jammed and costs no cycle. */
	memcpy(f->mem + 0x300, "\x02", 1);
	cpu_init(&c, 0x300);
	flat_exec(f, &c);
	f->cycles = 0;
	TEST_OK(flat_exec(f, &c) == -1 && f->cycles == 0, "jam: nothing runs afterwards");
	free(f);
}

int main(void)
{
	test_cycles();
	test_page_cross();
	test_decimal_and_illegal();
	test_run_stops();
#ifdef __GNUC__
	test_code_step_jump();
#endif
	test_functional();
	return test_done();
}
