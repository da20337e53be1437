r"""Rewards shared by every interface (AEC, vector, Gymnasium, SB3).

Modes (``reward=``):

* ``"win"``: terminal only; the rank rewards of ``scoring.rank_rewards``
  (``engine.rewards``): 2 players +1 / -1 (0 on a shared win); 3-5 players
  zero-sum by rank in [-1, 1], rank r of P worth ``1 - 2r/(P-1)``, ties averaged.
  Ranks follow R-P8 (points, then stations).
* ``"score"``: terminal only; ``(own total - mean of the others' totals) / 50``.

Both are paid on the step that ends the game, also when it ends at the round limit
(R-E3 scores the game like any other end; every interface reports it as terminated).

Optional potential-based shaping (``shaping=True``, Ng, Harada & Russell 1999), with
potential ``Phi_i(s) = provisional total of seat i in s / 50`` (``engine.scores``,
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

from . import engine
from .config import SPACE_MISSION
from .scoring import SCORE_KEYS

REWARD_MODES = SPACE_MISSION.reward_names  # ("win", "score"), their ranges in the description
SCORE_SCALE = 50.0  # "score" mode: (own - mean others) / SCORE_SCALE
POTENTIAL_SCALE = 50.0  # shaping potential: provisional total / POTENTIAL_SCALE
TOTAL = SCORE_KEYS.index("total")  # column of the total in engine.scores


def check_reward_args(reward: str, shaping: bool, gamma: float) -> None:
    if reward not in REWARD_MODES:
        raise ValueError(f"unknown reward {reward!r}; expected one of {REWARD_MODES}")
    if not isinstance(shaping, (bool, np.bool_)):
        raise ValueError(f"shaping must be True or False, got {shaping!r}")
    if isinstance(gamma, bool) or not isinstance(gamma, (int, float)) or not 0.0 < float(gamma) <= 1.0:
        raise ValueError(f"gamma must be a number in (0, 1], got {gamma!r}")


def score_margin(totals: np.ndarray) -> np.ndarray:
    """(own - mean of the others) / 50 for totals ``[..., P]``, float32."""
    t = np.asarray(totals, dtype=np.float64)
    p = t.shape[-1]
    others = (t.sum(axis=-1, keepdims=True) - t) / (p - 1)
    return ((t - others) / SCORE_SCALE).astype(np.float32)


def potential(scores: np.ndarray) -> np.ndarray:
    """Phi for every seat: provisional totals / 50, float32 ``[B, P]`` from ``engine.scores``."""
    return scores[..., TOTAL].astype(np.float32) / np.float32(POTENTIAL_SCALE)


class _ScoreView:
    """The fields of some games of a BatchState that ``engine.scores`` and
    ``engine.rewards`` read, so that finished games are scored without scoring the
    whole batch (tested against the full-batch results)."""

    def __init__(self, st, rows: np.ndarray):
        self.num_players = st.num_players
        self.batch_size = len(rows)
        for name in ("collection", "gate_probes", "stations", "terminated", "round_limit"):
            setattr(self, name, getattr(st, name)[rows])


def score_view(st, rows: np.ndarray) -> _ScoreView:
    return _ScoreView(st, np.asarray(rows))


class RewardFunction:
    """Per-step rewards ``[B, P]`` for a batch of games stepped by ``engine.step``.

    Use: ``phi = rf.before(st)`` before the step (None unless shaping), remember the
    acting seats and which games were running, step, then
    ``rf.after(st, running, actor, phi)``.
    """

    def __init__(self, reward: str = "win", shaping: bool = False, gamma: float = 1.0):
        check_reward_args(reward, shaping, gamma)
        self.reward = reward
        self.shaping = bool(shaping)
        self.gamma = float(gamma)

    def terminal(self, st, rows: np.ndarray | None = None) -> np.ndarray:
        """Terminal rewards ``[len(rows), P]`` of the finished games ``rows`` of ``st``
        (all games when None), scored on those rows only."""
        sub = st if rows is None else score_view(st, rows)
        if self.reward == "win":
            return engine.rewards(sub).astype(np.float32, copy=False)
        return score_margin(engine.scores(sub)[..., TOTAL])

    def before(self, st) -> np.ndarray | None:
        if not self.shaping:
            return None
        return potential(engine.scores(st))

    def after(self, st, running: np.ndarray, actor: np.ndarray, phi_before: np.ndarray | None) -> np.ndarray:
        """Rewards of the step just taken: ``running`` bool [B] (games that were not
        over before it), ``actor`` int [B] (the seat that acted), ``phi_before`` from
        :meth:`before`."""
        b = st.batch_size
        out = np.zeros((b, st.num_players), dtype=np.float32)
        over = st.terminated
        ended = running & over
        if ended.any():
            rows = np.flatnonzero(ended)
            out[rows] = self.terminal(st, rows)
        if self.shaping:
            rows = np.flatnonzero(running)
            out[rows, actor[rows]] -= phi_before[rows, actor[rows]]
            cont = np.flatnonzero(running & ~over)
            if cont.size:
                nxt = st.current_player[cont].astype(np.intp)
                out[cont, nxt] += np.float32(self.gamma) * potential(engine.scores(st))[cont, nxt]
        return out
