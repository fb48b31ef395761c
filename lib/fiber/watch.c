#include "fiber/watch.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/signalfd.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/clock.h"
#include "fiber/proc.h"

int fiber_watch_run(char *const *argv, int watch_fd, struct core_error *err)
{
	struct core_spawn sp = CORE_SPAWN_INIT;
	int64_t kill_at = 0;
	sigset_t set;
	pid_t pid;
	int sfd, ret, st = 0, watching = 1, stopping = 0;

	sigemptyset(&set);
	sigaddset(&set, SIGCHLD);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGHUP);
	sigprocmask(SIG_BLOCK, &set, NULL);
	sfd = signalfd(-1, &set, SFD_NONBLOCK | SFD_CLOEXEC);
	if (sfd < 0)
		return core_error_errno(err, errno, "signalfd");
	sp.argv = argv;
	sp.in_fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
	sp.pdeathsig = SIGKILL;
	sp.new_pgrp = 1;	/* stop the command's children with it */
	ret = core_spawn_start(&sp, err);
	pid = sp.pid;
	if (sp.in_fd >= 0)
		close(sp.in_fd);
	if (ret < 0) {
		close(sfd);
		return ret;
	}
	for (;;) {
		struct pollfd p[2] = { { sfd, POLLIN, 0 }, { watch_fd, POLLIN, 0 } };
		struct signalfd_siginfo si;

		if (waitpid(pid, &st, WNOHANG) == pid)
			break;
		if (kill_at && core_clock_mono_ns() > kill_at) {
			core_spawn_kill_group(pid, SIGKILL);
			kill_at = 0;
		}
		if (poll(p, watching ? 2 : 1, 100) < 0 && errno != EINTR)
			break;
		while (read(sfd, &si, sizeof(si)) == (ssize_t)sizeof(si))
			if (si.ssi_signo != SIGCHLD) {
				core_spawn_kill_group(pid, (int)si.ssi_signo);
				stopping = 1;
				if (!kill_at)
					kill_at = core_clock_mono_ns() + 2000000000LL;
			}
		if (watching && p[1].revents) {
			char buf[256];
			ssize_t n = read(watch_fd, buf, sizeof(buf));

			if (n == 0 || (n < 0 && errno != EINTR && errno != EAGAIN)) {
				watching = 0;
				stopping = 1;
				core_spawn_kill_group(pid, SIGTERM);
				kill_at = core_clock_mono_ns() + 2000000000LL;
			}
		}
	}
	/* What the stopped command left running goes too. */
	if (stopping)
		core_spawn_kill_group(pid, SIGKILL);
	close(sfd);
	return core_spawn_exit_code(st);
}
