/* core/msg.h: every message is one line, whatever the names it quotes. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/msg.h"
#include "test.h"

static void test_escape(void)
{
	char out[64];

	TEST_EQ_LONG(core_msg_escape(out, sizeof(out), "plain 'x.csv'"), 13, "plain text: its length");
	TEST_EQ_STR(out, "plain 'x.csv'", "plain text is unchanged");
	core_msg_escape(out, sizeof(out), "a\nb\rc\td");
	TEST_EQ_STR(out, "a\\nb\\rc\\td", "LF, CR and TAB as \\n, \\r, \\t");
	core_msg_escape(out, sizeof(out), "\x1b[31m\x01\x7f");
	TEST_EQ_STR(out, "\\x1b[31m\\x01\\x7f", "other C0 bytes and DEL as \\xNN");
	core_msg_escape(out, sizeof(out), "caf\xc3\xa9 \xff");
	TEST_EQ_STR(out, "caf\xc3\xa9 \xff", "bytes of 0x80 and above go out unchanged");
	TEST_EQ_LONG(core_msg_escape(out, 4, "ab\ncd"), 2, "an escape that does not fit is left out whole");
	TEST_EQ_STR(out, "ab", "the cut copy");
	TEST_EQ_LONG(core_msg_escape(out, 1, "abc"), 0, "room for the NUL only");
	TEST_EQ_STR(out, "", "an empty copy");
}

/* What core_msg_error writes to stderr, read back from a file. */
static void test_one_line(void)
{
	char path[] = "/tmp/test-core-msg-XXXXXX", got[8192], *big;
	int fd = mkstemp(path), saved = dup(2);
	FILE *fp;
	size_t n, i, lines = 0;

	if (fd < 0 || saved < 0) {
		TEST_OK(0, "a temporary file for stderr");
		return;
	}
	unlink(path);
	core_msg_init("/usr/bin/prog");
	fflush(stderr);
	dup2(fd, 2);
	core_msg_error("cannot open '%s': %s", "a\nb.bin", "No such file or directory");
	core_msg_warning("tab\there, escape \x1b, CR\r");
	big = malloc(5000);
	memset(big, '\n', 4999);
	big[4999] = '\0';
	core_msg_note("%s", big);	/* cut, but still one line */
	free(big);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	fp = fdopen(fd, "r");
	rewind(fp);
	n = fread(got, 1, sizeof(got) - 1, fp);
	got[n] = '\0';
	fclose(fp);
	for (i = 0; i < n; i++)
		lines += got[i] == '\n';
	TEST_EQ_LONG(lines, 3, "three messages, three lines");
	TEST_OK(!strncmp(got, "prog: error: cannot open 'a\\nb.bin': No such file or directory\n",
			 strlen("prog: error: cannot open 'a\\nb.bin': No such file or directory\n")),
		"the name's newline is escaped: %.80s", got);
	TEST_OK(strstr(got, "prog: warning: tab\\there, escape \\x1b, CR\\r\n") != NULL,
		"TAB, ESC and CR escaped in a warning");
	TEST_OK(strstr(got, "prog: note: \\n\\n") != NULL && got[n - 1] == '\n',
		"a long message of newlines is cut and ends its one line");
}

int main(void)
{
	test_escape();
	test_one_line();
	return test_done();
}
