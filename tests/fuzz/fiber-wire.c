/* libFuzzer target: the master's and the agents' readers of wire frames
 * and hosts lines never crash, leak, or accept a frame over the bound. */
#include <stdlib.h>
#include <string.h>

#include "fiber/hosts.h"
#include "fiber/wire.h"

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	struct core_buf b = CORE_BUF_INIT;
	struct fiber_hosts h = FIBER_HOSTS_INIT;
	struct fiber_frame f;
	size_t max = size > 0 ? data[0] * 16 : 0, i;
	char line[256];
	int ret;

	/* Frames arriving in pieces of varying size, as from a socket. */
	for (i = 0; i < size;) {
		size_t n = 1 + data[i] % 64;

		if (n > size - i)
			n = size - i;
		core_buf_append(&b, data + i, n);
		i += n;
		while ((ret = fiber_frame_next(&b, max, &f)) > 0)
			if (f.len > max || f.type < 1 || f.type > FIBER_FRAME_TYPE_MAX)
				abort();
		if (ret < 0)
			break;
	}
	core_buf_release(&b);
	/* The same bytes as a hosts file line. */
	i = size < sizeof(line) - 1 ? size : sizeof(line) - 1;
	memcpy(line, data, i);
	line[i] = '\0';
	if (fiber_hosts_parse_line(&h, line, NULL) == 0 && (h.n != 1 || h.v[0].slots < 1))
		abort();
	fiber_hosts_release(&h);
	return 0;
}
