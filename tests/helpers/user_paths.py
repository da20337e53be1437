"""The calls users make, through every interface of every game, with the inputs they pass:
what ``spacemission warmup`` must leave nothing to compile for (tests/env/test_warmup.py).

    python -m tests.helpers.user_paths [GAME ...]     # prints one JSON list: what numba compiled

Per game: the batched engine's functions with actions, masks, seats and seeds of every
integer dtype, layout (C, a slice ``x[::2]``, Fortran order) and read-only; the PettingZoo
AEC env, the Gymnasium env and the self-play VectorEnv with every observation type and
dtype, games played to their end; the SB3 VecEnv (fixed opponents and a pool); every
registered bot acting through ``act`` (the AEC env's int8 masks) and ``act_batch`` (the
VectorEnv's rows, then sliced, Fortran-ordered and read-only ones); a short arena; and
``spacemission play`` answered from a script. Each is played to completion quickly (short
round limits where the game has them). ``compiled_by(games)`` returns the functions numba
compiled meanwhile (``warmup.CompileLog``: "module.function(argument types)"), in order.
"""
from __future__ import annotations

import contextlib
import inspect
import io
import json
import sys

import numpy as np

LONG = 20_000  # steps at most for one game to end


def _short(game) -> dict:
    return {} if game.max_rounds_limit == game.default_max_rounds else {"max_rounds": 3}


def layouts(a: np.ndarray) -> list:
    """``a`` as users pass it: itself, a slice of a larger array, Fortran order, read-only, a list."""
    ro = a.copy()
    ro.flags.writeable = False
    return [a, np.repeat(a, 2, axis=0)[::2], np.asfortranarray(a), ro, a.tolist()]


def _random(mask, rng) -> int:
    return int(rng.choice(np.flatnonzero(np.asarray(mask))))


def engine_calls(game, rng) -> None:
    E, n = game.engine, game.description.min_players
    for batch in (1, 3):
        st = E.init(batch, n, seeds=np.arange(batch, dtype=np.int32), **_short(game))
        for _ in range(LONG):
            mask = E.legal_action_mask(st)
            E.legal_action_mask(st, out=np.zeros_like(mask), select=np.repeat(np.ones(batch, bool), 2)[::2])
            for t in game.encoding.OBSERVATION_TYPES:
                E.observe(st, observation_type=t)
                E.observe(st, player=0, observation_type=t)
                E.observe(st, player=np.zeros(2 * batch, np.int32)[::2], observation_type=t)
            for m in layouts(mask)[:4] + [mask.astype(np.int8)]:
                E.sample_actions(m, rng)
            if "by_kind" in inspect.signature(E.sample_actions).parameters:  # Space Mission's action kinds
                E.sample_actions(mask, rng, by_kind=True)
            E.scores(st), E.rewards(st)
            actions = E.sample_actions(mask, rng)
            for a in layouts(actions) + [actions.astype(np.int32), actions.astype(np.uint8)]:
                E.step(st.copy(), a)
                E.step(st.take(np.arange(batch)), a, select=np.ones(batch, bool))
            for t in (*game.encoding.OBSERVATION_TYPES, None):
                obs = None if t is None else np.empty((batch, E.observation_size(t)), np.int8)
                E.step_observe(st.copy(), actions.astype(np.int32), np.empty_like(mask), obs, t)
            E.step(st, actions)
            if st.terminated.any():
                break
        E.reset_finished(st, np.arange(batch, dtype=np.uint64) + 7)
        E.from_reference([E.to_reference(st, i) for i in range(batch)])


def pettingzoo(game, rng) -> None:
    import spacemission_env

    for dtype in ("int8", "float32"):
        for t in game.encoding.OBSERVATION_TYPES:
            e = spacemission_env.env(game=game.name, observation_type=t, observation_dtype=dtype, **_short(game))
            e.reset(seed=0)
            e.state()
            for _ in e.agent_iter(LONG):
                obs, _, terminated, truncated, _ = e.last()
                e.step(None if terminated or truncated else _random(obs["action_mask"], rng))
            e.close()


def gymnasium_env(game, rng) -> None:
    from spacemission_env.gym_env import GameEnv

    for dtype in ("int8", "float32"):
        for i, t in enumerate(game.encoding.OBSERVATION_TYPES):
            e = GameEnv(observation_type=t, observation_dtype=dtype, seat=i % 2 if i else "random", game=game.name,
                        **_short(game))
            _, info = e.reset(seed=i)
            for _ in range(LONG):
                _, _, terminated, truncated, info = e.step(_random(info["action_mask"], rng))
                if terminated or truncated:
                    break
            e.close()


def vector_env(game, rng) -> None:
    from spacemission_env.vector import VectorEnv

    for batch in (1, 3):
        for dtype in ("int8", "float32"):
            for i, t in enumerate(game.encoding.OBSERVATION_TYPES):
                v = VectorEnv(batch, observation_type=t, observation_dtype=dtype, reward=("win", "score")[i % 2],
                              shaping=i == 1, final_observation=i == 0, seed=i, game=game.name, **_short(game))
                _, mask, _, _ = v.reset()
                for step in range(LONG):
                    a = game.engine.sample_actions(mask, rng)
                    a = layouts(a)[step % 5] if step < 5 else a
                    _, mask, _, _, terminated, _, _ = v.step(a)
                    if terminated.any() and step >= 5:
                        break
                v.close()


def sb3_vec_env(game, rng) -> None:
    from spacemission_env.policies import RandomPolicy
    from spacemission_env.sb3 import GameVecEnv

    opponents = game.description.min_players - 1
    for n in (1, 3):
        for dtype in ("int8", "float32"):
            for t in game.encoding.OBSERVATION_TYPES:
                v = GameVecEnv(n, observation_type=t, observation_dtype=dtype, seed=0, game=game.name, **_short(game))
                v.reset()
                for _ in range(LONG):
                    v.step_async(game.engine.sample_actions(v.action_masks(), rng))
                    if v.step_wait()[2].any():
                        break
                v.close()
    pool = [RandomPolicy(seed=0), RandomPolicy(seed=1)]
    v = GameVecEnv(3, opponents=pool, opponent_sampler=lambda r, k: r.integers(0, 2, size=(k, opponents)), seed=0,
                   game=game.name, **_short(game))
    v.reset()
    for _ in range(20):
        v.step_async(game.engine.sample_actions(v.action_masks(), rng))
        v.step_wait()


def _spec(name: str) -> str:
    return f"{name}:iterations=2" if name in ("search", "netsearch") else name


def bots(game, rng) -> None:
    import spacemission_env
    from spacemission_agents.registry import AGENTS_BY_GAME, make_agent
    from spacemission_cli.warmup import _players
    from spacemission_env.games import GameConfig
    from spacemission_env.vector import VectorEnv

    players = _players(game)  # the shipped PPO models' player count
    for name in AGENTS_BY_GAME[game.name]:
        agent = make_agent(_spec(name), seed=0, game=game.name)
        agent.bind(GameConfig(num_players=players, game=game.name))
        t = getattr(agent, "observation_type", None) or "info"
        e = spacemission_env.env(game=game.name, num_players=players, observation_type=t)
        e.reset(seed=0)
        for _ in e.agent_iter(12):
            obs, _, terminated, truncated, _ = e.last()
            e.step(None if terminated or truncated else int(agent.act(obs["observation"], obs["action_mask"])))
        for batch in (1, 3):
            v = VectorEnv(batch, num_players=players, observation_type=t, seed=1, game=game.name)
            obs, mask, _, _ = v.reset()
            for _ in range(4):
                obs, mask, *_ = v.step(agent.act_batch(obs, mask))
            agent.act_batch(obs, mask.astype(np.int8))
            for o, m in zip(layouts(obs)[1:4], layouts(mask)[1:4]):
                agent.act_batch(o, m)
            agent.act(obs[0], mask[0])


def arena(game, rng) -> None:
    from spacemission_agents.arena import run_arena
    from spacemission_agents.registry import AGENTS_BY_GAME
    from spacemission_cli.warmup import _players

    run_arena([_spec(n) for n in AGENTS_BY_GAME[game.name]], num_players=_players(game), games=_players(game), seed=0,
              progress=False, record=False, game=game.name)


def play(game, rng) -> None:
    """``spacemission play`` against the default opponents, answered "1" until the script ends."""
    from spacemission_cli.main import main

    stdin = sys.stdin
    sys.stdin = io.StringIO("1\n" * 300)
    try:
        with contextlib.redirect_stdout(io.StringIO()):
            main(["play", "--game", game.name, "--seed", "3"])
    except SystemExit:
        pass
    finally:
        sys.stdin = stdin


PATHS = (engine_calls, pettingzoo, gymnasium_env, vector_env, sb3_vec_env, bots, arena, play)


def compiled_by(games=None, paths=PATHS) -> list[str]:
    """Run ``paths`` for ``games`` (names; all by default); what numba compiled meanwhile."""
    from spacemission_env.games import GAMES, get_game
    from spacemission_env.warmup import CompileLog

    with CompileLog() as log:
        for name in games or list(GAMES):
            for path in paths:
                path(get_game(name), np.random.default_rng(0))
    return log.compiled


if __name__ == "__main__":
    print(json.dumps(compiled_by(sys.argv[1:])))
