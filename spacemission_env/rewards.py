r"""Rewards shared by every interface (AEC, vector, Gymnasium, SB3).

Modes (``reward=``):

* ``"win"``: terminal only; the rank rewards of ``scoring.rank_rewards``
  (``engine.rewards``): 2 players +1 / -1 (0 on a shared win); 3-5 players
  zero-sum by rank in [-1, 1], rank r of P worth ``1 - 2r/(P-1)``, ties averaged.
  Ranks follow R-P8 (points, then stations).
* ``"score"``: terminal only; ``(own total - mean of the others' totals) / scale``,
  the game's ``score_scale`` (50 in both games).

Every game provides ``engine.scores`` (total last) and ``engine.rewards`` (its rank
rewards); ``RewardFunction`` takes the game (games.py) and reads nothing else of it.

Both are paid on the step that ends the game, also when it ends at the round limit
(R-E3 scores the game like any other end; every interface reports it as terminated).

Optional potential-based shaping (``shaping=True``, Ng, Harada & Russell 1999), with
potential ``Phi_i(s) = provisional total of seat i in s / scale`` (``engine.scores``,
column ``total``) and ``Phi_i(terminal) = 0``. A seat's decisions are the states
``s_0, s_1, ...`` in which it acts; between two of them the other seats may act.
For the transition from ``s_k`` to ``s_{k+1}`` seat i receives

    r'_i = r_i + gamma * Phi_i(s_{k+1}) - Phi_i(s_k)

where ``s_{k+1}`` is its next decision state or the end of the game (potential 0).
It is paid in two parts, so that it needs no memory and adds up correctly for any
gamma however the turns interleave: ``-Phi_i(s_k)`` on the step in which seat i acts,
``+gamma * Phi_i(s_{k+1})`` on the step after which seat i is to act again.
``Phi_i(s_0) = 0`` (nobody has points before acting) and the terminal potential is 0,
so the shaping terms telescope: the return discounted by ``gamma`` per own decision
changes by ``gamma^T Phi_i(s_T) - Phi_i(s_0) = 0``. Shaping only moves credit earlier;
optimal policies are unchanged when ``gamma`` is the learner's discount per own
decision. Default ``gamma = 1``.
"""
from __future__ import annotations

import numpy as np

from .checks import SettingTypeError, shown, wrong_type_text
from .games import Game, get_game
from .space_mission.config import SPACE_MISSION

REWARD_MODES = SPACE_MISSION.reward_names  # ("win", "score"): every game offers both
SCORE_SCALE = 50.0  # "score" mode: (own - mean others) / SCORE_SCALE (Space Mission's score_scale)
POTENTIAL_SCALE = 50.0  # shaping potential: provisional total / POTENTIAL_SCALE
TOTAL = -1  # the column of the total in engine.scores (the last, in every game)


def check_reward_args(reward: str, shaping: bool, gamma: float) -> None:
    """ValueError naming the first bad argument and its value, cut (checks.shown); for one
    of the wrong type (``reward`` not a str, ``shaping`` not a bool, ``gamma`` not a real
    number or a bool) checks.SettingTypeError, a ValueError that is also a TypeError."""
    if not isinstance(reward, str):  # before `in`: an array's `in` is numpy's "truth value" error
        raise SettingTypeError(wrong_type_text("reward", f"one of {REWARD_MODES} (a str)", reward))
    if reward not in REWARD_MODES:
        raise ValueError(f"unknown reward {shown(reward)}; expected one of {REWARD_MODES}")
    if not isinstance(shaping, (bool, np.bool_)):  # 0 and 1 too: no truthiness of whatever is given
        raise SettingTypeError(wrong_type_text("shaping", "True or False (a bool)", shaping))
    if isinstance(gamma, (bool, np.bool_)) or not isinstance(gamma, (int, float, np.integer, np.floating)):
        raise SettingTypeError(wrong_type_text("gamma", "a number in (0, 1] (an int or float)", gamma))
    try:
        ok = 0.0 < float(gamma) <= 1.0
    except OverflowError:  # an int past float's range (10**400)
        ok = False
    if not ok:
        raise ValueError(f"gamma must be a number in (0, 1], got {shown(gamma)}")


def score_margin(totals: np.ndarray, scale: float = SCORE_SCALE) -> np.ndarray:
    """(own - mean of the others) / scale for totals ``[..., P]``, float32."""
    t = np.asarray(totals, dtype=np.float64)
    p = t.shape[-1]
    others = (t.sum(axis=-1, keepdims=True) - t) / (p - 1)
    return ((t - others) / scale).astype(np.float32)


def potential(scores: np.ndarray, scale: float = POTENTIAL_SCALE) -> np.ndarray:
    """Phi for every seat: provisional totals / scale, float32 ``[B, P]`` from ``engine.scores``."""
    return scores[..., TOTAL].astype(np.float32) / np.float32(scale)


def score_view(st, rows: np.ndarray):
    """The games ``rows`` of a batch as a batch of their own, so that finished games are
    scored without scoring the whole batch: the state's ``score_view(rows)`` where its
    engine offers one (only the fields ``scores`` and ``rewards`` read), else
    ``BatchState.take``; both check ``rows`` (a row out of range is a ValueError naming it
    and the batch size)."""
    view = getattr(st, "score_view", None)
    return view(rows) if view is not None else st.take(rows)


class RewardFunction:
    """Per-step rewards ``[B, P]`` for a batch of games stepped by ``engine.step``.

    Use: ``phi = rf.before(st)`` before the step (None unless shaping), remember the
    acting seats and which games were running, step, then
    ``rf.after(st, running, actor, phi)``.
    """

    def __init__(self, reward: str = "win", shaping: bool = False, gamma: float = 1.0,
                 game: "str | Game" = "spacemission"):
        check_reward_args(reward, shaping, gamma)
        self.reward = reward
        self.shaping = bool(shaping)
        self.gamma = float(gamma)
        self.game_name = get_game(game).name  # the Game by name, so that a RewardFunction pickles
        self.scale = get_game(game).score_scale

    @property
    def engine(self):
        return get_game(self.game_name).engine

    def terminal(self, st, rows: np.ndarray | None = None) -> np.ndarray:
        """Terminal rewards ``[len(rows), P]`` of the finished games ``rows`` of ``st``
        (all games when None), scored on those rows only."""
        sub = st if rows is None else score_view(st, rows)
        if self.reward == "win":
            return self.engine.rewards(sub).astype(np.float32, copy=False)
        return score_margin(self.engine.scores(sub)[..., TOTAL], self.scale)

    def before(self, st) -> np.ndarray | None:
        if not self.shaping:
            return None
        return potential(self.engine.scores(st), self.scale)

    def forfeit(self, st, seat: int, illegal_reward: float) -> float:
        """The offender's reward when an illegal action ends the game (``illegal_action=
        "lose"``): ``illegal_reward``, less its potential ``Phi_seat(s_k)`` under shaping,
        the ``-Phi`` every action pays (the game ends: the terminal potential is 0), so
        that shaping leaves the forfeit's return ``illegal_reward`` as without it."""
        if not self.shaping:
            return float(illegal_reward)
        return float(np.float32(illegal_reward) - potential(self.engine.scores(st), self.scale)[0, seat])

    def after(self, st, running: np.ndarray, actor: np.ndarray | None, phi_before: np.ndarray | None) -> np.ndarray:
        """Rewards of the step just taken: ``running`` bool [B] (games that were not
        over before it), ``actor`` int [B] (the seat that acted; read under shaping only,
        may be None without it), ``phi_before`` from :meth:`before` (None without shaping).
        ValueError under shaping when ``actor`` or ``phi_before`` is None."""
        b = st.batch_size
        out = np.zeros((b, st.num_players), dtype=np.float32)
        over = st.terminated
        ended = running & over
        if ended.any():
            rows = np.flatnonzero(ended)
            out[rows] = self.terminal(st, rows)
        if self.shaping:
            if actor is None or phi_before is None:
                missing = "actor" if actor is None else "phi_before"
                raise ValueError(f"RewardFunction.after: {missing} is None, but shaping needs it "
                                 "(phi_before: what before(st) returned; actor: the seat that acted in each game)")
            rows = np.flatnonzero(running)
            out[rows, actor[rows]] -= phi_before[rows, actor[rows]]
            cont = np.flatnonzero(running & ~over)
            if cont.size:
                nxt = st.current_player[cont].astype(np.intp)
                out[cont, nxt] += np.float32(self.gamma) * potential(self.engine.scores(st), self.scale)[cont, nxt]
        return out
