"""Stable-Baselines3 over rlkit.atari: a VecEnv of SB3's kind.

    from stable_baselines3 import PPO
    from rlkit.sb3 import AtariVecEnv

    env = AtariVecEnv("pong", num_envs=8, frame_stack=4)
    PPO("CnnPolicy", env).learn(100_000)

Every keyword of rlkit.atari.VectorEnv is accepted.  SB3's conventions:
the environments reset in the step that ends an episode (the observation
returned is the new episode's first; infos[i]["terminal_observation"] is
the last one of the ended episode), dones = terminated or truncated, and
infos[i]["TimeLimit.truncated"] says an episode was cut by the frame cap
rather than ended.  Observations are copies (SB3 keeps the last one
across a step).  infos[i]["episode"] = {"r": return, "l": length} at the
end of each episode, as SB3's Monitor writes it.
"""
import numpy as np
from stable_baselines3.common.vec_env.base_vec_env import VecEnv

from rlkit.atari import VectorEnv


class AtariVecEnv(VecEnv):
    def __init__(self, game=None, num_envs=1, **kwargs):
        kwargs["autoreset_mode"] = "SameStep"
        kwargs["copy"] = True
        self.envs = VectorEnv(game, num_envs, **kwargs)
        super().__init__(num_envs, self.envs.single_observation_space,
                         self.envs.single_action_space)
        self._actions = None
        self._seed = kwargs.get("seed")
        self._returns = np.zeros(num_envs)
        self._lengths = np.zeros(num_envs, np.int64)

    def reset(self):
        obs, info = self.envs.reset(seed=self._seed)
        self._seed = None
        self._returns[:] = 0
        self._lengths[:] = 0
        self.reset_infos = [{"lives": int(info["lives"][i])} for i in range(self.num_envs)]
        return obs

    def step_async(self, actions):
        self._actions = actions

    def step_wait(self):
        obs, rewards, term, trunc, info = self.envs.step(self._actions)
        dones = term | trunc
        self._returns += rewards
        self._lengths += 1
        infos = [{"lives": int(info["lives"][i])} for i in range(self.num_envs)]
        for i in np.flatnonzero(dones):
            infos[i]["terminal_observation"] = info["final_obs"][i]
            infos[i]["TimeLimit.truncated"] = bool(trunc[i] and not term[i])
            infos[i]["episode"] = {"r": float(self._returns[i]), "l": int(self._lengths[i])}
            self._returns[i] = 0
            self._lengths[i] = 0
        return obs, rewards.astype(np.float32), dones, infos

    def seed(self, seed=None):
        self._seed = seed
        return [seed] * self.num_envs

    def close(self):
        self.envs.close()

    def get_images(self):
        raise NotImplementedError("rlkit.atari renders no images")

    def get_attr(self, attr_name, indices=None):
        return [getattr(self.envs, attr_name)] * len(self._indices(indices))

    def set_attr(self, attr_name, value, indices=None):
        setattr(self.envs, attr_name, value)

    def env_method(self, method_name, *args, indices=None, **kwargs):
        result = getattr(self.envs, method_name)(*args, **kwargs)
        return [result] * len(self._indices(indices))

    def env_is_wrapped(self, wrapper_class, indices=None):
        return [False] * len(self._indices(indices))

    def _indices(self, indices):
        if indices is None:
            return range(self.num_envs)
        return [indices] if isinstance(indices, int) else list(indices)
