"""rlkit.atari with backend="cuda", for tests/gpu/run: the same games,
seeds and actions through backend="cpu" and backend="cuda" must give the
same observations, rewards, terminations and infos, the "cuda" ones as
torch tensors on the device.  Prints CSV rows "check,game,envs,steps,cpu,
cuda,result" (no header) and exits 1 when a check fails.

  atari-cuda.py [GAME...]     default: pong breakout

RLKIT_GPU_DRY=1 (no GPU): the "cuda" side is backend="cpu" too, so that
the script itself runs anywhere."""
import csv
import io
import os
import sys
import time

import numpy as np

import rlkit.atari

failed = False
DRY = os.environ.get("RLKIT_GPU_DRY") == "1"
if not DRY:
    import torch


def row(check, game, envs, steps, cpu, cuda, ok):
    global failed
    failed |= not ok
    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerow(
        [check, game, envs, steps, cpu, cuda, "same" if ok else "DIFFERENT"])
    sys.stdout.write(out.getvalue())


def host(x):
    return np.asarray(x) if DRY or not isinstance(x, torch.Tensor) else x.cpu().numpy()


def compare(game, envs=8, steps=400):
    kw = dict(num_envs=envs, seed=11, repeat_action_probability=0.25, noop_max=30)
    cpu = rlkit.atari.VectorEnv(game, backend="cpu", copy=True, **kw)
    gpu = rlkit.atari.VectorEnv(game, backend="cpu" if DRY else "cuda", **kw)
    o1, i1 = cpu.reset(seed=11)
    o2, i2 = gpu.reset(seed=11)
    on_device = DRY or (isinstance(o2, torch.Tensor) and o2.is_cuda)
    row("python-cuda-obs-on-device", game, envs, 0, type(o1).__name__,
        f"{type(o2).__name__} {getattr(o2, 'device', '')}", on_device)
    rng = np.random.default_rng(5)
    diff = [] if np.array_equal(o1, host(o2)) else ["reset obs"]
    rewards = [0.0, 0.0]
    t = [0.0, 0.0]
    for step in range(steps):
        a = rng.integers(0, cpu.single_action_space.n, size=envs)
        t0 = time.perf_counter()
        r1 = cpu.step(a)
        t[0] += time.perf_counter() - t0
        t0 = time.perf_counter()
        r2 = gpu.step(a)
        if not DRY:
            torch.cuda.synchronize()
        t[1] += time.perf_counter() - t0
        for name, x, y in zip(("obs", "reward", "terminated", "truncated"), r1[:4], r2[:4]):
            if not np.array_equal(host(x), host(y)):
                diff.append(f"{name} at step {step}")
        for k in ("lives", "episode_frame_number"):
            if not np.array_equal(host(r1[4][k]), host(r2[4][k])):
                diff.append(f"info {k} at step {step}")
        rewards[0] += float(host(r1[1]).sum())
        rewards[1] += float(host(r2[1]).sum())
        if len(diff) > 3:
            break
    row("python-cpu-vs-cuda", game, envs, steps,
        f"reward {rewards[0]:g} in {t[0]:.2f} s", f"reward {rewards[1]:g} in {t[1]:.2f} s"
        + (f"; differs: {'; '.join(diff[:3])}" if diff else ""), not diff)
    cpu.close()
    gpu.close()


if __name__ == "__main__":
    for g in sys.argv[1:] or ["pong", "breakout"]:
        try:
            compare(g)
        except Exception as e:  # one line in the summary, not a traceback
            row("python-cpu-vs-cuda", g, "", "", "", f"{type(e).__name__}: {e}".replace("\n", " "), False)
    sys.exit(1 if failed else 0)
