/*
 * RIOT (MOS 6532) of the Atari 2600: 128 bytes of RAM, the interval timer,
 * port A (joysticks, paddle buttons) and port B (console switches).
 *
 * The timer follows the rules of the emulator ALE is built on: a write to
 * TIM1T/TIM8T/TIM64T/T1024T loads the counter and the interval; a read of
 * INTIM gives the count, which after underflow runs down once per cycle;
 * the first read after underflow fixes the point from which it does so;
 * TIMINT reads $80 after underflow until INTIM is read.  Cycles are the
 * system bus's cycle count (32-bit arithmetic, so wrap-around is harmless).
 *
 * Inputs are set by the caller: swcha is the port A level (1 = released,
 * bits 7-4 player 0 right/left/down/up, bits 3-0 player 1), swchb the
 * console switches (bit 0 reset and bit 1 select, 0 = pressed; bit 3
 * colour; bits 6 and 7 the difficulty switches, 1 = A).
 */
#ifndef ATARI_RIOT_H
#define ATARI_RIOT_H

#include <stdint.h>

#include "core/hostdev.h"

struct atari_riot {
	uint8_t ram[128];
	uint32_t timer;			/* value loaded */
	uint32_t set_cycle;		/* bus cycle of the load */
	uint32_t int_reset_cycle;	/* bus cycle of the first read after underflow */
	uint8_t shift;			/* interval: 0, 3, 6 or 10 (1, 8, 64, 1024 cycles) */
	uint8_t read_after_int;		/* INTIM was read after underflow */
	uint8_t ddra;
	uint8_t swcha;			/* input: port A levels */
	uint8_t swchb;			/* input: console switches */
	uint8_t pad_[3];
};

/* Reset the timer (to `timer_value`, interval 64) and the I/O registers; RAM is kept. */
HOSTDEV void atari_riot_reset(struct atari_riot *r, uint8_t timer_value);

/* Register read or write (address bits 0-4) at bus cycle `cycle`. */
HOSTDEV uint8_t atari_riot_read(struct atari_riot *r, uint16_t addr, uint32_t cycle);
HOSTDEV void atari_riot_write(struct atari_riot *r, uint16_t addr, uint8_t value,
			      uint32_t cycle);

#endif
