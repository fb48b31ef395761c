/*
 * The exit-code table shared by every program of the toolkit.  Every man
 * page repeats it under EXIT STATUS; man/man7/rlkit.7 is the reference.
 *
 * Programs that run a command (rlprof-record, fiberrun in SPMD mode) exit
 * with the command's own status instead, and with 127 when the command
 * cannot be found, 126 when it cannot be executed, like a shell.
 */
#ifndef CORE_EXITCODE_H
#define CORE_EXITCODE_H

enum core_exit {
	CORE_EXIT_OK = 0,	/* success */
	CORE_EXIT_FAIL = 1,	/* the work failed: bad data, a missing or malformed input file, a task failed, I/O */
	CORE_EXIT_USAGE = 2,	/* usage error: bad option or argument */
	CORE_EXIT_MISSING = 3,	/* a needed system resource is missing: GPU, driver, CUPTI, a remote host's program */
	CORE_EXIT_NOEXEC = 126,	/* command found but not executable */
	CORE_EXIT_NOTFOUND = 127 /* command not found */
};

#endif
