"""The training script that bench/record-sb3 runs three ways: Stable-Baselines3
PPO or DQN on CartPole, with its parts annotated as rlprof operations.

    python3 record-sb3.py ALGO STEPS

Operations: "rollout" (collect_rollouts, or DQN's collect_rollouts),
"inference" (policy.predict and the policy's forward during rollouts),
"env_step" (the vectorized env's step), "train" (the gradient updates).
Prints "learn_s SECONDS" (wall time of model.learn) and "learn_cpu_s
SECONDS" (the CPU time of the process's threads during it) on standard
output.
Each operation's wrapper is a function named rlprof_op_<operation>, so
that a sampling profiler's stacks (py-spy) tell the innermost operation
of each sample as rlprof-record does.
"""
import sys
import time

import rlprof
import torch
from stable_baselines3 import DQN, PPO
from stable_baselines3.common.vec_env import DummyVecEnv

torch.set_num_threads(1)


def wrap(obj, name, op):
    fn = getattr(obj, name)

    def wrapper(*a, **k):
        with rlprof.operation(op):
            return fn(*a, **k)
    code = "rlprof_op_" + op
    wrapper.__code__ = wrapper.__code__.replace(co_name=code, co_qualname=code)
    setattr(obj, name, wrapper)


def main():
    algo, steps = sys.argv[1], int(sys.argv[2])
    import gymnasium as gym
    env = DummyVecEnv([lambda: gym.make("CartPole-v1")])
    cls = PPO if algo == "ppo" else DQN
    kw = dict(n_steps=512, batch_size=64, n_epochs=4) if algo == "ppo" else dict(learning_starts=500)
    model = cls("MlpPolicy", env, seed=0, device="cpu", verbose=0, **kw)
    wrap(model, "collect_rollouts", "rollout")
    wrap(model, "train", "train")
    wrap(model.env, "step", "env_step")
    wrap(model.policy, "forward", "inference")
    if algo == "dqn":
        wrap(model, "predict", "inference")
    t, c = time.perf_counter(), time.process_time()
    model.learn(total_timesteps=steps)
    print("learn_s %.3f" % (time.perf_counter() - t))
    print("learn_cpu_s %.3f" % (time.process_time() - c))


main()
