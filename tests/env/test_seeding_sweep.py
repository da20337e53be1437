"""Seeding and reproducibility of every interface, for both games (docs/interfaces.md,
"Seeding"): what Gymnasium, PettingZoo, SB3 and CleanRL-style code expect.

* Gymnasium: ``reset(seed=s)`` twice gives the same episode (observations, infos, masks,
  rewards; stochastic opponents included); ``reset()`` after it continues the generator
  (new games) and a fresh env replays the sequence; ``env.np_random`` is what draws the seat
  and the game; the spaces' own ``seed``; ``make_vec`` sync and async agree.
* PettingZoo: a rejected seed leaves the wrapped env as it was (it used to look reset).
* VectorEnv and the SB3 VecEnv: distinct games per sub-env, reproducible across two
  constructions and through auto-resets, ``reset()`` continuing.
* No hidden global state: the same seeds give the same games under another
  PYTHONHASHSEED, numpy / ``random`` global seeds and envs built before (a subprocess).
* Seeds: numpy integers, 0, 2**63 - 1, beyond 2**64 are accepted (any non-negative integer, as
  numpy and Gymnasium); bad ones raise naming the seed and change nothing.
Existing checks not repeated here: tests/env/test_env_*.py (seed_test, per-interface
seeding), tests/env/test_bad_input.py (the first bad-seed cases)."""
import copy
import hashlib
import json
import os
import re
import subprocess
import sys

import gymnasium
import numpy as np
import pytest

from spacemission_env import rng
from spacemission_env.gym_env import GameEnv, register_envs
from spacemission_env.pettingzoo_env import env as aec_env
from spacemission_env.pettingzoo_env import raw_env
from spacemission_env.policies import BasePolicy, RandomPolicy
from spacemission_env.space_mission.rules.game import new_game
from spacemission_env.vector import VectorEnv
from tests.helpers.paths import ROOT
from tests.helpers.sb3 import GameVecEnv, needs_sb3

register_envs()

GAMES = [("spacemission", 3), ("red_planet", 4)]
SM_SHORT = {"max_rounds": 4}  # Space Mission games end within a few dozen steps (Red Planet has ten rounds)


def short(game: str) -> dict:
    return SM_SHORT if game == "spacemission" else {}


def canon(x):
    """A comparable, hashable rendering of observations, infos and rewards (arrays by dtype,
    shape and bytes; dicts by key)."""
    if isinstance(x, np.ndarray):
        return ("array", x.dtype.str, x.shape, x.tobytes())
    if isinstance(x, dict):
        return tuple(sorted((k, canon(v)) for k, v in x.items()))
    if isinstance(x, (list, tuple)):
        return tuple(canon(v) for v in x)
    if isinstance(x, (np.generic, float, int, bool, str)) or x is None:
        return (type(x).__name__, repr(x))
    raise TypeError(f"canon: {type(x)}")


def digest(trace) -> str:
    return hashlib.sha256(repr(canon(trace)).encode()).hexdigest()


class FirstLegal(BasePolicy):
    """Deterministic: the lowest legal id."""

    uses_observation = False

    def act(self, observation, action_mask):
        return int(np.flatnonzero(action_mask)[0])


def stochastic_opponents(game: str):
    return RandomPolicy(by_kind=True) if game == "spacemission" else RandomPolicy()


# --- Gymnasium ----------------------------------------------------------------------------
def gym_episode(env, seed=None, options=None, actions_seed=0, max_steps=400):
    """Everything the learner sees over one episode, its actions drawn from the masks."""
    draw = np.random.default_rng(actions_seed)
    obs, info = env.reset(seed=seed, options=options)
    trace = [obs, info]
    for _ in range(max_steps):
        a = int(draw.choice(np.flatnonzero(info["action_mask"])))
        obs, reward, term, trunc, info = env.step(a)
        trace.append((a, obs, reward, term, trunc, info))
        if term or trunc:
            break
    return trace


@pytest.mark.parametrize("game, n", GAMES)
def test_gym_same_seed_same_episode_with_stochastic_opponents(game, n):
    env = GameEnv(num_players=n, game=game, opponents=stochastic_opponents(game), **short(game))
    first = digest(gym_episode(env, seed=7))
    assert digest(gym_episode(env, seed=7)) == first  # the same env, after another episode
    twin = GameEnv(num_players=n, game=game, opponents=stochastic_opponents(game), **short(game))
    assert digest(gym_episode(twin, seed=7)) == first  # a fresh env
    assert digest(gym_episode(twin, seed=8)) != first
    # the learner's actions alone do not decide the episode: the opponents' draws follow the seed
    other_opponents = GameEnv(num_players=n, game=game, opponents=stochastic_opponents(game), seat=0, **short(game))
    a = digest(gym_episode(other_opponents, seed=3))
    other_opponents.opponents[0].seed(12345)  # same seat, same seed: reseeded by reset(seed=...)
    assert digest(gym_episode(other_opponents, seed=3)) == a


@pytest.mark.parametrize("game, n", GAMES)
def test_gym_unseeded_resets_continue_and_replay(game, n):
    def sequence(env):
        return [digest(gym_episode(env, seed=21 if i == 0 else None, actions_seed=i)) for i in range(3)]

    a = sequence(GameEnv(num_players=n, game=game, opponents=stochastic_opponents(game), **short(game)))
    assert len(set(a)) == 3  # reset() without a seed: a new game, not the seeded one again
    b = sequence(GameEnv(num_players=n, game=game, opponents=stochastic_opponents(game), **short(game)))
    assert a == b  # a fresh env with the same first seed replays the whole sequence


@pytest.mark.parametrize("game, n", GAMES)
def test_gym_np_random_draws_seat_and_game(game, n):
    """``env.np_random`` is the env's generator (Gymnasium): set to the same state in two
    envs, unseeded resets give the same seats and games (deterministic opponents here:
    a policy's own generator is reseeded by ``reset(seed=...)`` only)."""
    envs = [GameEnv(num_players=n, game=game, opponents=FirstLegal(), **short(game)) for _ in range(2)]
    envs[1].reset(seed=99)  # a different history
    seats = []
    for e in envs:
        e.np_random = np.random.default_rng(4)
        seats.append([gym_episode(e)[1]["seat"] for _ in range(4)])
    assert seats[0] == seats[1] and len(set(seats[0])) > 1
    for e in envs:
        e.np_random = np.random.default_rng(5)
    assert digest(gym_episode(envs[0])) == digest(gym_episode(envs[1]))
    e = envs[0]
    e.reset(seed=6)
    assert e.np_random_seed == 6


@pytest.mark.parametrize("game, n", GAMES)
def test_gym_a_fixed_seat_plays_the_same_deal_from_every_seat(game, n):
    """With a fixed seat the game seed is ``np_random``'s first draw, so ``reset(seed=s,
    options={"seat": k})`` deals the same game for every k (duplicate evaluation); the
    AEC env's ``reset(seed=s)`` deals it too. ``seat="random"`` draws the seat first."""
    env = GameEnv(num_players=n, game=game)
    drawn = []
    new_games = env._new_games
    env._new_games = lambda size, seeds: (drawn.append(seeds), new_games(size, seeds))[1]
    for k in range(n):
        env.reset(seed=13, options={"seat": k})
    p = raw_env(num_players=n, game=game)
    p.reset(seed=13)
    assert drawn == [p.game_seed] * n
    env.reset(seed=13)  # seat="random": the seat is drawn first, then another game seed
    assert drawn[-1] != p.game_seed


def test_gym_spaces_seed_independently_of_reset_and_of_other_envs():
    a, b = GameEnv(num_players=2), GameEnv(num_players=2)
    assert a.action_space is not b.action_space and a.observation_space is not b.observation_space
    mask = np.zeros(a.action_space.n, dtype=np.int8)
    mask[[3, 40, 77, 90]] = 1
    a.action_space.seed(11)
    b.action_space.seed(11)
    b.observation_space.seed(11)
    a.reset(seed=1)  # reset(seed=...) does not reseed the spaces (Gymnasium's convention)
    b.reset(seed=2)
    GameEnv(num_players=2).action_space.seed(0)  # another env's space is its own
    sa = [int(a.action_space.sample(mask=mask)) for _ in range(20)]
    assert sa == [int(b.action_space.sample(mask=mask)) for _ in range(20)] and set(sa) == {3, 40, 77, 90}
    a.observation_space.seed(5)
    b.observation_space.seed(5)
    assert a.observation_space.sample().tobytes() == b.observation_space.sample().tobytes()


def test_make_vec_sync_and_async_agree_and_sub_envs_differ():
    """CleanRL's loop: ``envs.reset(seed=s)`` seeds sub-env i with s + i; autoresets
    continue each sub-env's generator. The default opponents belong to each sub-env, so
    sync and async play the same games."""
    traces = {}
    for mode in ("sync", "async"):
        envs = gymnasium.make_vec("SpaceMission-v3", num_envs=3, vectorization_mode=mode, max_rounds=2)
        try:
            draw = np.random.default_rng(0)
            obs, info = envs.reset(seed=10)
            assert len({row.tobytes() for row in obs}) == 3  # three different games
            trace = [obs, info["seat"]]
            ends = 0
            for _ in range(120):
                acts = np.array([draw.choice(np.flatnonzero(m)) for m in info["action_mask"]])
                obs, reward, term, trunc, info = envs.step(acts)
                trace.append((obs, reward, term))
                ends += int(term.sum())
            assert ends >= 3  # autoresets happened
            traces[mode] = digest(trace)
        finally:
            envs.close()
    assert traces["sync"] == traces["async"]


# --- PettingZoo -----------------------------------------------------------------------------
def aec_trace(e, seed, steps=150, actions_seed=0):
    draw = np.random.default_rng(actions_seed)
    e.reset(seed=seed)
    trace = []
    for k, agent in enumerate(e.agent_iter()):
        obs, reward, term, trunc, info = e.last()
        trace.append((agent, obs, reward, term, trunc, info))
        e.step(None if term or trunc else int(draw.choice(np.flatnonzero(obs["action_mask"]))))
        if k >= steps:
            break
    return digest(trace)


@pytest.mark.parametrize("game, n", GAMES)
def test_aec_seed_then_unseeded_resets_replay(game, n):
    def sequence(e):
        return [aec_trace(e, 5 if i == 0 else None, actions_seed=i) for i in range(3)]

    a = sequence(aec_env(num_players=n, game=game))
    assert len(set(a)) == 3
    assert sequence(aec_env(num_players=n, game=game)) == a
    assert aec_trace(aec_env(num_players=n, game=game), np.uint64(5)) == a[0]


@pytest.mark.parametrize("game, n", GAMES)
def test_a_rejected_seed_leaves_the_wrapped_aec_env_unreset(game, n):
    """Regression: PettingZoo's OrderEnforcingWrapper marks itself reset before the env
    resets, so ``env().reset(seed=-1)`` left a never-reset env looking reset, and ``step``
    then failed with "'raw_env' object has no attribute 'agents'"."""
    e = aec_env(num_players=n, game=game)
    with pytest.raises(ValueError, match="-1"):
        e.reset(seed=-1)
    with pytest.raises(AssertionError, match=r"reset\(\) needs to be called before step"):
        e.step(0)
    with pytest.raises(AttributeError, match="before reset"):
        e.agent_selection  # noqa: B018
    e.reset(seed=1)  # and it still resets normally
    assert e.agent_selection in e.possible_agents


# --- the vector envs ---------------------------------------------------------------------------
def vector_run(venv, steps, seed=None, actions_seed=0):
    draw = np.random.default_rng(actions_seed)
    obs, mask, player, infos = venv.reset(seed=seed)
    trace = [obs, mask, player, infos]
    ended = 0
    for _ in range(steps):
        acts = np.array([draw.choice(np.flatnonzero(m)) for m in mask])
        obs, mask, player, rewards, term, trunc, infos = venv.step(acts)
        trace.append((obs, player, rewards, term, infos))
        ended += int(term.sum())
    return digest(trace), ended


@pytest.mark.parametrize("game, n, steps", [("spacemission", 3, 90), ("red_planet", 4, 150)])
def test_vector_env_distinct_games_reproducible_through_autoresets(game, n, steps):
    venv = VectorEnv(6, num_players=n, game=game, seed=3, **short(game))
    obs, mask, player, infos = venv.reset()
    assert len(set(infos["seeds"].tolist())) == 6 and len({row.tobytes() for row in obs}) == 6
    a, ended = vector_run(VectorEnv(6, num_players=n, game=game, seed=3, **short(game)), steps)
    if game == "spacemission":
        assert ended >= 6  # auto-resets drew new games from the generator
    assert vector_run(VectorEnv(6, num_players=n, game=game, seed=3, **short(game)), steps) == (a, ended)
    # reset(seed=s) == the constructor's seed, whatever came before; reset() continues
    other = VectorEnv(6, num_players=n, game=game, **short(game))
    other.reset()
    assert vector_run(other, steps, seed=3) == (a, ended)
    assert vector_run(other, steps)[0] != a


def sb3_run(venv, steps, actions_seed=0):
    draw = np.random.default_rng(actions_seed)
    obs = venv.reset()
    trace = [obs, venv.seats.copy(), venv.reset_infos]
    dones = 0
    for _ in range(steps):
        acts = np.array([draw.choice(np.flatnonzero(m)) for m in venv.action_masks()])
        obs, rewards, done, infos = venv.step(acts)
        trace.append((obs, rewards, done, infos, venv.seats.copy()))
        dones += int(done.sum())
    return digest(trace), dones


@needs_sb3
@pytest.mark.parametrize("game, n, steps", [("spacemission", 3, 40), ("red_planet", 4, 60)])
def test_sb3_vecenv_seed_distinct_games_and_autoresets(game, n, steps):
    def make(**kw):
        return GameVecEnv(6, num_players=n, game=game, opponents=stochastic_opponents(game), **short(game), **kw)

    a, dones = sb3_run(make(seed=4), steps)
    if game == "spacemission":
        assert dones >= 6
    assert sb3_run(make(seed=4), steps) == (a, dones)  # opponents' draws, seats, auto-resets included
    later = make()
    later.reset()
    assert later.seed(4)[0] == 4  # SB3's seed(): applied at the next reset
    assert sb3_run(later, steps) == (a, dones)
    assert sb3_run(later, steps)[0] != a  # reset() without a new seed continues the generator
    venv = make(seed=4)
    obs = venv.reset()
    assert len({row.tobytes() for row in obs}) == 6
    # SB3's VecEnv.seed(None) draws the seed from numpy's global generator (SB3's convention)
    np.random.seed(0)
    s = make().seed()
    np.random.seed(0)
    assert make().seed() == s


# --- the seed -> games mapping is part of the version --------------------------------------------
class SeedRecorder(FirstLegal):
    def __init__(self):
        self.seeds = []

    def seed(self, seed=None):
        self.seeds.append(seed)


@needs_sb3
@pytest.mark.parametrize("game", ["spacemission", "red_planet"])
def test_the_seed_to_game_mapping_is_pinned(game):
    """Recorded values: changing how an interface turns a seed into engine seeds, seats or
    opponents' seeds (the generator or the order of its draws) changes the games of the
    same seed and actions, so it needs a version bump (docs/versioning.md). Every
    interface draws from ``default_rng(s)`` (Gymnasium's ``np_random`` is the same)."""
    draws = [5874934615388537135, 2488343231644625808, 377914054924498012, 7501093982645987485]
    p = raw_env(num_players=3, game=game)
    p.reset(seed=0)
    first = p.game_seed
    p.reset()
    assert [first, p.game_seed] == draws[:2]
    v = VectorEnv(3, num_players=3, game=game, seed=0)
    assert v.reset()[3]["seeds"].tolist() == draws[:3]
    a, b = SeedRecorder(), SeedRecorder()
    e = GameEnv(num_players=3, game=game, opponents=[a, b])
    recorded = []
    new_games = e._new_games
    e._new_games = lambda size, seeds: (recorded.append(seeds), new_games(size, seeds))[1]
    seats = []
    for s in (0, None, None):
        e.reset(seed=s)
        seats.append(e.seat)
    assert (recorded, seats) == (draws[1:4], [2, 1, 0])  # seat, game, seat, game, ...
    assert (a.seeds, b.seeds) == ([4334430513956379144], [2440950710608614359])  # SeedSequence(0).spawn(2)
    c = SeedRecorder()
    g = GameVecEnv(3, num_players=3, game=game, opponents=c, seed=0)
    recorded.clear()
    g_new_games = g._new_games
    g._new_games = lambda size, seeds: (recorded.append(seeds.tolist()), g_new_games(size, seeds))[1]
    g.reset()
    assert (recorded, g.seats.tolist(), c.seeds) == ([draws[:3]], [0, 0, 0], [4334430513956379144])


# --- no hidden global state ---------------------------------------------------------------------
_DIGESTS = r"""
import json
from tests.env.test_seeding_sweep import all_digests
print(json.dumps(all_digests()))
"""


def all_digests() -> dict:
    """One short run of every interface of both games, from fixed seeds."""
    out = {}
    for game, n in GAMES:
        env = GameEnv(num_players=n, game=game, opponents=stochastic_opponents(game), **short(game))
        out[f"{game}/gym"] = [digest(gym_episode(env, seed=2 if i == 0 else None, actions_seed=i, max_steps=60))
                              for i in range(2)]
        out[f"{game}/aec"] = aec_trace(aec_env(num_players=n, game=game), 2, steps=60)
        out[f"{game}/vector"] = vector_run(VectorEnv(4, num_players=n, game=game, seed=2, **short(game)), 30)[0]
        out[f"{game}/sb3"] = sb3_run(GameVecEnv(4, num_players=n, game=game, seed=2, **short(game)), 20)[0]
    return out


@needs_sb3
def test_same_seeds_same_games_whatever_the_process_state():
    """The digests of this process against a subprocess with another PYTHONHASHSEED,
    numpy's and Python's global generators seeded differently and envs built first."""
    here = all_digests()
    prelude = ("import random, numpy as np; np.random.seed(12345); random.seed(678)\n"
               "from spacemission_env.gym_env import GameEnv\n"
               "for _ in range(3): GameEnv(num_players=2).reset()\n")
    env = {**os.environ, "PYTHONHASHSEED": "4242" if os.environ.get("PYTHONHASHSEED") != "4242" else "17"}
    done = subprocess.run([sys.executable, "-c", prelude + _DIGESTS], env=env, cwd=ROOT,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout.strip().splitlines()[-1]) == here


# --- seed values -----------------------------------------------------------------------------------
GOOD_SEEDS = [0, np.int64(5), np.uint64(5), np.int8(5), 2**63 - 1, 2**64, 2**100]
BAD_SEEDS = [(-1, ValueError), (-(2**70), ValueError), (1.5, TypeError), (np.float64(2.0), TypeError),
             (True, TypeError), (np.bool_(False), TypeError), ("3", TypeError), ([1], TypeError)]


@needs_sb3
@pytest.mark.parametrize("game, n", GAMES)
def test_every_interface_accepts_any_non_negative_integer_seed(game, n):
    kw = dict(num_players=n, game=game)
    for seed in GOOD_SEEDS:
        GameEnv(**kw).reset(seed=seed)
        raw_env(**kw).reset(seed=seed)
        VectorEnv(2, seed=seed, **kw).reset(seed=seed)
        venv = GameVecEnv(2, seed=seed, **kw)
        venv.seed(seed)
        venv.reset()
    # a numpy integer is the same seed as the int
    assert digest(gym_episode(GameEnv(**kw), seed=np.int64(5), max_steps=20)) == \
        digest(gym_episode(GameEnv(**kw), seed=5, max_steps=20))
    assert vector_run(VectorEnv(2, seed=np.uint64(5), **kw), 5)[0] == vector_run(VectorEnv(2, seed=5, **kw), 5)[0]


def _same(a, b) -> bool:
    return canon(a) == canon(b)


@needs_sb3
@pytest.mark.parametrize("game, n", GAMES)
@pytest.mark.parametrize("bad, exc", BAD_SEEDS)
def test_a_bad_seed_raises_naming_it_and_changes_nothing(game, n, bad, exc):
    shown = re.escape(repr(bad))
    kw = dict(num_players=n, game=game)

    e = GameEnv(**kw)
    e.reset(seed=0)
    e.step(int(np.flatnonzero(e.action_masks())[0]))
    twin = copy.deepcopy(e)
    with pytest.raises(exc, match=shown):
        e.reset(seed=bad)
    assert _same(e.np_random.bit_generator.state, twin.np_random.bit_generator.state)
    assert _same(e.batch_state.arrays(), twin.batch_state.arrays())
    assert digest(gym_episode(e, max_steps=10)) == digest(gym_episode(twin, max_steps=10))

    p = raw_env(**kw)
    p.reset(seed=0)
    twin = copy.deepcopy(p)
    with pytest.raises(exc, match=shown):
        p.reset(seed=bad)
    assert p.game_seed == twin.game_seed and _same(p.batch_state.arrays(), twin.batch_state.arrays())
    assert aec_trace(p, None, steps=10) == aec_trace(twin, None, steps=10)

    with pytest.raises(exc, match=shown):
        VectorEnv(2, seed=bad, **kw)
    v = VectorEnv(2, seed=0, **kw)
    v.reset()
    twin = copy.deepcopy(v)
    with pytest.raises(exc, match=shown):
        v.reset(seed=bad)
    assert _same(v.batch_state.arrays(), twin.batch_state.arrays())
    assert vector_run(v, 3)[0] == vector_run(twin, 3)[0]

    with pytest.raises(exc, match=shown):
        GameVecEnv(2, seed=bad, **kw)
    s = GameVecEnv(2, seed=0, **kw)
    before = list(s._seeds)
    with pytest.raises(exc, match=shown):
        s.seed(bad)
    assert s._seeds == before

    with pytest.raises(exc, match=shown):
        RandomPolicy(seed=bad)


@pytest.mark.parametrize("bad", [1.5, True, "3", np.float64(1.0)])
def test_the_rule_engines_new_game_raises_type_error_for_a_seed_of_the_wrong_type(bad):
    """Regression: Space Mission's ``rules.new_game`` (``rng.seed_state``) raised a plain
    ValueError for a float, bool or str seed; a wrong type is a TypeError (Red Planet's
    already was), still a ValueError for callers that caught that."""
    for exc in (TypeError, ValueError):
        with pytest.raises(exc, match=re.escape(repr(bad))):
            new_game(2, seed=bad)
    with pytest.raises(TypeError, match=re.escape(repr(bad))):
        rng.seed_state(bad)
    with pytest.raises(ValueError, match="2\\*\\*64"):
        rng.seed_state(2**64)
    with pytest.raises(ValueError) as info:
        rng.seed_state(-1)
    assert not isinstance(info.value, TypeError)


@pytest.mark.parametrize("bad", [1.5, True, "3", None, [1.0, 2.0]])
def test_the_fast_engines_init_raises_type_error_for_seeds_of_the_wrong_type(bad):
    """Regression: ``engine.init`` of both games raised a plain ValueError for float, bool,
    str or None seeds (a float array too); a wrong type is a TypeError, still a ValueError
    for callers that caught that. A wrong shape or a negative seed stays a ValueError."""
    from spacemission_env.red_planet import engine as red_planet_engine
    from spacemission_env.space_mission import engine as space_mission_engine

    for eng, players in ((space_mission_engine, 2), (red_planet_engine, 3)):
        for exc in (TypeError, ValueError):
            with pytest.raises(exc, match="seeds must be an int or an integer array"):
                eng.init(2, players, seeds=bad)
        for wrong_value in ([1, 2, 3], -1, [0, -2]):
            with pytest.raises(ValueError) as info:
                eng.init(2, players, seeds=wrong_value)
            assert not isinstance(info.value, TypeError)
