#include "fiber/net.h"

#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

int fiber_fd_nonblock(int fd, int on)
{
	int fl = fcntl(fd, F_GETFL);

	if (fl < 0)
		return -errno;
	fl = on ? fl | O_NONBLOCK : fl & ~O_NONBLOCK;
	return fcntl(fd, F_SETFL, fl) < 0 ? -errno : 0;
}

int fiber_net_split(const char *addr, char **host, char **port)
{
	const char *colon, *h = addr;
	size_t hlen;

	*host = *port = NULL;
	if (addr[0] == '[') {
		const char *end = strchr(addr, ']');

		if (!end || (end[1] && end[1] != ':'))
			return -EINVAL;
		h = addr + 1;
		hlen = (size_t)(end - h);
		colon = end[1] ? end + 1 : NULL;
	} else {
		colon = strrchr(addr, ':');
		if (colon && strchr(addr, ':') != colon)
			colon = NULL;	/* a bare IPv6 address */
		hlen = colon ? (size_t)(colon - addr) : strlen(addr);
	}
	if (hlen == 0 || (colon && !colon[1]))
		return -EINVAL;
	*host = strndup(h, hlen);
	*port = strdup(colon ? colon + 1 : "0");
	if (!*host || !*port) {
		free(*host);
		free(*port);
		*host = *port = NULL;
		return -ENOMEM;
	}
	return 0;
}

static int resolve(const char *addr, int passive, struct addrinfo **res,
		   struct core_error *err)
{
	struct addrinfo hints = { 0 };
	char *host, *port;
	int ret = fiber_net_split(addr, &host, &port);

	if (ret < 0)
		return core_error_set(err, -EINVAL, "bad address '%s': want HOST:PORT", addr);
	hints.ai_socktype = SOCK_STREAM;
	hints.ai_flags = passive ? AI_PASSIVE : 0;
	ret = getaddrinfo(host, port, &hints, res);
	free(host);
	free(port);
	if (ret != 0)
		return core_error_set(err, -EHOSTUNREACH, "cannot resolve '%s': %s",
				      addr, gai_strerror(ret));
	return 0;
}

int fiber_net_listen(const char *addr, int *port, struct core_error *err)
{
	struct addrinfo *res, *ai;
	int fd = -1, ret, one = 1, saved = 0;

	ret = resolve(addr, 1, &res, err);
	if (ret < 0)
		return ret;
	for (ai = res; ai; ai = ai->ai_next) {
		fd = socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
		if (fd < 0) {
			saved = errno;
			continue;
		}
		setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
		if (bind(fd, ai->ai_addr, ai->ai_addrlen) == 0 && listen(fd, 4096) == 0)
			break;
		saved = errno;
		close(fd);
		fd = -1;
	}
	freeaddrinfo(res);
	if (fd < 0)
		return core_error_errno(err, saved ? saved : EADDRNOTAVAIL,
					"cannot listen on '%s'", addr);
	if (port) {
		struct sockaddr_storage ss;
		socklen_t len = sizeof(ss);

		getsockname(fd, (struct sockaddr *)&ss, &len);
		*port = ss.ss_family == AF_INET6 ?
			ntohs(((struct sockaddr_in6 *)&ss)->sin6_port) :
			ntohs(((struct sockaddr_in *)&ss)->sin_port);
	}
	return fd;
}

void fiber_net_tune(int fd)
{
	int one = 1, idle = 15, intvl = 5, cnt = 3;

	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	setsockopt(fd, SOL_SOCKET, SO_KEEPALIVE, &one, sizeof(one));
	setsockopt(fd, IPPROTO_TCP, TCP_KEEPIDLE, &idle, sizeof(idle));
	setsockopt(fd, IPPROTO_TCP, TCP_KEEPINTVL, &intvl, sizeof(intvl));
	setsockopt(fd, IPPROTO_TCP, TCP_KEEPCNT, &cnt, sizeof(cnt));
}

static int connect_one(const struct addrinfo *ai, int timeout_ms)
{
	struct pollfd p;
	int fd, soerr = 0;
	socklen_t len = sizeof(soerr);

	fd = socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (fd < 0)
		return -errno;
	if (connect(fd, ai->ai_addr, ai->ai_addrlen) < 0) {
		if (errno != EINPROGRESS) {
			soerr = errno;
			goto fail;
		}
		p.fd = fd;
		p.events = POLLOUT;
		if (poll(&p, 1, timeout_ms) <= 0) {
			soerr = ETIMEDOUT;
			goto fail;
		}
		getsockopt(fd, SOL_SOCKET, SO_ERROR, &soerr, &len);
		if (soerr)
			goto fail;
	}
	fiber_fd_nonblock(fd, 0);
	fiber_net_tune(fd);
	return fd;
fail:
	close(fd);
	return -soerr;
}

int fiber_net_connect(const char *addr, int timeout_ms, struct core_error *err)
{
	struct addrinfo *res, *ai;
	int fd = -ECONNREFUSED, ret;

	ret = resolve(addr, 0, &res, err);
	if (ret < 0)
		return ret;
	for (ai = res; ai; ai = ai->ai_next) {
		fd = connect_one(ai, timeout_ms);
		if (fd >= 0)
			break;
	}
	freeaddrinfo(res);
	if (fd < 0)
		return core_error_errno(err, -fd, "cannot connect to '%s'", addr);
	return fd;
}
