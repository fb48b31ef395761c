"""A workload whose truth is known: each phase is one rlprof operation that
spends its time in one category.

    python3 phases.py RUSAGE_FILE [PHASE ...]

Phases: torch (operators on tensors: @, +), numpy (@, np.dot, np.add),
pyloop (a pure Python loop), npobj (numpy making Python objects:
the interpreter's code that numpy calls), npcall (Python code that numpy
calls back), ale (ALE emulator steps), sleep (time.sleep),
pipe (a blocking read of a pipe that a child process writes late).  At the
end the process writes its own user+sys CPU time (ns) to RUSAGE_FILE.
"""
import os
import resource
import subprocess
import sys
import time

import rlprof

ROUNDS = int(os.environ.get("PHASE_ROUNDS", "1"))


def torch_phase():
    import torch
    torch.set_num_threads(1)
    x = torch.rand(256, 256)
    w = torch.rand(256, 256)
    b = torch.rand(256)
    with rlprof.operation("torch"):
        for _ in range(150 * ROUNDS):
            y = x @ w + b
            y = y * 0.5
    return y


def numpy_phase():
    import numpy as np
    a = np.random.rand(300, 300)
    c = np.random.rand(300, 300)
    with rlprof.operation("numpy"):
        for _ in range(120 * ROUNDS):
            d = a @ c
            d = np.dot(d, c)
            d = np.add(d, a)
    return d


def pyloop_phase():
    with rlprof.operation("pyloop"):
        x = 0
        for i in range(4000000 * ROUNDS):
            x += i % 7
    return x


def npobj_phase():
    import numpy as np
    a = np.arange(10000, dtype=np.int64) % 200	# small ints: no allocation
    for _ in range(12000 * ROUNDS):
        with rlprof.operation("npobj"):
            r = a.tolist()
        del r


def npcall_phase():
    import numpy as np

    def f(x):
        s = 0
        for i in range(200):
            s += i ^ x
        return s
    g = np.frompyfunc(f, 1, 1)
    a = np.arange(80000)
    with rlprof.operation("npcall"):
        g(a)


def ale_phase():
    from ale_py import ALEInterface, roms
    ale = ALEInterface()
    ale.setInt("random_seed", 1)
    ale.loadROM(roms.get_rom_path("pong"))
    actions = ale.getMinimalActionSet()
    with rlprof.operation("ale"):
        for i in range(6000 * ROUNDS):
            ale.act(actions[i % len(actions)])
            if ale.game_over():
                ale.reset_game()


def sleep_phase():
    with rlprof.operation("sleep"):
        time.sleep(0.3)


def pipe_phase():
    r, w = os.pipe()
    child = subprocess.Popen(["sh", "-c", "sleep 0.3; echo x >&%d" % w], pass_fds=(w,),
                             env=dict(os.environ, PATH=os.environ.get("PATH", "")))
    os.close(w)
    with rlprof.operation("pipe"):
        os.read(r, 1)
    os.close(r)
    child.wait()


PHASES = {"torch": torch_phase, "numpy": numpy_phase, "pyloop": pyloop_phase,
          "npobj": npobj_phase, "npcall": npcall_phase,
          "ale": ale_phase, "sleep": sleep_phase, "pipe": pipe_phase}


def main():
    out = sys.argv[1]
    for name in sys.argv[2:] or list(PHASES):
        PHASES[name]()
    ru = resource.getrusage(resource.RUSAGE_SELF)
    with open(out, "w") as f:
        f.write("%d\n" % int((ru.ru_utime + ru.ru_stime) * 1e9))
    # End here: what the interpreter's exit costs is not the workload's.
    rlprof.finish()
    os._exit(0)


main()
