#include "fiber/wire.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void put_be(uint8_t *p, uint64_t v, int bytes)
{
	int i;

	for (i = bytes - 1; i >= 0; i--) {
		p[i] = (uint8_t)v;
		v >>= 8;
	}
}

static uint64_t get_be(const uint8_t *p, int bytes)
{
	uint64_t v = 0;
	int i;

	for (i = 0; i < bytes; i++)
		v = v << 8 | p[i];
	return v;
}

static int header(uint8_t *h, int type, uint64_t seq, size_t len)
{
	if (len > UINT32_MAX - 9)
		return -EMSGSIZE;
	put_be(h, len + 9, 4);
	h[4] = (uint8_t)type;
	put_be(h + 5, seq, 8);
	return 0;
}

int fiber_frame_put2(struct core_buf *b, int type, uint64_t seq,
		     const void *head, size_t hlen, const void *body, size_t len)
{
	uint8_t h[FIBER_FRAME_HEADER];
	int ret;

	if (len > UINT32_MAX - 9 - hlen || header(h, type, seq, hlen + len) < 0)
		return -EMSGSIZE;
	ret = core_buf_reserve(b, sizeof(h) + hlen + len);
	if (ret < 0)
		return ret;
	core_buf_append(b, h, sizeof(h));
	core_buf_append(b, head, hlen);
	return core_buf_append(b, body, len);
}

int fiber_frame_put_head(struct core_buf *b, int type, uint64_t seq, size_t len)
{
	uint8_t h[FIBER_FRAME_HEADER];

	if (header(h, type, seq, len) < 0)
		return -EMSGSIZE;
	return core_buf_append(b, h, sizeof(h));
}

int fiber_frame_put(struct core_buf *b, int type, uint64_t seq,
		    const void *body, size_t len)
{
	return fiber_frame_put2(b, type, seq, NULL, 0, body, len);
}

int fiber_frame_next(struct core_buf *b, size_t max, struct fiber_frame *f)
{
	const uint8_t *p = (const uint8_t *)b->data + b->off;
	uint64_t n;

	if (core_buf_pending(b) < 5)
		return 0;
	n = get_be(p, 4);
	if (n < 9 || n - 9 > max || p[4] < 1 || p[4] > FIBER_FRAME_TYPE_MAX)
		return -EPROTO;
	if (core_buf_pending(b) < FIBER_FRAME_HEADER)
		return 0;
	if (core_buf_pending(b) < 4 + n)
		return 0;
	f->type = p[4];
	f->seq = get_be(p + 5, 8);
	f->body = (const char *)p + FIBER_FRAME_HEADER;
	f->len = (size_t)n - 9;
	/* Consume without compacting, so that f->body stays where it is. */
	b->off += 4 + (size_t)n;
	return 1;
}

void fiber_auth_master_proof(const char *secret, const uint8_t *nonce_w,
			     const uint8_t *nonce_m, uint8_t out[FIBER_SHA256_LEN])
{
	static const char tag[] = "fiberrun-master";
	const void *parts[3] = { tag, nonce_w, nonce_m };
	size_t lens[3] = { sizeof(tag) - 1, FIBER_NONCE_LEN, FIBER_NONCE_LEN };

	fiber_hmac_sha256(secret, strlen(secret), 3, parts, lens, out);
}

void fiber_auth_worker_proof(const char *secret, const uint8_t *nonce_m,
			     const uint8_t *nonce_w, uint64_t token,
			     uint8_t out[FIBER_SHA256_LEN])
{
	static const char tag[] = "fiberrun-worker";
	uint8_t tok[8];
	const void *parts[4] = { tag, nonce_m, nonce_w, tok };
	size_t lens[4] = { sizeof(tag) - 1, FIBER_NONCE_LEN, FIBER_NONCE_LEN, 8 };

	put_be(tok, token, 8);
	fiber_hmac_sha256(secret, strlen(secret), 4, parts, lens, out);
}

int fiber_auth_challenge(const char *secret, const uint8_t *nonce_w,
			 uint8_t nonce_m[FIBER_NONCE_LEN],
			 char body[FIBER_CHALLENGE_LEN])
{
	uint8_t proof[FIBER_SHA256_LEN];
	int ret = fiber_random_bytes(nonce_m, FIBER_NONCE_LEN);

	if (ret < 0)
		return ret;
	fiber_auth_master_proof(secret, nonce_w, nonce_m, proof);
	memcpy(body, nonce_m, FIBER_NONCE_LEN);
	memcpy(body + FIBER_NONCE_LEN, proof, sizeof(proof));
	return 0;
}

int fiber_auth_master_ok(const char *secret, const uint8_t *nonce_w,
			 const char *body, size_t len)
{
	uint8_t proof[FIBER_SHA256_LEN];

	if (len != FIBER_CHALLENGE_LEN)
		return 0;
	fiber_auth_master_proof(secret, nonce_w, (const uint8_t *)body, proof);
	return fiber_digest_equal(proof, (const uint8_t *)body + FIBER_NONCE_LEN, sizeof(proof));
}

int fiber_auth_worker_ok(const char *secret, const uint8_t *nonce_m,
			 const uint8_t *nonce_w, uint64_t token,
			 const char *body, size_t len)
{
	uint8_t proof[FIBER_SHA256_LEN];

	if (len < FIBER_SHA256_LEN)
		return 0;
	fiber_auth_worker_proof(secret, nonce_m, nonce_w, token, proof);
	return fiber_digest_equal(proof, (const uint8_t *)body, sizeof(proof));
}
