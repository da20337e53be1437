"""Differential check of the fast engine against the reference engine.

Random legal play with the same seeds in both engines; after every action the full
state (``to_reference`` == reference GameState, turn records included), the legal
mask, every seat's observation of every type (encoding.OBSERVATION_TYPES: info,
recall, seer), rewards and terminal flags are compared. Used by
tests/env/engine/test_engine_differential.py and benchmarks/differential.py.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ...engine_common import check_run_many
from .. import actions as A
from .. import encoding as E
from ..rules import game as G
from ..scoring import SCORE_KEYS, rank_rewards
from . import api
from .convert import to_reference


@dataclass
class Report:
    games: int = 0
    steps: int = 0
    divergences: list = field(default_factory=list)  # (config, seed, step, what)
    ended: int = 0  # games that ended by R-E1 (the rest ended at the round limit, R-E3)
    empty_scans: int = 0  # scans of a pile without a point tile (R-A4b): no tile decision
    reshuffles: int = 0  # discard pile shuffled into the draw pile (R-A1a)

    def merge(self, other: "Report") -> None:
        self.games += other.games
        self.steps += other.steps
        self.ended += other.ended
        self.empty_scans += other.empty_scans
        self.reshuffles += other.reshuffles
        self.divergences += other.divergences


def _ref_rewards(s) -> np.ndarray:
    if not s.is_over:
        return np.zeros(s.num_players, dtype=np.float32)
    sc = G.scores(s)
    stations = [sum(1 for o in s.stations if o == q) for q in range(s.num_players)]
    return np.array(rank_rewards([x["total"] for x in sc], stations), dtype=np.float32)


def _ref_scores(s) -> np.ndarray:
    return np.array([[d[k] for k in SCORE_KEYS] for d in G.scores(s)], dtype=np.int16)


def run(num_players: int, rules: str, seeds, max_rounds: int = 100, action_seed: int = 0, observations: str = "all",
        max_divergences: int = 5, by_kind: bool = False) -> Report:
    """Play len(seeds) games in lock-step in both engines. ``observations``: "all" (every
    seat, every type, every step), "acting" (acting seat, every type) or "none".
    ``by_kind``: kind-uniform random play (engine.sample_actions), which reaches R-E1 endings."""
    seeds = np.asarray(seeds, dtype=np.uint64)
    B = len(seeds)
    cfg = (num_players, rules, max_rounds)
    rep = Report(games=B)
    st = api.init(B, num_players, seeds, rules=rules, max_rounds=max_rounds)
    refs = [G.new_game(num_players, seed=int(s), rules=rules, max_rounds=max_rounds) for s in seeds]
    alive = np.ones(B, dtype=bool)  # still compared (no divergence seen yet)
    rng = np.random.default_rng(action_seed)
    seats = range(num_players)
    step_no = 0

    def diverge(i, what):
        rep.divergences.append((cfg, int(seeds[i]), step_no, what))
        alive[i] = False

    while True:
        mask = api.legal_action_mask(st)
        rew = api.rewards(st)
        sc = api.scores(st)
        obs: dict[tuple[str, int | None], np.ndarray] = {}
        if observations != "none":
            for t in E.OBSERVATION_TYPES:
                obs[t, None] = api.observe(st, None, t)
                if observations == "all":
                    for q in seats:
                        obs[t, q] = api.observe(st, q, t)
        for i in np.flatnonzero(alive):
            ref = refs[i]
            if to_reference(st, int(i)) != ref:
                diverge(i, "state")
                continue
            if bool(st.terminated[i]) != ref.is_over or bool(st.round_limit[i]) != ref.round_limit:
                diverge(i, "terminal flags")
                continue
            if ref.is_over:
                if not mask[i].all():
                    diverge(i, "mask of finished game not all True")
            elif not np.array_equal(mask[i], G.legal_action_mask(ref)):
                diverge(i, "legal mask")
                continue
            if not np.array_equal(rew[i], _ref_rewards(ref)):
                diverge(i, "rewards")
                continue
            if not np.array_equal(sc[i], _ref_scores(ref)):
                diverge(i, "scores")
                continue
            for (t, seat), o in obs.items():
                if not np.array_equal(o[i], E.observe(ref, seat, t)):
                    diverge(i, f"observation {t} seat {seat}")
                    break
        if len(rep.divergences) >= max_divergences:
            break
        running = ~st.terminated
        if not running.any():
            rep.ended = int((st.terminated & ~st.round_limit).sum())
            break
        actions = api.sample_actions(mask, rng, by_kind=by_kind)
        api.step(st, actions)
        step_no += 1
        for i in np.flatnonzero(running & alive):
            ref, a = refs[i], int(actions[i])
            discards = len(ref.discard_pile)
            G.apply(ref, a)
            rep.steps += 1
            if A.SCAN <= a < A.DEVELOP and ref.phase == "main":
                rep.empty_scans += 1  # how often the rules' edge cases are exercised
            elif a < A.JUMP and len(ref.discard_pile) < discards + bin(a).count("1"):  # top-up a discards mask a
                rep.reshuffles += 1
    return rep


CONFIGS = [(n, r) for n in (2, 3, 4, 5) for r in ("yucata", "schmidt")]


def run_many(total_games: int, max_rounds_cycle=(3, 4, 6, 10, 100), observations: str = "acting", chunk: int = 500,
             seed_base: int = 10**7, progress=None, by_kind: bool = False, configs=None) -> Report:
    """``total_games`` split evenly over every configuration, in chunks of ``chunk`` games
    whose max_rounds cycles through ``max_rounds_cycle``; seeds never repeat. ``configs``:
    indices of CONFIGS to play (default all); a configuration plays the same games whether
    the run covers it alone or with the others, so a run can be split over processes."""
    check_run_many(total_games, chunk)  # a chunk of 0 games, or fewer than 0 games, never ends
    rep = Report()
    per = total_games // len(CONFIGS)
    extra = total_games - per * len(CONFIGS)
    for i, (n, r) in enumerate(CONFIGS):
        if configs is not None and i not in configs:
            continue
        todo = per + (1 if i < extra else 0)
        k = 0
        while todo > 0:
            size = min(chunk, todo)
            base = seed_base * (i + 1) + k * chunk
            mr = max_rounds_cycle[k % len(max_rounds_cycle)]
            rep.merge(run(n, r, range(base, base + size), max_rounds=mr, action_seed=base, observations=observations,
                          max_divergences=10**9, by_kind=by_kind))
            todo -= size
            k += 1
            if progress is not None:
                progress(rep, (n, r, mr))
    return rep
