"""rlkit.pool: multiprocessing.Pool's interface over fiberrun (local
workers here; tests/51-python-pool.bats runs ssh hosts and whole scripts)."""
import os
import sys
import threading

import pytest

import rlkit.pool as mp


def square(x):
    return x * x


def add(a, b):
    return a + b


def fail_on(x, bad=3):
    if x == bad:
        raise ValueError("bad value %d" % x)
    return x


_state = {"calls": 0, "init": None}


def set_init(value):
    _state["init"] = value


def get_init(_):
    return _state["init"]


def count_calls(_):
    _state["calls"] += 1
    return _state["calls"]


def crash_once(path):
    """Kills its worker on the first attempt, answers on the next one."""
    if not os.path.exists(path):
        open(path, "w").close()
        os._exit(9)
    return "survived"


def crash_always(_):
    os._exit(9)


def where(_):
    return os.getcwd()


def env_of(name):
    return os.environ.get(name)


class Unpicklable(Exception):
    def __reduce__(self):
        raise TypeError("no pickling")


def raise_unpicklable(_):
    raise Unpicklable("x")


@pytest.fixture(scope="module")
def pool():
    with mp.Pool(2) as p:
        yield p


def test_map_starmap_apply(pool):
    assert pool.map(square, range(100)) == [x * x for x in range(100)]
    assert pool.map(square, range(10), chunksize=3) == [x * x for x in range(10)]
    assert pool.map(square, []) == []
    assert pool.starmap(add, [(1, 2), (3, 4)]) == [3, 7]
    assert pool.apply(add, (2, 3)) == 5
    assert pool.apply(add, (), {"a": 1, "b": 2}) == 3
    assert pool.map(square, iter(range(5))) == [0, 1, 4, 9, 16]


class ListOfOwn(list):
    pass


def test_sequences_go_in_slices(pool):
    """A list, tuple or range is cut in slices (a range's are ranges), any
    other iterable item by item: the same results at any chunk size."""
    for items in (range(-50, 151, 7), range(100, 0, -3), range(0), tuple(range(37)),
                  list(range(37)), ListOfOwn(range(9)), {3: "a", 1: "b"}):
        for chunksize in (None, 1, 4, 1000):
            assert pool.map(square, items, chunksize) == [x * x for x in items], (items, chunksize)
    assert list(pool.imap(square, range(5, 25, 2), chunksize=3)) == [x * x for x in range(5, 25, 2)]
    assert pool.starmap(add, ((1, 2), (3, 4), (5, 6)), chunksize=2) == [3, 7, 11]


def test_a_worker_goes_on_after_a_failed_task():
    # One worker: the task after the failure is its own.  (It reads tasks
    # in place; a traceback that held on to one would stop it.)
    with mp.Pool(1) as one:
        for _ in range(3):
            with pytest.raises(ValueError):
                one.apply(fail_on, (3,))
            assert one.map(square, range(50), chunksize=7) == [x * x for x in range(50)]


def test_ok_records_read_without_json():
    """Records read by hand give what json gives; anything else is left
    to json."""
    import json
    lines = [b'{"id":12,"status":"ok","result":"8004950a","line":12,"worker":0,"attempts":1}\n',
             b'{"id":3,"status":"ok","result":"","worker":1,"host":null}\n']
    for line in lines:
        rec = json.loads(line)
        assert mp._ok_record(line) == (rec["id"], rec["result"].encode())
    for line in (b'{"id":4,"status":"error","result":null,"error":"x"}\n',
                 b'{"id":"a","status":"ok","result":"00"}\n',
                 b'{"id":5,"status":"failed","result":null}\n', b'not json\n', b''):
        assert mp._ok_record(line) is None


def test_imap_in_order_and_unordered(pool):
    assert list(pool.imap(square, range(20))) == [x * x for x in range(20)]
    assert list(pool.imap(square, (x for x in range(20)), chunksize=4)) == [x * x for x in range(20)]
    assert sorted(pool.imap_unordered(square, range(20), chunksize=3)) == sorted(x * x for x in range(20))
    assert list(pool.imap(square, [])) == []


def test_async_callbacks(pool):
    got, errs = [], []
    done = threading.Event()
    r = pool.apply_async(square, (7,), callback=lambda v: (got.append(v), done.set()))
    assert r.get(timeout=60) == 49
    assert done.wait(60) and got == [49]
    assert r.ready() and r.successful()
    e = pool.apply_async(fail_on, (3,), error_callback=errs.append)
    with pytest.raises(ValueError):
        e.get(timeout=60)
    assert not e.successful() and isinstance(errs[0], ValueError)
    m = pool.map_async(square, range(8), callback=got.append)
    assert m.get(60) == [x * x for x in range(8)]
    m.wait()
    assert got[-1] == [x * x for x in range(8)]
    s = pool.starmap_async(add, [(1, 1)])
    assert s.get(60) == [2]


def test_exception_carries_worker_traceback(pool):
    with pytest.raises(ValueError, match="bad value 3") as info:
        pool.map(fail_on, range(6), chunksize=1)
    cause = info.value.__cause__
    assert isinstance(cause, mp.RemoteTraceback)
    assert "in fail_on" in str(cause) and "raise ValueError" in str(cause)
    with pytest.raises(RuntimeError, match="cannot pickle"):
        pool.apply(raise_unpicklable, (1,))
    with pytest.raises(Exception):
        pool.apply(lambda x: x, (1,))  # lambdas do not pickle, as with multiprocessing
    # The pool still works after errors.
    assert pool.apply(square, (4,)) == 16


def test_imap_raises_at_the_failed_item(pool):
    it = pool.imap(fail_on, range(6))
    assert [next(it) for _ in range(3)] == [0, 1, 2]
    with pytest.raises(ValueError):
        next(it)


def test_get_timeout(pool):
    r = pool.apply_async(square, (3,))
    assert r.get(timeout=60) == 9
    with pytest.raises(ValueError):
        mp.Pool(0)


def test_initializer_and_maxtasksperchild():
    with mp.Pool(2, initializer=set_init, initargs=("hello",)) as p:
        assert p.map(get_init, range(6), chunksize=1) == ["hello"] * 6
    with mp.Pool(2, maxtasksperchild=1) as p:
        # Each task finds a fresh interpreter: its call count is always 1.
        assert p.map(count_calls, range(8), chunksize=1) == [1] * 8
    with mp.Pool(1) as p:
        assert p.map(count_calls, range(4), chunksize=1) == [1, 2, 3, 4]


def test_worker_crash_is_retried(tmp_path):
    with mp.Pool(2, retries=3) as p:
        assert p.apply(crash_once, (str(tmp_path / "marker"),)) == "survived"
        with pytest.raises(mp.TaskFailed) as info:
            p.apply(crash_always, (0,))
        assert info.value.status == "failed" and info.value.attempts == 3
        assert p.apply(square, (5,)) == 25


def test_close_join_terminate():
    p = mp.Pool(2)
    r = p.map_async(square, range(50))
    p.close()
    with pytest.raises(ValueError):
        p.apply(square, (1,))
    p.join()
    assert r.get(0) == [x * x for x in range(50)]
    q = mp.Pool(2)
    q.terminate()
    q.join()
    with pytest.raises(ValueError):
        q.map(square, [1])


def test_env_and_workdir(tmp_path, monkeypatch):
    monkeypatch.setenv("RLKIT_TEST_PASSED", "yes")
    with mp.Pool(1, env=["RLKIT_TEST_*"], workdir=str(tmp_path / "w" / "d")) as p:
        assert p.apply(env_of, ("RLKIT_TEST_PASSED",)) == "yes"
        assert p.apply(where, (0,)) == str(tmp_path / "w" / "d")


def allocate(mib):
    return len(bytearray(mib << 20))


def test_mem_limit():
    # A memory cgroup where one can be made: the worker is killed, its task
    # tried again, and OutOfMemory raised; else as under RLIMIT_AS below.
    with mp.Pool(1, mem_limit="300M", retries=2) as p:
        assert p.apply(allocate, (10,)) == 10 << 20
        cgroup = p.apply(env_of, ("FIBERRUN_MEM_CGROUP",))
        with pytest.raises(MemoryError) as e:
            p.apply(allocate, (600,))
        if cgroup:
            assert isinstance(e.value, mp.OutOfMemory) and isinstance(e.value, mp.TaskFailed)
            assert e.value.reason.startswith("out of memory: the worker was killed by the kernel")
            assert e.value.attempts == 2
        else:
            assert not isinstance(e.value, mp.TaskFailed)
        assert p.apply(allocate, (10,)) == 10 << 20


def test_mem_limit_rlimit(monkeypatch):
    # Under RLIMIT_AS the worker's own MemoryError comes back.
    monkeypatch.setenv("FIBERRUN_MEM_LIMIT_RLIMIT", "1")
    with mp.Pool(1, mem_limit="300M") as p:
        assert p.apply(env_of, ("FIBERRUN_MEM_CGROUP",)) is None
        with pytest.raises(MemoryError) as e:
            p.apply(allocate, (600,))
        assert not isinstance(e.value, mp.TaskFailed)
        assert p.apply(allocate, (10,)) == 10 << 20


def test_stands_in_for_multiprocessing():
    assert mp.cpu_count() >= 1
    assert mp.Pool is not None and mp.Queue is not None and mp.Process is not None
    ctx = mp.get_context("spawn")
    with ctx.Pool(1) as p:
        assert p.map(square, [3]) == [9]
    assert mp.TimeoutError is __import__("multiprocessing").TimeoutError
