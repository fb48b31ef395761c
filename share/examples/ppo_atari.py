#!/usr/bin/env python3
"""PPO on Atari in one file, over rlkit.atari (the loop of CleanRL's
ppo_atari: Nature CNN, clipped objective, GAE, 4 stacked 84x84 frames).

    python3 ppo_atari.py --game pong --num-envs 8 --total-steps 10000000
    python3 ppo_atari.py --game catch --total-steps 50000 --device cpu

Prints CSV, one line per update: update, env steps, steps per second,
mean return of the episodes that ended since the last line, and the loss.
Under rlprof-record the time splits into simulator (rlkit.atari's native
stepping), backend (torch) and python, per operation (rollout, update).
"""
import argparse
import sys
import time

import numpy as np
import torch
import torch.nn as nn

import rlkit.atari

try:
    import rlprof
except ImportError:  # outside the toolkit's tree: no annotations
    import contextlib

    class rlprof:  # noqa: N801
        operation = staticmethod(lambda name: contextlib.nullcontext())


def layer(m, std=np.sqrt(2), bias=0.0):
    nn.init.orthogonal_(m.weight, std)
    nn.init.constant_(m.bias, bias)
    return m


class Agent(nn.Module):
    def __init__(self, actions, frames):
        super().__init__()
        self.body = nn.Sequential(
            layer(nn.Conv2d(frames, 32, 8, stride=4)), nn.ReLU(),
            layer(nn.Conv2d(32, 64, 4, stride=2)), nn.ReLU(),
            layer(nn.Conv2d(64, 64, 3, stride=1)), nn.ReLU(),
            nn.Flatten(), layer(nn.Linear(64 * 7 * 7, 512)), nn.ReLU())
        self.pi = layer(nn.Linear(512, actions), std=0.01)
        self.v = layer(nn.Linear(512, 1), std=1.0)

    def forward(self, obs, action=None):
        h = self.body(obs.float() / 255.0)
        dist = torch.distributions.Categorical(logits=self.pi(h))
        if action is None:
            action = dist.sample()
        return action, dist.log_prob(action), dist.entropy(), self.v(h).squeeze(-1)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", default="pong")
    ap.add_argument("--num-envs", type=int, default=8)
    ap.add_argument("--num-steps", type=int, default=128, help="steps per env per rollout")
    ap.add_argument("--total-steps", type=int, default=10_000_000)
    ap.add_argument("--lr", type=float, default=2.5e-4)
    ap.add_argument("--gamma", type=float, default=0.99)
    ap.add_argument("--gae-lambda", type=float, default=0.95)
    ap.add_argument("--minibatches", type=int, default=4)
    ap.add_argument("--epochs", type=int, default=4)
    ap.add_argument("--clip", type=float, default=0.1)
    ap.add_argument("--ent-coef", type=float, default=0.01)
    ap.add_argument("--vf-coef", type=float, default=0.5)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--threads", type=int, default=None, help="emulator threads")
    ap.add_argument("--device", default="cuda" if torch.cuda.is_available() else "cpu")
    args = ap.parse_args()

    torch.manual_seed(args.seed)
    device = torch.device(args.device)
    envs = rlkit.atari.VectorEnv(args.game, args.num_envs, frame_stack=4, episodic_life=True,
                                 threads=args.threads, seed=args.seed)
    n, t_max = args.num_envs, args.num_steps
    agent = Agent(envs.single_action_space.n, 4).to(device)
    opt = torch.optim.Adam(agent.parameters(), lr=args.lr, eps=1e-5)

    shape = envs.single_observation_space.shape
    obs_buf = torch.zeros((t_max, n) + shape, dtype=torch.uint8, device=device)
    act_buf = torch.zeros((t_max, n), dtype=torch.long, device=device)
    logp_buf = torch.zeros((t_max, n), device=device)
    rew_buf = torch.zeros((t_max, n), device=device)
    done_buf = torch.zeros((t_max, n), device=device)
    val_buf = torch.zeros((t_max, n), device=device)

    obs, _ = envs.reset(seed=args.seed)
    # Observations are views of the emulator's batch: copied into obs_buf at once.
    next_obs = torch.as_tensor(obs, device=device)
    next_done = torch.zeros(n, device=device)
    # Returns of whole games (episodic_life ends an episode at each life lost).
    ret = np.zeros(n)
    finished = []
    steps, start = 0, time.perf_counter()
    print("update,steps,steps_per_s,mean_return,loss", flush=True)
    for update in range(1, args.total_steps // (n * t_max) + 1):
        with rlprof.operation("rollout"):
            for t in range(t_max):
                obs_buf[t] = next_obs
                done_buf[t] = next_done
                with torch.no_grad():
                    action, logp, _, value = agent(next_obs)
                act_buf[t], logp_buf[t], val_buf[t] = action, logp, value
                obs, reward, term, trunc, info = envs.step(action.cpu().numpy())
                ret += reward
                game_over = (term | trunc) & (info["lives"] == 0)
                finished += list(ret[game_over])
                ret[game_over] = 0
                rew_buf[t] = torch.as_tensor(reward, device=device)
                next_obs = torch.as_tensor(obs, device=device)
                next_done = torch.as_tensor(term | trunc, dtype=torch.float32, device=device)
                steps += n
        with rlprof.operation("update"):
            with torch.no_grad():
                next_value = agent(next_obs)[3]
                adv = torch.zeros_like(rew_buf)
                last = torch.zeros(n, device=device)
                for t in reversed(range(t_max)):
                    nv, nd = (next_value, next_done) if t == t_max - 1 else (val_buf[t + 1], done_buf[t + 1])
                    delta = rew_buf[t] + args.gamma * nv * (1 - nd) - val_buf[t]
                    last = delta + args.gamma * args.gae_lambda * (1 - nd) * last
                    adv[t] = last
                returns = adv + val_buf
            b_obs, b_act = obs_buf.reshape((-1,) + shape), act_buf.reshape(-1)
            b_logp, b_adv, b_ret = logp_buf.reshape(-1), adv.reshape(-1), returns.reshape(-1)
            size = n * t_max
            mb = size // args.minibatches
            for _ in range(args.epochs):
                perm = torch.randperm(size, device=device)
                for k in range(0, size, mb):
                    i = perm[k:k + mb]
                    _, logp, ent, value = agent(b_obs[i], b_act[i])
                    ratio = (logp - b_logp[i]).exp()
                    a = b_adv[i]
                    a = (a - a.mean()) / (a.std() + 1e-8)
                    pg = torch.max(-a * ratio, -a * ratio.clamp(1 - args.clip, 1 + args.clip)).mean()
                    loss = pg - args.ent_coef * ent.mean() + args.vf_coef * 0.5 * ((value - b_ret[i]) ** 2).mean()
                    opt.zero_grad()
                    loss.backward()
                    nn.utils.clip_grad_norm_(agent.parameters(), 0.5)
                    opt.step()
        mean = f"{np.mean(finished):.2f}" if finished else ""
        finished = []
        print(f"{update},{steps},{steps / (time.perf_counter() - start):.0f},{mean},{loss.item():.4f}",
              flush=True)
    envs.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
