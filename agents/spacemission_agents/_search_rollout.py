"""Rollouts of the search bot (agents/spacemission_agents/search.py); private.

- Rollout policies play *every* seat of a batch of determinized worlds inside the fast
  engine: :class:`GreedyRollout` (GreedyAgent's compiled kernel on features read straight
  from the world's state, so it sees the world's true piles: no observation to build and
  decode), :class:`KindRandomRollout` (``engine.sample_actions(by_kind=True)``) and
  :class:`AgentRollout` (any agent object: ``act_batch`` on each acting seat's own
  observation of the type it asks for).
- :func:`simulate` steps a batch until every game has ended, or a depth or a deadline
  is reached, dropping finished games from the batch as it goes, and returns each row's
  outcome and score margin for seat 0 (the searching player's seat in its worlds).
"""
from __future__ import annotations

import numpy as np
from spacemission_env.engine_common import quiet
from spacemission_env.jit import njit
from spacemission_env.rng import salt64

from spacemission_env.space_mission import engine
from spacemission_env.space_mission.engine.api import collection_points
from spacemission_env.space_mission.engine.state import TABLES, BatchState

from ._bot_features import (
    CONSTS,
    DEV_PAIRS,
    F_LEFT,
    F_NHAND,
    F_NPLAYERS,
    F_OVER,
    F_PENDING,
    F_ROUND,
    F_SHIP,
    F_TILE,
    NPLANET,
    NSCAL,
    NSEAT,
    P_EXACT,
    P_OWNER,
    P_POINTS,
    P_REVEALED,
    P_SEEN,
    P_SIZE,
    S_GATE,
    S_PRESENT,
    S_SUPPLY,
)
from .greedy import greedy_kernel

CARD_TABLE, PLANET_COORDS = TABLES[0], TABLES[1]


# --- the greedy policy on the world's state ------------------------------------------------
# Fills the same Features arrays as _bot_features._extract does from an observation, for the
# acting seat (seats relative to it), but from the full state: the piles are known exactly
# (a determinized world has no hidden information left for its rollouts).
@njit
def _state_features(ring, piles, revealed, hand, hand_len, supply, gate_probes, ship, collection, scanned,
                    reservations, stations, current_player, phase, pending, terminated, round_, actions_left,
                    card_table, planet_coords, scal, hand_f, ring_f, seat_f, scanned_f, planet_f, col_f, res_f,
                    pres_f):
    nb = ring.shape[0]
    n = hand.shape[1]
    for b in range(nb):
        q = current_player[b]
        for k in range(scal.shape[1]):
            scal[b, k] = 0
        scal[b, F_TILE] = phase[b]
        scal[b, F_PENDING] = pending[b]
        scal[b, F_LEFT] = actions_left[b]
        scal[b, F_ROUND] = round_[b]
        scal[b, F_OVER] = terminated[b]
        scal[b, F_SHIP] = ship[b, q]
        scal[b, F_NHAND] = hand_len[b, q]
        scal[b, F_NPLAYERS] = n
        for s in range(5):
            for c in range(3):
                hand_f[b, s, c] = card_table[hand[b, q, s], c] if s < hand_len[b, q] else 0
        for p in range(8):
            pc = planet_coords[ring[b, p]]
            ring_f[b, p, 0] = pc[0]
            ring_f[b, p, 1] = pc[1]
            ring_f[b, p, 2] = min(pc[2], pc[3])
            ring_f[b, p, 3] = max(pc[2], pc[3])
        for r in range(5):
            for k in range(seat_f.shape[2]):
                seat_f[b, r, k] = 0
            for p in range(8):
                scanned_f[b, r, p] = 0
            if r < n:
                qr = (q + r) % n
                seat_f[b, r, S_PRESENT] = 1
                seat_f[b, r, S_SUPPLY] = supply[b, qr]
                seat_f[b, r, S_GATE] = gate_probes[b, qr]
                for p in range(8):
                    scanned_f[b, r, p] = scanned[b, qr, p]
        for t in range(10):
            col_f[b, t] = collection[b, q, t]
        for p in range(8):
            pts = 0
            for t in range(10):
                pts += piles[b, p, t]
                res_f[b, p, t] = reservations[b, p, q, t]
                pres_f[b, p, t] = 1.0 if piles[b, p, t] > 0 else 0.0
            planet_f[b, p, P_SIZE] = pts + piles[b, p, 10]
            planet_f[b, p, P_POINTS] = pts
            planet_f[b, p, P_REVEALED] = revealed[b, p]
            planet_f[b, p, P_OWNER] = (stations[b, p] - q) % n if stations[b, p] >= 0 else -1
            planet_f[b, p, P_SEEN] = 1
            planet_f[b, p, P_EXACT] = 1


class GreedyRollout:
    """GreedyAgent's decision kernel for every seat, on features read from the world
    state (exact piles). ``salt`` salts its tie-breaks like GreedyAgent's seed."""

    name = "greedy"

    def __init__(self, salt: int = 0):
        self._salt = np.uint64(salt64(salt))  # any seed the bots accept (BotBase.seed folds it the same way)
        self._n = -1

    def _buffers(self, n: int):
        if n != self._n:
            self._f = (np.zeros((n, NSCAL), np.int64), np.zeros((n, 5, 3), np.int64), np.zeros((n, 8, 4), np.int64),
                       np.zeros((n, 5, NSEAT), np.int64), np.zeros((n, 5, 8), np.int64),
                       np.zeros((n, 8, NPLANET), np.int64), np.zeros((n, 10), np.int64),
                       np.zeros((n, 8, 10), np.int64), np.zeros((n, 8, 10)))
            self._out = np.zeros(n, np.int64)
            self._n = n
        return self._f, self._out

    def act(self, st: BatchState, mask: np.ndarray) -> np.ndarray:
        (scal, hand, ring, seat, scanned, planet, col, res, pres), out = self._buffers(st.batch_size)
        _state_features(st.ring, st.piles, st.revealed, st.hand, st.hand_len, st.supply, st.gate_probes, st.ship,
                        st.collection, st.scanned, st.reservations, st.stations, st.current_player, st.phase,
                        st.pending, st.terminated, st.round, st.actions_left, CARD_TABLE, PLANET_COORDS, scal, hand,
                        ring, seat, scanned, planet, col, res, pres)
        with quiet():  # NUMBA_DISABLE_JIT: the tie-break hash's uint64 wrap-around warns in plain Python
            greedy_kernel(scal, hand, ring, seat, scanned, planet, col, res, pres, mask, DEV_PAIRS, CONSTS, self._salt,
                          out)
        return out


class KindRandomRollout:
    """Uniform over the legal action kinds, then ids (engine.sample_actions by_kind)."""

    name = "kind-random"

    def __init__(self, rng: np.random.Generator):
        self.rng = rng

    def act(self, st: BatchState, mask: np.ndarray) -> np.ndarray:
        return engine.sample_actions(mask, self.rng, by_kind=True)


class AgentRollout:
    """Any agent object plays every seat: ``act_batch`` on the acting seat's own
    observation (its ``observation_type``, default "info"), or none if it does not use one."""

    def __init__(self, agent):
        self.agent = agent
        self.name = getattr(agent, "name", type(agent).__name__)
        self._uses = getattr(agent, "uses_observation", True) is not False
        self._type = getattr(agent, "observation_type", None) or "info"

    def act(self, st: BatchState, mask: np.ndarray) -> np.ndarray:
        if self._uses:
            obs = engine.observe(st, observation_type=self._type)
        else:
            obs = np.empty((st.batch_size, 0), np.int8)
        live = ~st.terminated
        out = np.zeros(st.batch_size, np.int64)
        if live.all():
            out[:] = self.agent.act_batch(obs, mask)
        elif live.any():
            out[live] = self.agent.act_batch(obs[live], mask[live])
        return out


def static_values(st: BatchState, reservation_weight: float) -> np.ndarray:
    """float [B, P]: each seat's provisional score (R-P1..R-P7) plus ``reservation_weight``
    x what its reservations would add to its collection (R-A5: a develop collects them;
    R-E2: lost at the end if the planet is never developed)."""
    total = engine.scores(st)[:, :, 7].astype(np.float64)
    if reservation_weight:
        col = st.collection.astype(np.int64)
        with_res = col + st.reservations.astype(np.int64).sum(axis=1)  # [B, P, 10]
        total += reservation_weight * (collection_points(with_res) - collection_points(col))
    return total


def _final_values(st: BatchState, rows: np.ndarray, outcome: np.ndarray, margin: np.ndarray, done: np.ndarray,
                  reservation_weight: float) -> None:
    """Seat 0's outcome (R-P8 rank reward in [-1, 1], ties shared; 0 while running) and its
    margin over the best rival: the final scores, or for a running game the static values."""
    over = st.terminated
    v = static_values(st, 0.0 if over.all() else reservation_weight)
    if over.any() and not over.all():
        v[over] = engine.scores(st)[over][:, :, 7]
    margin[rows] = v[:, 0] - v[:, 1:].max(axis=1)
    outcome[rows] = engine.rewards(st)[:, 0]
    done[rows] = over


def simulate(st: BatchState, policy, turns: int | None = None, deadline: float | None = None, clock=None,
             reservation_weight: float = 0.5, head=None, head_steps: int = 0) -> tuple[np.ndarray, np.ndarray, np.ndarray, int]:
    """Play every game of ``st`` (changed in place, then dropped) with ``head`` at every seat
    for the first ``head_steps`` steps, then with ``policy``, until it ends, or (``turns``)
    until seat 0 is about to start its ``turns``-th turn after the current one, or until
    ``clock() >= deadline``.
    Returns (outcome, margin, done, decisions) per original row: see :func:`_final_values`."""
    b = st.batch_size
    outcome, margin, done = np.zeros(b), np.zeros(b), np.zeros(b, np.bool_)
    idx = np.arange(b)
    decisions = steps = 0
    mask = np.empty((b, 100), np.bool_)
    # the round each game stops at, in int64: round0 + turns in the engine's int32 wrapped for a
    # large ``turns`` (2**31 - 1 stopped every rollout at once) or overflowed (2**31). A round past
    # max_rounds is never reached, so such a depth is no cut at all
    if turns is not None and turns >= st.max_rounds:
        turns = None
    stop = st.round.astype(np.int64) + turns if turns is not None else None
    while True:
        alive = ~st.terminated
        if turns is not None:
            alive &= ~((st.round >= stop) & (st.current_player == 0) & (st.actions_left == 2)
                       & (st.phase == 0))
        n_alive = int(alive.sum())
        if n_alive == 0 or (deadline is not None and clock() >= deadline):
            break
        if st.batch_size >= 8 and 2 * n_alive <= st.batch_size:  # drop the finished games
            dead = np.flatnonzero(~alive)
            _final_values(st.take(dead), idx[dead], outcome, margin, done, reservation_weight)
            live = np.flatnonzero(alive)
            st, idx = st.take(live), idx[live]
            stop = stop[live] if stop is not None else None
            alive = np.ones(live.size, np.bool_)
            mask = np.empty((st.batch_size, 100), np.bool_)
        engine.legal_action_mask(st, out=mask)
        actions = (head if steps < head_steps else policy).act(st, mask)
        engine.step(st, actions, select=None if alive.all() else alive)
        decisions += n_alive
        steps += 1
    _final_values(st, idx, outcome, margin, done, reservation_weight)
    return outcome, margin, done, decisions
