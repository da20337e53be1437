"""Both games through the libraries of the field, the way outside users plug them in
(docs/interfaces.md, "Using the envs with other libraries"): copies and pickles mid-game,
``close()``, Gymnasium's and PettingZoo's wrappers and converters, SB3's VecEnv wrappers,
options and evaluation, memory over many episodes, and actions of every kind these
libraries hand over. Defects found here are pinned by tests that fail on the code before
their fix (named in each docstring); the rest pins what was verified to work.

Not repeated here: tests/env/test_ecosystem.py (registry ids, ``last()`` after the end, SB3
``set_attr``, masked ``Discrete.sample``), test_env_gym.py / red_planet/test_interfaces.py /
red_planet/test_parity_sweep.py (``check_env`` of both checkers, ``make_vec``, PettingZoo's
``api_test`` / ``seed_test`` / ``render_test`` / ``state_test``, deepcopy and pickle of the AEC
env), test_seeding_sweep.py (seeding), test_bad_input*.py (the first bad actions)."""
from __future__ import annotations

import contextlib
import copy
import gc
import pickle
import re
import tracemalloc
import warnings

import gymnasium
import numpy as np
import pytest

import spacemission_env  # noqa: F401  (registers the ids)
from spacemission_env import red_planet_v2, spacemission_v3
from spacemission_env.gym_env import GameEnv
from spacemission_env.vector import VectorEnv
from tests.helpers.sb3 import GameVecEnv, needs_sb3

cloudpickle = pytest.importorskip("cloudpickle")

# (game, players, Gymnasium id, PettingZoo module, extra kwargs: short Space Mission games so
# that episodes end, and auto-resets happen, within a few steps)
GAMES = [
    pytest.param(("spacemission", 2, "SpaceMission-v3", spacemission_v3, {"max_rounds": 2}), id="spacemission"),
    pytest.param(("red_planet", 3, "RedPlanet-v2", red_planet_v2, {}), id="red_planet"),
]
CLOSED = r"the environment is closed: call reset\(\) before "


def pick(mask, i: int) -> int:
    """A legal action that varies with ``i`` (not always the first one), as an int."""
    legal = np.flatnonzero(np.asarray(mask))
    return int(legal[(7 * i + 3) % legal.size])


def pick_rows(masks, i: int) -> np.ndarray:
    return np.array([pick(m, i + r) for r, m in enumerate(masks)], dtype=np.int64)


# --- one adapter per interface: build, play a few steps, step once (returning what to compare) --
def _aec_step(e, i):
    obs, reward, term, trunc, info = e.last()
    e.step(None if term or trunc else pick(obs["action_mask"], i))
    if not e.agents:  # the last agent left the ended game: a new one
        e.reset()
    obs, reward, term, trunc, info = e.last()
    return (e.agent_selection, obs["observation"].tobytes(), obs["action_mask"].tobytes(), reward, term,
            sorted(info))


def _gym_step(e, i):
    obs, reward, term, trunc, info = e.step(pick(e.unwrapped.action_masks(), i))
    result = (obs.tobytes(), reward, term, trunc, info["action_mask"].tobytes(), info["seat"])
    if term or trunc:
        obs, info = e.reset()  # unseeded: the copied generator draws the next game
        result += (obs.tobytes(), info["seat"])
    return result


def _vector_step(e, i):
    masks = e.engine.legal_action_mask(e.batch_state)
    obs, mask, player, rewards, term, trunc, infos = e.step(pick_rows(masks, i))
    return obs.tobytes(), mask.tobytes(), player.tobytes(), rewards.tobytes(), term.tobytes(), sorted(infos)


def _sb3_step(e, i):
    obs, rewards, dones, infos = e.step(pick_rows(e.action_masks(), i))
    return obs.tobytes(), rewards.tobytes(), dones.tobytes(), [sorted(d) for d in infos], e.get_attr("seats")


def _fields(e):
    """The engine state's field arrays as bytes, by name (``batch_state``, what users read)."""
    st = getattr(e, "unwrapped", e).batch_state
    return tuple((k, v.dtype.str, v.shape, v.tobytes()) for k, v in sorted(vars(st).items())
                 if isinstance(v, np.ndarray))


def _aec_start(e):
    e.reset(seed=3)
    for i in range(3):
        _aec_step(e, i)


def _gym_start(e):
    e.reset(seed=3)
    for i in range(3):
        _gym_step(e, i)


def _vector_start(e):
    e.reset(seed=3)
    for i in range(3):
        _vector_step(e, i)


def _sb3_start(e):
    e.seed(3)
    e.reset()
    for i in range(3):
        _sb3_step(e, i)


INTERFACES = {
    "aec_raw_env": (lambda g: g[3].raw_env(num_players=g[1], **g[4]), _aec_start, _aec_step),
    "aec_env": (lambda g: g[3].env(num_players=g[1], **g[4]), _aec_start, _aec_step),
    "gym": (lambda g: GameEnv(num_players=g[1], game=g[0], **g[4]), _gym_start, _gym_step),
    "gym_make": (lambda g: gymnasium.make(g[2], num_players=g[1], **g[4]), _gym_start, _gym_step),
    "vector": (lambda g: VectorEnv(3, num_players=g[1], game=g[0], **g[4]), _vector_start, _vector_step),
    "sb3": (lambda g: GameVecEnv(3, num_players=g[1], game=g[0], **g[4]), _sb3_start, _sb3_step),
}
COPIERS = {
    "copy": copy.copy,
    "deepcopy": copy.deepcopy,
    "pickle": lambda e: pickle.loads(pickle.dumps(e)),
    "cloudpickle": lambda e: cloudpickle.loads(cloudpickle.dumps(e)),  # RLlib's and SubprocVecEnv's
}


def _copy_cases():
    for name in INTERFACES:
        for how in COPIERS:
            if name == "gym_make" and how == "copy":
                continue  # a Gymnasium wrapper's shallow copy shares its inner env object (Gymnasium's own)
            yield pytest.param(name, how, id=f"{name}-{how}", marks=[needs_sb3] if name == "sb3" else [])


# --- 1. copies and pickles mid-game ----------------------------------------------------------------
@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("interface, how", list(_copy_cases()))
def test_a_copy_mid_game_continues_the_same_game_independently(game, interface, how):
    """Every interface, copied after a few steps by ``copy.copy``, ``copy.deepcopy``,
    ``pickle`` and ``cloudpickle``: the copy plays on exactly as the original would (the same
    observations, masks, rewards and ends from the same actions, the opponents' generators and
    the next games' seeds included), and stepping it leaves the original untouched.

    Before: ``copy.copy`` of every interface (``raw_env``, ``env()``, ``GameEnv``, ``VectorEnv``,
    the SB3 VecEnv) shared the engine state's arrays and the mask / observation buffers with
    the original while keeping its own bookkeeping, so stepping the copy silently changed the
    original's game under it (half a copy). Now ``copy.copy`` is a full copy, as the others.
    Before too: a Red Planet env copied by ``deepcopy``, ``pickle`` or ``cloudpickle`` played on
    correctly, but its ``batch_state`` fields (``round``, ``phase``, ``hand`` ...: views of one
    record, which those copy apart) stayed frozen at the copy; the state is now rebuilt with
    the engine's ``copy()``. Compared here, field by field, with a game that was never copied."""
    make, start, step = INTERFACES[interface]
    e = make(game)
    start(e)
    c = COPIERS[how](e)
    assert c is not e
    n = 25
    from_copy = [step(c, i) + (_fields(c),) for i in range(n)]  # the copy first: the original must not notice
    from_original = [step(e, i) + (_fields(e),) for i in range(n)]
    fresh = make(game)  # the same seed and actions, never copied
    start(fresh)
    expected = [step(fresh, i) + (_fields(fresh),) for i in range(n)]
    assert from_copy == expected
    assert from_original == expected


@pytest.mark.parametrize("game", GAMES)
def test_env_factories_pickled_by_cloudpickle_run_in_subprocesses(game):
    """Gymnasium's ``AsyncVectorEnv`` pickles lambda factories with cloudpickle (as SB3's
    ``SubprocVecEnv`` and RLlib do): the workers build and play the env, the masks come back
    in ``info`` and the same seeds give the same games as ``SyncVectorEnv``."""
    name, players, env_id, _, kwargs = game
    fns = [lambda: gymnasium.make(env_id, num_players=players, **kwargs) for _ in range(2)]
    runs = []
    for cls in (gymnasium.vector.SyncVectorEnv, gymnasium.vector.AsyncVectorEnv):
        envs = cls(fns)
        try:
            obs, info = envs.reset(seed=[5, 6])
            seen = [obs.tobytes()]
            for i in range(12):
                mask = info["action_mask"]
                assert mask.dtype == np.bool_ and mask.shape == (2, envs.single_action_space.n) and mask.any(1).all()
                obs, reward, term, trunc, info = envs.step(pick_rows(mask, i))
                assert envs.observation_space.contains(obs)
                seen.append((obs.tobytes(), reward.tobytes(), term.tobytes()))
            runs.append(seen)
        finally:
            envs.close()
    assert runs[0] == runs[1]


# --- 2. close() -----------------------------------------------------------------------------------
def _closed_calls(interface, e, game):
    """The calls that need a game, each with the name the error must give."""
    if interface in ("aec_raw_env", "aec_env"):
        agent = game[3].raw_env(num_players=game[1]).possible_agents[0]
        return [(lambda: e.step(0), "step()"), (lambda: e.last(), "last()"),
                (lambda: e.unwrapped.observe(agent), "observe()"), (lambda: e.unwrapped.state(), "state()"),
                (lambda: e.action_mask(agent), "action_mask()"), (lambda: e.render(), "render()")]
    if interface in ("gym", "gym_make"):
        return [(lambda: e.step(0), "step()"), (lambda: e.render(), "render()")]
    if interface == "vector":
        return [(lambda: e.step(np.zeros(3, np.int64)), "step()"), (lambda: e.render(), "render()")]
    return [(lambda: e.step(np.zeros(3, np.int64)), "step()"), (lambda: e.render("ansi"), "rendering"),
            (lambda: e.action_masks(), "action_masks()")]


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("interface", [pytest.param(n, marks=[needs_sb3] if n == "sb3" else []) for n in INTERFACES])
def test_close_twice_then_every_call_names_it_and_reset_reopens(game, interface):
    """``close()`` may be called twice; afterwards every call that needs a game raises
    ``ValueError("the environment is closed: call reset() before ...")`` and ``reset()`` starts
    a new game. Before: the AEC env (``close`` was ``pass``) and the Gymnasium env (Gymnasium's
    no-op ``close``) went on playing the closed game, and ``gymnasium.make_vec(..., "sync")``
    with them; VectorEnv and the SB3 VecEnv said only "call reset() before step()"."""
    make, start, step = INTERFACES[interface]
    kwargs = {"render_mode": "ansi"} if interface not in ("vector", "sb3") else {}
    if interface == "gym_make":
        e = gymnasium.make(game[2], num_players=game[1], **game[4], **kwargs)
    elif interface == "gym":
        e = GameEnv(num_players=game[1], game=game[0], **game[4], **kwargs)
    elif interface.startswith("aec"):
        e = getattr(game[3], "raw_env" if interface == "aec_raw_env" else "env")(num_players=game[1], **game[4],
                                                                                 **kwargs)
    else:
        e = make(game)
    start(e)
    e.close()
    e.close()
    for call, what in _closed_calls(interface, e, game):
        with pytest.raises(ValueError, match=CLOSED + re.escape(what)):
            call()
    start(e)  # reset() reopens it
    assert step(e, 0) is not None
    e.close()


@pytest.mark.parametrize("game", GAMES)
def test_gymnasium_sync_vector_env_refuses_a_step_after_close(game):
    """``SyncVectorEnv.close()`` closes its envs but lets ``step`` through: it now raises
    (before: the closed games went on)."""
    name, players, env_id, _, kwargs = game
    envs = gymnasium.make_vec(env_id, num_envs=2, vectorization_mode="sync", num_players=players, **kwargs)
    obs, info = envs.reset(seed=0)
    envs.step(pick_rows(info["action_mask"], 0))
    envs.close()
    envs.close()
    with pytest.raises(ValueError, match=CLOSED + r"step\(\)"):
        envs.step(np.zeros(2, np.int64))


# --- 3. Gymnasium wrappers --------------------------------------------------------------------------
@pytest.mark.parametrize("game", GAMES)
def test_gymnasium_wrappers_keep_spaces_masks_and_episode_statistics(game):
    """The common wrappers over ``gymnasium.make`` (passive checker on): frame stacking,
    dtype change, flattening, observation normalisation and episode statistics, with the
    mask still in ``info`` on every step, observations inside the wrapped space, no warning,
    and ``info["episode"]`` at each end holding the summed reward; ``max_episode_steps``
    (``TimeLimit``) truncates with the mask still there."""
    from gymnasium.wrappers import (DtypeObservation, FlattenObservation, FrameStackObservation,
                                    NormalizeObservation, RecordEpisodeStatistics)
    name, players, env_id, _, kwargs = game
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        base = gymnasium.make(env_id, num_players=players, disable_env_checker=False, **kwargs)
        env = RecordEpisodeStatistics(NormalizeObservation(FlattenObservation(
            DtypeObservation(FrameStackObservation(base, 2), np.float32))))
        d = base.unwrapped.observation_size
        assert env.observation_space.shape == (2 * d,) and env.action_space == base.action_space
        obs, info = env.reset(seed=1)
        episodes, total, i = 0, 0.0, 0
        while episodes < 2:
            assert obs.shape == (2 * d,) and obs.dtype == np.float32 and env.observation_space.contains(obs)
            obs, reward, term, trunc, info = env.step(pick(info["action_mask"], i))
            total += reward
            i += 1
            if term or trunc:
                assert info["episode"]["r"] == pytest.approx(total) and info["episode"]["l"] > 0
                episodes, total = episodes + 1, 0.0
                obs, info = env.reset()
        limited = gymnasium.make(env_id, num_players=players, max_episode_steps=3)  # the game's own length
        obs, info = limited.reset(seed=0)
        for i in range(3):
            obs, reward, term, trunc, info = limited.step(pick(info["action_mask"], i))
        assert trunc and not term and info["action_mask"].any()


# --- 4. PettingZoo wrappers and converters -----------------------------------------------------------
def _play_aec(e, seed=0):
    """A whole game through agent_iter; each agent's return and the number of agent steps."""
    e.reset(seed=seed)
    returns, n = {}, 0
    for agent in e.agent_iter():
        obs, reward, term, trunc, info = e.last()
        returns[agent] = returns.get(agent, 0.0) + reward
        e.step(None if term or trunc else pick(obs["action_mask"], n))
        n += 1
    return returns, n


@pytest.mark.parametrize("game", GAMES)
def test_pettingzoo_wrappers_around_raw_env_play_the_same_game(game):
    """PettingZoo's ``OrderEnforcingWrapper``, ``AssertOutOfBoundsWrapper``, ``BaseWrapper``
    and ``TerminateIllegalWrapper`` around ``raw_env`` (and ``env()``) play whole games exactly
    as the bare ``raw_env`` (zero-sum returns, every agent done); ``TerminateIllegalWrapper``
    ends the game on an illegal id with ``illegal_reward`` for the offender, and the env
    resets and plays again."""
    from pettingzoo.utils import wrappers
    name, players, _, module, kwargs = game
    expected = _play_aec(module.raw_env(num_players=players, **kwargs))
    assert sum(expected[0].values()) == pytest.approx(0.0, abs=1e-6)
    for wrap in (wrappers.OrderEnforcingWrapper, wrappers.AssertOutOfBoundsWrapper, wrappers.BaseWrapper,
                 lambda e: wrappers.TerminateIllegalWrapper(e, illegal_reward=-1.0)):
        for inner in (module.raw_env, module.env):
            assert _play_aec(wrap(inner(num_players=players, **kwargs))) == expected
    e = wrappers.TerminateIllegalWrapper(module.raw_env(num_players=players, **kwargs), illegal_reward=-1.0)
    e.reset(seed=0)
    offender = e.agent_selection
    obs = e.observe(offender)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # PettingZoo's "Illegal move made" notice
        e.step(int(np.flatnonzero(obs["action_mask"] == 0)[0]))
    returns = {}
    for agent in e.agent_iter():
        obs, reward, term, trunc, info = e.last()
        assert term or trunc
        returns[agent] = reward
        e.step(None)
    assert returns[offender] == -1.0 and all(r == 0 for a, r in returns.items() if a != offender)
    assert _play_aec(e) == expected  # reset() plays a normal game again


@pytest.mark.parametrize("game", GAMES)
def test_pettingzoo_parallel_conversion_refused_and_turn_based_conversion_plays(game):
    """A turn-based game has no parallel API: ``aec_to_parallel`` / ``parallel_wrapper_fn``
    refuse with PettingZoo's own message (``is_parallelizable`` is False), the modules have no
    ``parallel_env`` (so PettingZoo's ``max_cycles_test``, which needs one and a
    ``max_cycles`` argument, does not apply), and ``turn_based_aec_to_parallel`` plays a whole
    game, the acting agent's action taken from the dict, with the AEC env's returns."""
    from pettingzoo.utils.conversions import aec_to_parallel, parallel_wrapper_fn, turn_based_aec_to_parallel
    name, players, _, module, kwargs = game
    assert module.env().metadata["is_parallelizable"] is False and not hasattr(module, "parallel_env")
    for convert in (lambda: aec_to_parallel(module.env(num_players=players)),
                    lambda: parallel_wrapper_fn(module.env)(num_players=players)):
        with pytest.raises(AssertionError, match="set the `is_parallelizable` key in your metadata to True"):
            convert()
    par = turn_based_aec_to_parallel(module.env(num_players=players, **kwargs))
    obs, infos = par.reset(seed=0)
    totals, n = dict.fromkeys(par.possible_agents, 0.0), 0
    while par.agents:
        acting = par.aec_env.agent_selection
        actions = {a: pick(obs[a]["action_mask"], n) for a in par.agents}
        obs, rewards, terms, truncs, infos = par.step(actions)
        for a, r in rewards.items():
            totals[a] += r
        n += 1
        assert acting in rewards
    assert all(terms.values()) and not any(truncs.values())
    assert sum(totals.values()) == pytest.approx(0.0, abs=1e-6)
    aec = module.env(num_players=players, **kwargs)  # the same actions through the AEC loop
    aec.reset(seed=0)
    returns, k = dict.fromkeys(aec.possible_agents, 0.0), 0
    for agent in aec.agent_iter():
        o, r, term, trunc, info = aec.last()
        returns[agent] += r
        if term or trunc:
            aec.step(None)
        else:
            aec.step(pick(o["action_mask"], k))
            k += 1
    assert returns == pytest.approx(totals) and k == n


# --- 5. SB3 wrappers, evaluation and options -----------------------------------------------------------
class FirstLegal:
    """What ``evaluate_policy`` needs of a MaskablePPO model: ``predict`` with ``action_masks``."""

    def predict(self, observation, state=None, episode_start=None, deterministic=False, action_masks=None):
        return np.argmax(action_masks, axis=1), None


@needs_sb3
@pytest.mark.parametrize("game", GAMES)
def test_sb3_wrappers_masks_and_maskable_evaluation(game):
    """``VecNormalize``, ``VecFrameStack`` and ``VecMonitor`` over the VecEnv keep the masks
    reachable for ``get_action_masks`` and ``sb3_contrib``'s ``evaluate_policy(...,
    use_masking=True)``; ``env_method``, ``get_attr``, ``seed``, ``render`` and ``close``
    answer through the wrappers. ``VecNormalize`` alone turns the int8 observations into
    normalised float32 but keeps the int8 space, so a wrapper that allocates by the space's
    dtype after it (``VecFrameStack``; off-policy replay buffers) would truncate them:
    ``observation_dtype="float32"`` there (docs/interfaces.md)."""
    from sb3_contrib.common.maskable.evaluation import evaluate_policy
    from sb3_contrib.common.maskable.utils import get_action_masks, is_masking_supported
    from stable_baselines3.common.vec_env import VecFrameStack, VecMonitor, VecNormalize
    name, players, _, _, kwargs = game
    alone = VecNormalize(GameVecEnv(2, num_players=players, game=name, seed=0, **kwargs))
    assert alone.reset().dtype == np.float32 and alone.observation_space.dtype == np.int8  # SB3's VecNormalize
    venv = VecFrameStack(VecNormalize(VecMonitor(GameVecEnv(3, num_players=players, game=name, render_mode="ansi",
                                                           observation_dtype="float32", **kwargs))), 2)
    d = venv.unwrapped.observation_size
    assert is_masking_supported(venv) and venv.seed(4) == [4, 5, 6]
    obs = venv.reset()
    assert obs.shape == (3, 2 * d) and obs.dtype == np.float32
    assert not np.array_equal(obs, np.round(obs))  # normalised, not truncated
    for i in range(20):
        masks = get_action_masks(venv)
        assert masks.shape == (3, venv.action_space.n) and masks.any(1).all()
        obs, rewards, dones, infos = venv.step(pick_rows(masks, i))
        assert obs.shape == (3, 2 * d) and np.isfinite(obs).all()
    assert [m.shape for m in venv.env_method("action_masks", indices=[1, 2])] == [(venv.action_space.n,)] * 2
    assert venv.get_attr("num_players") == [players] * 3 and len(venv.get_attr("seats")) == 3
    assert isinstance(venv.render(), str)
    rewards, lengths = evaluate_policy(FirstLegal(), venv, n_eval_episodes=3, use_masking=True,
                                       return_episode_rewards=True)
    assert len(rewards) == 3 and all(r in (-1.0, -0.5, 0.0, 0.5, 1.0) for r in rewards)  # VecMonitor's: unnormalised
    venv.close()
    venv.close()


@needs_sb3
@pytest.mark.parametrize("game", GAMES)
def test_sb3_set_options_seat_applies_to_the_next_reset_and_bad_options_are_refused(game):
    """SB3's ``set_options`` (what ``DummyVecEnv`` passes to each env's ``reset(options=...)``):
    ``{"seat": s}`` seats the learner in the games the next ``reset()`` starts, a list gives
    one dict per game, later resets draw from ``seat`` again; unknown keys and bad seats raise
    at ``set_options``, naming them, with nothing stored. Before: every option was dropped
    silently (the seats stayed random) and any option was accepted."""
    name, players, _, _, kwargs = game
    venv = GameVecEnv(4, num_players=players, game=name, seed=0, **kwargs)
    venv.set_options({"seat": 1})
    venv.reset()
    assert venv.get_attr("seats") == [1] * 4 and [i["seat"] for i in venv.reset_infos] == [1] * 4
    venv.set_options([{"seat": 0}, {}, {"seat": players - 1}, {"seat": "random"}])
    venv.reset()
    seats = venv.get_attr("seats")
    assert seats[0] == 0 and seats[2] == players - 1
    # every game waits for its learner, in the seat asked for
    assert (venv.batch_state.current_player.astype(int) == np.array(seats)).all()
    draws = set()
    for _ in range(4):
        venv.reset()
        draws.add(tuple(venv.get_attr("seats")))
    assert len(draws) > 1  # the option held for one reset only: seat="random" again
    fixed = GameVecEnv(8, num_players=players, game=name, seat=0, seed=0, **kwargs)
    fixed.set_options({"seat": "random"})
    fixed.reset()
    assert len(set(fixed.get_attr("seats"))) > 1
    fixed.reset()
    assert fixed.get_attr("seats") == [0] * 8
    for bad, exc, text in [({"seet": 1}, ValueError, "unknown reset option 'seet' (game 0); the only option is 'seat'"),
                           ({"seat": players}, ValueError, f"got {players}"),
                           ({"seat": 1.0}, TypeError, "got 1.0"),
                           ([{}], ValueError, "one dict per game (4), got 1"),
                           ([{}, {}, {}, 3], TypeError, "the options of game 3 must be a dict, got 3"),
                           ("seat=1", TypeError, "got 'seat=1'")]:
        with pytest.raises(exc, match=re.escape(text)):
            venv.set_options(bad)
        assert venv._options == [{}] * 4  # nothing stored
    from stable_baselines3.common.vec_env import VecMonitor
    wrapped = VecMonitor(venv)
    wrapped.set_options({"seat": 0})
    wrapped.reset()
    assert venv.get_attr("seats") == [0] * 4


# --- 6. actions of every kind ------------------------------------------------------------------------
def _torch():
    """torch, or None where it is not installed (no train extra): the tensor kinds are left out."""
    try:
        import torch
    except ImportError:
        return None
    return torch


def _single_kinds(a: int):
    torch = _torch()
    accepted = {"np.int32": np.int32(a), "np.uint16": np.uint16(a), "np.int64": np.int64(a), "0-d": np.array(a),
                "0-d int32": np.array(a, np.int32), "(1,)": np.array([a]), "(1,) uint16": np.array([a], np.uint16),
                **({"torch": torch.tensor(a), "torch (1,)": torch.tensor([a])} if torch else {}), "int": a}
    refused = {"3.0": float(a), "np.float32": np.float32(a), "True": True, "np.True_": np.True_,
               "0-d bool": np.array(True), "0-d float": np.array(float(a)), "[a]": [a], "(a,)": (a,),
               **({"torch float": torch.tensor(float(a)), "torch bool": torch.tensor(True),
                   "torch bool (1,)": torch.tensor([True])} if torch else {}), "str": str(a)}
    return accepted, refused


_state_bytes = _fields


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("interface", ["aec_raw_env", "aec_env", "gym"])
def test_single_actions_of_every_integer_kind_play_and_floats_and_bools_change_nothing(game, interface):
    """One action: numpy integer scalars of any width, 0-d and one-element integer arrays and
    integer torch tensors (what Gymnasium's ``sample``, SB3's ``predict`` and torch samplers
    hand over) play the id; a float (``3.0`` too), a bool, a float array or tensor, a list or a
    str raise ``TypeError`` naming the value, with the game unchanged (never clamped or cast)."""
    name, players, env_id, module, kwargs = game

    def make():
        if interface == "gym":
            env = GameEnv(num_players=players, game=name)
        else:
            env = (module.raw_env if interface == "aec_raw_env" else module.env)(num_players=players)
        env.reset(seed=0)
        return env

    e, reference = make(), make()  # the reference plays the same ids as plain ints

    def legal():
        return pick(e.action_masks() if interface == "gym" else e.observe(e.agent_selection)["action_mask"], 0)

    for bad_kind, bad in _single_kinds(legal())[1].items():
        before = _state_bytes(e)
        with pytest.raises(TypeError, match="is not an integer action id"):
            e.step(bad)
        assert _state_bytes(e) == before, bad_kind
    for kind in _single_kinds(0)[0]:
        a = legal()
        e.step(_single_kinds(a)[0][kind])
        reference.step(a)
        assert _state_bytes(e) == _state_bytes(reference), kind


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("interface", ["vector", pytest.param("sb3", marks=needs_sb3)])
def test_batched_actions_of_every_integer_kind_play_and_floats_and_bools_change_nothing(game, interface):
    """Actions for N games: lists and tuples of ints or numpy integers, integer arrays of any
    width and integer tensors play (SB3's VecEnv also takes SB3's ``[N, 1]``); lists of floats,
    float and bool arrays raise ``TypeError``, a scalar or (VectorEnv) ``[N, 1]`` a
    ``ValueError`` naming the shape, with every game unchanged."""
    torch = _torch()
    name, players, env_id, module, kwargs = game
    e, reference = ((VectorEnv if interface == "vector" else GameVecEnv)(3, num_players=players, game=name, seed=0)
                    for _ in range(2))  # the reference plays the same ids as an int64 array
    e.reset()
    reference.reset()

    def legal():
        return pick_rows(e.engine.legal_action_mask(e.batch_state), 0)

    def kinds(a):
        accepted = {"list": a.tolist(), "tuple": tuple(a.tolist()), "list of np.int64": list(a),
                    "int32": a.astype(np.int32), "uint8": a.astype(np.uint8),
                    **({"torch": torch.tensor(a)} if torch else {}), "list of 0-d": [np.array(x) for x in a]}
        refused = {"list of floats": ([float(x) for x in a], TypeError, "dtype float64"),
                   "float array": (a.astype(np.float32), TypeError, "dtype float32"),
                   "bools": ([True] * 3, TypeError, "dtype bool"),
                   "scalar": (int(a[0]), ValueError, "got ()")}
        if interface == "sb3":
            accepted["[N, 1]"] = a[:, None]
        else:
            refused["[N, 1]"] = (a[:, None], ValueError, "must have shape (3,), got (3, 1)")
        return accepted, refused

    for bad_kind, (bad, exc, text) in kinds(legal())[1].items():
        before = _state_bytes(e)
        with pytest.raises(exc, match=re.escape(text)):
            e.step(bad)
        assert _state_bytes(e) == before, bad_kind
    for kind in kinds(legal())[0]:
        a = legal()
        e.step(kinds(a)[0][kind])
        reference.step(a)
        assert _state_bytes(e) == _state_bytes(reference), kind


# --- 7. memory over many episodes --------------------------------------------------------------------
def _episode_runners(game):
    name, players, env_id, module, kwargs = game
    aec = module.env(num_players=players)
    gym = GameEnv(num_players=players, game=name)
    vec = VectorEnv(4, num_players=players, game=name, seed=0)
    sb3 = GameVecEnv(4, num_players=players, game=name, seed=0)

    def run_aec():
        aec.reset()
        for i in range(5):
            obs, r, term, trunc, info = aec.last()
            aec.step(None if term or trunc else pick(obs["action_mask"], i))

    def run_gym():
        obs, info = gym.reset()
        for i in range(3):
            obs, r, term, trunc, info = gym.step(pick(info["action_mask"], i))

    def run_vec():
        obs, mask, player, infos = vec.reset()
        for i in range(3):
            obs, mask, *_ = vec.step(pick_rows(mask, i))

    def run_sb3():
        sb3.reset()
        for i in range(3):
            sb3.step(pick_rows(sb3.action_masks(), i))

    return {"aec": run_aec, "gym": run_gym, "vector": run_vec, "sb3": run_sb3}


@contextlib.contextmanager
def _frozen_heap():
    """The objects alive before the episodes moved to gc's permanent generation (gc.freeze),
    so that each gc.collect() of the measurement scans only what the episodes made, not the
    whole suite's heap (seconds per test). Freezing never frees anything: an object the
    episodes keep alive is counted as before. Not undone: gc.unfreeze would also put back
    what tests/conftest.py froze after collection."""
    gc.collect()
    gc.freeze()
    yield


def _traced_growth(run, warmup: int, episodes: int) -> int:
    """Bytes still allocated (tracemalloc) after ``episodes`` more resets + steps than after
    ``warmup`` of them."""
    for _ in range(warmup):
        run()
    gc.collect()
    tracemalloc.start()
    try:
        for _ in range(warmup):
            run()
        gc.collect()
        start = tracemalloc.get_traced_memory()[0]
        for _ in range(episodes):
            run()
        gc.collect()
        return tracemalloc.get_traced_memory()[0] - start
    finally:
        tracemalloc.stop()


@needs_sb3
@pytest.mark.parametrize("game", GAMES)
def test_many_short_episodes_keep_memory_flat(game):
    """200 resets + steps of each interface leave at most 48 kB more allocated than before
    them (measured: a few kB, the current game's arrays; a leak of one observation per
    episode would be 190 kB or more)."""
    with _frozen_heap():
        for name, run in _episode_runners(game).items():
            assert _traced_growth(run, 50, 200) < 48_000, name


@needs_sb3
@pytest.mark.slow
@pytest.mark.parametrize("game", GAMES)
def test_two_thousand_episodes_keep_memory_and_rss_flat(game):
    """The benchmark-sized check: 2,000 resets + steps per interface after a warm-up (the
    kernels loaded), the process's RSS growing by less than 8 MB, then traced allocations
    over 2,000 more by less than 64 kB."""
    psutil = pytest.importorskip("psutil")
    proc = psutil.Process()
    for name, run in _episode_runners(game).items():
        for _ in range(100):
            run()
        gc.collect()
        rss = proc.memory_info().rss
        for _ in range(2000):
            run()
        gc.collect()
        assert proc.memory_info().rss - rss < 8_000_000, name
        assert _traced_growth(run, 50, 2000) < 64_000, name
