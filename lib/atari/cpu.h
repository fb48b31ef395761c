/*
 * The 6507 CPU of the Atari 2600: an NMOS 6502 with 13 address lines and
 * no interrupts.  Decimal mode and the undocumented ("illegal") opcodes
 * that games use are emulated.
 *
 * The CPU is bus-cycle exact: every cycle of an instruction is one bus
 * access, dummy reads included, made in the order the chip makes them, so
 * that memory-mapped devices (TIA, RIOT, bank-switching hotspots) see each
 * access at the CPU cycle it happens on.  The sequence of accesses follows
 * the emulator the Arcade Learning Environment is built on, so that games
 * relying on a dummy access behave the same.
 *
 * Decimal-mode arithmetic follows the same reference: the result of ADC
 * and SBC is the BCD sum or difference of the operands read as decimal
 * digits (valid BCD gives the chip's result; N, V and Z are derived from
 * the decimal result).
 *
 * The jam opcodes ($02, $12, ... $F2) stop the CPU: atari_cpu.jammed is
 * set and no further instruction executes until the next reset.
 *
 * The instruction core lives in atari/cpu_exec.h, an include file
 * instantiated once per bus (the console's system bus, and the flat 64 KiB
 * memory of the unit tests), so one source runs everywhere, CUDA devices
 * included.
 */
#ifndef ATARI_CPU_H
#define ATARI_CPU_H

#include <stdint.h>

/* Processor status bits. */
#define ATARI_CPU_C 0x01
#define ATARI_CPU_Z 0x02
#define ATARI_CPU_I 0x04
#define ATARI_CPU_D 0x08
#define ATARI_CPU_B 0x10
#define ATARI_CPU_U 0x20
#define ATARI_CPU_V 0x40
#define ATARI_CPU_N 0x80

struct atari_cpu {
	uint16_t pc;
	uint8_t a, x, y, sp;
	uint8_t p;		/* status; B and bit 5 always read as 1 */
	uint8_t jammed;		/* a jam opcode halted the CPU */
};

#endif
