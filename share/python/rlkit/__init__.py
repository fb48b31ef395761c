"""rlkit: tools for deep reinforcement learning systems, from Python.

    rlkit.atari   the Atari 2600 emulator as a Gymnasium vector environment
    rlkit.sb3     a Stable-Baselines3 VecEnv over rlkit.atari
    rlkit.pool    multiprocessing.Pool over fiberrun: local, ssh hosts, Slurm

The profiler's annotation module is the top-level module rlprof.
"""

__version__ = "0.1.0"
