/* lib/fiber internals: SHA-256 and HMAC vectors, frames and their bounds,
 * hosts files and placement, task ids, the joblog's torn-line recovery. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fiber/hmac.h"
#include "fiber/hosts.h"
#include "fiber/joblog.h"
#include "fiber/task.h"
#include "fiber/taskq.h"
#include "fiber/wire.h"
#include "test.h"

static void hex(const uint8_t *d, size_t n, char *out)
{
	size_t i;

	for (i = 0; i < n; i++)
		sprintf(out + 2 * i, "%02x", d[i]);
}

static void test_sha256(void)
{
	struct fiber_sha256 s;
	uint8_t d[32];
	char h[65];
	int i;

	fiber_sha256_init(&s);
	fiber_sha256_final(&s, d);
	hex(d, 32, h);
	TEST_EQ_STR(h, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855", "sha256 of nothing");
	fiber_sha256_init(&s);
	fiber_sha256_update(&s, "abc", 3);
	fiber_sha256_final(&s, d);
	hex(d, 32, h);
	TEST_EQ_STR(h, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad", "sha256 of abc");
	fiber_sha256_init(&s);
	for (i = 0; i < 1000000; i += 1000) {
		char a[1000];

		memset(a, 'a', sizeof(a));
		fiber_sha256_update(&s, a, sizeof(a));
	}
	fiber_sha256_final(&s, d);
	hex(d, 32, h);
	TEST_EQ_STR(h, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0", "sha256 of a million a");
}

static void test_hmac(void)
{
	uint8_t key[20], d[32], key131[131];
	const void *parts[2];
	size_t lens[2];
	char h[65];

	/* RFC 4231 test case 1, message in two parts. */
	memset(key, 0x0b, sizeof(key));
	parts[0] = "Hi ";
	lens[0] = 3;
	parts[1] = "There";
	lens[1] = 5;
	fiber_hmac_sha256(key, sizeof(key), 2, parts, lens, d);
	hex(d, 32, h);
	TEST_EQ_STR(h, "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7", "hmac rfc4231 case 1");
	/* Case 2: key "Jefe". */
	parts[0] = "what do ya want for nothing?";
	lens[0] = 28;
	fiber_hmac_sha256("Jefe", 4, 1, parts, lens, d);
	hex(d, 32, h);
	TEST_EQ_STR(h, "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843", "hmac rfc4231 case 2");
	/* Case 6: a key longer than the block. */
	memset(key131, 0xaa, sizeof(key131));
	parts[0] = "Test Using Larger Than Block-Size Key - Hash Key First";
	lens[0] = strlen(parts[0]);
	fiber_hmac_sha256(key131, sizeof(key131), 1, parts, lens, d);
	hex(d, 32, h);
	TEST_EQ_STR(h, "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54", "hmac rfc4231 case 6");
	TEST_OK(fiber_digest_equal(d, d, 32), "digest equals itself");
	key131[0] = d[0] ^ 1;
	memcpy(key131 + 1, d + 1, 31);
	TEST_OK(!fiber_digest_equal(d, key131, 32), "digests differing in one bit differ");
}

static void test_secret_and_auth(void)
{
	char a[FIBER_SECRET_HEX_LEN + 1], b[FIBER_SECRET_HEX_LEN + 1];
	uint8_t nw[32] = { 1 }, nm[32] = { 2 }, p1[32], p2[32];

	TEST_OK(fiber_secret_new(a) == 0 && fiber_secret_new(b) == 0, "secrets made");
	TEST_EQ_LONG(strlen(a), 64, "secret is 64 hex digits");
	TEST_OK(strspn(a, "0123456789abcdef") == 64, "secret is hex");
	TEST_OK(strcmp(a, b) != 0, "two secrets differ");
	fiber_auth_worker_proof(a, nm, nw, 7, p1);
	fiber_auth_worker_proof(a, nm, nw, 8, p2);
	TEST_OK(!fiber_digest_equal(p1, p2, 32), "worker proof binds the token");
	fiber_auth_worker_proof(b, nm, nw, 7, p2);
	TEST_OK(!fiber_digest_equal(p1, p2, 32), "worker proof depends on the secret");
	fiber_auth_master_proof(a, nw, nm, p2);
	TEST_OK(!fiber_digest_equal(p1, p2, 32), "master and worker proofs differ");
}

static void test_handshake(void)
{
	const char *secret = "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff";
	uint8_t nw[FIBER_NONCE_LEN] = { 9 }, nm[FIBER_NONCE_LEN], nm2[FIBER_NONCE_LEN];
	uint8_t proof[FIBER_SHA256_LEN];
	char ch[FIBER_CHALLENGE_LEN], ch2[FIBER_CHALLENGE_LEN], auth[FIBER_SHA256_LEN + 4];

	TEST_EQ_LONG(fiber_auth_challenge(secret, nw, nm, ch), 0, "challenge made");
	TEST_OK(memcmp(ch, nm, FIBER_NONCE_LEN) == 0, "challenge starts with the master's nonce");
	fiber_auth_challenge(secret, nw, nm2, ch2);
	TEST_OK(memcmp(nm, nm2, FIBER_NONCE_LEN) != 0, "a fresh nonce per challenge");
	TEST_OK(fiber_auth_master_ok(secret, nw, ch, sizeof(ch)), "agent accepts the master's proof");
	TEST_OK(!fiber_auth_master_ok("another secret", nw, ch, sizeof(ch)), "agent refuses a master without the secret");
	TEST_OK(!fiber_auth_master_ok(secret, nw, ch, sizeof(ch) - 1), "agent refuses a short challenge");
	nw[0] ^= 1;
	TEST_OK(!fiber_auth_master_ok(secret, nw, ch, sizeof(ch)), "a replayed challenge for another nonce is refused");
	nw[0] ^= 1;
	fiber_auth_worker_proof(secret, nm, nw, 42, proof);
	memcpy(auth, proof, sizeof(proof));
	memcpy(auth + sizeof(proof), "host", 4);
	TEST_OK(fiber_auth_worker_ok(secret, nm, nw, 42, auth, sizeof(auth)), "master accepts the worker's proof");
	TEST_OK(!fiber_auth_worker_ok(secret, nm, nw, 43, auth, sizeof(auth)), "master refuses it for another token");
	TEST_OK(!fiber_auth_worker_ok(secret, nm2, nw, 42, auth, sizeof(auth)), "master refuses it for another challenge");
	TEST_OK(!fiber_auth_worker_ok("x", nm, nw, 42, auth, sizeof(auth)), "master refuses it under another secret");
	TEST_OK(!fiber_auth_worker_ok(secret, nm, nw, 42, auth, 31), "master refuses a short proof");
}

static void test_frames(void)
{
	struct core_buf b = CORE_BUF_INIT;
	struct fiber_frame f;
	char big[100];
	int i;

	TEST_EQ_LONG(fiber_frame_next(&b, 100, &f), 0, "empty buffer: no frame");
	fiber_frame_put(&b, FIBER_TASK, 42, "hello", 5);
	fiber_frame_put(&b, FIBER_RESULT, 43, "", 0);
	TEST_EQ_LONG(core_buf_pending(&b), 13 + 5 + 13, "frame sizes");
	TEST_EQ_LONG(fiber_frame_next(&b, 100, &f), 1, "first frame");
	TEST_OK(f.type == FIBER_TASK && f.seq == 42 && f.len == 5 && memcmp(f.body, "hello", 5) == 0,
		"first frame fields");
	TEST_EQ_LONG(fiber_frame_next(&b, 100, &f), 1, "second frame");
	TEST_OK(f.type == FIBER_RESULT && f.seq == 43 && f.len == 0, "empty body");
	TEST_EQ_LONG(fiber_frame_next(&b, 100, &f), 0, "nothing more");
	/* A header alone, its body sent by the caller after it: the same frame. */
	TEST_EQ_LONG(fiber_frame_put_head(&b, FIBER_TASK, 44, 5), 0, "header alone");
	TEST_EQ_LONG(core_buf_pending(&b), 13, "header alone: 13 bytes");
	TEST_EQ_LONG(fiber_frame_next(&b, 100, &f), 0, "header alone: body awaited");
	core_buf_append(&b, "world", 5);
	TEST_OK(fiber_frame_next(&b, 100, &f) == 1 && f.type == FIBER_TASK && f.seq == 44 &&
		f.len == 5 && memcmp(f.body, "world", 5) == 0, "header then body: one frame");
	TEST_EQ_LONG(fiber_frame_put_head(&b, FIBER_TASK, 1, (size_t)UINT32_MAX), -EMSGSIZE,
		     "header alone: too long a body refused");
	TEST_EQ_LONG(core_buf_pending(&b), 0, "header alone: nothing added when refused");
	/* Partial frames wait for the rest, byte by byte. */
	{
		struct core_buf whole = CORE_BUF_INIT, part = CORE_BUF_INIT;
		size_t k;
		int got = 0;

		fiber_frame_put(&whole, FIBER_EXIT, 9, "abcdef", 6);
		for (k = 0; k < whole.len; k++) {
			core_buf_append(&part, whole.data + k, 1);
			got += fiber_frame_next(&part, 100, &f) == 1;
			if (k + 1 < whole.len && got)
				break;
		}
		TEST_OK(got == 1 && f.len == 6 && f.seq == 9, "frame complete only with its last byte");
		core_buf_release(&whole);
		core_buf_release(&part);
	}
	/* Bounds: a length above the limit is refused before its body comes. */
	memset(big, 'x', sizeof(big));
	fiber_frame_put(&b, FIBER_TASK, 1, big, sizeof(big));
	b.len = b.off + 13;	/* only the header has arrived */
	TEST_EQ_LONG(fiber_frame_next(&b, 50, &f), -EPROTO, "too long: refused from the header");
	core_buf_release(&b);
	{
		uint8_t bad[13] = { 0, 0, 0, 5, FIBER_TASK };

		core_buf_append(&b, bad, sizeof(bad));
		TEST_EQ_LONG(fiber_frame_next(&b, 50, &f), -EPROTO, "length below the header: refused");
		core_buf_release(&b);
		bad[3] = 9;
		bad[4] = 0;
		core_buf_append(&b, bad, sizeof(bad));
		TEST_EQ_LONG(fiber_frame_next(&b, 50, &f), -EPROTO, "type 0: refused");
		core_buf_release(&b);
		bad[4] = FIBER_FRAME_TYPE_MAX + 1;
		core_buf_append(&b, bad, sizeof(bad));
		TEST_EQ_LONG(fiber_frame_next(&b, 50, &f), -EPROTO, "unknown type: refused");
		core_buf_release(&b);
	}
	/* Many frames through one buffer: compaction keeps them intact. */
	for (i = 0; i < 1000; i++) {
		char body[16];
		int n = snprintf(body, sizeof(body), "t%d", i);

		fiber_frame_put(&b, FIBER_TASK, (uint64_t)i, body, (size_t)n);
		if (i % 3 == 2) {
			int j, ok = 1;

			for (j = i - 2; j <= i; j++) {
				char want[16];

				snprintf(want, sizeof(want), "t%d", j);
				ok &= fiber_frame_next(&b, 100, &f) == 1 && f.seq == (uint64_t)j &&
				      f.len == strlen(want) && memcmp(f.body, want, f.len) == 0;
			}
			if (!ok) {
				TEST_OK(0, "frame stream at %d", i);
				break;
			}
		}
	}
	TEST_OK(i == 1000, "1000 frames through one buffer");
	core_buf_release(&b);
}

static void test_hosts(void)
{
	struct fiber_hosts h = FIBER_HOSTS_INIT;
	struct core_error err = CORE_ERROR_INIT;
	size_t hi;
	long lr, ls;
	char path[512];
	FILE *fp;

	TEST_EQ_LONG(fiber_hosts_parse_line(&h, "  # comment", &err), 1, "comment line is blank");
	TEST_EQ_LONG(fiber_hosts_parse_line(&h, "node1:2", &err), 0, "host with slots");
	TEST_EQ_LONG(fiber_hosts_parse_line(&h, "node2 # two", &err), 0, "host with comment");
	TEST_EQ_LONG(fiber_hosts_parse_line(&h, "[::1]:3", &err), 0, "IPv6 host");
	TEST_EQ_LONG(h.n, 3, "three hosts");
	TEST_EQ_STR(h.v[2].name, "::1", "IPv6 name without brackets");
	TEST_EQ_LONG(fiber_hosts_slots(&h), 6, "six slots");
	TEST_EQ_LONG(fiber_hosts_parse_line(&h, "node3:0", &err), -EINVAL, "zero slots refused");
	TEST_EQ_LONG(fiber_hosts_parse_line(&h, "-oProxyCommand=x", &err), -EINVAL, "option-like host refused");
	TEST_EQ_LONG(fiber_hosts_parse_line(&h, "a b", &err), -EINVAL, "blank inside refused");
	TEST_EQ_LONG(fiber_hosts_parse_line(&h, "::1", &err), -EINVAL, "bare IPv6 refused");
	/* Placement: 6 slots, 8 workers: node1 0,1 node2 2 ::1 3,4,5 then round two. */
	fiber_hosts_place(&h, 0, 8, &hi, &lr, &ls);
	TEST_OK(hi == 0 && lr == 0 && ls == 4, "worker 0 on node1, local 0 of 4 (two rounds)");
	fiber_hosts_place(&h, 2, 8, &hi, &lr, &ls);
	TEST_OK(hi == 1 && lr == 0 && ls == 1, "worker 2 on node2");
	fiber_hosts_place(&h, 5, 8, &hi, &lr, &ls);
	TEST_OK(hi == 2 && lr == 2 && ls == 3, "worker 5 on ::1, local 2 of 3");
	fiber_hosts_place(&h, 7, 8, &hi, &lr, &ls);
	TEST_OK(hi == 0 && lr == 3 && ls == 4, "worker 7 wraps to node1, local 3 of 4");
	fiber_hosts_release(&h);
	snprintf(path, sizeof(path), "%s/hosts", test_tmpdir());
	fp = fopen(path, "w");
	fputs("good:2\nbad:x\n", fp);
	fclose(fp);
	TEST_EQ_LONG(fiber_hosts_load(&h, path, &err), -EINVAL, "bad hosts file refused");
	TEST_EQ_LONG(err.line, 2, "error names line 2");
	TEST_OK(strstr(err.msg, "line 2") != NULL, "message names the line: %s", err.msg);
	fiber_hosts_release(&h);
}

static void test_ids(void)
{
	struct core_error err = CORE_ERROR_INIT;
	json_t *v, *id;
	char *key;

	v = json_loads("{\"id\":\"a\",\"x\":1}", 0, NULL);
	TEST_EQ_LONG(fiber_task_id(v, 5, &id, &key, &err), 0, "string id");
	TEST_EQ_STR(key, "sa", "string key");
	free(key);
	json_decref(id);
	json_decref(v);
	v = json_loads("[1,2]", 0, NULL);
	fiber_task_id(v, 5, &id, &key, &err);
	TEST_EQ_STR(key, "i5", "no id: line number");
	free(key);
	json_decref(id);
	json_decref(v);
	v = json_loads("{\"id\":1.5}", 0, NULL);
	TEST_EQ_LONG(fiber_task_id(v, 5, &id, &key, &err), -EINVAL, "real id refused");
	json_decref(v);
	v = json_integer(7);
	id = json_string("7");
	key = fiber_task_key(v);
	TEST_EQ_STR(key, "i7", "integer key");
	free(key);
	key = fiber_task_key(id);
	TEST_EQ_STR(key, "s7", "the string \"7\" is another id");
	free(key);
	json_decref(v);
	json_decref(id);
}

static void test_taskq(void)
{
	struct fiber_taskq q = FIBER_TASKQ_INIT;
	uint64_t s;
	int ok = 1, i;

	for (i = 0; i < 3000; i++) {
		struct fiber_task *t = calloc(1, sizeof(*t));

		ok &= fiber_taskq_add(&q, t) == 0 && t->seq == (uint64_t)i;
		ok &= fiber_taskq_push(&q, t->seq, 0) == 0;
	}
	TEST_OK(ok, "3000 tasks numbered in order through window growth");
	TEST_EQ_LONG(fiber_taskq_size(&q), 3000, "window holds them");
	TEST_EQ_LONG(fiber_taskq_pop(&q), 0, "first in, first out");
	TEST_EQ_LONG(fiber_taskq_pop(&q), 1, "then the next");
	fiber_taskq_push(&q, 0, 1);
	TEST_EQ_LONG(fiber_taskq_pop(&q), 0, "a retry goes to the front");
	TEST_EQ_LONG(fiber_taskq_pop(&q), 2, "and the rest follow");
	fiber_taskq_drop(&q, 1);
	TEST_EQ_LONG(q.base, 0, "dropping a later task keeps base");
	fiber_taskq_drop(&q, 0);
	TEST_EQ_LONG(q.base, 2, "dropping the first moves base past both");
	TEST_OK(fiber_taskq_at(&q, 2) && fiber_taskq_at(&q, 2)->seq == 2, "task 2 still there");
	for (s = 2; s < 2000; s++)
		fiber_taskq_drop(&q, s);
	TEST_EQ_LONG(fiber_taskq_size(&q), 1000, "1000 left after dropping");
	for (i = 0; i < 500; i++) {
		struct fiber_task *t = calloc(1, sizeof(*t));

		fiber_taskq_add(&q, t);
	}
	TEST_EQ_LONG(fiber_taskq_at(&q, 3499)->seq, 3499, "window reused after wrapping");
	fiber_taskq_release(&q);
	TEST_OK(q.win == NULL && q.wcap == 0, "released");
}

static void test_joblog(void)
{
	struct fiber_joblog j = FIBER_JOBLOG_INIT;
	struct core_error err = CORE_ERROR_INIT;
	struct core_map done = CORE_MAP_INIT;
	char path[512], buf[512];
	int fd;
	ssize_t n;

	snprintf(path, sizeof(path), "%s/joblog", test_tmpdir());
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	{
		static const char text[] = "{\"id\":1,\"status\":\"ok\"}\n"
			"{\"id\":\"b\",\"status\":\"failed\"}\n{\"id\":3,\"sta";

		n = write(fd, text, sizeof(text) - 1);
		close(fd);
		TEST_EQ_LONG(n, (long)sizeof(text) - 1, "joblog written");
	}
	TEST_EQ_LONG(fiber_joblog_open(&j, path, 0, &done, &err), -EEXIST, "non-empty joblog needs resume");
	fiber_joblog_release(&j);
	TEST_EQ_LONG(fiber_joblog_open(&j, path, 1, &done, &err), 0, "resume opens it");
	TEST_EQ_LONG(done.n, 2, "two whole records");
	TEST_OK(core_map_find(&done, "i1", 2) && core_map_find(&done, "sb", 2), "their ids");
	TEST_EQ_STR(core_map_find(&done, "sb", 2)->value.p, "{\"id\":\"b\",\"status\":\"failed\"}",
		    "the record of an id");
	TEST_OK(!core_map_find(&done, "i3", 2), "torn record ignored");
	fiber_joblog_add(&j, "{\"id\":3,\"status\":\"ok\"}", 22);
	TEST_EQ_LONG(fiber_joblog_commit(&j, &err), 0, "commit");
	fiber_joblog_release(&j);
	fd = open(path, O_RDONLY);
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	buf[n > 0 ? n : 0] = '\0';
	TEST_EQ_STR(buf, "{\"id\":1,\"status\":\"ok\"}\n{\"id\":\"b\",\"status\":\"failed\"}\n{\"id\":3,\"status\":\"ok\"}\n",
		    "torn end cut, new record appended whole");
	core_map_release(&done, free);
	fd = open(path, O_WRONLY | O_TRUNC);
	n = write(fd, "nonsense\n{\"id\":1}\n", 18);
	close(fd);
	TEST_EQ_LONG(fiber_joblog_open(&j, path, 1, &done, &err), -EINVAL, "garbage in the middle refused");
	TEST_EQ_LONG(err.line, 1, "at line 1");
	fiber_joblog_release(&j);
	core_map_release(&done, free);
}

int main(void)
{
	test_sha256();
	test_hmac();
	test_secret_and_auth();
	test_handshake();
	test_frames();
	test_hosts();
	test_ids();
	test_taskq();
	test_joblog();
	return test_done();
}
