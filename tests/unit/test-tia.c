/*
 * The TIA driven directly: register writes at chosen cycles, then the
 * pixels, positions, collisions, HMOVE effects, frame boundaries and input
 * timing they must give (the behaviour of ALE's emulator, see atari/tia.h).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "atari/tia.h"
#include "test.h"

/* Registers. */
enum {
	VSYNC = 0x00, VBLANK, WSYNC, RSYNC, NUSIZ0, NUSIZ1, COLUP0, COLUP1,
	COLUPF, COLUBK, CTRLPF, REFP0, REFP1, PF0, PF1, PF2, RESP0, RESP1,
	RESM0, RESM1, RESBL, GRP0 = 0x1b, GRP1, ENAM0, ENAM1, ENABL, HMP0,
	HMP1, HMM0, HMM1, HMBL, VDELP0, VDELP1, VDELBL, RESMP0, RESMP1,
	HMOVE, HMCLR, CXCLR,
	CXM0P = 0x00, CXM1P, CXP0FB, CXP1FB, CXM0FB, CXM1FB, CXBLPF, CXPPMM,
	INPT0, INPT1, INPT2, INPT3, INPT4, INPT5
};

static struct atari_tia tia;
static uint8_t fb[ATARI_SCREEN_WIDTH * ATARI_FB_LINES];
static uint8_t *fbp = fb;	/* NULL to run without drawing */
static uint64_t base;		/* cycle of the current frame's line 0 */

/* Cycle `x` (0-75) of scan line `line` of the current frame. */
static uint64_t at(int line, int x)
{
	return base + 76 * (uint64_t)line + (uint64_t)x;
}

static void wr(int reg, uint8_t v, int line, int x)
{
	atari_tia_write(&tia, (uint16_t)reg, v, at(line, x), fbp);
}

static uint8_t rd(int reg, int line, int x)
{
	return atari_tia_read(&tia, (uint16_t)reg, at(line, x), fbp);
}

/* Pixel x of screen row `row` (scan line ystart + row). */
static uint8_t px(int row, int x)
{
	return fb[row * ATARI_SCREEN_WIDTH + x];
}

/* Power on and end the reset frame, so that a frame starts at `base`. */
static void fresh(void)
{
	atari_tia_reset(&tia);
	memset(fb, 0xff, sizeof(fb));
	base = 0;
	wr(VSYNC, 0x02, 0, 10);
	wr(VSYNC, 0x00, 1, 10);	/* ends the frame on line 1 */
	base = 76;
	tia.frame_done = 0;
}

/* HMOVE with no motion at cycle 45 of `line`: ends the "first copy
 * hidden" state a reset leaves until the end of a drawn line. */
static void settle(int line)
{
	wr(HMCLR, 0, line, 40);
	wr(HMOVE, 0, line, 45);
}

/* Draw up to the end of screen row `row`. */
static void finish_row(int row)
{
	atari_tia_sync(&tia, at(ATARI_TIA_YSTART + row + 1, 0), fbp);
}

/* First pixel of row `row` in colour c at or after x0, or -1. */
static int find(int row, uint8_t c, int x0)
{
	for (int x = x0; x < ATARI_SCREEN_WIDTH; x++)
		if (px(row, x) == c)
			return x;
	return -1;
}

static int count(int row, uint8_t c)
{
	int n = 0;

	for (int x = 0; x < ATARI_SCREEN_WIDTH; x++)
		n += px(row, x) == c;
	return n;
}

#define Y0 ATARI_TIA_YSTART

static void test_frames(void)
{
	atari_tia_reset(&tia);
	TEST_EQ_LONG(tia.frame, 0, "reset: no frame yet");
	atari_tia_write(&tia, VSYNC, 0x02, 100, NULL);
	atari_tia_write(&tia, VSYNC, 0x00, 150, NULL);
	TEST_EQ_LONG(tia.frame_done, 0, "VSYNC: off after under a line does not end the frame");
	atari_tia_write(&tia, VSYNC, 0x02, 300, NULL);
	atari_tia_write(&tia, VSYNC, 0x00, 376, NULL);
	TEST_EQ_LONG(tia.frame_done, 1, "VSYNC: off a line after on ends the frame");
	TEST_EQ_LONG(tia.frame, 1, "VSYNC: frame counted");
	TEST_EQ_LONG(tia.frame_start, 3 * 76 * (376 / 76), "VSYNC: next frame starts at the line start");
	tia.frame_done = 0;
	atari_tia_write(&tia, COLUBK, 0, 376 + 76 * 290, NULL);
	TEST_EQ_LONG(tia.frame_done, 0, "290 lines: a write on line 290 keeps the frame");
	atari_tia_write(&tia, COLUBK, 0, 376 + 76 * 291 + 3, NULL);
	TEST_EQ_LONG(tia.frame_done, 1, "290 lines: a write past line 290 ends the frame");
	TEST_EQ_LONG(tia.frame, 2, "290 lines: frame counted");

	/* Ended by a WSYNC write: the next frame starts where the CPU
	 * resumes, on the next line, and WSYNC still waits for it. */
	uint64_t c = tia.frame_start / 3 + 76 * 295 + 20;

	tia.frame_done = 0;
	atari_tia_write(&tia, WSYNC, 0, c, NULL);
	TEST_EQ_LONG(tia.frame_done, 1, "290 lines: a WSYNC write past line 290 ends the frame");
	TEST_EQ_LONG(tia.frame_start, 3 * (c + 56), "290 lines: next frame from the line after WSYNC");
	TEST_EQ_LONG(atari_tia_wsync_until(&tia, c), c + 56, "290 lines: WSYNC resumes at that line");
}

static void test_pal(void)
{
	atari_tia_reset(&tia);
	atari_tia_set_format(&tia, 1);
	atari_tia_write(&tia, COLUBK, 0x44, 10, NULL);
	TEST_EQ_LONG(tia.colubk, 0x44, "PAL: colours as written before any frame");
	/* A frame of 263 lines (odd): colour loss on the next one. */
	atari_tia_write(&tia, VSYNC, 0x02, 76 * 261, NULL);
	atari_tia_write(&tia, VSYNC, 0x00, 76 * 263 + 5, NULL);
	TEST_EQ_LONG(tia.frame_lines, 263, "PAL: lines of the last frame counted");
	TEST_EQ_LONG(tia.colubk, 0x45, "PAL colour loss: bit 0 set after an odd frame");
	atari_tia_write(&tia, COLUP0, 0x28, 76 * 264, NULL);
	TEST_EQ_LONG(tia.colup0, 0x29, "PAL colour loss: on writes too");
	TEST_EQ_LONG(atari_tia_scanline(&tia, 76 * 264 + 76 * 10), 11, "scanline: beam's line in the frame");
	tia.frame_done = 0;
	atari_tia_write(&tia, COLUBK, 0, 76 * 263 + 76 * 300, NULL);
	TEST_EQ_LONG(tia.frame_done, 0, "PAL: no 290-line cap");
	atari_tia_write(&tia, COLUBK, 0, 76 * 263 + 76 * 342, NULL);
	TEST_EQ_LONG(tia.frame_done, 0, "PAL: line 342 keeps the frame");
	atari_tia_write(&tia, COLUBK, 0, 76 * 263 + 76 * 343 + 5, NULL);
	TEST_EQ_LONG(tia.frame_done, 1, "PAL: a write past line 342 ends it");
	TEST_EQ_LONG(tia.frame_lines, 343, "PAL: that frame had 343 lines");
	TEST_EQ_LONG(tia.colubk, 0x01, "PAL colour loss: bit 0 kept after another odd frame");
	atari_tia_reset(&tia);
	TEST_EQ_LONG(tia.pal, 1, "PAL: format kept across a reset");
	/* The cap is the format's as set, in the middle of a frame too. */
	atari_tia_set_format(&tia, 0);
	tia.frame_done = 0;
	atari_tia_write(&tia, COLUBK, 0, 76 * 300, NULL);
	TEST_EQ_LONG(tia.frame_done, 1, "NTSC set in a PAL frame: a write past line 290 ends it");
}

static void test_wsync(void)
{
	atari_tia_reset(&tia);
	TEST_EQ_LONG(atari_tia_wsync_until(&tia, 3), 76, "WSYNC: resumes at the next line");
	TEST_EQ_LONG(atari_tia_wsync_until(&tia, 152), 152, "WSYNC: at a line start no wait");
	TEST_EQ_LONG(atari_tia_wsync_until(&tia, 153), 228, "WSYNC: one cycle into a line");
}

static void test_background_and_vblank(void)
{
	fresh();
	wr(COLUBK, 0x85, Y0, 0);
	finish_row(0);
	TEST_EQ_LONG(count(0, 0x84), 160, "COLUBK: whole line, bit 0 dropped");
	TEST_EQ_LONG(px(1, 0), 0xff, "frame buffer: rows not reached are kept");
	wr(VBLANK, 0x02, Y0 + 1, 0);
	finish_row(1);
	TEST_EQ_LONG(count(1, 0), 160, "VBLANK: line black");
	/* VBLANK takes effect one colour clock late: written at cycle 40
	 * (clock 120, pixel 52), black from pixel 53. */
	wr(VBLANK, 0x00, Y0 + 2, 0);
	wr(VBLANK, 0x02, Y0 + 2, 40);
	finish_row(2);
	TEST_EQ_LONG(px(2, 52), 0x84, "VBLANK: delay of one clock");
	TEST_EQ_LONG(px(2, 53), 0x00, "VBLANK: black after the delay");
}

static void test_playfield(void)
{
	fresh();
	wr(COLUBK, 0x00, Y0, 0);
	wr(COLUPF, 0x1e, Y0, 0);
	wr(PF0, 0x10, Y0, 0);
	wr(PF1, 0x80, Y0, 1);
	wr(PF2, 0x01, Y0, 2);
	finish_row(0);
	TEST_OK(px(0, 0) == 0x1e && px(0, 3) == 0x1e && px(0, 4) == 0, "PF0: bit 4 is pixels 0-3");
	TEST_OK(px(0, 16) == 0x1e && px(0, 19) == 0x1e && px(0, 15) == 0 && px(0, 20) == 0,
		"PF1: bit 7 is pixels 16-19");
	TEST_OK(px(0, 48) == 0x1e && px(0, 51) == 0x1e && px(0, 52) == 0, "PF2: bit 0 is pixels 48-51");
	TEST_OK(px(0, 80) == 0x1e && px(0, 96) == 0x1e && px(0, 128) == 0x1e,
		"playfield: repeated on the right half");
	TEST_EQ_LONG(count(0, 0x1e), 24, "playfield: 6 blocks of 4");

	wr(CTRLPF, 0x01, Y0 + 1, 0);
	finish_row(1);
	TEST_OK(px(1, 156) == 0x1e && px(1, 159) == 0x1e && px(1, 155) == 0,
		"CTRLPF reflect: PF0 bit 4 at the right edge");
	TEST_OK(px(1, 140) == 0x1e && px(1, 143) == 0x1e, "CTRLPF reflect: PF1 bit 7");
	TEST_OK(px(1, 108) == 0x1e && px(1, 111) == 0x1e, "CTRLPF reflect: PF2 bit 0");

	wr(CTRLPF, 0x02, Y0 + 2, 0);
	wr(COLUP0, 0x44, Y0 + 2, 0);
	wr(COLUP1, 0x88, Y0 + 2, 0);
	finish_row(2);
	TEST_OK(px(2, 0) == 0x44 && px(2, 80) == 0x88, "CTRLPF score: halves in player colours");
	wr(CTRLPF, 0x06, Y0 + 3, 0);
	finish_row(3);
	TEST_OK(px(3, 0) == 0x44 && px(3, 80) == 0x88,
		"CTRLPF score+priority: playfield alone keeps score colours");

	/* Reflection changes only before the centre: a write late in the line
	 * takes effect on the next line. */
	fresh();
	wr(COLUPF, 0x1e, Y0, 0);
	wr(PF0, 0x10, Y0, 0);
	finish_row(0);
	wr(CTRLPF, 0x01, Y0 + 1, 60);	/* clock 180: past the centre */
	finish_row(2);
	TEST_OK(px(1, 80) == 0x1e && px(1, 159) != 0x1e, "CTRLPF: late reflect waits for the line end");
	TEST_OK(px(2, 159) == 0x1e && px(2, 80) != 0x1e, "CTRLPF: reflect on the next line");
}

static void test_playfield_delay(void)
{
	/* A PF write shows after 4, 5, 2 or 3 clocks depending on the cycle:
	 * write PF1 at cycle 40 (clock 120, pixel 52); phase (40 & 3) = 0
	 * gives 4 clocks: the write applies from pixel 56. */
	fresh();
	wr(COLUPF, 0x1e, Y0, 0);
	wr(PF2, 0xff, Y0, 0);
	finish_row(0);
	wr(PF2, 0x00, Y0 + 1, 40);
	finish_row(1);
	TEST_OK(px(1, 55) == 0x1e && px(1, 56) != 0x1e, "PF2: write at phase 0 takes 4 clocks");
	wr(PF2, 0xff, Y0 + 2, 0);
	wr(PF2, 0x00, Y0 + 2, 42);	/* clock 126, pixel 58, phase 2: 2 clocks */
	finish_row(2);
	TEST_OK(px(2, 59) == 0x1e && px(2, 60) != 0x1e, "PF2: write at phase 2 takes 2 clocks");
}

static void test_players(void)
{
	fresh();
	wr(COLUP0, 0x44, Y0 - 1, 0);
	wr(RESP0, 0, Y0 - 1, 30);	/* clock 90: pixel 22 + 5 */
	TEST_EQ_LONG(tia.posp0, 27, "RESP0: position 5 pixels after the beam");
	wr(GRP0, 0x81, Y0 - 1, 40);
	finish_row(0);
	TEST_EQ_LONG(count(0, 0x44), 0,
		     "RESP0: copy hidden until a drawn line ends (the reference's rule)");
	finish_row(1);
	TEST_EQ_LONG(find(1, 0x44, 0), 27, "GRP0: bit 7 at the position");
	TEST_EQ_LONG(find(1, 0x44, 28), 34, "GRP0: bit 0 seven pixels on");
	TEST_EQ_LONG(count(1, 0x44), 2, "GRP0: two pixels");

	wr(REFP0, 0x08, Y0 + 2, 0);
	wr(GRP0, 0x80, Y0 + 2, 1);
	finish_row(2);
	TEST_EQ_LONG(find(2, 0x44, 0), 34, "REFP0: bit 7 drawn last");

	wr(REFP0, 0x00, Y0 + 3, 0);
	wr(NUSIZ0, 0x03, Y0 + 3, 0);	/* three copies close */
	finish_row(3);
	TEST_OK(px(3, 27) == 0x44 && px(3, 43) == 0x44 && px(3, 59) == 0x44 && count(3, 0x44) == 3,
		"NUSIZ0 3: copies 16 pixels apart");
	wr(NUSIZ0, 0x06, Y0 + 4, 0);	/* three copies medium */
	finish_row(4);
	TEST_OK(px(4, 27) == 0x44 && px(4, 59) == 0x44 && px(4, 91) == 0x44 && count(4, 0x44) == 3,
		"NUSIZ0 6: copies 32 pixels apart");
	wr(NUSIZ0, 0x04, Y0 + 5, 0);
	finish_row(5);
	TEST_OK(px(5, 27) == 0x44 && px(5, 91) == 0x44 && count(5, 0x44) == 2,
		"NUSIZ0 4: copy 64 pixels on");
	wr(NUSIZ0, 0x05, Y0 + 6, 0);	/* double width, one pixel late */
	finish_row(6);
	TEST_OK(find(6, 0x44, 0) == 28 && count(6, 0x44) == 2, "NUSIZ0 5: double width");
	wr(NUSIZ0, 0x07, Y0 + 7, 0);
	finish_row(7);
	TEST_OK(find(7, 0x44, 0) == 28 && count(7, 0x44) == 4, "NUSIZ0 7: quad width");

	/* Reset during horizontal blank: position 3. */
	wr(NUSIZ0, 0x01, Y0 + 8, 0);
	wr(RESP0, 0, Y0 + 8, 10);
	TEST_EQ_LONG(tia.posp0, 3, "RESP0 in blank: position 3");
	finish_row(9);
	/* A reset mid-line: copies already drawn stay, the new first copy is
	 * hidden for the rest of the line, the second one shows. */
	wr(RESP0, 0, Y0 + 10, 50);	/* clock 150: position 87 */
	finish_row(10);
	TEST_OK(px(10, 3) == 0x44 && px(10, 19) == 0x44 && px(10, 87) != 0x44 &&
		px(10, 103) == 0x44 && count(10, 0x44) == 3,
		"RESP0 mid-line: old copies, new first copy hidden, second shown");
	finish_row(11);
	TEST_OK(px(11, 87) == 0x44 && px(11, 103) == 0x44 && count(11, 0x44) == 2,
		"RESP0: both copies on the next line");
	/* Reset while the first copy is drawn: it completes first. */
	wr(NUSIZ0, 0x00, Y0 + 12, 0);
	wr(GRP0, 0xff, Y0 + 12, 1);
	wr(RESP0, 0, Y0 + 12, 52);	/* clock 156, pixel 88: inside 87-94 */
	finish_row(12);
	TEST_EQ_LONG(count(12, 0x44), 8, "RESP0 during a copy: the copy completes");
}

static void test_vdel(void)
{
	fresh();
	wr(COLUP0, 0x44, Y0 - 1, 0);
	wr(RESP0, 0, Y0 - 1, 30);
	settle(Y0 - 1);
	wr(VDELP0, 0x01, Y0 - 1, 50);
	wr(GRP0, 0xff, Y0 - 1, 55);
	finish_row(0);
	TEST_EQ_LONG(count(0, 0x44), 0, "VDELP0: GRP0 held back");
	wr(GRP1, 0x00, Y0 + 1, 0);
	finish_row(1);
	TEST_EQ_LONG(count(1, 0x44), 8, "VDELP0: shown after a GRP1 write");
	wr(VDELP0, 0x00, Y0 + 2, 0);
	wr(GRP0, 0x00, Y0 + 2, 1);
	finish_row(2);
	TEST_EQ_LONG(count(2, 0x44), 0, "VDELP0 off: new GRP0 at once");
}

static void test_missiles_and_ball(void)
{
	fresh();
	wr(COLUP1, 0x88, Y0 - 1, 0);
	wr(COLUPF, 0x1e, Y0 - 1, 0);
	wr(RESM1, 0, Y0 - 1, 40);	/* clock 120: 52 + 4 */
	wr(RESBL, 0, Y0 - 1, 50);	/* clock 150: 82 + 4 */
	TEST_EQ_LONG(tia.posm1, 56, "RESM1: position 4 pixels after the beam");
	TEST_EQ_LONG(tia.posbl, 86, "RESBL: position 4 pixels after the beam");
	wr(ENAM1, 0x02, Y0 - 1, 60);
	wr(ENABL, 0x02, Y0 - 1, 60);
	wr(NUSIZ1, 0x20, Y0 - 1, 60);	/* missile 4 wide */
	wr(CTRLPF, 0x30, Y0 - 1, 60);	/* ball 8 wide */
	finish_row(0);
	TEST_OK(find(0, 0x88, 0) == 56 && count(0, 0x88) == 4, "NUSIZ1: missile 4 wide");
	TEST_OK(find(0, 0x1e, 0) == 86 && count(0, 0x1e) == 8, "CTRLPF: ball 8 wide");

	wr(NUSIZ1, 0x01, Y0 + 1, 0);	/* two copies close, width 1 */
	finish_row(1);
	TEST_OK(px(1, 56) == 0x88 && px(1, 72) == 0x88 && count(1, 0x88) == 2,
		"NUSIZ1: missile copies follow the player's");

	/* Ball vertical delay: ENABL goes to the delayed copy on GRP1. */
	wr(VDELBL, 0x01, Y0 + 2, 0);
	wr(ENABL, 0x00, Y0 + 2, 1);
	finish_row(2);
	TEST_EQ_LONG(count(2, 0x1e), 0, "VDELBL: old (empty) delayed enable shown");
	wr(GRP1, 0, Y0 + 3, 0);
	wr(ENABL, 0x02, Y0 + 3, 1);
	finish_row(3);
	TEST_EQ_LONG(count(3, 0x1e), 0, "VDELBL: copied disabled on GRP1");
	wr(GRP1, 0, Y0 + 4, 0);
	finish_row(4);
	TEST_EQ_LONG(count(4, 0x1e), 8, "VDELBL: enabled once copied");

	/* RESMP1 hides the missile and, on release, centres it on the player. */
	wr(RESP1, 0, Y0 + 5, 30);	/* 27 */
	wr(RESMP1, 0x02, Y0 + 5, 40);
	finish_row(6);
	TEST_EQ_LONG(count(6, 0x88), 0, "RESMP1: missile hidden");
	wr(RESMP1, 0x00, Y0 + 7, 0);
	TEST_EQ_LONG(tia.posm1, 31, "RESMP1: released at the player's centre");
}

static void test_hmove(void)
{
	fresh();
	wr(COLUP0, 0x44, Y0 - 2, 0);
	wr(RESP0, 0, Y0 - 2, 30);	/* 27 */
	wr(GRP0, 0x80, Y0 - 2, 40);
	wr(HMP0, 0x70, Y0 - 2, 41);	/* 7 left */
	wr(COLUBK, 0x0e, Y0 - 2, 42);
	wr(HMOVE, 0, Y0 - 1, 3);
	TEST_EQ_LONG(tia.posp0, 20, "HMOVE: HMP0 7 moves 7 left");
	wr(HMP0, 0x80, Y0 - 1, 20);	/* 8 right */
	wr(HMOVE, 0, Y0, 3);
	TEST_EQ_LONG(tia.posp0, 28, "HMOVE: HMP0 -8 moves 8 right");
	finish_row(0);
	TEST_EQ_LONG(count(0, 0), 8, "HMOVE: the first 8 pixels blanked");
	TEST_OK(px(0, 0) == 0 && px(0, 7) == 0 && px(0, 8) != 0, "HMOVE: bar is pixels 0-7");
	finish_row(1);
	TEST_EQ_LONG(count(1, 0), 0, "HMOVE: bar only on its line");

	wr(HMCLR, 0, Y0 + 2, 0);
	wr(HMOVE, 0, Y0 + 2, 30);
	TEST_EQ_LONG(tia.posp0, 28, "HMCLR: no motion");
	finish_row(2);
	TEST_EQ_LONG(count(2, 0), 0, "HMOVE mid-line: no bar");

	/* Late HMOVE (cycle 73) moves objects left by extra clocks: 8 more
	 * than the nibble for left moves. */
	wr(HMP0, 0x00, Y0 + 3, 0);
	wr(HMOVE, 0, Y0 + 3, 73);
	TEST_EQ_LONG(tia.posp0, 28 - 8, "HMOVE at cycle 73: HMP0 0 moves 8 left");
	wr(HMP0, 0x70, Y0 + 4, 0);
	wr(HMOVE, 0, Y0 + 4, 12);
	TEST_EQ_LONG(tia.posp0, 20, "HMOVE at cycle 12: left moves stopped");
	wr(HMP0, 0x80, Y0 + 5, 0);
	wr(HMOVE, 0, Y0 + 5, 15);
	TEST_EQ_LONG(tia.posp0, 28, "HMOVE at cycle 15: right moves whole");
	/* Every motion register 0: from cycle 2 to 20 the clamp from below
	 * still moves objects right, 6 pixels at cycle 20. */
	wr(HMCLR, 0, Y0 + 6, 0);
	wr(HMOVE, 0, Y0 + 6, 20);
	TEST_EQ_LONG(tia.posp0, 34, "HMOVE at cycle 20, HMP0 0: the clamp moves 6 right");
	wr(HMOVE, 0, Y0 + 7, 3);
	TEST_EQ_LONG(tia.posp0, 34, "HMOVE at cycle 3, every motion 0: nothing moves");

	/* No bars when the game disables them. */
	fresh();
	TEST_EQ_LONG(atari_tia_configure(&tia, Y0, ATARI_SCREEN_HEIGHT, 0), 0, "configure: accepted");
	wr(COLUBK, 0x0e, Y0, 0);
	wr(HMOVE, 0, Y0, 3);
	finish_row(0);
	TEST_EQ_LONG(count(0, 0x0e), 160, "configure: HMOVE bars off");
	TEST_EQ_LONG(atari_tia_configure(&tia, 200, 200, 1), -1, "configure: too many rows refused");
}

/* The quirks of the reference that games depend on. */
static void test_quirks(void)
{
	/* "Cosmic Ark" starfield: HMM0 from 7 to 6 21 cycles after HMOVE
	 * makes missile 0 jump 33, 0, 17, 18 pixels left on successive
	 * lines, doubled in width, hidden, then normal. */
	fresh();
	wr(COLUP0, 0x44, Y0, 0);
	wr(RESM0, 0, Y0, 40);		/* clock 120: 56 */
	wr(ENAM0, 0x02, Y0, 41);
	wr(HMM0, 0x70, Y0, 42);
	wr(HMOVE, 0, Y0, 45);		/* mid-line: no motion */
	wr(HMM0, 0x60, Y0, 66);
	TEST_EQ_LONG(tia.cosmic, 1, "HMM0 Cosmic Ark: bug enabled");
	finish_row(3);
	TEST_OK(px(1, 23) == 0x44 && px(1, 24) == 0x44 && count(1, 0x44) == 2,
		"HMM0 Cosmic Ark: 33 left, two pixels wide");
	TEST_EQ_LONG(count(2, 0x44), 0, "HMM0 Cosmic Ark: hidden on the next line");
	TEST_OK(px(3, 6) == 0x44 && count(3, 0x44) == 1, "HMM0 Cosmic Ark: then 17 left, normal");
	wr(HMOVE, 0, Y0 + 4, 45);
	TEST_EQ_LONG(tia.cosmic, 0, "HMOVE: ends the Cosmic Ark motion");

	/* RESBL 18 cycles after HMOVE at pixel clock 60: position 10. */
	fresh();
	wr(HMOVE, 0, Y0, 2);
	wr(RESBL, 0, Y0, 20);
	TEST_EQ_LONG(tia.posbl, 10, "RESBL 18 cycles after HMOVE: the reference's position 10");
	wr(RESBL, 0, Y0 + 1, 20);
	TEST_EQ_LONG(tia.posbl, 2, "RESBL in blank otherwise: position 2");

	/* HMOVE at cycle 75 blanks the start of the next line. */
	fresh();
	wr(COLUBK, 0x0e, Y0, 0);
	wr(HMOVE, 0, Y0, 75);
	finish_row(1);
	TEST_EQ_LONG(count(0, 0), 0, "HMOVE at cycle 75: no bar on its own line");
	TEST_OK(count(1, 0) == 8 && px(1, 7) == 0, "HMOVE at cycle 75: bar on the next line");

	/* Late HMOVE, cycle 55: only HMxx 7 moves, one pixel left. */
	fresh();
	wr(RESP0, 0, Y0, 30);
	wr(RESP1, 0, Y0, 30);
	wr(HMP0, 0x70, Y0, 40);
	wr(HMP1, 0x60, Y0, 41);
	wr(HMOVE, 0, Y0, 55);
	TEST_OK(tia.posp0 == 26 && tia.posp1 == 27, "HMOVE at cycle 55: partial motion (%d %d)",
		tia.posp0, tia.posp1);

	/* A taller display window (Stella's Display.Height). */
	fresh();
	TEST_EQ_LONG(atari_tia_configure(&tia, 26, 220, 1), 0, "configure: YStart 26, Height 220");
	wr(COLUBK, 0x44, 26 + 219, 0);
	atari_tia_sync(&tia, at(26 + 220, 0), fb);
	TEST_OK(px(219, 0) == 0x44 && px(220, 0) == 0xff, "configure: 220 rows drawn, no more");
}

static void test_collisions(void)
{
	fresh();
	wr(RESP0, 0, Y0 - 1, 30);	/* 27 */
	wr(RESP1, 0, Y0 - 1, 31);	/* 30 */
	wr(GRP0, 0xf0, Y0 - 1, 40);	/* 27-30 */
	wr(GRP1, 0x80, Y0 - 1, 41);	/* 30 */
	settle(Y0 - 1);
	finish_row(0);
	TEST_EQ_LONG(rd(CXPPMM, Y0 + 1, 10), 0x80, "CXPPMM: P0-P1 latched");
	TEST_EQ_LONG(rd(CXP0FB, Y0 + 1, 10), 0x00, "CXP0FB: no playfield or ball");
	wr(CXCLR, 0, Y0 + 1, 20);
	TEST_EQ_LONG(rd(CXPPMM, Y0 + 1, 21), 0x00, "CXCLR: latches cleared");
	wr(GRP1, 0x40, Y0 + 1, 30);	/* 31: no overlap */
	finish_row(2);
	TEST_EQ_LONG(rd(CXPPMM, Y0 + 3, 1), 0x00, "CXPPMM: apart, no collision");

	wr(PF0, 0x10, Y0 + 3, 2);
	wr(RESM0, 0, Y0 + 3, 10);	/* 2 */
	wr(ENAM0, 0x02, Y0 + 3, 20);
	finish_row(4);
	TEST_EQ_LONG(rd(CXM0FB, Y0 + 5, 1), 0x80, "CXM0FB: missile 0 on the playfield");
	wr(ENABL, 0x02, Y0 + 5, 2);
	wr(RESBL, 0, Y0 + 5, 3);	/* 2 */
	finish_row(6);
	TEST_EQ_LONG(rd(CXM0FB, Y0 + 7, 1), 0xc0, "CXM0FB: and on the ball");
	TEST_EQ_LONG(rd(CXBLPF, Y0 + 7, 2), 0x80, "CXBLPF: ball on the playfield");

	/* Nothing collides under VBLANK or outside the drawn rows. */
	fresh();
	wr(RESP0, 0, 5, 30);
	wr(RESP1, 0, 5, 30);
	wr(GRP0, 0xff, 5, 40);
	wr(GRP1, 0xff, 5, 41);
	settle(5);
	TEST_EQ_LONG(rd(CXPPMM, Y0 - 1, 10), 0x00, "collisions: none above the screen");
	wr(VBLANK, 0x02, Y0 - 1, 20);
	TEST_EQ_LONG(rd(CXPPMM, Y0 + 3, 10), 0x00, "collisions: none under VBLANK");
	wr(VBLANK, 0x00, Y0 + 3, 20);
	TEST_EQ_LONG(rd(CXPPMM, Y0 + 4, 10), 0x80, "collisions: after VBLANK");
}

static void test_priority(void)
{
	fresh();
	wr(COLUP0, 0x44, Y0 - 1, 0);
	wr(COLUP1, 0x88, Y0 - 1, 0);
	wr(COLUPF, 0x1e, Y0 - 1, 0);
	wr(PF0, 0xf0, Y0 - 1, 0);	/* pixels 0-15 */
	wr(RESP0, 0, Y0 - 1, 10);	/* 3 */
	wr(GRP0, 0xff, Y0 - 1, 20);
	settle(Y0 - 1);
	finish_row(0);
	TEST_EQ_LONG(px(0, 5), 0x44, "priority: player over playfield");
	wr(CTRLPF, 0x04, Y0 + 1, 0);
	finish_row(1);
	TEST_EQ_LONG(px(1, 5), 0x1e, "CTRLPF priority: playfield over player");
	/* Score mode: the left playfield, in player 0's colour, stays in
	 * front of player 1 (the reference's priority encoder). */
	wr(CTRLPF, 0x02, Y0 + 2, 0);
	wr(GRP0, 0x00, Y0 + 2, 1);
	wr(RESP1, 0, Y0 + 2, 10);
	wr(GRP1, 0xff, Y0 + 2, 40);
	finish_row(3);
	TEST_EQ_LONG(px(3, 5), 0x44, "CTRLPF score: left playfield over player 1");
}

static void test_inputs(void)
{
	atari_tia_reset(&tia);
	TEST_EQ_LONG(atari_tia_read(&tia, INPT4, 10, NULL), 0x80, "INPT4: released reads bit 7 set");
	atari_tia_set_fire(&tia, 0, 1);
	TEST_EQ_LONG(atari_tia_read(&tia, INPT4, 11, NULL), 0x00, "INPT4: pressed reads 0");
	TEST_EQ_LONG(atari_tia_read(&tia, INPT5, 12, NULL), 0x80, "INPT5: the other button");
	TEST_EQ_LONG(atari_tia_read(&tia, INPT0, 13, NULL), 0x00, "INPT0: open pot never charges");

	/* Pot of 500 kilohms: 1.6 * 5e5 * 1e-8 s * 1.19 MHz = 9520 cycles. */
	atari_tia_set_pot(&tia, 1, 500000);
	atari_tia_write(&tia, VBLANK, 0x80, 100, NULL);
	TEST_EQ_LONG(atari_tia_read(&tia, INPT1, 20000, NULL), 0x00, "INPT1: dumped while VBLANK bit 7");
	atari_tia_write(&tia, VBLANK, 0x00, 1000, NULL);
	TEST_EQ_LONG(atari_tia_read(&tia, INPT1, 1000 + 9520, NULL), 0x00, "INPT1: charging");
	TEST_EQ_LONG(atari_tia_read(&tia, INPT1, 1000 + 9521, NULL), 0x80, "INPT1: charged");
	atari_tia_set_pot(&tia, 1, ATARI_POT_GROUNDED);
	TEST_EQ_LONG(atari_tia_read(&tia, INPT1, 1100, NULL), 0x80, "INPT1: grounded pot at once");
	atari_tia_set_paddle(&tia, 2, 0.5f);
	atari_tia_write(&tia, VBLANK, 0x80, 2000, NULL);
	atari_tia_write(&tia, VBLANK, 0x00, 2100, NULL);
	TEST_EQ_LONG(atari_tia_read(&tia, INPT2, 2100 + 9520, NULL), 0x00, "set_paddle 0.5: 500 kilohms");
	TEST_EQ_LONG(atari_tia_read(&tia, INPT2, 2100 + 9521, NULL), 0x80, "set_paddle 0.5: charged");
	/* Released in an earlier frame long enough ago: the reference's
	 * unsigned comparison reads it as uncharged. */
	atari_tia_write(&tia, VSYNC, 0x02, 20000, NULL);
	atari_tia_write(&tia, VSYNC, 0x00, 20100, NULL);
	TEST_EQ_LONG(atari_tia_read(&tia, INPT2, 20200, NULL), 0x00,
		     "INPT2: released frames ago reads uncharged (as ALE)");
}

/* The same writes with and without a frame buffer give the same state,
 * once the collisions of the pixels not drawn are latched, and the
 * collision registers read the same in between: a frame of random
 * writes and reads from each of several seeds. */
static void test_no_fb_same_state(void)
{
	static struct atari_tia with, without;
	static const int windows[][2] = { {34, 210}, {0, 320}, {40, 210}, {300, 20} };
	int differ = 0, collided = 0, reads_differ = 0;

	for (uint32_t run = 0; run < 256; run++) {
		uint32_t reads[2] = { 0, 0 };

		for (int pass = 0; pass < 2; pass++) {
			uint32_t seed = 12345 + run * 7919;

			fbp = pass ? NULL : fb;
			memset(&tia, 0, sizeof(tia));
			atari_tia_reset(&tia);
			atari_tia_set_format(&tia, (int)(run & 1));
			atari_tia_configure(&tia, windows[run % 4][0], windows[run % 4][1], (int)(run >> 2) & 1);
			for (uint64_t c = 1; c < 76 * 262 * 3; c += 1 + (seed >> 29)) {
				seed = seed * 1103515245u + 12345u;
				unsigned reg = (seed >> 8) % (0x2d + 8);

				if (reg == VSYNC && ((seed >> 20) & 7))
					continue;
				if (reg >= 0x2d)	/* CXM0P-CXPPMM */
					reads[pass] = reads[pass] * 31 +
						      atari_tia_read(&tia, (uint16_t)(reg - 0x2d), c, fbp);
				else
					atari_tia_write(&tia, (uint16_t)reg, (uint8_t)(seed >> 16), c, fbp);
			}
			atari_tia_sync(&tia, 76 * 262 * 3 + 100, fbp);
			/* Latch what waits, as the machine does after each frame. */
			atari_tia_settle(&tia);
			memcpy(pass ? &without : &with, &tia, sizeof(tia));
		}
		collided += with.collision != 0;
		differ += memcmp(&with, &without, sizeof(with)) != 0;
		reads_differ += reads[0] != reads[1];
	}
	fbp = fb;
	/* The same state includes the same collisions; there must be some. */
	TEST_OK(collided >= 64, "fb NULL: the traffic makes collisions (%d runs of 256)", collided);
	TEST_OK(differ == 0, "fb NULL: same state (%d runs of 256 differ)", differ);
	TEST_OK(reads_differ == 0,
		"fb NULL: the collision registers read the same (%d runs of 256 differ)", reads_differ);
}

/* Random register traffic with every display window shape: the TIA stays
 * inside the frame buffer (the sanitizers watch) and keeps its invariants. */
static void test_random_traffic(void)
{
	static const int windows[][2] = {
		{34, 210}, {0, 320}, {40, 210}, {26, 220}, {319, 1}, {0, 1},
	};
	uint32_t seed = 99;
	int ok = 1, frames = 0;

	for (unsigned w = 0; w < sizeof(windows) / sizeof(windows[0]); w++) {
		uint64_t c = 0;

		memset(&tia, 0, sizeof(tia));
		atari_tia_reset(&tia);
		if (atari_tia_configure(&tia, windows[w][0], windows[w][1], (int)(w & 1)) < 0)
			ok = 0;
		for (int i = 0; i < 40000; i++) {
			seed = seed * 1103515245u + 12345u;
			/* Mostly a few cycles apart, sometimes thousands. */
			c += (seed >> 28) == 0 ? (seed >> 12) & 0x3fff : 1 + ((seed >> 24) & 7);
			unsigned op = (seed >> 8) & 0x7f;

			if (op < 0x2d)
				atari_tia_write(&tia, (uint16_t)op, (uint8_t)(seed >> 16), c, fb);
			else if (op < 0x40)
				(void)atari_tia_read(&tia, (uint16_t)op, c, fb);
			else if (op == 0x40)
				atari_tia_grey_out(&tia, c, fb);
			else if (op == 0x41)
				atari_tia_set_pot(&tia, (int)(seed >> 20) & 3, (int32_t)(seed >> 9));
			else
				atari_tia_sync(&tia, c, fb);
			if (tia.posp0 >= 160 || tia.posp1 >= 160 || tia.posm0 >= 160 ||
			    tia.posm1 >= 160 || tia.posbl >= 160 ||
			    tia.fb_pos > ATARI_SCREEN_WIDTH * ATARI_FB_LINES)
				ok = 0;
			frames += tia.frame_done;
			tia.frame_done = 0;
		}
	}
	TEST_OK(ok, "random traffic: positions and frame buffer stay in range");
	TEST_OK(frames > 100, "random traffic: frames completed (%d)", frames);
}

static void test_unfinished_frames(void)
{
	fresh();
	memset(fb, 0x1e, sizeof(fb));
	atari_tia_grey_out(&tia, at(Y0 + 10, 5), fb);
	TEST_OK(px(9, 0) == 0x1e && px(10, 0) == 0x07 && px(209, 159) == 0x07,
		"grey_out: rows not reached become (c & 15) >> 1");
	atari_tia_grey_out(&tia, at(Y0 + 20, 5), fb);
	TEST_EQ_LONG(px(10, 0), 0x07, "grey_out: once per frame");
	TEST_EQ_LONG(tia.unfinished, 1, "grey_out: frame marked unfinished");

	/* A reset then carries on with the unfinished frame from scan line 0:
	 * row r shows scan line r. */
	atari_tia_reset(&tia);
	base = 0;
	wr(COLUBK, 0x44, 3, 0);
	finish_row(0);
	TEST_OK(px(3, 0) == 0x44 && px(Y0, 0) == 0x44 && px(Y0 + 1, 0) == 0x07,
		"reset after an unfinished frame: drawn from line 0");
	atari_tia_write(&tia, VSYNC, 2, at(10, 0), fb);
	atari_tia_write(&tia, VSYNC, 0, at(11, 0), fb);
	TEST_EQ_LONG(tia.unfinished, 0, "frame end: no longer unfinished");
	atari_tia_reset(&tia);
	memset(fb, 0xff, sizeof(fb));
	wr(COLUBK, 0x44, 3, 0);
	finish_row(0);
	TEST_OK(px(0, 0) == 0x44 && px(1, 0) == 0xff,
		"reset after a complete frame: first row is line ystart");
}

/* Writes that change nothing and reads of the inputs draw nothing at once;
 * atari_tia_catch_up() brings the picture up to the last of them, as the
 * reference draws on every access, before a frame is greyed out. */
static void test_catch_up(void)
{
	fresh();
	memset(fb, 0x1e, sizeof(fb));
	wr(COLUBK, 0x44, Y0 + 2, 0);
	wr(COLUBK, 0x44, Y0 + 5, 40);	/* changes nothing: draws nothing */
	TEST_OK(px(3, 0) == 0x1e, "a write that changes nothing does not draw");
	atari_tia_catch_up(&tia, fb);
	TEST_OK(px(3, 0) == 0x44 && px(4, 159) == 0x44 && px(5, 50) == 0x44 &&
		px(5, 53) == 0x1e, "catch_up: drawn up to that write");
	TEST_OK(rd(INPT4, Y0 + 6, 40) == 0x80 && px(6, 0) == 0x1e,
		"a read of the inputs does not draw");
	atari_tia_catch_up(&tia, fb);
	TEST_OK(px(5, 100) == 0x44 && px(6, 50) == 0x44 && px(6, 53) == 0x1e,
		"catch_up: drawn up to that read");
	wr(PF1, 0xff, Y0 + 7, 30);	/* takes effect 2 to 5 clocks later */
	wr(PF1, 0xff, Y0 + 7, 50);
	atari_tia_catch_up(&tia, fb);
	TEST_OK(px(7, 83) == 0x44 && px(7, 84) == 0x1e,
		"catch_up: up to the write's delay, 2 clocks here");
	atari_tia_grey_out(&tia, at(Y0 + 9, 0), fb);
	TEST_OK(px(8, 0) == 0x1e && px(9, 0) == 0x07, "then grey_out from the beam's line");
}

static void test_palette(void)
{
	TEST_EQ_LONG(atari_palette_rgb(0x00), 0x000000, "palette: black");
	TEST_EQ_LONG(atari_palette_rgb(0x0e), 0xececec, "palette: white");
	TEST_EQ_LONG(atari_palette_rgb(0x0f), 0xececec, "palette: bit 0 ignored");
	TEST_EQ_LONG(atari_palette_rgb(0x44), atari_palette_ntsc[0x22], "palette: function and array agree");
	TEST_EQ_LONG(atari_palette_grey(0x0e), 236, "palette grey: white");
	TEST_EQ_LONG(atari_palette_grey(0x42), 68, "palette grey: luminance of 0xa71a1a");
}

int main(void)
{
	test_frames();
	test_wsync();
	test_pal();
	test_background_and_vblank();
	test_playfield();
	test_playfield_delay();
	test_players();
	test_vdel();
	test_missiles_and_ball();
	test_hmove();
	test_quirks();
	test_collisions();
	test_priority();
	test_inputs();
	test_no_fb_same_state();
	test_random_traffic();
	test_unfinished_frames();
	test_catch_up();
	test_palette();
	printf("# sizeof(struct atari_tia) = %zu\n", sizeof(struct atari_tia));
	return test_done();
}
