; Catch: a small Atari 2600 game written for rlkit, so that cule-bench, its
; demo and its tests have a ROM the project may ship.
;
; Move the bat (player 0) with the joystick, left and right, and catch the
; falling ball (player 1).  A catch scores one point; a miss costs one of
; three lives; the game is over when no life is left.  The reset switch
; starts a new game.
;
; RAM used by the environment settings (see lib/atari/game.c):
;   $80  score, BCD (reward: its increase)
;   $81  lives left
;   $82  $FF once the game is over (terminal)
;
; Build: dasm catch.asm -f3 -ocatch.bin (a 4 KiB cartridge image).

	processor 6502

VSYNC	= $00
VBLANK	= $01
WSYNC	= $02
NUSIZ0	= $04
COLUP0	= $06
COLUP1	= $07
COLUBK	= $09
RESP0	= $10
GRP0	= $1B
GRP1	= $1C
HMP0	= $20
HMOVE	= $2A
HMCLR	= $2B
SWCHA	= $280
SWCHB	= $282
INTIM	= $284
TIM64T	= $296

SCORE	= $80
LIVES	= $81
OVER	= $82
BATX	= $83
BALLX	= $84
BALLY	= $85
SEED	= $86
SPEED	= $87
TMP	= $88

BATTOP	= 14		; the bat is drawn on kernel lines 14..7
BALLH	= 6		; ball height in lines

	seg code
	org $F000

Start:
	sei
	cld
	ldx #0
	txa
Clear:	dex
	txs
	pha
	bne Clear		; zero TIA and RAM, stack at $FF
	lda #$5A
	sta SEED
NewGame:
	lda #0
	sta SCORE
	sta OVER
	lda #3
	sta LIVES
	lda #68
	sta BATX
	lda #1
	sta SPEED
	jsr NewBall

Frame:
	lda #2
	sta VBLANK
	sta VSYNC
	sta WSYNC
	sta WSYNC
	sta WSYNC
	lda #0
	sta VSYNC
	lda #43
	sta TIM64T

	; --- game logic during vertical blank ---
	lda SWCHB
	lsr			; reset switch (bit 0, 0 = pressed)
	bcs NoReset
	jmp NewGameWait
NoReset:
	lda SEED		; 8-bit Galois LFSR
	lsr
	bcc NoEor
	eor #$B4
NoEor:	sta SEED
	lda OVER
	bne Position		; game over: everything stands still
	lda SWCHA
	asl			; right (bit 7, 0 = pressed)
	bcs NotRight
	ldx BATX
	cpx #128
	bcs NotRight
	inx
	inx
	stx BATX
NotRight:
	asl			; left (bit 6)
	bcs NotLeft
	ldx BATX
	cpx #2
	bcc NotLeft
	dex
	dex
	stx BATX
NotLeft:
	lda BALLY		; the ball falls
	sec
	sbc SPEED
	sta BALLY
	cmp #BATTOP + 1
	bcs Position		; still above the bat
	cmp #BATTOP - 8
	bcc Missed		; passed the bat
	lda BALLX		; catch when bat x - 7 <= ball x <= bat x + 31
	clc
	adc #7
	sec
	sbc BATX
	cmp #39
	bcs Position
	sed
	lda SCORE
	clc
	adc #1
	sta SCORE
	cld
	lda SCORE
	and #$07
	bne SameSpeed		; every 8 points, faster
	inc SPEED
SameSpeed:
	jsr NewBall
	jmp Position
Missed:
	dec LIVES
	bne Again
	lda #$FF
	sta OVER
Again:	jsr NewBall

Position:
	lda BATX
	ldx #0
	jsr PosObject
	lda BALLX
	ldx #1
	jsr PosObject
	sta WSYNC
	sta HMOVE
	lda #$07		; bat: a quad-width player
	sta NUSIZ0
	lda #$1E
	sta COLUP0
	lda #$46
	sta COLUP1
	lda #$82
	sta COLUBK
WaitVblank:
	lda INTIM
	bne WaitVblank
	sta WSYNC
	sta VBLANK

	; --- 192 visible lines, counted down in X ---
	ldx #192
Line:	sta WSYNC
	txa
	sec
	sbc BALLY
	cmp #BALLH
	lda #0
	bcs NoBall
	lda #$3C
NoBall:	sta GRP1
	lda #0
	cpx #BATTOP + 1
	bcs NoBat
	cpx #BATTOP - 7
	bcc NoBat
	lda #$FF
NoBat:	sta GRP0
	dex
	bne Line

	; --- overscan ---
	lda #2
	sta VBLANK
	lda #0
	sta GRP0
	sta GRP1
	lda #35
	sta TIM64T
Overscan:
	lda INTIM
	bne Overscan
	jmp Frame

NewGameWait:			; restart, then finish the frame as usual
	jsr ClearBall
	jmp NewGame

; A new ball at the top, at a random column.
NewBall:
	lda SEED
	and #$7F
	clc
	adc #8
	sta BALLX
	lda #190
	sta BALLY
	rts

ClearBall:
	lda #0
	sta GRP1
	rts

; Place object X (0 = player 0, 1 = player 1) at column A.
PosObject:
	sta WSYNC
	sec
Div15:	sbc #15
	bcs Div15
	eor #7
	asl
	asl
	asl
	asl
	sta HMP0,x
	sta RESP0,x
	rts

	org $FFFC
	.word Start
	.word Start
