/*
 * The 6502 instruction core (see atari/cpu.h), instantiated once per bus.
 * Before including this file, define:
 *
 *	CPU_EXEC_NAME		name of the function to define
 *	CPU_EXEC_CTX		type of the bus context
 *	CPU_READ(ctx, addr)	one bus read cycle, returns uint8_t
 *	CPU_WRITE(ctx, addr, v)	one bus write cycle
 *
 * and get
 *
 *	static HOSTDEV int CPU_EXEC_NAME(CPU_EXEC_CTX *ctx, struct atari_cpu *cpu);
 *
 * which executes one instruction and returns 0, or -1 when the CPU is
 * jammed (nothing executes then, and no cycle passes).
 *
 * With CPU_EXEC_STOP(ctx) also defined (true when the caller wants control
 * back; only a CPU_WRITE may make it true, and it is tested after each
 * instruction that writes), the function is instead
 *
 *	static HOSTDEV int CPU_EXEC_NAME(CPU_EXEC_CTX *ctx, struct atari_cpu *cpu,
 *					 int max);
 *
 * which executes instructions, keeping the registers in locals, until
 * CPU_EXEC_STOP holds, the CPU jams or `max` have run; it returns how
 * many ran (-1 when the CPU was jammed already).
 *
 * CPU_DUMMY_READ(ctx, addr), when defined, takes the reads whose value the
 * 6502 throws away and ALE's CPU does not make (the byte after an implied
 * instruction, the unindexed address before a page is crossed, a zero-page
 * base before its index is added, a taken branch's): one cycle each;
 * without it they are CPU_READ's.  The reads thrown away that ALE's CPU
 * does make (the stack before a pull and in JSR, the byte after RTS and
 * BRK) are CPU_READ's.
 *
 * CPU_WRITE_ZP(ctx, addr, v), when defined, is CPU_WRITE in the stores
 * to the zero page and the stack that a program writes the video chip's
 * registers with (STA, STX and STY to zero page, plain and indexed; PHA;
 * PHP), which the bus can then check for first.
 *
 * CPU_EXEC_SPIN(ctx, pc, n), when defined with CPU_EXEC_STOP, is asked
 * at every LDA, LDX, LDY and BIT absolute, its opcode fetched (pc: its
 * operand), whether the instruction starts a wait loop (LDA timer; BNE
 * back to it, and the like) whose next iterations the bus can pass over
 * without running them; it returns how many it passed over (at most n;
 * each counts as two instructions), and the instruction then runs as the
 * opcode fetch of the iteration after them.
 *
 * CPU_CODE, when defined with CPU_EXEC_STOP (and threaded dispatch, see
 * below), says that the bus can give the instruction stream from host
 * memory.  The program counter is then kept as a host address, ip, with
 * pc = ip - CPU_CODE_BIAS(ctx); an opcode below CPU_CODE_END(ctx) is read
 * at ip, with its operand bytes after it, each counted by
 * CPU_FETCHED(ctx, v) (which gives v), and a dummy read of the byte after
 * it by CPU_SKIPPED(ctx).  The bus sets CPU_CODE_END to 0 when what it
 * maps may have changed (a bank switch), CPU_CODE_JUMP(ctx, ip) does where
 * a jump leaves it, and CPU_CODE_MAP(ctx, ip) maps again, returning ip
 * for the same pc.  Where it cannot (CPU_CODE_END stays 0), the
 * instruction runs through CPU_READ, one at a time, in CPU_CODE_STEP(ctx,
 * cpu): this core without CPU_EXEC_STOP.
 *
 * CPU_EXEC_ATTR, when defined, qualifies the function (an inline
 * attribute, so that a bus context that is a caller's local stays in
 * registers).
 */
#include "atari/cpu.h"
#include "core/hostdev.h"

#define RD(addr) CPU_READ(ctx, (uint16_t)(addr))
#ifdef CPU_DUMMY_READ
#define DRD(addr) CPU_DUMMY_READ(ctx, (uint16_t)(addr))
#else
#define DRD(addr) ((void)RD(addr))
#endif
#define WR(addr, v) CPU_WRITE(ctx, (uint16_t)(addr), (uint8_t)(v))
#ifdef CPU_WRITE_ZP
#define WR_ZP(addr, v) CPU_WRITE_ZP(ctx, (uint16_t)(addr), (uint8_t)(v))
#else
#define WR_ZP(addr, v) WR(addr, v)
#endif
/*
 * The program counter: FETCH() reads the opcode at pc, RDPC() the next
 * byte of the instruction (both moving pc on), DRD_PC() is a dummy read
 * at pc (the byte after the opcode or the operand, before any other
 * read), PC_GET() and PC_SET(v) read and set pc, PC_INC() and PC_DEC()
 * move it by one.
 */
#ifdef CPU_CODE
#define PC_GET() ((uint16_t)(ip - CPU_CODE_BIAS(ctx)))
#define PC_SET(v) (ip = CPU_CODE_BIAS(ctx) + (uint16_t)(v), CPU_CODE_JUMP(ctx, ip))
#define PC_INC() (ip++)
#define PC_DEC() (ip--)
#define RDPC() CPU_FETCHED(ctx, *(const uint8_t *)ip++)
#define DRD_PC() ((void)CPU_SKIPPED(ctx))
#else
#define PC_GET() (pc)
#define PC_SET(v) (pc = (uint16_t)(v))
#define PC_INC() (pc++)
#define PC_DEC() (pc--)
#define RDPC() RD(pc++)
#define DRD_PC() DRD(pc)
#endif
/*
 * N and Z are kept apart from p, in `nz`, and worked out when they are
 * tested: most instructions set them, few read them.  Z is set when
 * bits 0-7 of nz are 0, N when bit 7 or 8 is set (a value pulled into P
 * can have both).  P_GET() gives P whole, P_SET() sets it.
 */
#define SETNZ(v) (nz = (uint8_t)(v))
#define FLAG_N (nz & 0x180)
#define FLAG_Z (!(nz & 0xff))
#define NZ_OF(f) ((((f) & ATARI_CPU_Z) ? 0u : 1u) | (((f) & ATARI_CPU_N) ? 0x100u : 0u))
#define P_GET() ((uint8_t)((p & ~(ATARI_CPU_N | ATARI_CPU_Z)) | \
	(FLAG_N ? ATARI_CPU_N : 0) | (FLAG_Z ? ATARI_CPU_Z : 0)))
#define P_SET(v) (p = (uint8_t)(v), nz = NZ_OF(p))
/* The registers from *cpu, and back into it. */
#define REGS_IN() (a = cpu->a, x = cpu->x, y = cpu->y, sp = cpu->sp, P_SET(cpu->p))
#define REGS_OUT() (cpu->pc = PC_GET(), cpu->a = a, cpu->x = x, cpu->y = y, cpu->sp = sp, \
	cpu->p = P_GET())
#define SETF(f, cond) (p = (uint8_t)((cond) ? (p | (f)) : (p & ~(f))))
#define FC (p & ATARI_CPU_C)

/* Addressing modes: each leaves the operand in `op` and/or the address in `ea`. */
#define M_IMP() DRD_PC()
#define M_IMM() (op = RDPC())
#define M_ZP_W() (ea = RDPC())
#define M_ZP_R() (M_ZP_W(), op = RD(ea))
#define M_ZP_M() (M_ZP_R(), WR(ea, op))
#define M_ZPI_W(r) (t8 = RDPC(), DRD(t8), ea = (uint8_t)(t8 + (r)))
#define M_ZPI_R(r) (M_ZPI_W(r), op = RD(ea))
#define M_ZPI_M(r) (M_ZPI_R(r), WR(ea, op))
#define M_ABS_W() (ea = RDPC(), ea |= (uint16_t)(RDPC() << 8))
#define M_ABS_R() (M_ABS_W(), op = RD(ea))
#define M_ABS_M() (M_ABS_R(), WR(ea, op))
#define M_ABI_R(r) (lo = RDPC(), hi = (uint16_t)(RDPC() << 8), \
	((lo + (r)) > 0xff ? (DRD(hi | (uint8_t)(lo + (r))), \
			      op = RD((uint16_t)((hi | lo) + (r)))) : \
			     (op = RD(hi | (uint8_t)(lo + (r))))))
#define M_ABI_W(r) (lo = RDPC(), hi = (uint16_t)(RDPC() << 8), \
	DRD(hi | (uint8_t)(lo + (r))), ea = (uint16_t)((hi | lo) + (r)))
#define M_ABI_M(r) (M_ABI_W(r), op = RD(ea), WR(ea, op))
#define M_INX_W() (t8 = RDPC(), DRD(t8), t8 = (uint8_t)(t8 + x), \
	ea = RD(t8), ea |= (uint16_t)(RD((uint8_t)(t8 + 1)) << 8))
#define M_INX_R() (M_INX_W(), op = RD(ea))
#define M_INX_M() (M_INX_R(), WR(ea, op))
#define M_INY_P() (t8 = RDPC(), lo = RD(t8), \
	hi = (uint16_t)(RD((uint8_t)(t8 + 1)) << 8))
#define M_INY_R() (M_INY_P(), \
	((lo + y) > 0xff ? (DRD(hi | (uint8_t)(lo + y)), op = RD((uint16_t)((hi | lo) + y))) : \
			   (op = RD(hi | (uint8_t)(lo + y)))))
#define M_INY_W() (M_INY_P(), DRD(hi | (uint8_t)(lo + y)), \
	ea = (uint16_t)((hi | lo) + y))
#define M_INY_M() (M_INY_W(), op = RD(ea), WR(ea, op))

/* The mode families: IMM, ZP, ZPX, ABS, ABX, ABY, INX, INY for reads. */
#define R_IMM M_IMM()
#define R_ZP M_ZP_R()
#define R_ZPX M_ZPI_R(x)
#define R_ZPY M_ZPI_R(y)
#define R_ABS M_ABS_R()
#define R_ABX M_ABI_R(x)
#define R_ABY M_ABI_R(y)
#define R_INX M_INX_R()
#define R_INY M_INY_R()
#define W_ZP M_ZP_W()
#define W_ZPX M_ZPI_W(x)
#define W_ZPY M_ZPI_W(y)
#define W_ABS M_ABS_W()
#define W_ABX M_ABI_W(x)
#define W_ABY M_ABI_W(y)
#define W_INX M_INX_W()
#define W_INY M_INY_W()
#define X_ZP M_ZP_M()
#define X_ZPX M_ZPI_M(x)
#define X_ABS M_ABS_M()
#define X_ABX M_ABI_M(x)
#define X_ABY M_ABI_M(y)
#define X_INX M_INX_M()
#define X_INY M_INY_M()

#define BCD_VAL(v) ((((v) >> 4) * 10) + ((v) & 0x0f))
#define BCD_ENC(t) ((uint8_t)(((((t) % 100) / 10) << 4) | ((t) % 10)))

#define OP_ADC() do { \
	if (!(p & ATARI_CPU_D)) { \
		int s_ = (int)(int8_t)a + (int)(int8_t)op + FC; \
		SETF(ATARI_CPU_V, s_ > 127 || s_ < -128); \
		s_ = a + op + FC; \
		a = (uint8_t)s_; \
		SETF(ATARI_CPU_C, s_ > 0xff); \
		SETNZ(a); \
	} else { \
		uint8_t olda_ = a; \
		int s_ = BCD_VAL(a) + BCD_VAL(op) + FC; \
		SETF(ATARI_CPU_C, s_ > 99); \
		a = BCD_ENC(s_ & 0xff); \
		SETNZ(a); \
		SETF(ATARI_CPU_V, ((olda_ ^ a) & 0x80) && ((a ^ op) & 0x80)); \
	} \
} while (0)

#define OP_SBC() do { \
	if (!(p & ATARI_CPU_D)) { \
		uint8_t o_ = (uint8_t)~op; \
		int s_ = (int)(int8_t)a + (int)(int8_t)o_ + FC; \
		SETF(ATARI_CPU_V, s_ > 127 || s_ < -128); \
		s_ = a + o_ + FC; \
		a = (uint8_t)s_; \
		SETF(ATARI_CPU_C, s_ > 0xff); \
		SETNZ(a); \
	} else { \
		uint8_t olda_ = a; \
		int borrow_ = FC ? 0 : 1; \
		int d_ = BCD_VAL(a) - BCD_VAL(op) - borrow_; \
		while (d_ < 0) \
			d_ += 100; \
		a = BCD_ENC(d_); \
		SETNZ(a); \
		SETF(ATARI_CPU_C, olda_ >= op + borrow_); \
		SETF(ATARI_CPU_V, ((olda_ ^ a) & 0x80) && ((a ^ op) & 0x80)); \
	} \
} while (0)

#define OP_CMP(r) do { \
	unsigned v_ = (unsigned)(r) - (unsigned)op; \
	SETNZ(v_ & 0xff); \
	SETF(ATARI_CPU_C, !(v_ & 0x100)); \
} while (0)

#define OP_ASL() (SETF(ATARI_CPU_C, op & 0x80), op = (uint8_t)(op << 1), WR(ea, op), SETNZ(op))
#define OP_LSR() (SETF(ATARI_CPU_C, op & 0x01), op = (uint8_t)(op >> 1), WR(ea, op), SETNZ(op))
#define OP_ROL() (t8 = (uint8_t)FC, SETF(ATARI_CPU_C, op & 0x80), \
	op = (uint8_t)((op << 1) | t8), WR(ea, op), SETNZ(op))
#define OP_ROR() (t8 = (uint8_t)(FC ? 0x80 : 0), SETF(ATARI_CPU_C, op & 0x01), \
	op = (uint8_t)((op >> 1) | t8), WR(ea, op), SETNZ(op))
#define OP_INC() (op = (uint8_t)(op + 1), WR(ea, op), SETNZ(op))
#define OP_DEC() (op = (uint8_t)(op - 1), WR(ea, op), SETNZ(op))

#define BRANCH(cond) do { \
	op = RDPC(); \
	if (cond) { \
		uint16_t t_ = (uint16_t)(PC_GET() + (int8_t)op); \
		DRD_PC(); \
		if ((PC_GET() ^ t_) & 0xff00) \
			DRD((PC_GET() & 0xff00) | (t_ & 0x00ff)); \
		PC_SET(t_); \
	} \
} while (0)

#ifndef CPU_EXEC_ATTR
#define CPU_EXEC_ATTR
#endif

/*
 * Dispatch.  Where the compiler takes labels as values (GCC, clang) and
 * the function runs many instructions, each instruction ends with its own
 * jump to the next one's label ("threaded" dispatch), which the branch
 * predictor learns per opcode instead of through one shared jump; else
 * (CUDA, other compilers, one instruction per call) a switch.  Both run
 * the same statements: OP(n) starts opcode n, NEXT ends it (NEXT_W when
 * it wrote: only a write can make CPU_EXEC_STOP true), END_JAM ends the
 * jam.
 */
/* At a load or BIT absolute, its opcode fetched: the wait loop's
 * iterations the bus passes over (CPU_EXEC_SPIN), two instructions each. */
#if defined(CPU_EXEC_SPIN) && defined(CPU_EXEC_STOP)
#define SPIN() (left -= 2 * CPU_EXEC_SPIN(ctx, PC_GET(), (left - 1) / 2))
#else
#define SPIN() ((void)0)
#endif
#if defined(CPU_EXEC_STOP) && defined(__GNUC__) && !defined(__CUDA_ARCH__)
#define CPU_EXEC_THREADED 1
#define OP(n) L_##n:
#define OP_JAM L_jam:
#ifdef CPU_CODE
#define DISPATCH() do { \
	if (ip < CPU_CODE_END(ctx)) \
		goto *disp_[RDPC()]; \
	goto code_map_; \
} while (0)
#else
#define DISPATCH() goto *disp_[RDPC()]
#endif
#define NEXT do { \
	if (--left <= 0) \
		goto out_; \
	DISPATCH(); \
} while (0)
#define NEXT_W do { \
	if (--left <= 0 || CPU_EXEC_STOP(ctx)) \
		goto out_; \
	DISPATCH(); \
} while (0)
#define END_JAM do { left--; goto out_; } while (0)
#else
#ifdef CPU_CODE
#error "CPU_CODE needs threaded dispatch"
#endif
#define CPU_EXEC_THREADED 0
#define OP(n) case n:
#define OP_JAM default:
#define NEXT break
#define NEXT_W break
#define END_JAM break
#endif

#ifdef CPU_EXEC_STOP
#ifdef CPU_EXEC_CTX_COPY
static HOSTDEV CPU_EXEC_ATTR int CPU_EXEC_NAME(CPU_EXEC_CTX *ctx_in_, struct atari_cpu *cpu, int max)
#else
static HOSTDEV CPU_EXEC_ATTR int CPU_EXEC_NAME(CPU_EXEC_CTX *ctx, struct atari_cpu *cpu, int max)
#endif
#else
static HOSTDEV CPU_EXEC_ATTR int CPU_EXEC_NAME(CPU_EXEC_CTX *ctx, struct atari_cpu *cpu)
#endif
{
#ifdef CPU_CODE
	uintptr_t ip;
	uint16_t ea = 0, lo, hi;
#else
	uint16_t pc = cpu->pc, ea = 0, lo, hi;
#endif
	uint8_t a, x, y, sp, p;
	unsigned nz;
	uint8_t op = 0, t8, jammed = 0;
#ifdef CPU_EXEC_STOP
	int left = max;		/* instructions left to run */
#endif
#ifdef CPU_EXEC_CTX_COPY
	CPU_EXEC_CTX ctx_copy_ = *ctx_in_, *ctx = &ctx_copy_;
#endif

	if (cpu->jammed)
		return -1;
	REGS_IN();
#ifdef CPU_CODE
	ip = CPU_CODE_BIAS(ctx) + cpu->pc;
	CPU_CODE_JUMP(ctx, ip);
#endif
#if CPU_EXEC_THREADED
	/* Opcode -> label; opcodes that jam go to L_jam.  Not static, so
	 * that the function can still be inlined into its caller. */
	const void *disp_[256] = {
		&&L_0x00, &&L_0x01, &&L_jam, &&L_0x03, &&L_0x04, &&L_0x05, &&L_0x06, &&L_0x07,
		&&L_0x08, &&L_0x09, &&L_0x0a, &&L_0x0b, &&L_0x0c, &&L_0x0d, &&L_0x0e, &&L_0x0f,
		&&L_0x10, &&L_0x11, &&L_jam, &&L_0x13, &&L_0x14, &&L_0x15, &&L_0x16, &&L_0x17,
		&&L_0x18, &&L_0x19, &&L_0x1a, &&L_0x1b, &&L_0x1c, &&L_0x1d, &&L_0x1e, &&L_0x1f,
		&&L_0x20, &&L_0x21, &&L_jam, &&L_0x23, &&L_0x24, &&L_0x25, &&L_0x26, &&L_0x27,
		&&L_0x28, &&L_0x29, &&L_0x2a, &&L_0x2b, &&L_0x2c, &&L_0x2d, &&L_0x2e, &&L_0x2f,
		&&L_0x30, &&L_0x31, &&L_jam, &&L_0x33, &&L_0x34, &&L_0x35, &&L_0x36, &&L_0x37,
		&&L_0x38, &&L_0x39, &&L_0x3a, &&L_0x3b, &&L_0x3c, &&L_0x3d, &&L_0x3e, &&L_0x3f,
		&&L_0x40, &&L_0x41, &&L_jam, &&L_0x43, &&L_0x44, &&L_0x45, &&L_0x46, &&L_0x47,
		&&L_0x48, &&L_0x49, &&L_0x4a, &&L_0x4b, &&L_0x4c, &&L_0x4d, &&L_0x4e, &&L_0x4f,
		&&L_0x50, &&L_0x51, &&L_jam, &&L_0x53, &&L_0x54, &&L_0x55, &&L_0x56, &&L_0x57,
		&&L_0x58, &&L_0x59, &&L_0x5a, &&L_0x5b, &&L_0x5c, &&L_0x5d, &&L_0x5e, &&L_0x5f,
		&&L_0x60, &&L_0x61, &&L_jam, &&L_0x63, &&L_0x64, &&L_0x65, &&L_0x66, &&L_0x67,
		&&L_0x68, &&L_0x69, &&L_0x6a, &&L_0x6b, &&L_0x6c, &&L_0x6d, &&L_0x6e, &&L_0x6f,
		&&L_0x70, &&L_0x71, &&L_jam, &&L_0x73, &&L_0x74, &&L_0x75, &&L_0x76, &&L_0x77,
		&&L_0x78, &&L_0x79, &&L_0x7a, &&L_0x7b, &&L_0x7c, &&L_0x7d, &&L_0x7e, &&L_0x7f,
		&&L_0x80, &&L_0x81, &&L_0x82, &&L_0x83, &&L_0x84, &&L_0x85, &&L_0x86, &&L_0x87,
		&&L_0x88, &&L_0x89, &&L_0x8a, &&L_0x8b, &&L_0x8c, &&L_0x8d, &&L_0x8e, &&L_0x8f,
		&&L_0x90, &&L_0x91, &&L_jam, &&L_0x93, &&L_0x94, &&L_0x95, &&L_0x96, &&L_0x97,
		&&L_0x98, &&L_0x99, &&L_0x9a, &&L_0x9b, &&L_0x9c, &&L_0x9d, &&L_0x9e, &&L_0x9f,
		&&L_0xa0, &&L_0xa1, &&L_0xa2, &&L_0xa3, &&L_0xa4, &&L_0xa5, &&L_0xa6, &&L_0xa7,
		&&L_0xa8, &&L_0xa9, &&L_0xaa, &&L_0xab, &&L_0xac, &&L_0xad, &&L_0xae, &&L_0xaf,
		&&L_0xb0, &&L_0xb1, &&L_jam, &&L_0xb3, &&L_0xb4, &&L_0xb5, &&L_0xb6, &&L_0xb7,
		&&L_0xb8, &&L_0xb9, &&L_0xba, &&L_0xbb, &&L_0xbc, &&L_0xbd, &&L_0xbe, &&L_0xbf,
		&&L_0xc0, &&L_0xc1, &&L_0xc2, &&L_0xc3, &&L_0xc4, &&L_0xc5, &&L_0xc6, &&L_0xc7,
		&&L_0xc8, &&L_0xc9, &&L_0xca, &&L_0xcb, &&L_0xcc, &&L_0xcd, &&L_0xce, &&L_0xcf,
		&&L_0xd0, &&L_0xd1, &&L_jam, &&L_0xd3, &&L_0xd4, &&L_0xd5, &&L_0xd6, &&L_0xd7,
		&&L_0xd8, &&L_0xd9, &&L_0xda, &&L_0xdb, &&L_0xdc, &&L_0xdd, &&L_0xde, &&L_0xdf,
		&&L_0xe0, &&L_0xe1, &&L_0xe2, &&L_0xe3, &&L_0xe4, &&L_0xe5, &&L_0xe6, &&L_0xe7,
		&&L_0xe8, &&L_0xe9, &&L_0xea, &&L_0xeb, &&L_0xec, &&L_0xed, &&L_0xee, &&L_0xef,
		&&L_0xf0, &&L_0xf1, &&L_jam, &&L_0xf3, &&L_0xf4, &&L_0xf5, &&L_0xf6, &&L_0xf7,
		&&L_0xf8, &&L_0xf9, &&L_0xfa, &&L_0xfb, &&L_0xfc, &&L_0xfd, &&L_0xfe, &&L_0xff,
	};

	if (left <= 0)
		goto out_;
	DISPATCH();
#ifdef CPU_CODE
code_map_:
	/* The fetch found ip past the code mapped: map it again, or run
	 * the instruction through the bus. */
	ip = CPU_CODE_MAP(ctx, ip);
	if (ip < CPU_CODE_END(ctx))
		goto *disp_[RDPC()];
	{
		CPU_EXEC_CTX step_ = *ctx;

		REGS_OUT();
		(void)CPU_CODE_STEP(&step_, cpu);
		*ctx = step_;
		/* Where it went is checked as a jump's target: the step may
		 * have been an instruction in the last bytes of the code
		 * mapped. */
		ip = CPU_CODE_BIAS(ctx) + cpu->pc;
		CPU_CODE_JUMP(ctx, ip);
		REGS_IN();
		jammed = cpu->jammed;
		cpu->jammed = 0;
	}
	if (jammed)
		END_JAM;
	NEXT_W;
#endif
	{
#else
#ifdef CPU_EXEC_STOP
	while (left > 0) {
#endif
	switch (RDPC()) {
#endif
	/* Loads, stores and transfers. */
	OP(0xa9) R_IMM; a = op; SETNZ(a); NEXT;
	OP(0xa5) R_ZP; a = op; SETNZ(a); NEXT;
	OP(0xb5) R_ZPX; a = op; SETNZ(a); NEXT;
	OP(0xad) SPIN(); R_ABS; a = op; SETNZ(a); NEXT;
	OP(0xbd) R_ABX; a = op; SETNZ(a); NEXT;
	OP(0xb9) R_ABY; a = op; SETNZ(a); NEXT;
	OP(0xa1) R_INX; a = op; SETNZ(a); NEXT;
	OP(0xb1) R_INY; a = op; SETNZ(a); NEXT;
	OP(0xa2) R_IMM; x = op; SETNZ(x); NEXT;
	OP(0xa6) R_ZP; x = op; SETNZ(x); NEXT;
	OP(0xb6) R_ZPY; x = op; SETNZ(x); NEXT;
	OP(0xae) SPIN(); R_ABS; x = op; SETNZ(x); NEXT;
	OP(0xbe) R_ABY; x = op; SETNZ(x); NEXT;
	OP(0xa0) R_IMM; y = op; SETNZ(y); NEXT;
	OP(0xa4) R_ZP; y = op; SETNZ(y); NEXT;
	OP(0xb4) R_ZPX; y = op; SETNZ(y); NEXT;
	OP(0xac) SPIN(); R_ABS; y = op; SETNZ(y); NEXT;
	OP(0xbc) R_ABX; y = op; SETNZ(y); NEXT;
	OP(0x85) W_ZP; WR_ZP(ea, a); NEXT_W;
	OP(0x95) W_ZPX; WR_ZP(ea, a); NEXT_W;
	OP(0x8d) W_ABS; WR(ea, a); NEXT_W;
	OP(0x9d) W_ABX; WR(ea, a); NEXT_W;
	OP(0x99) W_ABY; WR(ea, a); NEXT_W;
	OP(0x81) W_INX; WR(ea, a); NEXT_W;
	OP(0x91) W_INY; WR(ea, a); NEXT_W;
	OP(0x86) W_ZP; WR_ZP(ea, x); NEXT_W;
	OP(0x96) W_ZPY; WR_ZP(ea, x); NEXT_W;
	OP(0x8e) W_ABS; WR(ea, x); NEXT_W;
	OP(0x84) W_ZP; WR_ZP(ea, y); NEXT_W;
	OP(0x94) W_ZPX; WR_ZP(ea, y); NEXT_W;
	OP(0x8c) W_ABS; WR(ea, y); NEXT_W;
	OP(0xaa) M_IMP(); x = a; SETNZ(x); NEXT;
	OP(0xa8) M_IMP(); y = a; SETNZ(y); NEXT;
	OP(0xba) M_IMP(); x = sp; SETNZ(x); NEXT;
	OP(0x8a) M_IMP(); a = x; SETNZ(a); NEXT;
	OP(0x9a) M_IMP(); sp = x; NEXT;
	OP(0x98) M_IMP(); a = y; SETNZ(a); NEXT;

	/* Logic and arithmetic. */
	OP(0x29) R_IMM; a &= op; SETNZ(a); NEXT;
	OP(0x25) R_ZP; a &= op; SETNZ(a); NEXT;
	OP(0x35) R_ZPX; a &= op; SETNZ(a); NEXT;
	OP(0x2d) R_ABS; a &= op; SETNZ(a); NEXT;
	OP(0x3d) R_ABX; a &= op; SETNZ(a); NEXT;
	OP(0x39) R_ABY; a &= op; SETNZ(a); NEXT;
	OP(0x21) R_INX; a &= op; SETNZ(a); NEXT;
	OP(0x31) R_INY; a &= op; SETNZ(a); NEXT;
	OP(0x09) R_IMM; a |= op; SETNZ(a); NEXT;
	OP(0x05) R_ZP; a |= op; SETNZ(a); NEXT;
	OP(0x15) R_ZPX; a |= op; SETNZ(a); NEXT;
	OP(0x0d) R_ABS; a |= op; SETNZ(a); NEXT;
	OP(0x1d) R_ABX; a |= op; SETNZ(a); NEXT;
	OP(0x19) R_ABY; a |= op; SETNZ(a); NEXT;
	OP(0x01) R_INX; a |= op; SETNZ(a); NEXT;
	OP(0x11) R_INY; a |= op; SETNZ(a); NEXT;
	OP(0x49) R_IMM; a ^= op; SETNZ(a); NEXT;
	OP(0x45) R_ZP; a ^= op; SETNZ(a); NEXT;
	OP(0x55) R_ZPX; a ^= op; SETNZ(a); NEXT;
	OP(0x4d) R_ABS; a ^= op; SETNZ(a); NEXT;
	OP(0x5d) R_ABX; a ^= op; SETNZ(a); NEXT;
	OP(0x59) R_ABY; a ^= op; SETNZ(a); NEXT;
	OP(0x41) R_INX; a ^= op; SETNZ(a); NEXT;
	OP(0x51) R_INY; a ^= op; SETNZ(a); NEXT;
	OP(0x69) R_IMM; OP_ADC(); NEXT;
	OP(0x65) R_ZP; OP_ADC(); NEXT;
	OP(0x75) R_ZPX; OP_ADC(); NEXT;
	OP(0x6d) R_ABS; OP_ADC(); NEXT;
	OP(0x7d) R_ABX; OP_ADC(); NEXT;
	OP(0x79) R_ABY; OP_ADC(); NEXT;
	OP(0x61) R_INX; OP_ADC(); NEXT;
	OP(0x71) R_INY; OP_ADC(); NEXT;
	OP(0xe9) OP(0xeb) R_IMM; OP_SBC(); NEXT;
	OP(0xe5) R_ZP; OP_SBC(); NEXT;
	OP(0xf5) R_ZPX; OP_SBC(); NEXT;
	OP(0xed) R_ABS; OP_SBC(); NEXT;
	OP(0xfd) R_ABX; OP_SBC(); NEXT;
	OP(0xf9) R_ABY; OP_SBC(); NEXT;
	OP(0xe1) R_INX; OP_SBC(); NEXT;
	OP(0xf1) R_INY; OP_SBC(); NEXT;
	OP(0xc9) R_IMM; OP_CMP(a); NEXT;
	OP(0xc5) R_ZP; OP_CMP(a); NEXT;
	OP(0xd5) R_ZPX; OP_CMP(a); NEXT;
	OP(0xcd) R_ABS; OP_CMP(a); NEXT;
	OP(0xdd) R_ABX; OP_CMP(a); NEXT;
	OP(0xd9) R_ABY; OP_CMP(a); NEXT;
	OP(0xc1) R_INX; OP_CMP(a); NEXT;
	OP(0xd1) R_INY; OP_CMP(a); NEXT;
	OP(0xe0) R_IMM; OP_CMP(x); NEXT;
	OP(0xe4) R_ZP; OP_CMP(x); NEXT;
	OP(0xec) R_ABS; OP_CMP(x); NEXT;
	OP(0xc0) R_IMM; OP_CMP(y); NEXT;
	OP(0xc4) R_ZP; OP_CMP(y); NEXT;
	OP(0xcc) R_ABS; OP_CMP(y); NEXT;
	OP(0x24) R_ZP; goto bit;
	OP(0x2c) SPIN(); R_ABS;
	bit:
		nz = ((a & op) ? 1u : 0u) | ((op & 0x80) ? 0x100u : 0u);
		p = (uint8_t)((p & ~ATARI_CPU_V) | (op & 0x40));
		NEXT;

	/* Read-modify-write. */
	OP(0x0a) M_IMP(); SETF(ATARI_CPU_C, a & 0x80); a = (uint8_t)(a << 1); SETNZ(a); NEXT;
	OP(0x06) X_ZP; OP_ASL(); NEXT_W;
	OP(0x16) X_ZPX; OP_ASL(); NEXT_W;
	OP(0x0e) X_ABS; OP_ASL(); NEXT_W;
	OP(0x1e) X_ABX; OP_ASL(); NEXT_W;
	OP(0x4a) M_IMP(); SETF(ATARI_CPU_C, a & 0x01); a = (uint8_t)(a >> 1); SETNZ(a); NEXT;
	OP(0x46) X_ZP; OP_LSR(); NEXT_W;
	OP(0x56) X_ZPX; OP_LSR(); NEXT_W;
	OP(0x4e) X_ABS; OP_LSR(); NEXT_W;
	OP(0x5e) X_ABX; OP_LSR(); NEXT_W;
	OP(0x2a) M_IMP(); t8 = (uint8_t)FC; SETF(ATARI_CPU_C, a & 0x80);
		a = (uint8_t)((a << 1) | t8); SETNZ(a); NEXT;
	OP(0x26) X_ZP; OP_ROL(); NEXT_W;
	OP(0x36) X_ZPX; OP_ROL(); NEXT_W;
	OP(0x2e) X_ABS; OP_ROL(); NEXT_W;
	OP(0x3e) X_ABX; OP_ROL(); NEXT_W;
	OP(0x6a) M_IMP(); t8 = (uint8_t)(FC ? 0x80 : 0); SETF(ATARI_CPU_C, a & 0x01);
		a = (uint8_t)((a >> 1) | t8); SETNZ(a); NEXT;
	OP(0x66) X_ZP; OP_ROR(); NEXT_W;
	OP(0x76) X_ZPX; OP_ROR(); NEXT_W;
	OP(0x6e) X_ABS; OP_ROR(); NEXT_W;
	OP(0x7e) X_ABX; OP_ROR(); NEXT_W;
	OP(0xe6) X_ZP; OP_INC(); NEXT_W;
	OP(0xf6) X_ZPX; OP_INC(); NEXT_W;
	OP(0xee) X_ABS; OP_INC(); NEXT_W;
	OP(0xfe) X_ABX; OP_INC(); NEXT_W;
	OP(0xc6) X_ZP; OP_DEC(); NEXT_W;
	OP(0xd6) X_ZPX; OP_DEC(); NEXT_W;
	OP(0xce) X_ABS; OP_DEC(); NEXT_W;
	OP(0xde) X_ABX; OP_DEC(); NEXT_W;
	OP(0xe8) M_IMP(); x++; SETNZ(x); NEXT;
	OP(0xc8) M_IMP(); y++; SETNZ(y); NEXT;
	OP(0xca) M_IMP(); x--; SETNZ(x); NEXT;
	OP(0x88) M_IMP(); y--; SETNZ(y); NEXT;

	/* Flags. */
	OP(0x18) M_IMP(); p &= (uint8_t)~ATARI_CPU_C; NEXT;
	OP(0x38) M_IMP(); p |= ATARI_CPU_C; NEXT;
	OP(0x58) M_IMP(); p &= (uint8_t)~ATARI_CPU_I; NEXT;
	OP(0x78) M_IMP(); p |= ATARI_CPU_I; NEXT;
	OP(0xd8) M_IMP(); p &= (uint8_t)~ATARI_CPU_D; NEXT;
	OP(0xf8) M_IMP(); p |= ATARI_CPU_D; NEXT;
	OP(0xb8) M_IMP(); p &= (uint8_t)~ATARI_CPU_V; NEXT;

	/* Branches, jumps, stack. */
	OP(0x10) BRANCH(!FLAG_N); NEXT;
	OP(0x30) BRANCH(FLAG_N); NEXT;
	OP(0x50) BRANCH(!(p & ATARI_CPU_V)); NEXT;
	OP(0x70) BRANCH(p & ATARI_CPU_V); NEXT;
	OP(0x90) BRANCH(!(p & ATARI_CPU_C)); NEXT;
	OP(0xb0) BRANCH(p & ATARI_CPU_C); NEXT;
	OP(0xd0) BRANCH(!FLAG_Z); NEXT;
	OP(0xf0) BRANCH(FLAG_Z); NEXT;
	OP(0x4c) W_ABS; PC_SET(ea); NEXT;
	OP(0x6c)
		W_ABS;
		lo = RD(ea);
		hi = RD(((ea + 1) & 0x00ff) | (ea & 0xff00));
		PC_SET(lo | (hi << 8));
		NEXT;
	OP(0x20)
		lo = RDPC();
		(void)RD(0x100 + sp);
		WR(0x100 + sp, PC_GET() >> 8); sp--;
		WR(0x100 + sp, PC_GET() & 0xff); sp--;
		PC_SET(lo | (RD(PC_GET()) << 8));
		NEXT_W;
	OP(0x60)
		M_IMP();
		(void)RD(0x100 + sp); sp++;
		lo = RD(0x100 + sp); sp++;
		PC_SET(lo | (RD(0x100 + sp) << 8));
		(void)RD(PC_GET());
		PC_INC();
		NEXT;
	OP(0x40)
		M_IMP();
		(void)RD(0x100 + sp); sp++;
		P_SET(RD(0x100 + sp) | ATARI_CPU_B | ATARI_CPU_U); sp++;
		lo = RD(0x100 + sp); sp++;
		PC_SET(lo | (RD(0x100 + sp) << 8));
		NEXT;
	OP(0x00)
		(void)RDPC();
		WR(0x100 + sp, PC_GET() >> 8); sp--;
		WR(0x100 + sp, PC_GET() & 0xff); sp--;
		WR(0x100 + sp, P_GET() | ATARI_CPU_B | ATARI_CPU_U); sp--;
		p |= ATARI_CPU_I;
		lo = RD(0xfffe);
		PC_SET(lo | (RD(0xffff) << 8));
		NEXT_W;
	OP(0x48) M_IMP(); WR_ZP(0x100 + sp, a); sp--; NEXT_W;
	OP(0x08) M_IMP(); WR_ZP(0x100 + sp, P_GET() | ATARI_CPU_B | ATARI_CPU_U); sp--; NEXT_W;
	OP(0x68) M_IMP(); (void)RD(0x100 + sp); sp++; a = RD(0x100 + sp); SETNZ(a); NEXT;
	OP(0x28) M_IMP(); (void)RD(0x100 + sp); sp++;
		P_SET(RD(0x100 + sp) | ATARI_CPU_B | ATARI_CPU_U); NEXT;

	/* No-operations, documented and not. */
	OP(0xea) OP(0x1a) OP(0x3a) OP(0x5a) OP(0x7a) OP(0xda) OP(0xfa)
		M_IMP(); NEXT;
	OP(0x80) OP(0x82) OP(0x89) OP(0xc2) OP(0xe2) R_IMM; NEXT;
	OP(0x04) OP(0x44) OP(0x64) R_ZP; NEXT;
	OP(0x14) OP(0x34) OP(0x54) OP(0x74) OP(0xd4) OP(0xf4) R_ZPX; NEXT;
	OP(0x0c) R_ABS; NEXT;
	OP(0x1c) OP(0x3c) OP(0x5c) OP(0x7c) OP(0xdc) OP(0xfc) R_ABX; NEXT;

	/* Undocumented combined operations. */
	OP(0x0b) OP(0x2b) R_IMM; a &= op; SETNZ(a); SETF(ATARI_CPU_C, a & 0x80); NEXT;
	OP(0x4b) R_IMM; a &= op; SETF(ATARI_CPU_C, a & 1); a = (uint8_t)(a >> 1); SETNZ(a); NEXT;
	OP(0x6b) R_IMM;
		if (!(p & ATARI_CPU_D)) {
			a &= op;
			a = (uint8_t)((a >> 1) | (FC ? 0x80 : 0));
			SETF(ATARI_CPU_C, a & 0x40);
			SETF(ATARI_CPU_V, (a & 0x40) ^ ((a & 0x20) << 1));
			SETNZ(a);
		} else {
			uint8_t v = a & op;
			a = (uint8_t)((v >> 1) | (FC ? 0x80 : 0));
			nz = (a ? 1u : 0u) | (FC ? 0x100u : 0u);
			SETF(ATARI_CPU_V, (v ^ a) & 0x40);
			if (((v & 0x0f) + (v & 0x01)) > 0x05)
				a = (uint8_t)((a & 0xf0) | ((a + 0x06) & 0x0f));
			if (((v & 0xf0) + (v & 0x10)) > 0x50) {
				a = (uint8_t)(a + 0x60);
				p |= ATARI_CPU_C;
			} else {
				p &= (uint8_t)~ATARI_CPU_C;
			}
		}
		NEXT;
	OP(0x8b) R_IMM; a = (uint8_t)((a | 0xee) & x & op); SETNZ(a); NEXT;
	OP(0xab) R_IMM; a = x = (uint8_t)((a | 0xee) & op); SETNZ(a); NEXT;
	OP(0xcb) R_IMM; {
			unsigned v = (unsigned)(x & a) - op;
			x = (uint8_t)v;
			SETNZ(x);
			SETF(ATARI_CPU_C, !(v & 0x100));
		}
		NEXT;
	OP(0xbb) R_ABY; a = x = sp = sp & op; SETNZ(a); NEXT;
	OP(0xaf) R_ABS; a = x = op; SETNZ(a); NEXT;
	OP(0xbf) R_ABY; a = x = op; SETNZ(a); NEXT;
	OP(0xa7) R_ZP; a = x = op; SETNZ(a); NEXT;
	OP(0xb7) R_ZPY; a = x = op; SETNZ(a); NEXT;
	OP(0xa3) R_INX; a = x = op; SETNZ(a); NEXT;
	OP(0xb3) R_INY; a = x = op; SETNZ(a); NEXT;
	OP(0x8f) W_ABS; WR(ea, a & x); NEXT_W;
	OP(0x87) W_ZP; WR(ea, a & x); NEXT_W;
	OP(0x97) W_ZPY; WR(ea, a & x); NEXT_W;
	OP(0x83) W_INX; WR(ea, a & x); NEXT_W;
	OP(0x9f) W_ABY; WR(ea, a & x & (((ea >> 8) & 0xff) + 1)); NEXT_W;
	OP(0x93) W_INY; WR(ea, a & x & (((ea >> 8) & 0xff) + 1)); NEXT_W;
	OP(0x9b) W_ABY; sp = a & x; WR(ea, a & x & (((ea >> 8) & 0xff) + 1)); NEXT_W;
	OP(0x9e) W_ABY; WR(ea, x & (((ea >> 8) & 0xff) + 1)); NEXT_W;
	OP(0x9c) W_ABX; WR(ea, y & (((ea >> 8) & 0xff) + 1)); NEXT_W;

#define SLO() (SETF(ATARI_CPU_C, op & 0x80), op = (uint8_t)(op << 1), WR(ea, op), a |= op, SETNZ(a))
#define RLA() (t8 = (uint8_t)((op << 1) | FC), WR(ea, t8), a &= t8, \
	SETF(ATARI_CPU_C, op & 0x80), SETNZ(a))
#define SRE() (SETF(ATARI_CPU_C, op & 0x01), op = (uint8_t)(op >> 1), WR(ea, op), a ^= op, SETNZ(a))
#define RRA() do { t8 = (uint8_t)(FC ? 0x80 : 0); SETF(ATARI_CPU_C, op & 0x01); \
	op = (uint8_t)((op >> 1) | t8); WR(ea, op); OP_ADC(); } while (0)
#define DCP() do { op = (uint8_t)(op - 1); WR(ea, op); OP_CMP(a); } while (0)
#define ISB() do { op = (uint8_t)(op + 1); WR(ea, op); OP_SBC(); } while (0)
	OP(0x07) X_ZP; SLO(); NEXT_W;
	OP(0x17) X_ZPX; SLO(); NEXT_W;
	OP(0x0f) X_ABS; SLO(); NEXT_W;
	OP(0x1f) X_ABX; SLO(); NEXT_W;
	OP(0x1b) X_ABY; SLO(); NEXT_W;
	OP(0x03) X_INX; SLO(); NEXT_W;
	OP(0x13) X_INY; SLO(); NEXT_W;
	OP(0x27) X_ZP; RLA(); NEXT_W;
	OP(0x37) X_ZPX; RLA(); NEXT_W;
	OP(0x2f) X_ABS; RLA(); NEXT_W;
	OP(0x3f) X_ABX; RLA(); NEXT_W;
	OP(0x3b) X_ABY; RLA(); NEXT_W;
	OP(0x23) X_INX; RLA(); NEXT_W;
	OP(0x33) X_INY; RLA(); NEXT_W;
	OP(0x47) X_ZP; SRE(); NEXT_W;
	OP(0x57) X_ZPX; SRE(); NEXT_W;
	OP(0x4f) X_ABS; SRE(); NEXT_W;
	OP(0x5f) X_ABX; SRE(); NEXT_W;
	OP(0x5b) X_ABY; SRE(); NEXT_W;
	OP(0x43) X_INX; SRE(); NEXT_W;
	OP(0x53) X_INY; SRE(); NEXT_W;
	OP(0x67) X_ZP; RRA(); NEXT_W;
	OP(0x77) X_ZPX; RRA(); NEXT_W;
	OP(0x6f) X_ABS; RRA(); NEXT_W;
	OP(0x7f) X_ABX; RRA(); NEXT_W;
	OP(0x7b) X_ABY; RRA(); NEXT_W;
	OP(0x63) X_INX; RRA(); NEXT_W;
	OP(0x73) X_INY; RRA(); NEXT_W;
	OP(0xc7) X_ZP; DCP(); NEXT_W;
	OP(0xd7) X_ZPX; DCP(); NEXT_W;
	OP(0xcf) X_ABS; DCP(); NEXT_W;
	OP(0xdf) X_ABX; DCP(); NEXT_W;
	OP(0xdb) X_ABY; DCP(); NEXT_W;
	OP(0xc3) X_INX; DCP(); NEXT_W;
	OP(0xd3) X_INY; DCP(); NEXT_W;
	OP(0xe7) X_ZP; ISB(); NEXT_W;
	OP(0xf7) X_ZPX; ISB(); NEXT_W;
	OP(0xef) X_ABS; ISB(); NEXT_W;
	OP(0xff) X_ABX; ISB(); NEXT_W;
	OP(0xfb) X_ABY; ISB(); NEXT_W;
	OP(0xe3) X_INX; ISB(); NEXT_W;
	OP(0xf3) X_INY; ISB(); NEXT_W;
#undef SLO
#undef RLA
#undef SRE
#undef RRA
#undef DCP
#undef ISB

	OP_JAM
		/* $02, $12, ... $F2: the CPU jams; the fetch has happened. */
		jammed = 1;
		PC_DEC();
		END_JAM;
#if CPU_EXEC_THREADED
	}
out_:
#else
	}
#ifdef CPU_EXEC_STOP
	left--;
	if (jammed || CPU_EXEC_STOP(ctx))
		break;
	}
#endif
#endif
#ifdef CPU_EXEC_CTX_COPY
	*ctx_in_ = ctx_copy_;
#endif
	cpu->jammed = jammed;
	REGS_OUT();
#ifdef CPU_EXEC_STOP
	return max - left;
#else
	return 0;
#endif
}

#undef RD
#undef PC_GET
#undef PC_SET
#undef PC_INC
#undef PC_DEC
#undef RDPC
#undef DRD_PC
#undef DISPATCH
#undef DRD
#undef WR
#undef WR_ZP
#undef SETNZ
#undef FLAG_N
#undef FLAG_Z
#undef NZ_OF
#undef P_GET
#undef P_SET
#undef REGS_IN
#undef REGS_OUT
#undef SETF
#undef FC
#undef M_IMP
#undef M_IMM
#undef M_ZP_W
#undef M_ZP_R
#undef M_ZP_M
#undef M_ZPI_W
#undef M_ZPI_R
#undef M_ZPI_M
#undef M_ABS_W
#undef M_ABS_R
#undef M_ABS_M
#undef M_ABI_R
#undef M_ABI_W
#undef M_ABI_M
#undef M_INX_W
#undef M_INX_R
#undef M_INX_M
#undef M_INY_P
#undef M_INY_R
#undef M_INY_W
#undef M_INY_M
#undef R_IMM
#undef R_ZP
#undef R_ZPX
#undef R_ZPY
#undef R_ABS
#undef R_ABX
#undef R_ABY
#undef R_INX
#undef R_INY
#undef W_ZP
#undef W_ZPX
#undef W_ZPY
#undef W_ABS
#undef W_ABX
#undef W_ABY
#undef W_INX
#undef W_INY
#undef X_ZP
#undef X_ZPX
#undef X_ABS
#undef X_ABX
#undef X_ABY
#undef X_INX
#undef X_INY
#undef BCD_VAL
#undef BCD_ENC
#undef OP_ADC
#undef OP_SBC
#undef OP_CMP
#undef OP_ASL
#undef OP_LSR
#undef OP_ROL
#undef OP_ROR
#undef OP_INC
#undef OP_DEC
#undef BRANCH
#undef CPU_EXEC_THREADED
#undef OP
#undef OP_JAM
#undef NEXT
#undef NEXT_W
#undef END_JAM
#undef SPIN
