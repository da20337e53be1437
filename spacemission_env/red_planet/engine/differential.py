"""Differential check of the Red Planet fast engine against the reference engine.

Random legal play with the same seeds in both engines; after every action the full
state (``to_reference`` == reference GameState), the legal mask, every seat's
observation of every type (encoding.OBSERVATION_TYPES: info, recall, seer), the
scores, the rewards and the terminal flag are compared. Used by
tests/env/red_planet/engine/test_differential.py and
benchmarks/red_planet_differential.py.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ...engine_common import check_run_many, rank_rewards
from .. import encoding as E
from .. import rules as G
from ..rules.scoring import CATEGORIES
from . import api
from .convert import to_reference


@dataclass
class Report:
    games: int = 0
    steps: int = 0  # agent steps (actions applied)
    divergences: list = field(default_factory=list)  # (num_players, seed, step, what)
    games_by_players: dict = field(default_factory=dict)  # run_many: games played per player count

    def merge(self, other: Report) -> None:
        self.games += other.games
        self.steps += other.steps
        self.divergences += other.divergences


def _ref_scores(s) -> np.ndarray:
    """The reference's scores as they are (int64): compared with the fast engine's int16
    scores by value, so a total the engine wraps shows as a divergence."""
    return np.array([[row[k] for k in CATEGORIES] for row in G.scores(s)], dtype=np.int64)


def _ref_rewards(s) -> np.ndarray:
    if not G.is_over(s):
        return np.zeros(s.num_players, dtype=np.float32)
    totals = [row["total"] for row in G.scores(s)]
    return np.array(rank_rewards(totals), dtype=np.float32)


def run(num_players: int, seeds, action_seed: int = 0, observations: str = "all", max_divergences: int = 5) -> Report:
    """Play len(seeds) games in lock-step in both engines. ``observations``: "all" (every
    seat, every type, every step), "acting" (the acting seat, every type) or "none"."""
    seeds = np.asarray(seeds, dtype=np.uint64)
    B = len(seeds)
    rep = Report(games=B)
    st = api.init(B, num_players, seeds)
    refs = [G.new_game(num_players, seed=int(s)) for s in seeds]
    alive = np.ones(B, dtype=bool)  # still compared (no divergence seen yet)
    rng = np.random.default_rng(action_seed)
    step_no = 0

    def diverge(i, what):
        rep.divergences.append((num_players, int(seeds[i]), step_no, what))
        alive[i] = False

    while True:
        mask = api.legal_action_mask(st)
        sc = api.scores(st)
        rew = api.rewards(st)
        obs: dict[tuple[str, int | None], np.ndarray] = {}
        if observations != "none":
            for t in E.OBSERVATION_TYPES:
                if observations == "all":
                    for q in range(num_players):
                        obs[t, q] = api.observe(st, q, t)
                else:
                    obs[t, None] = api.observe(st, None, t)
        for i in np.flatnonzero(alive):
            ref = refs[i]
            over = G.is_over(ref)
            if to_reference(st, int(i)) != ref:
                diverge(i, "state")
            elif bool(st.terminated[i]) != over:
                diverge(i, "terminated")
            elif (not mask[i].all()) if over else not np.array_equal(mask[i], G.legal_action_mask(ref)):
                diverge(i, "legal mask")
            elif not np.array_equal(sc[i], _ref_scores(ref)):
                diverge(i, "scores")
            elif not np.array_equal(rew[i], _ref_rewards(ref)):
                diverge(i, "rewards")
            else:
                for (t, who), o in obs.items():
                    seat = int(st.current_player[i]) if who is None else who
                    if not np.array_equal(o[i], E.observe(ref, seat, t)):
                        diverge(i, f"observation {t} seat {seat}")
                        break
        if len(rep.divergences) >= max_divergences:
            break
        running = ~st.terminated
        if not running.any():
            break
        actions = api.sample_actions(mask, rng)
        api.step(st, actions)
        step_no += 1
        for i in np.flatnonzero(running & alive):
            G.apply(refs[i], int(actions[i]))
            rep.steps += 1
    return rep


def run_many(total_games: int, players=(3, 4, 5), observations: str = "acting", chunk: int = 500,
             seed_base: int = 10**7, progress=None) -> Report:
    """``total_games`` split evenly over the player counts, played in chunks of ``chunk``
    games taking the player counts in turn (so a run stopped early covers them all
    alike); player count i of ``players`` plays seeds seed_base * (i + 1) + k * chunk + j,
    never repeated within a run, the same games whatever the order."""
    check_run_many(total_games, chunk)  # a chunk of 0 games, or fewer than 0 games, never ends
    rep = Report()
    per = total_games // len(players)
    todo = [per + (1 if i < total_games - per * len(players) else 0) for i in range(len(players))]
    k = 0
    while any(todo):
        for i, n in enumerate(players):
            size = min(chunk, todo[i])
            if size == 0:
                continue
            base = seed_base * (i + 1) + k * chunk
            rep.merge(run(n, range(base, base + size), action_seed=base, observations=observations,
                          max_divergences=10**9))
            rep.games_by_players[n] = rep.games_by_players.get(n, 0) + size
            todo[i] -= size
            if progress is not None:
                progress(rep, n)
        k += 1
    return rep
