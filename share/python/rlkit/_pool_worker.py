"""The worker of rlkit.pool: a fiberrun protocol 2 worker (see
fiberrun-protocol(5)) that runs pickled calls.

fiberrun starts it as `python3 -m rlkit._pool_worker`.  Its settings come
in the environment (passed to every host with fiberrun's --env):

    RLKIT_POOL_MAIN      the caller's main script, loaded as __mp_main__ so
                         that functions defined there unpickle (as with
                         multiprocessing's spawn context)
    RLKIT_POOL_MAINMOD   or the module the caller ran with -m
    RLKIT_POOL_PATH      the caller's sys.path, as JSON
    RLKIT_POOL_ARGV      the caller's sys.argv, as JSON
    RLKIT_POOL_INIT      base64 pickle of (initializer, initargs)
    RLKIT_POOL_MAXTASKS  tasks before the worker renews itself (exec)

A task line is the hex of a pickle of (kind, function, items); the
answer the hex of a pickle of (True, results) or (False, exception,
traceback text).  (Hex, not base64: Python decodes it four times as fast,
and the pool's caller and workers decode every chunk.)  Standard output
goes to standard error, so that print() in a task is seen, not taken for
a result.
"""
import base64
import binascii
import importlib
import itertools
import json
import os
import pickle
import sys
import traceback
import types

PENDING = "RLKIT_POOL_PENDING"


def _load_main():
    path = os.environ.get("RLKIT_POOL_MAIN")
    modname = os.environ.get("RLKIT_POOL_MAINMOD")
    if not path and not modname:
        return
    mod = types.ModuleType("__mp_main__")
    sys.modules["__mp_main__"] = mod
    old_main = sys.modules.get("__main__")
    sys.modules["__main__"] = mod
    try:
        if modname:
            real = importlib.import_module(modname)
            mod.__dict__.update(real.__dict__)
            mod.__name__ = "__mp_main__"
        else:
            mod.__file__ = path
            with open(path, "rb") as f:
                code = compile(f.read(), path, "exec")
            exec(code, mod.__dict__)
    except BaseException:
        sys.modules["__main__"] = old_main
        raise


def _run(kind, func, items):
    if kind == "map":
        return list(map(func, items))
    if kind == "star":
        return list(itertools.starmap(func, items))
    args, kwds = items
    return func(*args, **kwds)


def _answer(task):
    try:
        kind, func, items = pickle.loads(binascii.a2b_hex(task))
        out = (True, _run(kind, func, items))
    except BaseException as e:  # the caller gets it, with our traceback
        if isinstance(e, (KeyboardInterrupt, SystemExit)):
            raise
        out = (False, e, traceback.format_exc())
    try:
        data = pickle.dumps(out, protocol=pickle.HIGHEST_PROTOCOL)
    except Exception as e:
        what = "result" if out[0] else "exception %r" % (out[1],)
        err = RuntimeError("cannot pickle the %s: %s" % (what, e))
        data = pickle.dumps((False, err, traceback.format_exc()), protocol=pickle.HIGHEST_PROTOCOL)
    return binascii.b2a_hex(data)


def _write_all(fd, data):
    view = memoryview(data)
    while view:
        n = os.write(fd, view)
        view = view[n:]


def main():
    resfd = int(os.environ["FIBERRUN_RESULT_FD"])
    for p in reversed(json.loads(os.environ.get("RLKIT_POOL_PATH", "[]"))):
        if p not in sys.path:
            sys.path.insert(0, p)
    if "RLKIT_POOL_ARGV" in os.environ:
        sys.argv[:] = json.loads(os.environ["RLKIT_POOL_ARGV"])
    renewed = PENDING in os.environ
    buf = bytearray(base64.b64decode(os.environ.pop(PENDING, "")))
    # print() in a task goes to standard error.  The agent takes the end of
    # our standard output for our end, so the pipe stays open, out of the way.
    if "RLKIT_POOL_STDOUT_FD" not in os.environ:
        keep = os.dup(1)
        os.set_inheritable(keep, True)
        os.environ["RLKIT_POOL_STDOUT_FD"] = str(keep)
        os.dup2(2, 1)
    _load_main()
    init = os.environ.get("RLKIT_POOL_INIT")
    if init:
        initializer, initargs = pickle.loads(base64.b64decode(init))
        initializer(*initargs)
    maxtasks = int(os.environ.get("RLKIT_POOL_MAXTASKS") or 0)
    done = 0
    if not renewed:
        _write_all(resfd, b"ready\n")
    eof = False
    chunk = memoryview(bytearray(1 << 20))   # read into, not a new buffer per read
    while True:
        # One record: "task ID LEN\n", LEN bytes, "\n".
        nl = buf.find(b"\n")
        if nl >= 0:
            _, tid, size = bytes(buf[:nl]).split()
            end = nl + 1 + int(size)
            if len(buf) > end:
                # The task is read in place; its view is released even
                # where a traceback keeps it, so that buf can shrink.
                with memoryview(buf) as view, view[nl + 1:end] as task:
                    out = _answer(task)
                del buf[:end + 1]
                _write_all(resfd, b"ok %s %d\n" % (tid, len(out)) + out + b"\n")
                done += 1
                if maxtasks and done >= maxtasks:
                    # A fresh interpreter in this process: the agent and
                    # the master see the same worker; bytes read ahead go
                    # with it.
                    env = dict(os.environ)
                    env[PENDING] = base64.b64encode(bytes(buf)).decode()
                    os.execve(sys.executable, [sys.executable, "-m", "rlkit._pool_worker"], env)
                continue
        if eof:
            return 0
        n = os.readv(0, [chunk])
        if not n:
            eof = True
        buf += chunk[:n]


if __name__ == "__main__":
    sys.exit(main())
