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
 * back, tested after each instruction), the function is instead
 *
 *	static HOSTDEV int CPU_EXEC_NAME(CPU_EXEC_CTX *ctx, struct atari_cpu *cpu,
 *					 int max);
 *
 * which executes instructions, keeping the registers in locals, until
 * CPU_EXEC_STOP holds, the CPU jams or `max` have run; it returns how
 * many ran (-1 when the CPU was jammed already).
 *
 * CPU_DUMMY_READ(ctx, addr), when defined, takes the reads whose value the
 * 6502 throws away (the byte after an implied instruction, the unindexed
 * address before a page is crossed, the stack before a pull, ...): one
 * cycle each; without it they are CPU_READ's.
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
#define SETNZ(v) (p = (uint8_t)((p & ~(ATARI_CPU_N | ATARI_CPU_Z)) | \
	((v) & 0x80) | (((uint8_t)(v)) ? 0 : ATARI_CPU_Z)))
#define SETF(f, cond) (p = (uint8_t)((cond) ? (p | (f)) : (p & ~(f))))
#define FC (p & ATARI_CPU_C)

/* Addressing modes: each leaves the operand in `op` and/or the address in `ea`. */
#define M_IMP() DRD(pc)
#define M_IMM() (op = RD(pc++))
#define M_ZP_W() (ea = RD(pc++))
#define M_ZP_R() (M_ZP_W(), op = RD(ea))
#define M_ZP_M() (M_ZP_R(), WR(ea, op))
#define M_ZPI_W(r) (t8 = RD(pc++), DRD(t8), ea = (uint8_t)(t8 + (r)))
#define M_ZPI_R(r) (M_ZPI_W(r), op = RD(ea))
#define M_ZPI_M(r) (M_ZPI_R(r), WR(ea, op))
#define M_ABS_W() (ea = RD(pc++), ea |= (uint16_t)(RD(pc++) << 8))
#define M_ABS_R() (M_ABS_W(), op = RD(ea))
#define M_ABS_M() (M_ABS_R(), WR(ea, op))
#define M_ABI_R(r) (lo = RD(pc++), hi = (uint16_t)(RD(pc++) << 8), \
	((lo + (r)) > 0xff ? (DRD(hi | (uint8_t)(lo + (r))), \
			      op = RD((uint16_t)((hi | lo) + (r)))) : \
			     (op = RD(hi | (uint8_t)(lo + (r))))))
#define M_ABI_W(r) (lo = RD(pc++), hi = (uint16_t)(RD(pc++) << 8), \
	DRD(hi | (uint8_t)(lo + (r))), ea = (uint16_t)((hi | lo) + (r)))
#define M_ABI_M(r) (M_ABI_W(r), op = RD(ea), WR(ea, op))
#define M_INX_W() (t8 = RD(pc++), DRD(t8), t8 = (uint8_t)(t8 + x), \
	ea = RD(t8), ea |= (uint16_t)(RD((uint8_t)(t8 + 1)) << 8))
#define M_INX_R() (M_INX_W(), op = RD(ea))
#define M_INX_M() (M_INX_R(), WR(ea, op))
#define M_INY_P() (t8 = RD(pc++), lo = RD(t8), \
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
	op = RD(pc++); \
	if (cond) { \
		uint16_t t_ = (uint16_t)(pc + (int8_t)op); \
		DRD(pc); \
		if ((pc ^ t_) & 0xff00) \
			DRD((pc & 0xff00) | (t_ & 0x00ff)); \
		pc = t_; \
	} \
} while (0)

#ifndef CPU_EXEC_ATTR
#define CPU_EXEC_ATTR
#endif
#ifdef CPU_EXEC_STOP
static HOSTDEV CPU_EXEC_ATTR int CPU_EXEC_NAME(CPU_EXEC_CTX *ctx, struct atari_cpu *cpu, int max)
#else
static HOSTDEV CPU_EXEC_ATTR int CPU_EXEC_NAME(CPU_EXEC_CTX *ctx, struct atari_cpu *cpu)
#endif
{
	uint16_t pc = cpu->pc, ea = 0, lo, hi;
	uint8_t a = cpu->a, x = cpu->x, y = cpu->y, sp = cpu->sp, p = cpu->p;
	uint8_t op = 0, t8, jammed = 0;
	int ran = 0;

	if (cpu->jammed)
		return -1;
#ifdef CPU_EXEC_STOP
	while (ran < max) {
#endif
	switch (RD(pc++)) {
	/* Loads, stores and transfers. */
	case 0xa9: R_IMM; a = op; SETNZ(a); break;
	case 0xa5: R_ZP; a = op; SETNZ(a); break;
	case 0xb5: R_ZPX; a = op; SETNZ(a); break;
	case 0xad: R_ABS; a = op; SETNZ(a); break;
	case 0xbd: R_ABX; a = op; SETNZ(a); break;
	case 0xb9: R_ABY; a = op; SETNZ(a); break;
	case 0xa1: R_INX; a = op; SETNZ(a); break;
	case 0xb1: R_INY; a = op; SETNZ(a); break;
	case 0xa2: R_IMM; x = op; SETNZ(x); break;
	case 0xa6: R_ZP; x = op; SETNZ(x); break;
	case 0xb6: R_ZPY; x = op; SETNZ(x); break;
	case 0xae: R_ABS; x = op; SETNZ(x); break;
	case 0xbe: R_ABY; x = op; SETNZ(x); break;
	case 0xa0: R_IMM; y = op; SETNZ(y); break;
	case 0xa4: R_ZP; y = op; SETNZ(y); break;
	case 0xb4: R_ZPX; y = op; SETNZ(y); break;
	case 0xac: R_ABS; y = op; SETNZ(y); break;
	case 0xbc: R_ABX; y = op; SETNZ(y); break;
	case 0x85: W_ZP; WR(ea, a); break;
	case 0x95: W_ZPX; WR(ea, a); break;
	case 0x8d: W_ABS; WR(ea, a); break;
	case 0x9d: W_ABX; WR(ea, a); break;
	case 0x99: W_ABY; WR(ea, a); break;
	case 0x81: W_INX; WR(ea, a); break;
	case 0x91: W_INY; WR(ea, a); break;
	case 0x86: W_ZP; WR(ea, x); break;
	case 0x96: W_ZPY; WR(ea, x); break;
	case 0x8e: W_ABS; WR(ea, x); break;
	case 0x84: W_ZP; WR(ea, y); break;
	case 0x94: W_ZPX; WR(ea, y); break;
	case 0x8c: W_ABS; WR(ea, y); break;
	case 0xaa: M_IMP(); x = a; SETNZ(x); break;
	case 0xa8: M_IMP(); y = a; SETNZ(y); break;
	case 0xba: M_IMP(); x = sp; SETNZ(x); break;
	case 0x8a: M_IMP(); a = x; SETNZ(a); break;
	case 0x9a: M_IMP(); sp = x; break;
	case 0x98: M_IMP(); a = y; SETNZ(a); break;

	/* Logic and arithmetic. */
	case 0x29: R_IMM; a &= op; SETNZ(a); break;
	case 0x25: R_ZP; a &= op; SETNZ(a); break;
	case 0x35: R_ZPX; a &= op; SETNZ(a); break;
	case 0x2d: R_ABS; a &= op; SETNZ(a); break;
	case 0x3d: R_ABX; a &= op; SETNZ(a); break;
	case 0x39: R_ABY; a &= op; SETNZ(a); break;
	case 0x21: R_INX; a &= op; SETNZ(a); break;
	case 0x31: R_INY; a &= op; SETNZ(a); break;
	case 0x09: R_IMM; a |= op; SETNZ(a); break;
	case 0x05: R_ZP; a |= op; SETNZ(a); break;
	case 0x15: R_ZPX; a |= op; SETNZ(a); break;
	case 0x0d: R_ABS; a |= op; SETNZ(a); break;
	case 0x1d: R_ABX; a |= op; SETNZ(a); break;
	case 0x19: R_ABY; a |= op; SETNZ(a); break;
	case 0x01: R_INX; a |= op; SETNZ(a); break;
	case 0x11: R_INY; a |= op; SETNZ(a); break;
	case 0x49: R_IMM; a ^= op; SETNZ(a); break;
	case 0x45: R_ZP; a ^= op; SETNZ(a); break;
	case 0x55: R_ZPX; a ^= op; SETNZ(a); break;
	case 0x4d: R_ABS; a ^= op; SETNZ(a); break;
	case 0x5d: R_ABX; a ^= op; SETNZ(a); break;
	case 0x59: R_ABY; a ^= op; SETNZ(a); break;
	case 0x41: R_INX; a ^= op; SETNZ(a); break;
	case 0x51: R_INY; a ^= op; SETNZ(a); break;
	case 0x69: R_IMM; OP_ADC(); break;
	case 0x65: R_ZP; OP_ADC(); break;
	case 0x75: R_ZPX; OP_ADC(); break;
	case 0x6d: R_ABS; OP_ADC(); break;
	case 0x7d: R_ABX; OP_ADC(); break;
	case 0x79: R_ABY; OP_ADC(); break;
	case 0x61: R_INX; OP_ADC(); break;
	case 0x71: R_INY; OP_ADC(); break;
	case 0xe9: case 0xeb: R_IMM; OP_SBC(); break;
	case 0xe5: R_ZP; OP_SBC(); break;
	case 0xf5: R_ZPX; OP_SBC(); break;
	case 0xed: R_ABS; OP_SBC(); break;
	case 0xfd: R_ABX; OP_SBC(); break;
	case 0xf9: R_ABY; OP_SBC(); break;
	case 0xe1: R_INX; OP_SBC(); break;
	case 0xf1: R_INY; OP_SBC(); break;
	case 0xc9: R_IMM; OP_CMP(a); break;
	case 0xc5: R_ZP; OP_CMP(a); break;
	case 0xd5: R_ZPX; OP_CMP(a); break;
	case 0xcd: R_ABS; OP_CMP(a); break;
	case 0xdd: R_ABX; OP_CMP(a); break;
	case 0xd9: R_ABY; OP_CMP(a); break;
	case 0xc1: R_INX; OP_CMP(a); break;
	case 0xd1: R_INY; OP_CMP(a); break;
	case 0xe0: R_IMM; OP_CMP(x); break;
	case 0xe4: R_ZP; OP_CMP(x); break;
	case 0xec: R_ABS; OP_CMP(x); break;
	case 0xc0: R_IMM; OP_CMP(y); break;
	case 0xc4: R_ZP; OP_CMP(y); break;
	case 0xcc: R_ABS; OP_CMP(y); break;
	case 0x24: R_ZP; goto bit;
	case 0x2c: R_ABS;
	bit:
		SETF(ATARI_CPU_Z, !(a & op));
		p = (uint8_t)((p & 0x3f) | (op & 0xc0));
		break;

	/* Read-modify-write. */
	case 0x0a: M_IMP(); SETF(ATARI_CPU_C, a & 0x80); a = (uint8_t)(a << 1); SETNZ(a); break;
	case 0x06: X_ZP; OP_ASL(); break;
	case 0x16: X_ZPX; OP_ASL(); break;
	case 0x0e: X_ABS; OP_ASL(); break;
	case 0x1e: X_ABX; OP_ASL(); break;
	case 0x4a: M_IMP(); SETF(ATARI_CPU_C, a & 0x01); a = (uint8_t)(a >> 1); SETNZ(a); break;
	case 0x46: X_ZP; OP_LSR(); break;
	case 0x56: X_ZPX; OP_LSR(); break;
	case 0x4e: X_ABS; OP_LSR(); break;
	case 0x5e: X_ABX; OP_LSR(); break;
	case 0x2a: M_IMP(); t8 = (uint8_t)FC; SETF(ATARI_CPU_C, a & 0x80);
		a = (uint8_t)((a << 1) | t8); SETNZ(a); break;
	case 0x26: X_ZP; OP_ROL(); break;
	case 0x36: X_ZPX; OP_ROL(); break;
	case 0x2e: X_ABS; OP_ROL(); break;
	case 0x3e: X_ABX; OP_ROL(); break;
	case 0x6a: M_IMP(); t8 = (uint8_t)(FC ? 0x80 : 0); SETF(ATARI_CPU_C, a & 0x01);
		a = (uint8_t)((a >> 1) | t8); SETNZ(a); break;
	case 0x66: X_ZP; OP_ROR(); break;
	case 0x76: X_ZPX; OP_ROR(); break;
	case 0x6e: X_ABS; OP_ROR(); break;
	case 0x7e: X_ABX; OP_ROR(); break;
	case 0xe6: X_ZP; OP_INC(); break;
	case 0xf6: X_ZPX; OP_INC(); break;
	case 0xee: X_ABS; OP_INC(); break;
	case 0xfe: X_ABX; OP_INC(); break;
	case 0xc6: X_ZP; OP_DEC(); break;
	case 0xd6: X_ZPX; OP_DEC(); break;
	case 0xce: X_ABS; OP_DEC(); break;
	case 0xde: X_ABX; OP_DEC(); break;
	case 0xe8: M_IMP(); x++; SETNZ(x); break;
	case 0xc8: M_IMP(); y++; SETNZ(y); break;
	case 0xca: M_IMP(); x--; SETNZ(x); break;
	case 0x88: M_IMP(); y--; SETNZ(y); break;

	/* Flags. */
	case 0x18: M_IMP(); p &= (uint8_t)~ATARI_CPU_C; break;
	case 0x38: M_IMP(); p |= ATARI_CPU_C; break;
	case 0x58: M_IMP(); p &= (uint8_t)~ATARI_CPU_I; break;
	case 0x78: M_IMP(); p |= ATARI_CPU_I; break;
	case 0xd8: M_IMP(); p &= (uint8_t)~ATARI_CPU_D; break;
	case 0xf8: M_IMP(); p |= ATARI_CPU_D; break;
	case 0xb8: M_IMP(); p &= (uint8_t)~ATARI_CPU_V; break;

	/* Branches, jumps, stack. */
	case 0x10: BRANCH(!(p & ATARI_CPU_N)); break;
	case 0x30: BRANCH(p & ATARI_CPU_N); break;
	case 0x50: BRANCH(!(p & ATARI_CPU_V)); break;
	case 0x70: BRANCH(p & ATARI_CPU_V); break;
	case 0x90: BRANCH(!(p & ATARI_CPU_C)); break;
	case 0xb0: BRANCH(p & ATARI_CPU_C); break;
	case 0xd0: BRANCH(!(p & ATARI_CPU_Z)); break;
	case 0xf0: BRANCH(p & ATARI_CPU_Z); break;
	case 0x4c: W_ABS; pc = ea; break;
	case 0x6c:
		W_ABS;
		lo = RD(ea);
		hi = RD(((ea + 1) & 0x00ff) | (ea & 0xff00));
		pc = (uint16_t)(lo | (hi << 8));
		break;
	case 0x20:
		lo = RD(pc++);
		DRD(0x100 + sp);
		WR(0x100 + sp, pc >> 8); sp--;
		WR(0x100 + sp, pc & 0xff); sp--;
		pc = (uint16_t)(lo | (RD(pc) << 8));
		break;
	case 0x60:
		M_IMP();
		DRD(0x100 + sp); sp++;
		lo = RD(0x100 + sp); sp++;
		pc = (uint16_t)(lo | (RD(0x100 + sp) << 8));
		DRD(pc++);
		break;
	case 0x40:
		M_IMP();
		DRD(0x100 + sp); sp++;
		p = RD(0x100 + sp) | ATARI_CPU_B | ATARI_CPU_U; sp++;
		lo = RD(0x100 + sp); sp++;
		pc = (uint16_t)(lo | (RD(0x100 + sp) << 8));
		break;
	case 0x00:
		DRD(pc++);
		WR(0x100 + sp, pc >> 8); sp--;
		WR(0x100 + sp, pc & 0xff); sp--;
		WR(0x100 + sp, p | ATARI_CPU_B | ATARI_CPU_U); sp--;
		p |= ATARI_CPU_I;
		lo = RD(0xfffe);
		pc = (uint16_t)(lo | (RD(0xffff) << 8));
		break;
	case 0x48: M_IMP(); WR(0x100 + sp, a); sp--; break;
	case 0x08: M_IMP(); WR(0x100 + sp, p | ATARI_CPU_B | ATARI_CPU_U); sp--; break;
	case 0x68: M_IMP(); DRD(0x100 + sp); sp++; a = RD(0x100 + sp); SETNZ(a); break;
	case 0x28: M_IMP(); DRD(0x100 + sp); sp++;
		p = RD(0x100 + sp) | ATARI_CPU_B | ATARI_CPU_U; break;

	/* No-operations, documented and not. */
	case 0xea: case 0x1a: case 0x3a: case 0x5a: case 0x7a: case 0xda: case 0xfa:
		M_IMP(); break;
	case 0x80: case 0x82: case 0x89: case 0xc2: case 0xe2: R_IMM; break;
	case 0x04: case 0x44: case 0x64: R_ZP; break;
	case 0x14: case 0x34: case 0x54: case 0x74: case 0xd4: case 0xf4: R_ZPX; break;
	case 0x0c: R_ABS; break;
	case 0x1c: case 0x3c: case 0x5c: case 0x7c: case 0xdc: case 0xfc: R_ABX; break;

	/* Undocumented combined operations. */
	case 0x0b: case 0x2b: R_IMM; a &= op; SETNZ(a); SETF(ATARI_CPU_C, a & 0x80); break;
	case 0x4b: R_IMM; a &= op; SETF(ATARI_CPU_C, a & 1); a = (uint8_t)(a >> 1); SETNZ(a); break;
	case 0x6b: R_IMM;
		if (!(p & ATARI_CPU_D)) {
			a &= op;
			a = (uint8_t)((a >> 1) | (FC ? 0x80 : 0));
			SETF(ATARI_CPU_C, a & 0x40);
			SETF(ATARI_CPU_V, (a & 0x40) ^ ((a & 0x20) << 1));
			SETNZ(a);
		} else {
			uint8_t v = a & op;
			a = (uint8_t)((v >> 1) | (FC ? 0x80 : 0));
			SETF(ATARI_CPU_N, FC);
			SETF(ATARI_CPU_Z, !a);
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
		break;
	case 0x8b: R_IMM; a = (uint8_t)((a | 0xee) & x & op); SETNZ(a); break;
	case 0xab: R_IMM; a = x = (uint8_t)((a | 0xee) & op); SETNZ(a); break;
	case 0xcb: R_IMM; {
			unsigned v = (unsigned)(x & a) - op;
			x = (uint8_t)v;
			SETNZ(x);
			SETF(ATARI_CPU_C, !(v & 0x100));
		}
		break;
	case 0xbb: R_ABY; a = x = sp = sp & op; SETNZ(a); break;
	case 0xaf: R_ABS; a = x = op; SETNZ(a); break;
	case 0xbf: R_ABY; a = x = op; SETNZ(a); break;
	case 0xa7: R_ZP; a = x = op; SETNZ(a); break;
	case 0xb7: R_ZPY; a = x = op; SETNZ(a); break;
	case 0xa3: R_INX; a = x = op; SETNZ(a); break;
	case 0xb3: R_INY; a = x = op; SETNZ(a); break;
	case 0x8f: W_ABS; WR(ea, a & x); break;
	case 0x87: W_ZP; WR(ea, a & x); break;
	case 0x97: W_ZPY; WR(ea, a & x); break;
	case 0x83: W_INX; WR(ea, a & x); break;
	case 0x9f: W_ABY; WR(ea, a & x & (((ea >> 8) & 0xff) + 1)); break;
	case 0x93: W_INY; WR(ea, a & x & (((ea >> 8) & 0xff) + 1)); break;
	case 0x9b: W_ABY; sp = a & x; WR(ea, a & x & (((ea >> 8) & 0xff) + 1)); break;
	case 0x9e: W_ABY; WR(ea, x & (((ea >> 8) & 0xff) + 1)); break;
	case 0x9c: W_ABX; WR(ea, y & (((ea >> 8) & 0xff) + 1)); break;

#define SLO() (SETF(ATARI_CPU_C, op & 0x80), op = (uint8_t)(op << 1), WR(ea, op), a |= op, SETNZ(a))
#define RLA() (t8 = (uint8_t)((op << 1) | FC), WR(ea, t8), a &= t8, \
	SETF(ATARI_CPU_C, op & 0x80), SETNZ(a))
#define SRE() (SETF(ATARI_CPU_C, op & 0x01), op = (uint8_t)(op >> 1), WR(ea, op), a ^= op, SETNZ(a))
#define RRA() do { t8 = (uint8_t)(FC ? 0x80 : 0); SETF(ATARI_CPU_C, op & 0x01); \
	op = (uint8_t)((op >> 1) | t8); WR(ea, op); OP_ADC(); } while (0)
#define DCP() do { op = (uint8_t)(op - 1); WR(ea, op); OP_CMP(a); } while (0)
#define ISB() do { op = (uint8_t)(op + 1); WR(ea, op); OP_SBC(); } while (0)
	case 0x07: X_ZP; SLO(); break;
	case 0x17: X_ZPX; SLO(); break;
	case 0x0f: X_ABS; SLO(); break;
	case 0x1f: X_ABX; SLO(); break;
	case 0x1b: X_ABY; SLO(); break;
	case 0x03: X_INX; SLO(); break;
	case 0x13: X_INY; SLO(); break;
	case 0x27: X_ZP; RLA(); break;
	case 0x37: X_ZPX; RLA(); break;
	case 0x2f: X_ABS; RLA(); break;
	case 0x3f: X_ABX; RLA(); break;
	case 0x3b: X_ABY; RLA(); break;
	case 0x23: X_INX; RLA(); break;
	case 0x33: X_INY; RLA(); break;
	case 0x47: X_ZP; SRE(); break;
	case 0x57: X_ZPX; SRE(); break;
	case 0x4f: X_ABS; SRE(); break;
	case 0x5f: X_ABX; SRE(); break;
	case 0x5b: X_ABY; SRE(); break;
	case 0x43: X_INX; SRE(); break;
	case 0x53: X_INY; SRE(); break;
	case 0x67: X_ZP; RRA(); break;
	case 0x77: X_ZPX; RRA(); break;
	case 0x6f: X_ABS; RRA(); break;
	case 0x7f: X_ABX; RRA(); break;
	case 0x7b: X_ABY; RRA(); break;
	case 0x63: X_INX; RRA(); break;
	case 0x73: X_INY; RRA(); break;
	case 0xc7: X_ZP; DCP(); break;
	case 0xd7: X_ZPX; DCP(); break;
	case 0xcf: X_ABS; DCP(); break;
	case 0xdf: X_ABX; DCP(); break;
	case 0xdb: X_ABY; DCP(); break;
	case 0xc3: X_INX; DCP(); break;
	case 0xd3: X_INY; DCP(); break;
	case 0xe7: X_ZP; ISB(); break;
	case 0xf7: X_ZPX; ISB(); break;
	case 0xef: X_ABS; ISB(); break;
	case 0xff: X_ABX; ISB(); break;
	case 0xfb: X_ABY; ISB(); break;
	case 0xe3: X_INX; ISB(); break;
	case 0xf3: X_INY; ISB(); break;
#undef SLO
#undef RLA
#undef SRE
#undef RRA
#undef DCP
#undef ISB

	default:
		/* $02, $12, ... $F2: the CPU jams; the fetch has happened. */
		jammed = 1;
		pc--;
		break;
	}
	ran++;
#ifdef CPU_EXEC_STOP
	if (jammed || CPU_EXEC_STOP(ctx))
		break;
	}
#endif
	cpu->jammed = jammed;
	cpu->pc = pc;
	cpu->a = a;
	cpu->x = x;
	cpu->y = y;
	cpu->sp = sp;
	cpu->p = p;
#ifdef CPU_EXEC_STOP
	return ran;
#else
	return ran - 1;
#endif
}

#undef RD
#undef DRD
#undef WR
#undef SETNZ
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
