"""Annotate Python programs for rlprof-record(1).

    import rlprof

    with rlprof.operation("inference"):
        action = policy(obs)

    @rlprof.operation("train_step")
    def train_step(batch): ...

    rlprof.phase("training")
    rlprof.counter("episode_return", ret)

Outside rlprof-record every function does nothing.  Under rlprof-record
the calls go, through ctypes, to the recorder in the library that
rlprof-record names in RLPROF_LIB (the same one that records NVTX, so
operations of this module, of the nvtx package and of torch.cuda.nvtx nest
in one stack per thread).

Automatic CPU categories: by default rlprof-record samples the machine
code each thread runs (rlprof-record(1)), whatever the call syntax, and
this module only makes "import rlprof" work.  With rlprof-record
--cpu-sample 0 it loads this module at interpreter start-up
(sitecustomize) and start_categories() attributes each thread's time with
a profile hook (sys.setprofile and threading.setprofile) instead:

  simulator  inside env.step()/env.reset() of a gymnasium (or gym) Env, and
             inside native functions of simulator packages (ale_py, rlkit,
             gymnasium, gym, mujoco, pybullet)
  backend    inside native functions of ML backends (torch, numpy,
             tensorflow, jax, jaxlib, scipy)
  python     the rest of the interpreter's time

A native function is one the interpreter reports as a C call (builtin
functions and methods); NumPy ufuncs such as numpy.add are not reported
that way and count as python.  The hook runs on every Python call and
return.  It is written in C (_rlprof_hook.so, next to the library in
RLPROF_LIB, built for one Python version); where that cannot be loaded, or
with RLPROF_PYHOOK=python, the same rules run in Python, several times
slower (see bench/record-overhead).  rlprof-record --no-python leaves the
hook out; RLPROF_PYHOOK=off too, while keeping the annotations
(rlprof-calibrate measures them alone that way).
"""

import contextlib
import ctypes
import functools
import importlib.util
import os
import sys
import threading

__all__ = ["enabled", "operation", "push", "pop", "mark", "phase", "counter",
           "meta", "finish", "start_categories", "stop_categories", "hook_kind"]

_lib = None


def _load():
    global _lib
    path = os.environ.get("RLPROF_LIB")
    if not path or not os.environ.get("RLPROF_SPOOL_DIR"):
        return
    try:
        lib = ctypes.CDLL(path)
    except OSError:
        return
    lib.rlprof_enabled.restype = ctypes.c_int
    lib.rlprof_push.argtypes = [ctypes.c_char_p]
    lib.rlprof_push.restype = ctypes.c_int
    lib.rlprof_pop.restype = ctypes.c_int
    lib.rlprof_mark.argtypes = [ctypes.c_char_p]
    lib.rlprof_phase.argtypes = [ctypes.c_char_p]
    lib.rlprof_counter.argtypes = [ctypes.c_char_p, ctypes.c_double]
    lib.rlprof_meta.argtypes = [ctypes.c_char_p, ctypes.c_char_p]
    lib.rlprof_cpu.argtypes = [ctypes.c_int]
    lib.rlprof_category_id.argtypes = [ctypes.c_char_p]
    lib.rlprof_category_id.restype = ctypes.c_int
    if lib.rlprof_enabled():
        _lib = lib


_load()


def _b(s):
    return s if isinstance(s, bytes) else str(s).encode("utf-8", "replace")


def enabled():
    """True when the program runs under rlprof-record."""
    return _lib is not None


def push(name):
    """Open an operation on this thread's stack."""
    if _lib is not None:
        _lib.rlprof_push(_b(name))


def pop():
    """Close the innermost open operation of this thread."""
    if _lib is not None:
        _lib.rlprof_pop()


class operation(contextlib.ContextDecorator):
    """An operation: a context manager, or a decorator for functions."""

    def __init__(self, name):
        self.name = _b(name)

    def __enter__(self):
        if _lib is not None:
            _lib.rlprof_push(self.name)
        return self

    def __exit__(self, *exc):
        if _lib is not None:
            _lib.rlprof_pop()
        return False


def mark(name):
    """An instant event."""
    if _lib is not None:
        _lib.rlprof_mark(_b(name))


def phase(name):
    """Enter a phase of the run ("training", ...); None ends the current one."""
    if _lib is not None:
        _lib.rlprof_phase(None if name is None else _b(name))


def counter(name, value):
    """A sample of a counter."""
    if _lib is not None:
        _lib.rlprof_counter(_b(name), float(value))


def meta(key, value):
    """A key/value pair about the run."""
    if _lib is not None:
        _lib.rlprof_meta(_b(key), _b(value))


def finish():
    """Write out everything buffered; called before os._exit() and exec."""
    if _lib is not None:
        _lib.rlprof_finish()


# Automatic CPU categories.

_SIMULATOR_ROOTS = ("ale_py", "gymnasium", "gym", "mujoco", "pybullet", "rlkit")
_BACKEND_ROOTS = ("torch", "numpy", "tensorflow", "jax", "jaxlib", "scipy")
_ENV_METHODS = ("step", "reset")
_cat = {}
_root_cat = {}
_code_cat = {}
_local = threading.local()
_running = False


def _env_classes():
    out = []
    for name in ("gymnasium", "gym"):
        mod = sys.modules.get(name)
        env = getattr(mod, "Env", None) if mod is not None else None
        if isinstance(env, type):
            out.append(env)
    return tuple(out)


def _code_category(frame):
    """Simulator for step/reset of an Env; None for other Python code."""
    code = frame.f_code
    if code.co_name not in _ENV_METHODS or not code.co_argcount:
        return None
    envs = _env_classes()
    if not envs:
        return None  # undecided: gymnasium may be imported later
    self = frame.f_locals.get(code.co_varnames[0])
    return _cat["simulator"] if isinstance(self, envs) else 0


def _c_category(fn):
    mod = getattr(fn, "__module__", None)
    if mod is None:
        owner = getattr(fn, "__self__", None)
        if owner is not None:
            mod = getattr(owner, "__name__", None) if type(owner).__name__ == "module" \
                else type(owner).__module__
    if not mod:
        return 0
    root = mod.partition(".")[0]
    cat = _root_cat.get(root)
    if cat is None:
        cat = _cat["simulator"] if root in _SIMULATOR_ROOTS else \
            _cat["backend"] if root in _BACKEND_ROOTS else 0
        _root_cat[root] = cat
    return cat


def _thread_hook():
    """A profile hook for one thread, its state in closure cells."""
    py = _cat["python"]
    stack = []
    current = [py]
    cpu = _lib.rlprof_cpu
    code_cat = _code_cat
    cpu(py)

    def switch(cat):
        if cat != current[0]:
            current[0] = cat
            cpu(cat)

    def hook(frame, event, arg):
        if event == "call":
            code = frame.f_code
            cat = code_cat.get(code)
            if cat is None:
                cat = _code_category(frame)
                if cat is None:
                    return
                code_cat[code] = cat
            if cat:
                stack.append((frame, cat))
                if len(stack) == 1:
                    switch(cat)
        elif event == "return":
            if stack and stack[-1][0] is frame:
                stack.pop()
                switch(stack[-1][1] if stack else py)
        elif event == "c_call":
            if stack:
                return  # inside a category already: it owns nested time
            cat = _c_category(arg)
            if cat:
                stack.append((arg, cat))
                switch(cat)
        elif stack and stack[-1][0] is arg:  # c_return, c_exception
            stack.pop()
            switch(stack[-1][1] if stack else py)

    hook.current = current
    return hook


def _new_thread(frame, event, arg):
    """threading.setprofile: give each new thread its own hook."""
    _name_thread()
    hook = _local.hook = _thread_hook()
    sys.setprofile(hook)
    hook(frame, event, arg)


def _after_fork():
    hook = getattr(_local, "hook", None)
    if hook is not None:
        _lib.rlprof_cpu(hook.current[0])


_c_hook = None


def _load_c_hook():
    """The C hook next to the recorder library, or None."""
    if os.environ.get("RLPROF_PYHOOK") == "python":
        return None
    path = os.path.join(os.path.dirname(os.environ.get("RLPROF_LIB", "")), "_rlprof_hook.so")
    if not os.path.exists(path):
        return None
    try:
        spec = importlib.util.spec_from_file_location("_rlprof_hook", path)
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)
        cpu = ctypes.cast(_lib.rlprof_cpu, ctypes.c_void_p).value
        mod.start(_code_category, _c_category, cpu, _cat["python"])
    except (ImportError, OSError, ValueError, AttributeError):
        return None
    return mod


def _name_thread():
    _lib.rlprof_thread_name(_b(threading.current_thread().name))


def _new_thread_named(frame, event, arg):
    """threading.setprofile while sampling: name each new thread, once."""
    sys.setprofile(None)
    _name_thread()


def _new_thread_c(frame, event, arg):
    """threading.setprofile: put the C hook on each new thread."""
    _name_thread()
    _c_hook.thread()


def hook_kind():
    """"c" or "python": which hook attributes categories; None when off."""
    if not _running:
        return None
    return "c" if _c_hook is not None else "python"


def _sampling():
    try:
        return int(os.environ.get("RLPROF_CPU_SAMPLE_US", "0")) > 0
    except ValueError:
        return False


def start_categories():
    """Attribute CPU time to python, simulator and backend (see above).
    Does nothing while the recorder samples the code that runs (the
    default of rlprof-record, see --cpu-sample)."""
    global _running, _c_hook
    if _lib is None or _running or os.environ.get("RLPROF_PYHOOK") == "off":
        return
    if _sampling():
        threading.setprofile(_new_thread_named)
        return
    for name in ("python", "simulator", "backend"):
        _cat[name] = _lib.rlprof_category_id(name.encode())
    _running = True
    _c_hook = _load_c_hook()
    if _c_hook is not None:
        threading.setprofile(_new_thread_c)
        _c_hook.thread()
        os.register_at_fork(after_in_child=_c_hook.resync)
        return
    _local.hook = _thread_hook()
    threading.setprofile(_new_thread)
    sys.setprofile(_local.hook)
    os.register_at_fork(after_in_child=_after_fork)


def stop_categories():
    """Stop the profile hook (categories end where they are)."""
    global _running
    if not _running:
        return
    if _c_hook is not None:
        _c_hook.stop()
    sys.setprofile(None)
    threading.setprofile(None)
    _running = False
    _lib.rlprof_cpu(0)


def _finishing(fn):
    """fn, after writing out what is buffered (os._exit and os.exec* skip
    the recorder's exit handler)."""
    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        _lib.rlprof_finish()
        return fn(*args, **kwargs)
    return wrapper


if _lib is not None:
    # os.execl, execlp, execvp, ... go through execv and execve.
    for _name in ("_exit", "execv", "execve"):
        if hasattr(os, _name):
            setattr(os, _name, _finishing(getattr(os, _name)))
