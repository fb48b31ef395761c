"""The gymnasium loop that bench/calibrate calibrates: CartPole with random
actions, each step annotated as an rlprof operation ("step"), so that the
annotations cost something next to a cheap simulator.

    python3 calibrate-cartpole.py STEPS
"""
import sys

import gymnasium as gym
import rlprof


def main():
    steps = int(sys.argv[1])
    env = gym.make("CartPole-v1")
    env.action_space.seed(0)
    env.reset(seed=0)
    for _ in range(steps):
        with rlprof.operation("step"):
            _, _, term, trunc, _ = env.step(env.action_space.sample())
            if term or trunc:
                env.reset()


main()
