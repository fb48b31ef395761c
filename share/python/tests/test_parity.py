"""Parity with ALE through the Python API: with frameskip 1, no sticky
actions and no noop starts, every RGB screen, reward, termination and lives
value of rlkit.atari equals ale-py's ALEInterface after loadROM and
reset_game, for the games the C parity suite verifies (tests/31), over
fewer frames each."""
import numpy as np
import pytest

ale_py = pytest.importorskip("ale_py")
cv2 = pytest.importorskip("cv2")

import rlkit.atari as ra

FRAMES = 600


def ale_random_seed(seed):
    """ALE's random_seed (an int32) as ale-py's AtariEnv sets it for
    reset(seed=seed)."""
    return int(np.uint32(ra.ale_seed(seed)).astype(np.int32))

GAMES = [name for name, _title, _md5, verified, reference in ra.games()
         if verified == 1 and reference == "ale-py"]


def as_gymnasium_drives(ale, game, mode, seed):
    """ale (either ALE) loaded with game as Gymnasium drives it: ALE's frame
    skip 1, sticky actions 0.25, the mode set, reset_game after loadROM."""
    ale.setInt("random_seed", ale_random_seed(seed))
    ale.setFloat("repeat_action_probability", 0.25)
    ale.setInt("frame_skip", 1)
    ale.loadROM(ra.rom_path(game))
    if mode is not None:
        ale.setMode(mode)
    ale.reset_game()
    return ale


def ale_v5_id(game):
    """Gymnasium's id of ale-py's v5 environment of game ("ALE/MsPacman-v5")."""
    return "ALE/" + "".join(w.capitalize() for w in game.split("_")) + "-v5"


def test_the_verified_games_are_many():
    assert len(GAMES) >= 30


@pytest.mark.parametrize("game", GAMES)
def test_identical_to_ale(game):
    path = ra.rom_path(game)
    ale_py.ALEInterface.setLoggerMode(ale_py.LoggerMode.Error)
    ale = ale_py.ALEInterface()
    ale.setInt("random_seed", 7)
    ale.setFloat("repeat_action_probability", 0.0)
    ale.setInt("frame_skip", 1)
    ale.loadROM(path)
    ale.reset_game()
    observe = ale.getScreenRGB
    env = ra.VectorEnv(game, 1, frameskip=1, repeat_action_probability=0.0,
                       obs_type="rgb", resize=None, maxpool=False,
                       noop_max=0, max_episode_steps=0, threads=1)
    assert list(env.action_set) == [int(a.value) for a in ale.getMinimalActionSet()]
    actions = list(ale_py.Action)
    obs, info = env.reset(seed=7)
    assert np.array_equal(obs[0], observe()), "screen after reset"
    assert info["lives"][0] == ale.lives(), "lives after reset"
    rng = np.random.default_rng(7)
    choice = rng.integers(0, len(env.action_set), FRAMES)
    for t in range(FRAMES):
        a = int(choice[t])
        if ale.game_over():
            ale.reset_game()
            reward = 0
        else:
            reward = ale.act(actions[env.action_set[a]])
        obs, r, term, trunc, info = env.step(np.array([a]))
        where = f"frame {t + 1}"
        assert r[0] == reward, where + ": reward"
        assert bool(term[0]) == ale.game_over(), where + ": termination"
        assert not trunc[0], where + ": truncation"
        assert info["lives"][0] == ale.lives(), where + ": lives"
        assert np.array_equal(obs[0], observe()), where + ": screen"


# ALE's screen is 250 rows in PAL games (Air Raid, Pac-Man: with colour
# loss), 214 in Carnival, 230 in Journey Escape, 220 in Pooyan.
TALL = [("air_raid", 250), ("pacman", 250), ("carnival", 214), ("journey_escape", 230),
        ("pooyan", 220)]


@pytest.mark.parametrize("game,height", TALL)
@pytest.mark.parametrize("frameskip", [1, 4])
def test_tall_screens_are_observed_whole(game, height, frameskip):
    ale_py.ALEInterface.setLoggerMode(ale_py.LoggerMode.Error)
    ale = ale_py.ALEInterface()
    ale.setInt("random_seed", ale_random_seed(5))
    ale.setFloat("repeat_action_probability", 0.25)
    ale.setInt("frame_skip", 1)
    ale.loadROM(ra.rom_path(game))
    ale.reset_game()
    assert ale.getScreenRGB().shape == (height, 160, 3)
    kw = dict(frameskip=frameskip, repeat_action_probability=0.25, maxpool=False, noop_max=0,
              max_episode_steps=0, threads=1)
    envs = [ra.VectorEnv(game, 1, obs_type="rgb", resize=None, **kw),
            ra.VectorEnv(game, 1, obs_type="grayscale", resize=None, **kw),
            ra.VectorEnv(game, 1, obs_type="grayscale", resize=(84, 84), **kw)]
    assert envs[0].single_observation_space.shape == (height, 160, 3)
    assert envs[1].single_observation_space.shape == (height, 160)
    assert envs[2].single_observation_space.shape == (84, 84)
    obs = [e.reset(seed=5)[0][0] for e in envs]
    actions = list(ale_py.Action)
    choice = np.random.default_rng(5).integers(0, len(envs[0].action_set), 60)
    for t in range(len(choice) + 1):
        if t:
            a = int(choice[t - 1])
            for _ in range(frameskip):
                ale.act(actions[envs[0].action_set[a]])
            obs = [e.step(np.array([a]))[0][0] for e in envs]
        gray = ale.getScreenGrayscale()
        assert np.array_equal(obs[0], ale.getScreenRGB()), f"step {t}: RGB"
        assert np.array_equal(obs[1], gray), f"step {t}: grayscale"
        assert np.array_equal(obs[2], cv2.resize(gray, (84, 84), interpolation=cv2.INTER_AREA)), \
            f"step {t}: 84x84"


# Gymnasium's AtariPreprocessing over ALE v5 (frameskip 1 inside, no sticky
# actions, no noop starts): every 84x84 observation, grayscale and RGB,
# max-pooled over a step's last two frames (not at a reset, nor in a step
# of one frame), and every reward and termination.  But for a step that the
# game ends before its last two frames: rlkit.atari shows the frame that
# ended it, AtariPreprocessing the step before's observation again.
PREPROCESSED = [("pong", 4), ("seaquest", 4), ("ms_pacman", 3), ("space_invaders", 1),
                ("air_raid", 4), ("carnival", 2)]


@pytest.mark.parametrize("game,frameskip", PREPROCESSED)
@pytest.mark.parametrize("obs_type", ["grayscale", "rgb"])
def test_as_gymnasium_atari_preprocessing(game, frameskip, obs_type):
    gym = pytest.importorskip("gymnasium")
    gym.register_envs(ale_py)
    ale_py.ALEInterface.setLoggerMode(ale_py.LoggerMode.Error)
    ref = gym.wrappers.AtariPreprocessing(
        gym.make(ale_v5_id(game), frameskip=1, repeat_action_probability=0.0),
        noop_max=0, frame_skip=frameskip, screen_size=84,
        grayscale_obs=obs_type == "grayscale")
    env = ra.VectorEnv(game, 1, frameskip=frameskip, repeat_action_probability=0, noop_max=0,
                       max_episode_steps=0, obs_type=obs_type, threads=1)
    want, _ = ref.reset(seed=3)
    obs, _ = env.reset(seed=3)
    assert np.array_equal(obs[0], want), "after reset"
    choice = np.random.default_rng(3).integers(0, len(env.action_set), 250)
    frame = 0
    for t, a in enumerate(choice):
        want, reward, term, _, info = ref.step(int(a))
        obs, r, te, _, _ = env.step(np.array([a]))
        assert r[0] == reward and bool(te[0]) == term, f"step {t + 1}: reward, termination"
        frames, frame = info["episode_frame_number"] - frame, info["episode_frame_number"]
        if not term or frames >= frameskip - 1:
            assert np.array_equal(obs[0], want), f"step {t + 1}: observation"
        if term:
            break


# Gymnasium keeps ALE's own frame_skip at 1 and calls act() once per frame
# of its frameskip; the reset's mode selection acts one frame at a time
# whatever the frameskip (Double Dunk's menu, Adventure's SELECT presses).
GYM_DRIVEN = [("double_dunk", None), ("adventure", 1), ("adventure", 2), ("frogger", 2),
              ("pong", 1), ("centipede", 86), ("video_checkers", 12), ("space_war", 12),
              ("ms_pacman", 1), ("alien", 2), ("gravitar", 3), ("video_cube", 4902)]


@pytest.mark.parametrize("game,mode", GYM_DRIVEN)
def test_frameskip_4_and_sticky_actions_as_gymnasium_drives_ale(game, mode):
    ale_py.ALEInterface.setLoggerMode(ale_py.LoggerMode.Error)
    ale = as_gymnasium_drives(ale_py.ALEInterface(), game, mode, 5)
    env = ra.VectorEnv(game, 1, frameskip=4, repeat_action_probability=0.25, obs_type="ram",
                       noop_max=0, max_episode_steps=0, threads=1, mode=mode)
    actions = list(ale_py.Action)
    obs, _ = env.reset(seed=5)
    assert np.array_equal(obs[0], ale.getRAM()), "RAM after reset"
    choice = np.random.default_rng(5).integers(0, len(env.action_set), 200)
    for t, a in enumerate(choice):
        reward = sum(ale.act(actions[env.action_set[a]]) for _ in range(4))
        obs, r, term, _, _ = env.step(np.array([a]))
        assert r[0] == reward, f"step {t + 1}: reward"
        assert np.array_equal(obs[0], ale.getRAM()), f"step {t + 1}: RAM"
        if ale.game_over():
            assert term[0], f"step {t + 1}: termination"
            break


@pytest.mark.parametrize("game", ["pong", "breakout", "ms_pacman", "pooyan"])
def test_seeded_like_gymnasium_atari_env(game):
    """With the same reset seed, rlkit.atari's environments equal
    Gymnasium's ALE v5 environments (sticky actions 0.25, frameskip 4),
    each vector index i as AtariEnv reset with seed + i."""
    gym = pytest.importorskip("gymnasium")
    gym.register_envs(ale_py)
    ale_py.ALEInterface.setLoggerMode(ale_py.LoggerMode.Error)
    name = ale_v5_id(game)
    refs = [gym.make(name, obs_type="grayscale") for _ in range(2)]
    ref_obs = [r.reset(seed=11 + i)[0] for i, r in enumerate(refs)]
    env = ra.VectorEnv(game, 2, obs_type="grayscale", resize=None, maxpool=False,
                       noop_max=0, threads=1)
    obs, _ = env.reset(seed=11)
    choice = np.random.default_rng(11).integers(0, len(env.action_set), (150, 2))
    for t in range(len(choice) + 1):
        if t:
            obs, rew, term, _, _ = env.step(choice[t - 1])
        for i, r in enumerate(refs):
            if t:
                ref_obs[i], ref_rew, ref_term, _, _ = r.step(int(choice[t - 1][i]))
                assert rew[i] == ref_rew, f"env {i}, step {t}: reward"
                assert bool(term[i]) == ref_term, f"env {i}, step {t}: termination"
            assert np.array_equal(obs[i], ref_obs[i]), f"env {i}, step {t}: screen"
        if t and term.any():
            break
    assert t > 20


# The two-player games ale-py refuses follow multi-agent ALE (PettingZoo's
# emulator), player A's view with the other players given NOOP: modes of
# one, two and four players, and Maze Craze's PAL colours.
MULTI_AGENT = [("combat", None), ("combat", 20), ("joust", 1), ("maze_craze", 4),
               ("warlords", 1)]


@pytest.mark.parametrize("game,mode", MULTI_AGENT)
def test_two_player_games_as_multi_agent_ale(game, mode):
    ma = pytest.importorskip("multi_agent_ale_py")
    ma.ALEInterface.setLoggerMode(ma.ALEInterface.Logger.Error)
    # ale_random_seed is positive: multi-agent ALE's 0 would be the clock's.
    ale = as_gymnasium_drives(ma.ALEInterface(), game, mode, 4)
    env = ra.VectorEnv(game, 1, frameskip=4, repeat_action_probability=0.25, obs_type="rgb",
                       resize=None, maxpool=False, noop_max=0, max_episode_steps=0,
                       threads=1, mode=mode)
    assert list(env.action_set) == [int(a) for a in ale.getMinimalActionSet()]
    idle = [0] * (ale.numPlayersActive() - 1)
    obs, info = env.reset(seed=4)
    assert np.array_equal(obs[0], ale.getScreenRGB()), "screen after reset"
    choice = np.random.default_rng(4).integers(0, len(env.action_set), 400)
    for t, a in enumerate(choice):
        reward = sum(int(ale.act([int(env.action_set[a])] + idle)[0]) for _ in range(4))
        obs, r, term, _, info = env.step(np.array([a]))
        assert r[0] == reward, f"step {t + 1}: reward"
        assert bool(term[0]) == ale.game_over(), f"step {t + 1}: termination"
        assert info["lives"][0] == ale.allLives()[0], f"step {t + 1}: lives"
        assert np.array_equal(obs[0], ale.getScreenRGB()), f"step {t + 1}: screen"
        if term[0]:
            break
