"""rlkit.atari.VectorEnv: spaces, zero-copy batches, autoreset, send/recv,
errors.  The games are pong (ROM from ale-py) and catch (the project's own)."""
import gc

import gymnasium as gym
import numpy as np
import pytest

import rlkit.atari as ra
from rlkit.atari import VectorEnv


def run(env, steps, seed=0):
    """Rollout with fixed random actions; returns every output stacked."""
    rng = np.random.default_rng(seed)
    obs, info = env.reset(seed=seed)
    out = {"obs": [obs.copy()], "reward": [], "term": [], "trunc": [], "lives": [],
           "frame": []}
    for _ in range(steps):
        a = rng.integers(0, env.single_action_space.n, env.num_envs)
        obs, r, term, trunc, info = env.step(a)
        out["obs"].append(obs.copy())
        out["reward"].append(r.copy())
        out["term"].append(term.copy())
        out["trunc"].append(trunc.copy())
        out["lives"].append(info["lives"].copy())
        out["frame"].append(info["episode_frame_number"].copy())
    return {k: np.stack(v) for k, v in out.items()}


@pytest.mark.parametrize("kw,shape", [
    ({}, (84, 84)),
    ({"obs_type": "rgb"}, (84, 84, 3)),
    ({"obs_type": "rgb", "resize": None}, (210, 160, 3)),
    ({"resize": None}, (210, 160)),
    ({"obs_type": "ram"}, (128,)),
    ({"frame_stack": 4}, (4, 84, 84)),
])
def test_spaces_and_shapes(kw, shape):
    env = VectorEnv("pong", 3, **kw)
    assert env.single_observation_space.shape == shape
    assert env.observation_space.shape == (3,) + shape
    assert env.single_action_space == gym.spaces.Discrete(6)
    obs, info = env.reset(seed=1)
    assert obs.shape == (3,) + shape and obs.dtype == np.uint8
    assert env.observation_space.contains(obs)
    obs, r, term, trunc, info = env.step(np.zeros(3, np.int64))
    assert obs.shape == (3,) + shape
    assert r.dtype == np.float32 and term.dtype == np.bool_ and trunc.dtype == np.bool_
    assert set(info) >= {"lives", "_lives", "episode_frame_number", "env_id"}
    assert list(info["env_id"]) == [0, 1, 2]


def test_frames_move_and_stack_shifts():
    env = VectorEnv("pong", 2, frame_stack=4, noop_max=0)
    obs, _ = env.reset(seed=0)
    assert all((obs[:, 0] == obs[:, k]).all() for k in range(4))  # reset fills the stack
    prev = obs.copy()
    for _ in range(20):
        obs, *_ = env.step(np.zeros(2, int))
    prev = obs.copy()
    obs, *_ = env.step(np.zeros(2, int))
    assert (obs[:, :3] == prev[:, 1:]).all()
    assert not (obs == prev).all()


def test_full_action_space_and_meanings():
    env = VectorEnv("pong", 1, full_action_space=True)
    assert env.single_action_space.n == 18
    assert VectorEnv("pong", 1).get_action_meanings() == \
        ["NOOP", "FIRE", "RIGHT", "LEFT", "RIGHTFIRE", "LEFTFIRE"]


def test_seeded_runs_repeat_and_threads_do_not_matter():
    a = run(VectorEnv("pong", 4, threads=1), 60, seed=5)
    b = run(VectorEnv("pong", 4, threads=2), 60, seed=5)
    for k in a:
        assert np.array_equal(a[k], b[k]), k
    c = run(VectorEnv("pong", 4, threads=2), 60, seed=6)
    assert not np.array_equal(a["obs"], c["obs"])


def test_reset_without_seed_starts_a_new_episode():
    env = VectorEnv("pong", 2, noop_max=0, repeat_action_probability=0)
    env.reset(seed=3)
    for _ in range(30):
        env.step(np.ones(2, int))
    obs, info = env.reset()
    assert (info["episode_frame_number"] == info["episode_frame_number"][0]).all()
    assert (info["frame_number"] > info["episode_frame_number"]).all()


def test_observations_are_views_of_the_batch_and_copy_gives_own_arrays():
    env = VectorEnv("pong", 2)
    obs0, _ = env.reset(seed=0)
    obs1, *_ = env.step(np.zeros(2, int))
    obs2, *_ = env.step(np.zeros(2, int))
    assert not np.shares_memory(obs0, obs1)
    assert np.shares_memory(obs0, obs2)      # the batches are reused in turn
    assert not obs2.flags.owndata
    env2 = VectorEnv("pong", 2, copy=True)
    a, _ = env2.reset(seed=0)
    b, *_ = env2.step(np.zeros(2, int))
    c, *_ = env2.step(np.zeros(2, int))
    assert not np.shares_memory(a, c) and a.flags.owndata


def test_close_stops_the_workers():
    env = VectorEnv("pong", 4, threads=4)
    env.reset(seed=0)
    env.close()
    with pytest.raises(RuntimeError, match="closed"):
        env.step(np.zeros(4, int))


def test_arrays_outlive_the_environment():
    env = VectorEnv("pong", 2)
    obs, _ = env.reset(seed=0)
    want = obs.copy()
    env.close()
    del env
    gc.collect()
    assert np.array_equal(obs, want)


def test_next_step_autoreset_after_truncation():
    env = VectorEnv("pong", 2, max_episode_steps=40, frameskip=4, noop_max=0)
    obs, info = env.reset(seed=0)
    start = info["episode_frame_number"].copy()
    steps = 0
    while True:
        obs, r, term, trunc, info = env.step(np.zeros(2, int))
        steps += 1
        if trunc.any():
            break
        assert steps < 20
    assert trunc.all() and not term.any()
    assert (info["episode_frame_number"] == 40).all()
    obs, r, term, trunc, info = env.step(np.ones(2, int))  # ignored: a new episode
    assert (r == 0).all() and not term.any() and not trunc.any()
    assert np.array_equal(info["episode_frame_number"], start)


def test_same_step_autoreset_keeps_the_final_observation():
    env = VectorEnv("pong", 2, max_episode_steps=40, frameskip=4, noop_max=0,
                    autoreset_mode="SameStep")
    assert env.metadata["autoreset_mode"] == gym.vector.AutoresetMode.SAME_STEP
    env.reset(seed=0)
    for _ in range(9):
        obs, r, term, trunc, info = env.step(np.zeros(2, int))
        assert "final_obs" not in info
    last = obs.copy()
    obs, r, term, trunc, info = env.step(np.zeros(2, int))
    assert trunc.all() and info["_final_obs"].all()
    assert info["final_obs"].shape == obs.shape
    assert not np.array_equal(info["final_obs"], obs)
    assert (info["episode_frame_number"] < 40).all()
    # The final observation continues the episode: close to the step before.
    assert np.abs(info["final_obs"].astype(int) - last).mean() < \
        np.abs(obs.astype(int) - last).mean() + 1


def test_send_recv_gives_batches_in_finishing_order_with_ids():
    n, bs = 6, 2
    env = VectorEnv("pong", n, batch_size=bs, threads=2)
    env.async_reset()
    seen = []
    for _ in range(n // bs):
        obs, r, term, trunc, info = env.recv()
        assert obs.shape == (bs, 84, 84)
        seen += list(info["env_id"])
    assert sorted(seen) == list(range(n))
    # Overlapped: keep sending what came back.
    for _ in range(30):
        env.send(np.zeros(bs, int), info["env_id"])
        obs, r, term, trunc, info = env.recv()
        assert len(set(info["env_id"])) == bs


def test_async_results_equal_synchronous_ones():
    """Each environment is deterministic: how it was batched changes nothing."""
    sync = run(VectorEnv("pong", 4, threads=2), 25, seed=9)
    env = VectorEnv("pong", 4, batch_size=2, threads=2)
    env.reset(seed=9)
    rng = np.random.default_rng(9)
    for t in range(25):
        a = rng.integers(0, 6, 4)
        obs, r, term, trunc, info = env.step(a)   # two recv() per step inside
        assert np.array_equal(obs, sync["obs"][t + 1])
        assert np.array_equal(r, sync["reward"][t])


def test_send_errors():
    env = VectorEnv("pong", 4, batch_size=2)
    env.async_reset()
    with pytest.raises(ValueError, match="was sent and not yet received"):
        env.send(np.zeros(1, int), [0])
    env.recv()
    env.recv()
    with pytest.raises(ValueError, match="recv needs 2 environments sent, not 0"):
        env.recv()
    with pytest.raises(ValueError, match="action 6 out of range"):
        env.send([6, 0], [0, 1])
    with pytest.raises(ValueError, match="environment id 9 out of range"):
        env.send([0], [9])


@pytest.mark.parametrize("kw,err,msg", [
    ({"game": "no_such_game"}, ValueError, "no_such_game"),
    ({"game": None, "rom": "/nonexistent/x.bin"}, OSError, "x.bin"),
    ({"obs_type": "depth"}, ValueError, "obs_type"),
    ({"resize": (64, 64)}, ValueError, "resize"),
    ({"frame_stack": 0}, ValueError, "frame_stack"),
    ({"frameskip": 0}, ValueError, "frameskip"),
    ({"num_envs": 0}, ValueError, "num_envs"),
    ({"batch_size": 9}, ValueError, "batch_size"),
    ({"difficulty": 7}, ValueError, "difficulty"),
    ({"backend": "tpu"}, ValueError, "backend"),
])
def test_bad_arguments(kw, err, msg):
    args = {"game": "pong", "num_envs": 2}
    args.update(kw)
    with pytest.raises(err, match=msg):
        VectorEnv(**args)


def test_rom_of_another_game_is_refused():
    with pytest.raises(ValueError, match="is not the ROM of game 'breakout'"):
        VectorEnv("breakout", 1, rom=ra.rom_path("pong"))


def test_mode_and_difficulty_as_ale_lists_them():
    # Pong's modes are 0 and 1; an invalid one is refused naming the valid.
    with pytest.raises(ValueError, match=r"no mode 5 \(valid: 0 or 1\)"):
        VectorEnv("pong", 1, mode=5)
    with pytest.raises(ValueError, match="no difficulty 7"):
        VectorEnv("pong", 1, difficulty=7)
    # Mode 1 through the package equals ALE's setMode(1) + reset_game.
    ale_py = pytest.importorskip("ale_py")
    ale = ale_py.ALEInterface()
    ale.setInt("random_seed", 0)
    ale.setFloat("repeat_action_probability", 0.0)
    ale.setLoggerMode(ale_py.LoggerMode.Error)
    ale.loadROM(ale_py.roms.get_rom_path("pong"))
    ale.setMode(1)
    ale.reset_game()
    env = VectorEnv("pong", 1, mode=1, frameskip=1, repeat_action_probability=0.0,
                    noop_max=0, obs_type="ram", seed=0)
    obs, _ = env.reset(seed=0)
    assert np.array_equal(obs[0], ale.getRAM())
    for t in range(200):
        obs, *_ = env.step(np.full(1, t % 3, dtype=np.int64))
        ale.act(ale_py.Action(int(env.action_set[t % 3])))
        assert np.array_equal(obs[0], ale.getRAM()), t
    env.close()


def test_difficulty_changes_the_game():
    a = run(VectorEnv("pong", 1, difficulty=0, noop_max=0), 200, seed=2)
    b = run(VectorEnv("pong", 1, difficulty=3, noop_max=0), 200, seed=2)
    assert not np.array_equal(a["obs"], b["obs"])


def test_step_before_reset():
    with pytest.raises(RuntimeError, match="before reset"):
        VectorEnv("pong", 1).step([0])


def test_make_vec_and_registry():
    env = gym.make_vec("rlkit/Pong-v5", num_envs=3, frame_stack=2)
    assert isinstance(env.unwrapped, VectorEnv) and env.num_envs == 3
    obs, _ = env.reset(seed=0)
    assert obs.shape == (3, 2, 84, 84)
    assert "rlkit/SpaceInvaders-v5" in gym.registry and "rlkit/Catch-v5" in gym.registry


def test_homebrew_rom_is_found_and_rewards_arrive():
    env = VectorEnv("catch", 8, noop_max=0)
    r = run(env, 300, seed=1)
    assert r["reward"].any()
    assert r["term"].any() or (r["lives"] < r["lives"][0]).any()


def test_cuda_backend_names_what_is_missing():
    try:
        import torch
        have_gpu = torch.cuda.is_available()
    except ImportError:
        have_gpu = False
    if have_gpu:
        env = VectorEnv("pong", 2, backend="cuda")
        obs, info = env.reset(seed=0)
        assert obs.device.type == "cuda" and tuple(obs.shape) == (2, 84, 84)
        ref, _ = VectorEnv("pong", 2).reset(seed=0)
        assert np.array_equal(obs.cpu().numpy(), ref)
    else:
        with pytest.raises(RuntimeError, match="backend='cuda' needs (PyTorch|a CUDA device)"):
            VectorEnv("pong", 2, backend="cuda")
