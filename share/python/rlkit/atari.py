"""The Atari 2600 emulator as a Gymnasium vector environment.

    import gymnasium as gym
    import rlkit.atari

    envs = rlkit.atari.VectorEnv("pong", num_envs=8)
    obs, infos = envs.reset(seed=0)
    obs, rewards, terminations, truncations, infos = envs.step(envs.action_space.sample())

    envs = gym.make_vec("rlkit/Pong-v5", num_envs=8)      # the same, registered

Environments are stepped by worker threads in C, one call per batch.  The
semantics are ALE's (see cule-bench(1) and rlkit-atari(3)): with
frameskip=1, repeat_action_probability=0 and noop_max=0 every screen,
reward, termination and lives value equals ale-py's ALEInterface after
loadROM and reset_game.

Observations are NumPy arrays over the C batch's memory, not copies: an
observation array stays valid until the next call of step() or recv()
after the one that returned it.  Pass copy=True for arrays of your own.

Asynchronous stepping, as EnvPool does it: with batch_size < num_envs,
send(actions, env_ids) hands actions to the workers and returns at once;
recv() returns the first batch_size environments that finished (infos
["env_id"] says which), so that inference overlaps emulation.

Autoreset follows Gymnasium 1.x (metadata["autoreset_mode"]): with
"NextStep" (the default) the step after the one that ended an episode
ignores its action and returns the first observation of the next one
(reward 0, not terminated); with autoreset_mode="SameStep" the new
episode starts in the same step and infos["final_obs"] holds the last
observation of the ended one (where infos["_final_obs"] is True).
"""

import re
from pathlib import Path

import numpy as np
import gymnasium as gym
from gymnasium import spaces
from gymnasium.vector import AutoresetMode

from rlkit import _atari

__all__ = ["VectorEnv", "ale_seed", "games", "rom_path", "ACTION_NAMES"]

ACTION_NAMES = ("NOOP", "FIRE", "UP", "RIGHT", "LEFT", "DOWN", "UPRIGHT", "UPLEFT",
                "DOWNRIGHT", "DOWNLEFT", "UPFIRE", "RIGHTFIRE", "LEFTFIRE", "DOWNFIRE",
                "UPRIGHTFIRE", "UPLEFTFIRE", "DOWNRIGHTFIRE", "DOWNLEFTFIRE")

_OBS_TYPES = {"grayscale": _atari.OBS_GRAY, "rgb": _atari.OBS_RGB, "ram": _atari.OBS_RAM}


def games():
    """The supported games: [(name, title, md5, verified, reference)],
    verified 1 when the parity test with the game's reference passes, 0 not
    yet, -1 without a reference; reference "ale-py" (ALE), or
    "multi-agent-ale-py" (multi-agent ALE, for the two-player games ale-py
    refuses: player A's view, the others idle), or "none"."""
    return _atari.games()


def _snake(name):
    """'SpaceInvaders' or 'space_invaders' -> 'space_invaders'."""
    if "_" in name or name.islower():
        return name.lower()
    return re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower()


def _camel(name):
    return "".join(part.capitalize() for part in name.split("_"))


def _homebrew_rom(name):
    """The project's own ROMs: installed next to the package, or in the build."""
    here = Path(__file__).resolve().parent
    for d in (here.parents[1] / "roms", here.parents[2] / "roms"):
        if (d / f"{name}.bin").is_file():
            return str(d / f"{name}.bin")
    return None


def rom_path(game):
    """The ROM file of a game: the project's own ROMs ("catch"), else an
    ale-py game name ("pong") from ale_py.roms."""
    own = _homebrew_rom(_snake(game))
    if own is not None:
        return own
    try:
        import ale_py.roms
    except ImportError:
        raise ImportError(f"game '{game}': finding its ROM needs the ale-py package "
                          "(pip install ale-py), or pass rom= a ROM file") from None
    try:
        path = ale_py.roms.get_rom_path(_snake(game))
    except Exception as e:
        raise ValueError(f"game '{game}': no ROM in ale-py ({e})") from None
    if path is None:
        raise ValueError(f"game '{game}': ale-py has no ROM of that name")
    return str(path)


def ale_seed(seed):
    """The random_seed that ale-py's AtariEnv gives ALE for reset(seed=seed):
    the second word of numpy's SeedSequence(seed), as a uint32."""
    return int(np.random.SeedSequence(int(seed)).generate_state(n_words=2)[1])


class VectorEnv(gym.vector.VectorEnv):
    """num_envs emulators stepped together by C worker threads.

    game: an ale-py ROM name ("pong", "SpaceInvaders"); its ROM file comes
        from ale_py.roms unless rom= names a file (game may then be None:
        the game is found by the ROM's MD5).
    frameskip, repeat_action_probability, noop_max, episodic_life,
    full_action_space, difficulty: as in ALE (v5 defaults); noop starts
        are 1 to noop_max NOOP frames, as EnvPool and Gymnasium's
        AtariPreprocessing make them.
    obs_type: "grayscale", "rgb" or "ram".
    resize: (84, 84) (area averaging over the whole screen, to the bit as
        OpenCV's INTER_AREA, which AtariPreprocessing and EnvPool use) or
        None for the whole screen: as many rows as ALE's getScreenDims
        gives the game (210 for most, 250 for PAL games, 214 for Carnival,
        220 for Pooyan, 230 for Journey Escape), 160 pixels wide.
    maxpool: the pixel-wise maximum of the last two frames of a step (a
        reset, and a step of one frame, show their last frame alone): with
        noop_max=0 and no sticky actions every observation equals
        Gymnasium's AtariPreprocessing's, but where the game ends before a
        step's last two frames (there, the frame that ended it).
    frame_stack: observations of the last frame_stack steps, stacked on
        axis 1 (omitted when 1).
    max_episode_steps: the cap on emulated frames per episode, ALE's
        max_num_frames_per_episode (0: none); episodes it ends are
        truncated.
    mode: the game mode (None: the default one).
    threads: worker threads (None: one per CPU).
    batch_size: environments per recv() (None: num_envs).
    backend: "cpu" or "cuda" (torch tensors on the device through DLPack).
    seed: the seed of the first reset.  With reset(seed=s), environment i
        draws sticky actions as ale-py's AtariEnv after reset(seed=s + i)
        (Gymnasium's vector seeding; ALE's random_seed is ale_seed(s + i));
        without one, the first reset uses ALE random_seed i.
    copy: step() and recv() return arrays of their own.
    autoreset_mode: "NextStep" or "SameStep".
    """

    def __init__(self, game=None, num_envs=1, *, rom=None, frameskip=4,
                 repeat_action_probability=0.25, obs_type="grayscale", resize=(84, 84),
                 maxpool=True, frame_stack=1, noop_max=30, episodic_life=False,
                 full_action_space=False, max_episode_steps=108000, mode=None,
                 difficulty=None, threads=None, batch_size=None, backend="cpu", seed=None,
                 copy=False, autoreset_mode=AutoresetMode.NEXT_STEP, render_mode=None):
        if game is None and rom is None:
            raise ValueError("VectorEnv needs a game name or rom= a ROM file")
        if obs_type not in _OBS_TYPES:
            raise ValueError(f"obs_type must be 'grayscale', 'rgb' or 'ram', not {obs_type!r}")
        if resize is not None and tuple(resize) != (84, 84):
            raise ValueError(f"resize must be (84, 84) or None, not {resize!r}")
        if backend not in ("cpu", "cuda"):
            raise ValueError(f"backend must be 'cpu' or 'cuda', not {backend!r}")
        autoreset_mode = AutoresetMode(autoreset_mode)
        if autoreset_mode == AutoresetMode.DISABLED:
            raise ValueError("autoreset_mode must be NextStep or SameStep")
        self._device = None
        if backend == "cuda":
            from rlkit import _dlpack
            self._device = _dlpack.cuda_device()  # raises, naming what is missing
        path = rom if rom is not None else rom_path(game)
        self._c = _atari.Vec(
            rom=str(path), game=_snake(game) if game is not None else None,
            num_envs=int(num_envs), batch_size=int(batch_size or 0),
            threads=int(threads or 0), frame_stack=int(frame_stack),
            same_step=autoreset_mode == AutoresetMode.SAME_STEP,
            full_action_space=bool(full_action_space), frameskip=int(frameskip),
            repeat_action_probability=float(repeat_action_probability),
            max_frames=int(max_episode_steps or 0), noop_max=int(noop_max),
            episodic_life=int(bool(episodic_life)), maxpool=bool(maxpool),
            obs=_OBS_TYPES[obs_type], resize=int(resize is not None and obs_type != "ram"),
            difficulty=int(difficulty or 0), seed=int(seed or 0) & (2**64 - 1),
            mode=-1 if mode is None else int(mode))
        lay = self._c.layout()
        self._layout = lay
        self.game = lay["game"]
        self.num_envs = int(num_envs)
        self.batch_size = lay["batch_size"]
        self._copy = copy
        self._seed = seed
        self._started = False
        self._pending = 0
        self.action_set = lay["actions"]
        self.metadata = {"autoreset_mode": autoreset_mode, "render_modes": []}
        self.render_mode = render_mode

        if obs_type == "ram":
            frame = (128,)
        else:
            frame = (84, 84) if resize is not None else (lay["height"], 160)
            if obs_type == "rgb":
                frame = frame + (3,)
        shape = frame if frame_stack == 1 else (int(frame_stack),) + frame
        self.single_observation_space = spaces.Box(0, 255, shape, np.uint8)
        self.single_action_space = spaces.Discrete(len(self.action_set))
        self.observation_space = spaces.Box(0, 255, (self.num_envs,) + shape, np.uint8)
        self.action_space = spaces.MultiDiscrete(np.full(self.num_envs, len(self.action_set)))
        self._batches = [self._views(r, shape) for r in range(lay["rings"])]
        self._all_ids = np.arange(self.num_envs, dtype=np.int32)
        self._reset_actions = np.full(self.num_envs, _atari.RESET, np.int32)
        self._reload_actions = np.full(self.num_envs, _atari.RELOAD, np.int32)

    def _views(self, r, shape):
        """NumPy arrays over batch r of the C arena (they keep it alive)."""
        lay, bs = self._layout, self._layout["batch_size"]
        arena = np.frombuffer(self._c, np.uint8)
        base = r * lay["batch_bytes"]

        def view(name, dtype, count, item_shape=()):
            size = np.dtype(dtype).itemsize * count * int(np.prod(item_shape, dtype=np.int64))
            return arena[base + lay[name]:base + lay[name] + size].view(dtype).reshape(
                (count,) + tuple(item_shape))

        mask = np.ones(bs, bool)
        return {
            "obs": view("obs", np.uint8, bs, shape),
            "final_obs": view("final_obs", np.uint8, bs, shape)
            if self.metadata["autoreset_mode"] == AutoresetMode.SAME_STEP else None,
            "reward": view("reward", np.float32, bs),
            "terminated": view("terminated", np.bool_, bs),
            "truncated": view("truncated", np.bool_, bs),
            "lives": view("lives", np.int32, bs),
            "episode_frame_number": view("episode_frame_number", np.int32, bs),
            "frame_number": view("frame_number", np.int32, bs),
            "env_id": view("env_id", np.int32, bs),
            "mask": mask,
        }

    def _power_on(self, seed):
        # Environment i draws as ale-py's AtariEnv after reset(seed=seed + i),
        # Gymnasium's vector seeding; without a seed, ALE's random_seed i.
        if seed is None:
            self._c.seed(0)
        else:
            seeds = [ale_seed(seed + i) for i in range(self.num_envs)]
            self._c.seed_each(np.array(seeds, dtype=np.uint32).tobytes())

    # Gymnasium's VectorEnv interface.

    def reset(self, *, seed=None, options=None):
        """Start a new episode in every environment.  With a seed (or at the
        first reset) the consoles are powered on again from it, as ALE's
        loadROM does; otherwise a new episode starts (ALE's reset_game).
        Returns (obs, infos) of all num_envs environments, in order."""
        self._drain()
        if seed is None and not self._started:
            seed = self._seed
        if seed is not None or not self._started:
            self._power_on(seed)
            actions = self._reload_actions
        else:
            actions = self._reset_actions
        self._started = True
        obs, infos = self._gather(actions)
        return obs, infos

    def step(self, actions):
        """Step every environment; returns (obs, rewards, terminations,
        truncations, infos), each indexed by environment."""
        if not self._started:
            raise RuntimeError("step() before reset()")
        self._drain()
        actions = np.ascontiguousarray(actions, dtype=np.int32)
        if actions.shape != (self.num_envs,):
            raise ValueError(f"step() needs {self.num_envs} actions, not shape {actions.shape}")
        obs, infos = self._gather(actions)
        b = self._last
        return (obs, self._out(b["reward"]), self._out(b["terminated"]),
                self._out(b["truncated"]), infos)

    def _gather(self, actions):
        """Send actions to every environment and collect them in order."""
        bs = self.batch_size
        if bs == self.num_envs:
            self._last = b = self._batches[self._c.step(actions)]
            return self._result(b)
        # Smaller batches: collect all environments into arrays by id.
        if self.num_envs % bs:
            raise ValueError(f"step() needs num_envs ({self.num_envs}) to be a multiple of "
                             f"batch_size ({bs}); use send() and recv()")
        self._c.send(actions, self._all_ids)
        parts = []
        for _ in range(self.num_envs // bs):
            b = self._batches[self._c.recv()]
            parts.append({k: (v.copy() if isinstance(v, np.ndarray) else v) for k, v in b.items()})
        order = np.argsort(np.concatenate([p["env_id"] for p in parts]), kind="stable")
        merged = {k: np.concatenate([p[k] for p in parts])[order] for k in parts[0]
                  if parts[0][k] is not None}
        merged.setdefault("final_obs", None)
        self._last = merged
        return merged["obs"], self._infos(merged)

    def _result(self, b):
        return self._out(b["obs"]), self._infos(b)

    def _out(self, a):
        if self._device is not None:
            from rlkit import _dlpack
            return _dlpack.to_device(a, self._device)
        return a.copy() if self._copy else a

    def _infos(self, b):
        infos = {}
        for k in ("lives", "episode_frame_number", "frame_number", "env_id"):
            infos[k] = self._out(b[k])
            infos["_" + k] = b["mask"]
        if b["final_obs"] is not None:
            done = b["terminated"] | b["truncated"]
            if done.any():
                infos["final_obs"] = b["final_obs"].copy()
                infos["_final_obs"] = done.copy()
        return infos

    # EnvPool's asynchronous interface.

    def send(self, actions, env_ids=None):
        """Hand actions[k] to environment env_ids[k] (default: all, in order)
        and return at once.  An environment may be sent again only after a
        recv() returned it."""
        if not self._started:
            raise RuntimeError("send() before reset()")
        actions = np.ascontiguousarray(actions, dtype=np.int32)
        ids = self._all_ids if env_ids is None else np.ascontiguousarray(env_ids, dtype=np.int32)
        self._c.send(actions, ids)
        self._pending += len(ids)

    def recv(self):
        """Wait for the first batch_size environments that are done; returns
        (obs, rewards, terminations, truncations, infos), with
        infos["env_id"] naming the environment of each row."""
        b = self._batches[self._c.recv()]
        self._pending -= self.batch_size
        obs, infos = self._result(b)
        return (obs, self._out(b["reward"]), self._out(b["terminated"]),
                self._out(b["truncated"]), infos)

    def async_reset(self):
        """Start a new episode in every environment (powered on from the seed
        at the first reset); collect them with recv()."""
        self._drain()
        if not self._started:
            self._power_on(self._seed)
            actions = self._reload_actions
        else:
            actions = self._reset_actions
        self._started = True
        self._c.send(actions, self._all_ids)
        self._pending += self.num_envs

    def _drain(self):
        """Collect what send() left in flight (before a synchronous call)."""
        while self._pending >= self.batch_size:
            self._c.recv()
            self._pending -= self.batch_size
        if self._pending:
            raise RuntimeError(f"{self._pending} environments sent and not received: "
                               "send() them in batches of batch_size")

    def close_extras(self, **kwargs):
        self._c.close()

    def get_action_meanings(self):
        return [ACTION_NAMES[a] for a in self.action_set]


def _register():
    for name, _title, _md5, _verified, _reference in _atari.games():
        env_id = f"rlkit/{_camel(name)}-v5"
        if env_id not in gym.registry:
            gym.register(id=env_id, vector_entry_point="rlkit.atari:VectorEnv",
                         kwargs={"game": name})


_register()
