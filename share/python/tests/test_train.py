"""Stable-Baselines3 PPO over rlkit.atari (rlkit.sb3.AtariVecEnv), a few
thousand steps on the project's own ROM and on Pong.  Needs PyTorch:
'make check-train' installs it and runs this file."""
import numpy as np
import pytest
import torch
from stable_baselines3 import PPO
from stable_baselines3.common.vec_env import VecEnv

from rlkit.sb3 import AtariVecEnv

torch.set_num_threads(1)


def test_adapter_follows_sb3_conventions():
    env = AtariVecEnv("pong", num_envs=2, max_episode_steps=40, noop_max=0, seed=1)
    assert isinstance(env, VecEnv)
    obs = env.reset()
    assert obs.shape == (2, 84, 84) and obs.flags.owndata
    for t in range(10):
        env.step_async(np.zeros(2, int))
        obs, rewards, dones, infos = env.step_wait()
    assert dones.all()
    for info in infos:
        assert info["TimeLimit.truncated"] and info["episode"]["l"] == 10
        assert info["terminal_observation"].shape == (84, 84)
        assert not np.array_equal(info["terminal_observation"], obs[0])


@pytest.mark.parametrize("game,steps", [("catch", 4096), ("pong", 2048)])
def test_ppo_trains(game, steps):
    env = AtariVecEnv(game, num_envs=8, frame_stack=4, seed=0)
    model = PPO("CnnPolicy", env, n_steps=128, batch_size=256, n_epochs=2, seed=0,
                device="cpu", verbose=0)
    before = [p.detach().clone() for p in model.policy.parameters()]
    model.learn(total_timesteps=steps)
    assert model.num_timesteps >= steps
    changed = sum(not torch.equal(a, b) for a, b in zip(before, model.policy.parameters()))
    assert changed > 0, "no parameter moved"
    assert np.isfinite(model.logger.name_to_value.get("train/loss", 0.0))
    env.close()


def test_dlpack_path_shares_the_batch_memory():
    """backend="cuda" hands batches to torch through DLPack; on the CPU the
    same path gives tensors over the emulator's buffers, without a copy."""
    from rlkit import _dlpack
    from rlkit.atari import VectorEnv
    env = VectorEnv("pong", 2)
    obs, _ = env.reset(seed=0)
    t = _dlpack.to_device(obs, torch.device("cpu"))
    assert t.data_ptr() == obs.ctypes.data and tuple(t.shape) == obs.shape
    obs2, r, term, trunc, info = env.step(np.zeros(2, int))
    assert _dlpack.to_device(term, torch.device("cpu")).dtype == torch.bool


def test_cleanrl_style_example_runs():
    """share/examples/ppo_atari.py: two updates on the project's own ROM."""
    import os
    import subprocess
    import sys
    here = os.path.dirname(os.path.abspath(__file__))
    example = os.path.join(here, "..", "..", "examples", "ppo_atari.py")
    import rlkit
    env = dict(os.environ, PYTHONPATH=os.path.dirname(os.path.dirname(rlkit.__file__)))
    out = subprocess.run([sys.executable, example, "--game", "catch", "--num-envs", "4",
                          "--num-steps", "32", "--total-steps", "256", "--epochs", "1",
                          "--device", "cpu"], capture_output=True, text=True, env=env,
                         timeout=600)
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert lines[0] == "update,steps,steps_per_s,mean_return,loss"
    assert [line.split(",")[:2] for line in lines[1:]] == [["1", "128"], ["2", "256"]]
