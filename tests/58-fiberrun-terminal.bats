#!/usr/bin/env bats
# fiberrun --pool with its standard input on a terminal: it says that it
# reads tasks from there; in the background it is never stopped by the
# terminal (SIGTTIN), so SIGTERM ends it, and a line typed there ends the
# run with one line of error.  Each test runs fiberrun in a session of its
# own on a pseudo-terminal (41 checks the same through script(1)).

load helpers

# onpty.py MODE: a new session on a pseudo-terminal; fiberrun --pool in a
# process group of its own, in the foreground (fg) or in the background
# (bg: SIGTERM once it waits; bg-typed: a line typed), stderr through a pipe that the script reads until the
# note it waits for.  Prints fiberrun's end: "exit N" (128 + the signal
# that killed it) or "stopped by N".
write_onpty() {
	cat > onpty.py <<'PY'
import fcntl, os, select, signal, sys, termios

mode = sys.argv[1]
master, slave = os.openpty()
err = b""


ended = None


def wait_note(r, word):
    """Read stderr until `word`, or until fiberrun stops or ends (SIGCHLD)."""
    global err, ended
    while word not in err and ended is None:
        ready, _, _ = select.select([r, wake_r], [], [])
        if wake_r in ready:
            os.read(wake_r, 512)
            pid, st = os.waitpid(kid, os.WNOHANG | os.WUNTRACED)
            if pid:
                ended = st
        if r in ready:
            b = os.read(r, 4096)
            if not b:
                break
            err += b


def foreground(pgrp):
    signal.signal(signal.SIGTTOU, signal.SIG_IGN)
    os.tcsetpgrp(slave, pgrp)


leader = os.fork()
if leader == 0:
    os.setsid()
    fcntl.ioctl(slave, termios.TIOCSCTTY, 0)
    r, w = os.pipe()
    kid = os.fork()
    if kid == 0:
        os.setpgid(0, 0)
        if mode == "fg":
            foreground(os.getpgrp())
        signal.signal(signal.SIGTTOU, signal.SIG_DFL)
        os.dup2(slave, 0)
        os.dup2(os.open("out", os.O_WRONLY | os.O_CREAT | os.O_TRUNC), 1)
        os.dup2(w, 2)
        os.execvp("fiberrun", ["fiberrun", "--pool", "--lines", "-n", "1", "--protocol", "lines", "--", "cat"])
    try:
        os.setpgid(kid, kid)  # as the shells do: it holds whichever runs first
    except PermissionError:
        pass  # the child has run exec already, after its own setpgid
    os.close(w)
    wake_r, wake_w = os.pipe()
    os.set_blocking(wake_w, False)
    signal.set_wakeup_fd(wake_w)
    signal.signal(signal.SIGCHLD, lambda *a: None)
    if mode == "bg-typed":
        # A line typed: fiberrun tries to read it, and must not be stopped.
        os.write(master, b"first\n")
        wait_note(r, b"cannot read")
    else:
        wait_note(r, b"reading tasks from the terminal")
        os.kill(kid, signal.SIGTERM)
    st = ended if ended is not None else os.waitpid(kid, os.WUNTRACED)[1]
    if os.WIFSTOPPED(st):
        print("stopped by", os.WSTOPSIG(st))
        os.kill(kid, signal.SIGKILL)
        os.waitpid(kid, 0)
    else:
        # Killed by a signal (before its handling was set up) reads as the shell says it.
        code = os.waitstatus_to_exitcode(st)
        print("exit", code if code >= 0 else 128 - code)
    while True:
        b = os.read(r, 4096)
        if not b:
            break
        err += b
    with open("err", "wb") as f:
        f.write(err)
    os._exit(0)
os.waitpid(leader, 0)
PY
}

setup() {
	cd "$BATS_TEST_TMPDIR" || return 1
	write_onpty
}

@test "--pool on a terminal, in the foreground: a note says so; SIGTERM ends it" {
	run timeout 60 python3 onpty.py fg
	assert_success
	assert_output "exit 143"
	grep -q "^fiberrun: note: reading tasks from the terminal, one per line; end with Ctrl-D$" err
}

@test "--pool on a terminal, in the background: waiting, SIGTERM ends it" {
	run timeout 60 python3 onpty.py bg
	assert_success
	assert_output "exit 143"
	grep -q "^fiberrun: note: reading tasks from the terminal, one per line; end with Ctrl-D$" err
}

@test "--pool on a terminal, in the background: a line typed does not stop it (tty input): one line of error" {
	run timeout 60 python3 onpty.py bg-typed
	assert_success
	assert_output "exit 1"
	grep -q "^fiberrun: error: cannot read '<stdin>': Input/output error$" err
}
