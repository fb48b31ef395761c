"""multiprocessing.Pool over fiberrun: the same interface, with workers on
this machine, on ssh hosts or in a Slurm allocation.

    import rlkit.pool as multiprocessing

    with multiprocessing.Pool(4) as pool:                     # this machine
        print(pool.map(f, range(10)))
    with multiprocessing.Pool(8, hosts="hosts.txt") as pool:  # ssh hosts
        ...
    with multiprocessing.Pool(64, backend="slurm") as pool:   # srun steps
        ...

A Pool runs one `fiberrun --pool` (fiberrun(1)) whose workers are Python
processes (rlkit._pool_worker).  Functions and arguments travel by pickle,
as with multiprocessing's spawn context: a function defined in the main
script is found there because each worker loads that script as
__mp_main__ (so keep the script's work under `if __name__ == "__main__"`).
An exception raised by a task is raised again in the caller, with the
worker's traceback as its cause.  A worker that dies (killed, out of
memory, its host gone) loses nothing: fiberrun retries its task on another
worker (`retries` attempts in all), and a task whose attempts all fail
raises TaskFailed.

Everything else in this module's namespace comes from multiprocessing
(cpu_count, Process, Queue, ...), so that the module can stand in for it.
See rlkit-pool(3).
"""
import base64
import binascii
import collections
import itertools
import json
import multiprocessing as _mp
import os
import pickle
import shutil
import signal
import subprocess
import sys
import tempfile
import threading

__all__ = ["Pool", "AsyncResult", "ApplyResult", "MapResult", "IMapIterator",
           "TaskFailed", "OutOfMemory", "RemoteTraceback", "TimeoutError", "cpu_count",
           "get_context", "set_start_method", "freeze_support", "current_process"]

TimeoutError = _mp.TimeoutError
cpu_count = _mp.cpu_count
current_process = _mp.current_process
freeze_support = _mp.freeze_support

_BACKENDS = {"local": "local", "ssh": "ssh", "slurm": "srun", "srun": "srun", "sbatch": "sbatch"}
_MAX_LINE = 1 << 30


class RemoteTraceback(Exception):
    """The cause of an exception raised again from a worker: its traceback."""

    def __init__(self, tb):
        Exception.__init__(self, tb)
        self.tb = tb

    def __str__(self):
        return self.tb


class TaskFailed(RuntimeError):
    """A task that did not run to an answer: its workers were lost on every
    attempt ("failed") or its last attempt ran out of time ("timeout")."""

    def __init__(self, status, reason, host=None, attempts=0):
        RuntimeError.__init__(self, "task %s: %s%s" % (status, reason, " on %s" % host if host else ""))
        self.status, self.reason, self.host, self.attempts = status, reason, host, attempts


class OutOfMemory(TaskFailed, MemoryError):
    """A task whose worker ran out of memory at mem_limit on every attempt,
    as fiberrun knew for certain (its record's error begins "out of
    memory"): both a TaskFailed and a MemoryError."""


def _fiberrun_path(explicit):
    if explicit:
        return explicit
    if os.environ.get("RLKIT_FIBERRUN"):
        return os.environ["RLKIT_FIBERRUN"]
    # Installed (and built) as PREFIX/share/rlkit/python/rlkit/pool.py next to PREFIX/bin.
    here = os.path.dirname(os.path.abspath(__file__))
    beside = os.path.normpath(os.path.join(here, "..", "..", "..", "..", "bin", "fiberrun"))
    if os.access(beside, os.X_OK):
        return beside
    found = shutil.which("fiberrun")
    if not found:
        raise FileNotFoundError("fiberrun not found: install rlkit or set RLKIT_FIBERRUN")
    return found


def _main_settings():
    """Where workers find the caller's __main__ (multiprocessing's spawn rules)."""
    main = sys.modules.get("__main__")
    env = {}
    spec = getattr(main, "__spec__", None)
    if spec is not None and spec.name:
        # A package's __main__ (python -m pytest) is not loaded again.
        if spec.name != "__main__" and not spec.name.endswith(".__main__"):
            env["RLKIT_POOL_MAINMOD"] = spec.name
    else:
        path = getattr(main, "__file__", None)
        if path and not path.startswith("<") and os.path.exists(path):
            env["RLKIT_POOL_MAIN"] = os.path.abspath(path)
    return env


def _slots(path):
    """Workers fiberrun starts for a hosts file: the sum of its slots."""
    n = 0
    with open(path) as f:
        for line in f:
            line = line.split("#", 1)[0].strip()
            if line:
                host, _, slots = line.rpartition(":") if ":" in line else (line, "", "1")
                n += int(slots) if slots.isdigit() else 1
    return max(n, 1)


def _chunks(items, size):
    """items in chunks of size.  A list, tuple or range is sliced: no item
    is touched on the way, and a chunk of a range is a range (a few bytes
    of pickle, not its numbers)."""
    if type(items) in (list, tuple, range):
        for start in range(0, len(items), size):
            yield items[start:start + size]
        return
    it = iter(items)
    while True:
        chunk = list(itertools.islice(it, size))
        if not chunk:
            return
        yield chunk


_BATCH_BYTES = 1 << 20


_OK_RESULT = b',"status":"ok","result":"'


def _ok_record(line):
    """(id, result) of an "ok" record, read without json: fiberrun writes
    id, status and result first (fiberrun-protocol(5)), and our results are
    hex, with nothing to unescape.  None for any other record."""
    if line.startswith(b'{"id":'):
        i = line.find(_OK_RESULT, 6, 40)
        if i > 0 and line[6:i].isdigit():
            start = i + len(_OK_RESULT)
            end = line.find(b'"', start)
            if end > 0:
                return int(line[6:i]), line[start:end]
    return None


def _write_lines(f, lines):
    f.write(b"\n".join(lines) + b"\n")
    f.flush()


class ApplyResult:
    """What apply_async returns: get(), wait(), ready(), successful()."""

    def __init__(self, pool, callback=None, error_callback=None):
        self._pool = pool
        self._event = threading.Event()
        self._callback, self._error_callback = callback, error_callback
        self._success, self._value = None, None

    def ready(self):
        return self._event.is_set()

    def successful(self):
        if not self.ready():
            raise ValueError("%r not ready" % self)
        return self._success

    def wait(self, timeout=None):
        self._event.wait(timeout)

    def get(self, timeout=None):
        if not self._event.wait(timeout):
            raise TimeoutError
        if self._success:
            return self._value
        raise self._value

    def _finish(self, success, value):
        self._success, self._value = success, value
        cb = self._callback if success else self._error_callback
        if cb is not None:
            try:
                cb(value)
            except Exception:
                pass  # as multiprocessing's result handler: not the task's fault
        self._event.set()

    # Called by the reader for each chunk of this job: (index, ok, value).
    def _chunk(self, index, ok, value):
        self._finish(ok, value)

    def _abort(self, exc):
        if not self.ready():
            self._finish(False, exc)


AsyncResult = ApplyResult


class MapResult(ApplyResult):
    """What map_async and starmap_async return: the list of results."""

    def __init__(self, pool, length, chunksize, callback=None, error_callback=None):
        ApplyResult.__init__(self, pool, callback, error_callback)
        self._list = [None] * length
        self._chunksize = chunksize
        self._left = (length + chunksize - 1) // chunksize
        self._lock = threading.Lock()
        if self._left == 0:
            self._finish(True, [])

    def _chunk(self, index, ok, value):
        with self._lock:
            if self.ready():
                return
            if not ok:
                self._finish(False, value)
                return
            start = index * self._chunksize
            self._list[start:start + len(value)] = value
            self._left -= 1
            if self._left == 0:
                self._finish(True, self._list)


class IMapIterator:
    """What imap returns: results in order, each as soon as it is there."""

    def __init__(self, pool, ordered=True):
        self._pool = pool
        self._cond = threading.Condition()
        self._ordered = ordered
        self._chunks = {}                 # ordered: chunk index -> results
        self._ready = collections.deque()  # unordered: (ok, value)
        self._next_chunk = 0
        self._length = None               # number of chunks, once known
        self._taken = 0
        self._current = collections.deque()

    def __iter__(self):
        return self

    def _set_length(self, n):
        with self._cond:
            self._length = n
            self._cond.notify_all()

    def _chunk(self, index, ok, value):
        with self._cond:
            if self._ordered:
                self._chunks[index] = (ok, value)
            else:
                self._ready.append((ok, value))
            self._cond.notify_all()

    def _abort(self, exc):
        with self._cond:
            self._ready.append((False, exc))
            self._chunks.setdefault(self._next_chunk, (False, exc))
            self._length = self._next_chunk if self._length is None else self._length
            self._cond.notify_all()

    def _take(self):
        if self._ordered:
            if self._next_chunk in self._chunks:
                got = self._chunks.pop(self._next_chunk)
                self._next_chunk += 1
                return got
        elif self._ready:
            self._next_chunk += 1
            return self._ready.popleft()
        return None

    def next(self, timeout=None):
        while not self._current:
            with self._cond:
                while True:
                    got = self._take()
                    if got is not None:
                        break
                    if self._length is not None and self._next_chunk >= self._length:
                        raise StopIteration
                    if not self._cond.wait(timeout):
                        raise TimeoutError
            ok, value = got
            if not ok:
                raise value
            self._current.extend(value)
        return self._current.popleft()

    __next__ = next


class _Job:
    """One submission: its chunks, fed lazily, and where their results go."""

    def __init__(self, result, kind, func, chunks):
        self.result, self.kind, self.func, self.chunks = result, kind, func, chunks


class Pool:
    """multiprocessing.Pool over fiberrun.

    processes: workers (default: slots in the hosts file, else CPUs).
    initializer, initargs, maxtasksperchild: as in multiprocessing.
    hosts: a hosts file (one host[:slots] per line), or a list of such
        strings: workers start there through ssh.
    backend: "local", "ssh", "slurm" (one srun job step per worker, inside
        an allocation) or "sbatch" (one batch job per worker).
    retries: attempts per task when its worker is lost (default 3).
    timeout: seconds per task attempt (default: none).
    env: more variables (names or 'PREFIX_*') for the workers on every
        host; PYTHONPATH always goes along.
    workdir: the workers' working folder on every host.
    mem_limit: each worker's memory limit (bytes, or "512M"; a memory
        cgroup, else its address-space limit): a task going over it raises
        MemoryError (OutOfMemory when the worker was killed for it).
    python: the Python on the hosts (default: this one, sys.executable).
    fiberrun: the fiberrun program (default: the installed one).
    options: more fiberrun options, a list of strings.
    """

    def __init__(self, processes=None, initializer=None, initargs=(), maxtasksperchild=None,
                 context=None, *, hosts=None, backend=None, retries=3, timeout=None, env=(),
                 workdir=None, mem_limit=None, python=None, fiberrun=None, options=()):
        if processes is not None and processes < 1:
            raise ValueError("Number of processes must be at least 1")
        if initializer is not None and not callable(initializer):
            raise TypeError("initializer must be a callable")
        if maxtasksperchild is not None and (not isinstance(maxtasksperchild, int) or maxtasksperchild <= 0):
            raise ValueError("maxtasksperchild must be a positive int or None")
        if backend is not None and backend not in _BACKENDS:
            raise ValueError("unknown backend %r: want one of %s" % (backend, ", ".join(sorted(_BACKENDS))))
        self._tmpdir = None
        if hosts is not None and not isinstance(hosts, (str, os.PathLike)):
            self._tmpdir = tempfile.mkdtemp(prefix="rlkit-pool-")
            path = os.path.join(self._tmpdir, "hosts")
            with open(path, "w") as f:
                f.write("".join("%s\n" % h for h in hosts))
            hosts = path
        if processes is None and hosts is None:
            processes = cpu_count()
        self._processes = processes or _slots(hosts)
        cmd = [_fiberrun_path(fiberrun), "--pool", "--lines", "--max-line", str(_MAX_LINE),
               "-r", str(int(retries))]
        if processes is not None:
            cmd += ["-n", str(int(processes))]
        if hosts is not None:
            cmd += ["--hosts", os.fspath(hosts)]
        if backend is not None:
            cmd += ["-b", _BACKENDS[backend]]
        if timeout is not None:
            cmd += ["-T", str(timeout)]
        if workdir is not None:
            cmd += ["--workdir", os.fspath(workdir)]
        if mem_limit is not None:
            cmd += ["--mem-limit", str(mem_limit)]
        if maxtasksperchild:
            # The worker renews itself after its last task: nothing may wait at it.
            cmd += ["--prefetch", "1"]
        for name in ("RLKIT_POOL_*", "PYTHONPATH") + tuple(env):
            cmd += ["--env", name]
        cmd += list(options)
        cmd += ["--", python or sys.executable, "-m", "rlkit._pool_worker"]
        wenv = dict(os.environ)
        for k in [k for k in wenv if k.startswith("RLKIT_POOL_")]:
            del wenv[k]
        wenv.update(_main_settings())
        pkg_root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
        wenv["PYTHONPATH"] = os.pathsep.join([pkg_root] + [p for p in wenv.get("PYTHONPATH", "").split(os.pathsep) if p])
        wenv["RLKIT_POOL_PATH"] = json.dumps([p for p in sys.path if p])
        wenv["RLKIT_POOL_ARGV"] = json.dumps(sys.argv)
        if initializer is not None:
            wenv["RLKIT_POOL_INIT"] = base64.b64encode(pickle.dumps((initializer, tuple(initargs)))).decode()
        if maxtasksperchild:
            wenv["RLKIT_POOL_MAXTASKS"] = str(maxtasksperchild)
        self._cmd = cmd
        # Records of tens of KB: read 64 KiB at a time, not 8.
        self._proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=wenv,
                                      bufsize=1 << 16)
        self._state = "run"
        self._lock = threading.Lock()
        self._pending = {}          # fiberrun task id (line number) -> (job, chunk index)
        self._next_id = 1
        self._jobs = collections.deque()
        self._jobs_cond = threading.Condition(self._lock)
        self._unfinished = 0
        self._done_cond = threading.Condition(self._lock)
        self._writer = threading.Thread(target=self._write_loop, name="rlkit.pool writer", daemon=True)
        self._reader = threading.Thread(target=self._read_loop, name="rlkit.pool reader", daemon=True)
        self._writer.start()
        self._reader.start()

    # -- submission

    def _check_running(self):
        if self._state != "run":
            raise ValueError("Pool not running")

    def _submit(self, result, kind, func, chunks):
        with self._lock:
            self._check_running()
            self._jobs.append(_Job(result, kind, func, chunks))
            self._jobs_cond.notify_all()
        return result

    def _chunksize(self, items, chunksize):
        if chunksize is None:
            chunksize, extra = divmod(len(items), (self._processes or 1) * 4)
            if extra:
                chunksize += 1
        return max(1, int(chunksize))

    def apply_async(self, func, args=(), kwds={}, callback=None, error_callback=None):
        return self._submit(ApplyResult(self, callback, error_callback), "apply", func,
                            iter([(tuple(args), dict(kwds))]))

    def apply(self, func, args=(), kwds={}):
        return self.apply_async(func, args, kwds).get()

    def _map_async(self, kind, func, iterable, chunksize, callback, error_callback):
        if not hasattr(iterable, "__len__"):
            iterable = list(iterable)
        size = self._chunksize(iterable, chunksize)
        result = MapResult(self, len(iterable), size, callback, error_callback)
        if not len(iterable):
            self._check_running()
            return result
        return self._submit(result, kind, func, _chunks(iterable, size))

    def map_async(self, func, iterable, chunksize=None, callback=None, error_callback=None):
        return self._map_async("map", func, iterable, chunksize, callback, error_callback)

    def map(self, func, iterable, chunksize=None):
        return self.map_async(func, iterable, chunksize).get()

    def starmap_async(self, func, iterable, chunksize=None, callback=None, error_callback=None):
        return self._map_async("star", func, iterable, chunksize, callback, error_callback)

    def starmap(self, func, iterable, chunksize=None):
        return self.starmap_async(func, iterable, chunksize).get()

    def imap(self, func, iterable, chunksize=1):
        return self._submit(IMapIterator(self, True), "map", func, _chunks(iterable, max(1, chunksize)))

    def imap_unordered(self, func, iterable, chunksize=1):
        return self._submit(IMapIterator(self, False), "map", func, _chunks(iterable, max(1, chunksize)))

    # -- the two threads

    def _write_loop(self):
        stdin = self._proc.stdin
        try:
            while True:
                with self._lock:
                    while not self._jobs and self._state == "run":
                        self._jobs_cond.wait()
                    if not self._jobs:
                        break
                    job = self._jobs[0]
                count = 0
                batch, size = [], 0
                # imap's iterable is the caller's, maybe lazy: each chunk
                # goes as soon as made.  Other jobs' items are all at hand.
                lazy = isinstance(job.result, IMapIterator)
                for index, chunk in enumerate(job.chunks):
                    try:
                        line = binascii.b2a_hex(pickle.dumps((job.kind, job.func, chunk),
                                                             protocol=pickle.HIGHEST_PROTOCOL))
                    except Exception as e:
                        job.result._chunk(index, False, e)
                        count = index + 1
                        continue
                    with self._lock:
                        if self._state == "terminate":
                            break
                        self._pending[self._next_id] = (job, index)
                        self._next_id += 1
                        self._unfinished += 1
                    batch.append(line)
                    size += len(line) + 1
                    count = index + 1
                    # A chunk goes at once while the workers may be short
                    # of work (under two chunks each in flight); beyond
                    # that, one write per batch: a write per chunk hands
                    # the GIL back and forth with the reader and delays both.
                    if lazy or size >= _BATCH_BYTES or \
                            self._unfinished - len(batch) < 2 * self._processes:
                        _write_lines(stdin, batch)
                        batch, size = [], 0
                if batch and self._state != "terminate":
                    _write_lines(stdin, batch)
                if isinstance(job.result, IMapIterator):
                    job.result._set_length(count)
                with self._lock:
                    self._jobs.popleft()
                    if self._state == "terminate":
                        break
        except (BrokenPipeError, OSError, ValueError):
            pass
        except Exception as e:  # the caller's iterable raised: that job ends with it
            job.result._abort(e)
        finally:
            try:
                stdin.close()
            except OSError:
                pass

    def _read_loop(self):
        try:
            self._read_records()
        finally:
            self._end_of_records()

    def _read_records(self):
        for line in self._proc.stdout:
            ok = _ok_record(line)
            if ok:
                rec = {"id": ok[0], "status": "ok"}
            else:
                try:
                    rec = json.loads(line)
                except ValueError:
                    # Not ours to read: fiberrun is not what we expect; stop it.
                    self._proc.send_signal(signal.SIGTERM)
                    return
            with self._lock:
                job, index = self._pending.pop(rec["id"], (None, 0))
            if job is None:
                continue
            if rec["status"] == "ok":
                try:
                    res = pickle.loads(binascii.a2b_hex(ok[1] if ok else rec["result"]))
                except Exception as e:
                    res = (False, e, "")
                if res[0]:
                    job.result._chunk(index, True, res[1])
                else:
                    exc, tb = res[1], res[2]
                    exc.__cause__ = RemoteTraceback('\n"""\n%s"""' % tb)
                    job.result._chunk(index, False, exc)
            else:
                error = rec.get("error") or ""
                failed = OutOfMemory if error.startswith("out of memory") else TaskFailed
                job.result._chunk(index, False, failed(rec["status"], error or None,
                                                       rec.get("host"), rec.get("attempts", 0)))
            with self._lock:
                self._unfinished -= 1
                self._done_cond.notify_all()

    def _end_of_records(self):
        self._proc.wait()
        with self._lock:
            lost = list(self._pending.values())
            self._pending.clear()
            jobs = list(self._jobs)
            self._unfinished = 0
            self._state = "terminate" if self._state == "run" else self._state
            self._jobs_cond.notify_all()
            self._done_cond.notify_all()
        why = RuntimeError("fiberrun ended (status %s) before the task's result" % self._proc.returncode)
        for job, _ in lost:
            job.result._abort(why)
        for job in jobs:
            job.result._abort(why)

    # -- life cycle

    def close(self):
        """No more tasks; the workers end once the submitted ones are done."""
        with self._lock:
            if self._state == "run":
                self._state = "close"
            self._jobs_cond.notify_all()

    def terminate(self):
        """Stop the workers now; unfinished tasks are dropped."""
        with self._lock:
            if self._state == "gone":
                return
            self._state = "terminate"
            self._jobs.clear()
            self._jobs_cond.notify_all()
        if self._proc.poll() is None:
            try:
                self._proc.send_signal(signal.SIGTERM)
            except OSError:
                pass
        self._join()

    def join(self):
        """Wait for the workers to end (after close or terminate)."""
        if self._state == "run":
            raise ValueError("Pool is still running")
        self._join()

    def _join(self):
        if threading.current_thread() not in (self._writer, self._reader):
            self._writer.join()
            self._reader.join()
        self._proc.wait()
        if self._proc.stdout:
            self._proc.stdout.close()
        if self._tmpdir:
            shutil.rmtree(self._tmpdir, ignore_errors=True)
            self._tmpdir = None
        self._state = "gone"

    def __enter__(self):
        self._check_running()
        return self

    def __exit__(self, *exc):
        self.terminate()

    def __del__(self):
        proc = getattr(self, "_proc", None)
        if proc is not None and proc.poll() is None:
            try:
                proc.send_signal(signal.SIGTERM)
            except OSError:
                pass

    def __reduce__(self):
        raise NotImplementedError("pool objects cannot be passed between processes or pickled")


class _Context:
    """What get_context() returns: this module's Pool, the rest from multiprocessing."""

    def __init__(self, method=None):
        self._ctx = _mp.get_context(method)

    def Pool(self, *args, **kwargs):
        return Pool(*args, **kwargs)

    def __getattr__(self, name):
        return getattr(self._ctx, name)


def get_context(method=None):
    return _Context(method)


def set_start_method(method=None, force=False):
    """Workers always start as new interpreters (as with "spawn"): nothing to set."""


def __getattr__(name):
    return getattr(_mp, name)
