#include "prof/launch.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

int prof_launch(char *const argv[], int stdout_fd, pid_t *pid, struct core_error *err)
{
	int fds[2], e = 0;
	ssize_t n;
	pid_t p;

	if (pipe2(fds, O_CLOEXEC) != 0)
		return core_error_errno(err, errno, "cannot create a pipe");
	p = fork();
	if (p < 0) {
		e = errno;
		close(fds[0]);
		close(fds[1]);
		return core_error_errno(err, e, "cannot fork");
	}
	if (p == 0) {
		sigset_t none;

		/* exec resets caught signals to their default; ignored ones
		 * stay ignored, as the user asked. */
		sigemptyset(&none);
		sigprocmask(SIG_SETMASK, &none, NULL);
		close(fds[0]);
		if (stdout_fd >= 0 && stdout_fd != STDOUT_FILENO &&
		    dup2(stdout_fd, STDOUT_FILENO) < 0) {
			e = errno;
			goto fail;
		}
		execvp(argv[0], argv);
		e = errno;
fail:
		while (write(fds[1], &e, sizeof(e)) < 0 && errno == EINTR)
			;
		_exit(127);
	}
	close(fds[1]);
	while ((n = read(fds[0], &e, sizeof(e))) < 0 && errno == EINTR)
		;
	close(fds[0]);
	if (n == (ssize_t)sizeof(e)) {
		while (waitpid(p, NULL, 0) < 0 && errno == EINTR)
			;
		core_error_errno(err, e, "cannot run '%s'", argv[0]);
		return PROF_LAUNCH_EXEC;
	}
	*pid = p;
	return 0;
}

char *prof_launch_relpath(const char *rel)
{
	char self[PATH_MAX], *slash, *out;
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);

	if (n <= 0)
		return NULL;
	self[n] = 0;
	slash = strrchr(self, '/');
	if (!slash)
		return NULL;
	*slash = 0;
	if (asprintf(&out, "%s/%s", self, rel) < 0)
		return NULL;
	return out;
}
