"""Shared machinery of the scripted bots (GreedyAgent, HeuristicAgent); private.

- :func:`extract`: reads the observation blocks by name through ``spacemission_env.decode``
  (views ``[N, *block_shape]``, never raw offsets) and turns them, in one numba kernel,
  into compact per-row arrays (:class:`Features`): the ship, the hand as coordinates, the
  ring, per-seat and per-planet facts, and an estimate of every pile's point tiles from
  the observer's own last visits (R-I3, R-I5) and the tiles it cannot place.
- :class:`BotBase`: the opponent protocol (``act``, ``act_batch``, ``seed``,
  ``name``, ``observation_type``, ``bind``) around a subclass's batch kernel.
"""
from __future__ import annotations

import functools
from typing import NamedTuple

import numpy as np

from spacemission_env.checks import is_int, shown
from spacemission_env.engine_common import check_seat_present, kernel_input, quiet
from spacemission_env.obs_layout import required_block_span
from spacemission_env.rng import salt64
from spacemission_env.games import BindConfig, bind_players
from spacemission_env.space_mission.encoding import decode
from spacemission_env.space_mission import encoding as E
from spacemission_env.space_mission.actions import DEVELOP_PAIRS, NUM_ACTIONS
from spacemission_env.space_mission.components import (
    END_THRESHOLD,
    GATE_RANK_POINTS,
    HAND_SIZE,
    JOKER,
    MATTER_PAIR_POINTS,
    MATTER_SINGLE_POINTS,
    MAX_PLAYERS,
    MEDAL_POINTS,
    MIN_PLAYERS,
    NUM_POINT_TYPES,
    RING_SIZE,
    SPACE,
    STATION_POINTS,
    TILE_COUNTS,
    WATER_TABLE,
)
from spacemission_env.jit import njit
from spacemission_env.policies import BasePolicy, check_masks
from spacemission_env.space_mission.scoring import ALIENS, MATTER_BLUE, MATTER_GREEN, MEDAL, MINERALS, WATER

# The kernels hard-code the R-C3 tile order and the card feature layout (docs/observation.md).
assert MINERALS == (0, 1, 2, 3) and ALIENS == (4, 5) and (MATTER_GREEN, MATTER_BLUE, WATER, MEDAL) == (6, 7, 8, 9)
assert SPACE == 10 and NUM_POINT_TYPES == 10 and RING_SIZE == 8 and HAND_SIZE == 5 and JOKER == 5
assert E.CARD_FEATURES == 15

OBSERVATION_TYPE = "recall" if "recall" in E.OBSERVATION_TYPES else "info"


@functools.lru_cache(maxsize=None)
def observation_size(observation_type: str) -> int:
    return E.observation_size(observation_type)


# --- constants passed into the kernels (not numba globals: a replaced data file must not
# meet a stale compiled constant) -----------------------------------------------------------
def _constants() -> np.ndarray:
    c = np.zeros(32, dtype=np.int64)
    c[0] = STATION_POINTS
    c[1] = MATTER_PAIR_POINTS
    c[2] = MATTER_SINGLE_POINTS
    c[3] = MEDAL_POINTS
    c[4:9] = WATER_TABLE[:5]
    c[9:9 + len(GATE_RANK_POINTS)] = GATE_RANK_POINTS  # ranks beyond the table score 0
    c[14:24] = TILE_COUNTS[:NUM_POINT_TYPES]
    c[24] = TILE_COUNTS[SPACE]
    c[25:31] = END_THRESHOLD[:6]
    return c


CONSTS = _constants()
DEV_PAIRS = np.array(DEVELOP_PAIRS, dtype=np.int64)  # [10, 2] slot pairs of the develop ids
C_STATION, C_PAIR, C_SINGLE, C_MEDAL, C_WATER, C_GATE, C_COUNTS, C_SPACE, C_END = 0, 1, 2, 3, 4, 9, 14, 24, 25
# The C_*, F_*, S_*, P_* indices below are structural: numba bakes them into the bots' cached
# kernels as constants; spacemission_env/jit.py keys those caches on this file's source too.

# scalar features per row (Features.scal columns)
F_TILE, F_PENDING, F_LEFT, F_ROUND, F_ROUNDS_LEFT, F_END, F_REVEALED, F_TO_END, F_DRAW, F_DISCARD = range(10)
F_NPLAYERS, F_SHIP, F_NHAND, F_ACTING, F_START, F_OVER = range(10, 16)
NSCAL = 16
# per-seat columns (Features.seat)
S_PRESENT, S_SUPPLY, S_GATE, S_HAND, S_COLLECTED, S_SHIP, S_STATIONS, S_PROBES = range(8)
NSEAT = 8
# per-planet columns (Features.planet)
P_SIZE, P_REVEALED, P_SPACE, P_OWNER, P_POINTS, P_SEEN, P_EXACT = range(7)
NPLANET = 7

BLOCKS = (
    "tile_decision", "pending", "actions_left", "round", "rounds_left", "end_triggered", "game_over",
    "revealed_count", "revealed_to_end", "draw_pile_size", "discard_pile_size", "seat_present", "acting_seat",
    "start_seat", "ring_jump", "ring_scan", "ring_landing", "pile_size", "revealed", "revealed_space", "station",
    "probes", "ship", "supply", "gate_probes", "hand_size", "collected", "scanned", "own_hand", "own_collection",
    "own_reservations", "pile_seen", "visited", "last_visit_pile",
)


class Features(NamedTuple):
    """Compact per-row facts derived from one observer's observation (batch first)."""

    scal: np.ndarray  # int64 [N, NSCAL]
    hand: np.ndarray  # int64 [N, 5, 3]: jump, scan, landing value (0 absent, 1-4, 5 joker)
    ring: np.ndarray  # int64 [N, 8, 4]: jump, scan, landing 1, landing 2
    seat: np.ndarray  # int64 [N, 5, NSEAT] (relative seats)
    scanned: np.ndarray  # int64 [N, 5, 8]
    planet: np.ndarray  # int64 [N, 8, NPLANET]
    probes: np.ndarray  # int64 [N, 8, 5]
    col: np.ndarray  # int64 [N, 10] own collection
    res: np.ndarray  # int64 [N, 8, 10] own reservations (zero where the table view hides them)
    pres: np.ndarray  # float64 [N, 8, 10] probability that the pile holds that point-tile type now
    est: np.ndarray  # float64 [N, 8, 10] expected count of that type in the pile now
    seen: np.ndarray  # int64 [N, 11] the pile in view during the observer's tile decision
    avail: np.ndarray  # float64 [N, 10] tiles of each type the observer cannot place (unseen pool)


@njit
def _onehot_value(row, start, width):
    for v in range(width):
        if row[start + v] != 0:
            return v + 1
    return 0


@njit
def _extract(tile_decision, pending, actions_left, round_, rounds_left, end_triggered, game_over, revealed_count,
             revealed_to_end, draw_pile_size, discard_pile_size, seat_present, acting_seat, start_seat, ring_jump,
             ring_scan, ring_landing, pile_size, revealed, revealed_space, station, probes, ship, supply, gate_probes,
             hand_size, collected, scanned, own_hand, own_collection, own_reservations, pile_seen, visited,
             last_visit_pile, consts, scal, hand, ring, seat, scn, planet, prb, col, res, pres, est, seen, avail):
    n = scal.shape[0]
    for i in range(n):
        scal[i, F_TILE] = tile_decision[i, 0]
        pd = 0
        for k in range(3):
            if pending[i, k] != 0:
                pd = k + 1
        scal[i, F_PENDING] = pd
        scal[i, F_LEFT] = actions_left[i, 0]
        scal[i, F_ROUND] = round_[i, 0]
        scal[i, F_ROUNDS_LEFT] = rounds_left[i, 0]
        scal[i, F_END] = end_triggered[i, 0]
        scal[i, F_OVER] = game_over[i, 0]
        scal[i, F_REVEALED] = revealed_count[i, 0]
        scal[i, F_TO_END] = revealed_to_end[i, 0]
        scal[i, F_DRAW] = draw_pile_size[i, 0]
        scal[i, F_DISCARD] = discard_pile_size[i, 0]
        npl = 0
        for q in range(5):
            npl += seat_present[i, q] != 0
        scal[i, F_NPLAYERS] = npl
        scal[i, F_ACTING] = _onehot_value(acting_seat[i], 0, 5) - 1
        scal[i, F_START] = _onehot_value(start_seat[i], 0, 5) - 1
        scal[i, F_NHAND] = hand_size[i, 0]
        for s in range(5):
            for c in range(3):
                hand[i, s, c] = _onehot_value(own_hand[i, s], 5 * c, 5)
        for p in range(8):
            ring[i, p, 0] = _onehot_value(ring_jump[i, p], 0, 4)
            ring[i, p, 1] = _onehot_value(ring_scan[i, p], 0, 4)
            l1 = 0
            l2 = 0
            for v in range(4):
                m = ring_landing[i, p, v]
                if m >= 2:
                    l1 = v + 1
                    l2 = v + 1
                elif m == 1:
                    if l1 == 0:
                        l1 = v + 1
                    else:
                        l2 = v + 1
            ring[i, p, 2] = l1
            ring[i, p, 3] = l2
        for q in range(5):
            seat[i, q, S_PRESENT] = seat_present[i, q]
            seat[i, q, S_SUPPLY] = supply[i, q]
            seat[i, q, S_GATE] = gate_probes[i, q]
            seat[i, q, S_HAND] = hand_size[i, q]
            seat[i, q, S_COLLECTED] = collected[i, q]
            seat[i, q, S_SHIP] = _onehot_value(ship[i, q], 0, 8) - 1
            seat[i, q, S_STATIONS] = 0
            seat[i, q, S_PROBES] = 0
            for p in range(8):
                scn[i, q, p] = scanned[i, q, p]
        scal[i, F_SHIP] = seat[i, 0, S_SHIP]
        for t in range(10):
            col[i, t] = own_collection[i, t]
        for t in range(11):
            seen[i, t] = pile_seen[i, t]
        # the unseen pool: every tile minus what the observer can place (own collection and
        # reservations, face-up space tiles, piles as last seen on its own visits)
        unk_space = np.float64(consts[C_SPACE])
        for t in range(10):
            avail[i, t] = consts[C_COUNTS + t] - own_collection[i, t]
        for p in range(8):
            planet[i, p, P_SIZE] = pile_size[i, p]
            planet[i, p, P_REVEALED] = revealed[i, p]
            planet[i, p, P_SPACE] = revealed_space[i, p]
            unk_space -= revealed_space[i, p]
            owner = _onehot_value(station[i, p], 0, 5) - 1
            planet[i, p, P_OWNER] = owner
            if owner >= 0:
                seat[i, owner, S_STATIONS] += 1
            for q in range(5):
                prb[i, p, q] = probes[i, p, q]
                seat[i, q, S_PROBES] += probes[i, p, q]
            for t in range(10):
                res[i, p, t] = own_reservations[i, p, t]
                avail[i, t] -= own_reservations[i, p, t]
            # the pile after its own last visit, if the view shows it (recall; a table view
            # under schmidt shows the visit but not the pile: all zero while tiles remain)
            known = 0
            if visited[i, 0, p] != 0:
                for t in range(11):
                    known += last_visit_pile[i, p, t]
                if pile_size[i, p] == 0:
                    known = 1
            planet[i, p, P_SEEN] = 1 if known > 0 else 0
            if planet[i, p, P_SEEN] != 0 and revealed[i, p] == 0:
                unk_space -= last_visit_pile[i, p, 10]
                for t in range(10):
                    avail[i, t] -= last_visit_pile[i, p, t]
        tot = 0.0
        for t in range(10):
            if avail[i, t] < 0:
                avail[i, t] = 0.0
            tot += avail[i, t]
        unseen_tiles = 0.0
        for p in range(8):
            if planet[i, p, P_SEEN] == 0 and revealed[i, p] == 0:
                unseen_tiles += pile_size[i, p]
        if unk_space < 0:
            unk_space = 0.0
        point_frac = 1.0
        if unseen_tiles > 0:
            point_frac = max(0.0, (unseen_tiles - unk_space) / unseen_tiles)
        for p in range(8):
            planet[i, p, P_EXACT] = 0
            for t in range(10):
                pres[i, p, t] = 0.0
                est[i, p, t] = 0.0
            if revealed[i, p] != 0:  # R-V1: a revealed pile holds no point tile
                planet[i, p, P_POINTS] = 0
                planet[i, p, P_EXACT] = 1
                continue
            if planet[i, p, P_SEEN] != 0:
                last_pts = 0
                for t in range(10):
                    last_pts += last_visit_pile[i, p, t]
                cur = pile_size[i, p] - last_visit_pile[i, p, 10]  # space tiles never leave a pile
                if cur < 0:
                    cur = 0
                planet[i, p, P_POINTS] = cur
                removed = last_pts - cur
                if removed <= 0:
                    planet[i, p, P_EXACT] = 1
                    for t in range(10):
                        est[i, p, t] = last_visit_pile[i, p, t]
                        pres[i, p, t] = 1.0 if last_visit_pile[i, p, t] > 0 else 0.0
                else:  # others took `removed` of the tiles seen: hypergeometric guess
                    for t in range(10):
                        lt = last_visit_pile[i, p, t]
                        if lt == 0:
                            continue
                        est[i, p, t] = lt * cur / last_pts
                        gone = 1.0
                        if removed < lt:
                            gone = 0.0
                        else:
                            for k in range(lt):
                                gone *= (removed - k) / (last_pts - k)
                        pres[i, p, t] = 1.0 - gone
            else:
                npts = pile_size[i, p] * point_frac
                planet[i, p, P_POINTS] = np.int64(npts + 0.5)
                for t in range(10):
                    qt = avail[i, t] / tot if tot > 0 else 0.0
                    est[i, p, t] = npts * qt
                    pres[i, p, t] = 1.0 - (1.0 - qt) ** npts


def extract(obs: np.ndarray, observation_type: str, view: dict | None = None) -> Features:
    """Features of a batch of observations [N, D] (one kernel call). ``view``: the batch
    already decoded (``decode(obs, observation_type)``), where the caller has it."""
    v = decode(obs, observation_type) if view is None else view
    n = obs.shape[0]
    f = Features(
        scal=np.zeros((n, NSCAL), np.int64), hand=np.zeros((n, 5, 3), np.int64), ring=np.zeros((n, 8, 4), np.int64),
        seat=np.zeros((n, 5, NSEAT), np.int64), scanned=np.zeros((n, 5, 8), np.int64),
        planet=np.zeros((n, 8, NPLANET), np.int64), probes=np.zeros((n, 8, 5), np.int64),
        col=np.zeros((n, 10), np.int64), res=np.zeros((n, 8, 10), np.int64), pres=np.zeros((n, 8, 10)),
        est=np.zeros((n, 8, 10)), seen=np.zeros((n, 11), np.int64), avail=np.zeros((n, 10)))
    if n:
        _extract(*(v[name] for name in BLOCKS), CONSTS, *f)
    return f


# --- the protocol ----------------------------------------------------------------------------
@functools.lru_cache(maxsize=None)
def _seat_block(observation_type: str) -> tuple[int, int]:
    """(start, stop) of the observation's seat_present block (the player count the features read)."""
    return required_block_span(E.observation_layout(observation_type), "seat_present")


class BotBase(BasePolicy):
    """act / act_batch / seed / name / observation_type / bind around ``_decide(features, masks)``."""

    name = "bot"
    observation_type = OBSERVATION_TYPE
    uses_observation = True

    def __init__(self, seed: int | None = 0):
        self.config: BindConfig | None = None
        self.seed(seed)

    def seed(self, seed: int | None = None) -> None:
        """Deterministic play given the seed (None means 0); the seed only salts tie-breaks."""
        if seed is not None and (not is_int(seed) or seed < 0):
            raise ValueError(f"seed must be a non-negative integer or None, got {shown(seed)}")
        self._salt = np.uint64(salt64(seed or 0))

    def bind(self, config: BindConfig) -> None:
        """Receive the game configuration (num_players, rules, max_rounds) before play; the
        bots read everything they need from the observation, so it is only kept.
        ``config``: an object with ``num_players`` (and optionally ``game``) attributes, or a
        mapping with those keys. ValueError for a game other than Space Mission or a player
        count outside 2..5; TypeError for a config without ``num_players``."""
        bind_players(config, "spacemission", self.name)
        self.config = config

    def act_batch(self, observations: np.ndarray, action_masks: np.ndarray) -> np.ndarray:
        masks = check_masks(action_masks, NUM_ACTIONS)
        obs = np.asarray(observations)
        d = observation_size(self.observation_type)
        if obs.ndim != 2 or obs.shape[1] != d or obs.shape[0] != masks.shape[0]:
            raise ValueError(f"{self.name}: observations must have shape [{masks.shape[0]}, {d}] "
                             f"(observation_type {shown(self.observation_type)}), got {obs.shape}")
        if obs.dtype != np.int8:
            raise ValueError(f"{self.name}: observations must be int8, got {obs.dtype}")
        if masks.shape[0] and not masks.any(axis=1).all():
            raise ValueError(f"{self.name}: mask row {int(np.argmin(masks.any(axis=1)))} has no legal action")
        start, stop = _seat_block(self.observation_type)
        check_seat_present(obs[:, start:stop], self.name, MIN_PLAYERS, MAX_PLAYERS)
        return self._act_rows(kernel_input(obs, np.int8), masks)  # a slice or read-only view: a copy, not a compile

    def _act_rows(self, obs: np.ndarray, masks: np.ndarray, view: dict | None = None) -> np.ndarray:
        """act_batch on rows already checked; ``view``: ``obs`` decoded (``decode(obs,
        self.observation_type)``) where the caller has it (the search bot's prior)."""
        out = np.zeros(masks.shape[0], dtype=np.int64)
        if masks.shape[0]:
            with quiet():  # NUMBA_DISABLE_JIT: the tie-break hash's uint64 wrap-around warns in plain Python
                self._decide(extract(obs, self.observation_type, view), kernel_input(masks, np.bool_), out)
        return out

    def _decide(self, f: Features, masks: np.ndarray, out: np.ndarray) -> None:
        raise NotImplementedError

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"


# --- tie-break hashing, shared by the bots' kernels ----------------------------------------------
@njit
def mix_hash(h, x):
    """SplitMix64-style mixing, for deterministic per-position tie-breaks."""
    z = h + np.uint64(x) + np.uint64(0x9E3779B97F4A7C15)
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


@njit
def row_salt(salt, scal, hand, planet, col, i):
    """A hash of the row's salient facts and the bot's seed: tie-break noise that depends
    only on the seed and the observation, so act and act_batch agree row by row."""
    h = np.uint64(salt)
    for k in range(scal.shape[1]):
        h = mix_hash(h, scal[i, k] + 256)
    for s in range(5):
        for c in range(3):
            h = mix_hash(h, hand[i, s, c])
    for p in range(8):
        h = mix_hash(h, planet[i, p, 0])
    for t in range(10):
        h = mix_hash(h, col[i, t])
    return h


@njit
def noise(h, k):
    """A number in [0, 1) from the row hash and a candidate index."""
    return np.float64(mix_hash(h, k) >> np.uint64(11)) / 9007199254740992.0
