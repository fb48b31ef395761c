/*
 * The wire protocol between the master and its workers' agents: frames on
 * a TCP stream (man/man5/fiberrun-protocol.5 is the reference).
 *
 * A frame is a 4-byte big-endian length L, then L bytes: a 1-byte type, an
 * 8-byte big-endian sequence number, and L - 9 bytes of body.  A reader
 * rejects (-EPROTO) a length below 9 or above its bound, and unknown types,
 * before buffering the body, so a peer can never make it allocate more
 * than the bound.
 *
 * Frames are built in and taken from a struct core_buf (core/buf.h).
 *
 * Handshake (fiber_auth_*): the agent sends HELLO (seq = its worker token,
 * body = 32-byte nonce N_w); the master answers CHALLENGE (body = nonce N_m
 * and HMAC(secret, "fiberrun-master" N_w N_m)); the agent checks it and
 * answers AUTH (body = HMAC(secret, "fiberrun-worker" N_m N_w token) then
 * its host name); the master checks it and sends WELCOME (seq = worker
 * number).  Before WELCOME each side accepts only the next handshake frame,
 * of at most FIBER_AUTH_FRAME_MAX bytes.
 */
#ifndef FIBER_WIRE_H
#define FIBER_WIRE_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "core/buf.h"
#include "fiber/hmac.h"

#define FIBER_FRAME_HEADER 13		/* length, type, seq */
#define FIBER_FRAME_MAX_DEFAULT (16u << 20)
#define FIBER_AUTH_FRAME_MAX 512
#define FIBER_NONCE_LEN 32

enum fiber_frame_type {
	FIBER_HELLO = 1,	/* agent: seq token, body nonce */
	FIBER_CHALLENGE,	/* master: body nonce, proof */
	FIBER_AUTH,		/* agent: body proof, host name */
	FIBER_WELCOME,		/* master: seq worker number */
	FIBER_TASK,		/* master: seq task, body task line (no newline) */
	FIBER_RESULT,		/* agent: seq task, body kind ('o' or 'e') then the result */
	FIBER_EXIT,		/* agent: seq exit status, body reason; last frame */
	FIBER_STOP,		/* master: close the worker's stdin and exit */
	FIBER_READY,		/* agent: the worker command is ready for tasks */
	FIBER_PING,		/* master: seq a counter; the agent answers at once */
	FIBER_PONG,		/* agent: seq that of the PING it answers (heartbeat.h) */
	FIBER_FRAME_TYPE_MAX = FIBER_PONG
};

struct fiber_frame {
	int type;
	uint64_t seq;
	const char *body;	/* points into the buffer: valid until it changes */
	size_t len;
};

/* Append one frame. 0 or -ENOMEM, -EMSGSIZE when the body is too long. */
int fiber_frame_put(struct core_buf *b, int type, uint64_t seq,
		    const void *body, size_t len);
/* The same with a body made of two parts, head then body. */
int fiber_frame_put2(struct core_buf *b, int type, uint64_t seq,
		     const void *head, size_t hlen, const void *body, size_t len);
/*
 * Only the header of a frame whose `len` bytes of body the caller sends
 * itself, right after it (a long body is then never copied).  0, -ENOMEM
 * or -EMSGSIZE.
 */
int fiber_frame_put_head(struct core_buf *b, int type, uint64_t seq, size_t len);
/*
 * Take the next complete frame from `b`: 1 and *f (consumed from `b`; the
 * body stays valid until the next change of `b`), 0 when incomplete, or
 * -EPROTO when the header is invalid or the frame is longer than `max`.
 */
int fiber_frame_next(struct core_buf *b, size_t max, struct fiber_frame *f);

/* The master's proof (CHALLENGE body is nonce_m then this). */
void fiber_auth_master_proof(const char *secret, const uint8_t *nonce_w,
			     const uint8_t *nonce_m, uint8_t out[FIBER_SHA256_LEN]);
/* The agent's proof (AUTH body starts with this). */
void fiber_auth_worker_proof(const char *secret, const uint8_t *nonce_m,
			     const uint8_t *nonce_w, uint64_t token,
			     uint8_t out[FIBER_SHA256_LEN]);

/*
 * The handshake steps, as pure functions (the event loops do the I/O).
 * fiber_auth_challenge: the master answers a HELLO's nonce: a fresh
 * nonce_m and the CHALLENGE body (nonce_m then the master's proof).
 * fiber_auth_master_ok: the agent checks a CHALLENGE body: 1 when the
 * master knows the secret.  fiber_auth_worker_ok: the master checks an
 * AUTH body: 1 when it proves the secret for these nonces and token.
 */
#define FIBER_CHALLENGE_LEN (FIBER_NONCE_LEN + FIBER_SHA256_LEN)

int fiber_auth_challenge(const char *secret, const uint8_t *nonce_w,
			 uint8_t nonce_m[FIBER_NONCE_LEN],
			 char body[FIBER_CHALLENGE_LEN]);
int fiber_auth_master_ok(const char *secret, const uint8_t *nonce_w,
			 const char *body, size_t len);
int fiber_auth_worker_ok(const char *secret, const uint8_t *nonce_m,
			 const uint8_t *nonce_w, uint64_t token,
			 const char *body, size_t len);

#endif
