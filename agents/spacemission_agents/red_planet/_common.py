"""Shared machinery of the Mission: Red Planet bots; private.

- :class:`RedPlanetBot`: the opponent protocol of ``spacemission_env.policies`` for this
  game (``act``, ``act_batch``, ``seed``, ``bind``, ``observation_type``, ``name``) with
  the shape checks of Red Planet's ``Discrete(243)`` and its observation size; a subclass
  writes ``_decide(observations, masks) -> int[N]``.
- :class:`View`: the blocks a bot reads, from ``encoding.decode`` (named views, never raw
  offsets), plus what follows from them: the player count, the observer's absolute seat
  (``own_colour``: the action space names colours by absolute seat, the observation seats
  by relative seat), each
  pad slot's destination, and the *projection*: astronauts on Mars plus those aboard ships
  counted at their destinations (M-L4).
- :func:`tie_noise`: tie-break noise from a hash of the seed and the observation, so a bot
  is deterministic given its seed and ``act`` equals ``act_batch`` row by row.
"""
from __future__ import annotations

import functools

import numpy as np

from spacemission_env.checks import is_int, shown
from spacemission_env.obs_layout import required_block_span
from spacemission_env.rng import salt64
from spacemission_env.games import BindConfig, bind_players
from spacemission_env.engine_common import check_seat_present
from spacemission_env.policies import BasePolicy, check_masks
from spacemission_env.red_planet import actions as A
from spacemission_env.red_planet.components import (
    CENTRAL,
    EDGES,
    MAX_PLAYERS,
    MIN_PLAYERS,
    MINERAL_VALUE,
    NUM_ROLES,
    NUM_ZONES,
    SOLDIER,
    TRAVEL_AGENT,
)
from spacemission_env.red_planet.encoding import decode, observation_layout, observation_size
from spacemission_env.red_planet.rules.state import PHASES

GAME = "red_planet"
NUM_ACTIONS = A.NUM_ACTIONS
S = MAX_PLAYERS  # seat and pad-slot padding of the observation
Z = NUM_ZONES
PHASE = {name: i for i, name in enumerate(PHASES)}
MINERAL_VALUES = np.array(MINERAL_VALUE, dtype=np.float64)
IS_CENTRAL = np.array(CENTRAL, dtype=bool)
IS_OUTER = ~IS_CENTRAL
EDGE_FROM = np.array([a for a, _ in EDGES], dtype=np.int64)
EDGE_TO = np.array([b for _, b in EDGES], dtype=np.int64)
GROUP_SIZE = np.ones(NUM_ROLES, dtype=np.int64)  # astronauts one place action boards (M-O7, M-O8)
GROUP_SIZE[TRAVEL_AGENT], GROUP_SIZE[SOLDIER] = 3, 2


def block(kind: str) -> slice:
    """The ids of one action kind (docs/red_planet/actions.md)."""
    return slice(A.START[kind], A.START[kind] + A.SIZE[kind])


class View:
    """Decoded observation blocks of a batch [N, D] (relative seats, the observer is 0)
    and derived arrays; see the module docstring."""

    def __init__(self, obs: np.ndarray, masks: np.ndarray, observation_type: str):
        v = decode(obs, observation_type)
        self.raw = v
        f = lambda name: v[name].astype(np.float64)
        self.N = obs.shape[0]
        self.phase = v["phase"].argmax(axis=1)
        self.role = np.where(v["role"].any(axis=1), v["role"].argmax(axis=1), -1)
        self.round = v["round"][:, 0].astype(np.int64)
        self.n = v["seat_present"].sum(axis=1).astype(np.int64)
        self.opp = (np.arange(S)[None, :] > 0) & (np.arange(S)[None, :] < self.n[:, None])  # [N, S] opponents
        self.supply = f("supply")
        self.lism = f("lism")
        self.counters = f("counters")  # [N, S, 3]
        self.roles_left = v["roles_left"].astype(bool)  # [N, S, 9]
        self.mars = f("mars")  # [N, Z, S]
        self.mineral = v["mineral"]  # [N, Z, 3] one-hot
        self.revealed = self.mineral.any(axis=2)
        self.leftover = f("leftover")
        self.discovery_present = v["discovery_present"].astype(bool)
        self.token_supply = v["token_supply"]
        # (numpy's stubs type any(axis=k) as "a bool or an array": an array here)
        self.slot_used: np.ndarray = v["slot_ship"].any(axis=2)  # type: ignore[assignment]  # [N, K]
        self.airborne = v["slot_airborne"].astype(bool)
        self.on_pad = self.slot_used & ~self.airborne
        self.capacity = f("slot_capacity")
        self.free = f("slot_free")
        self.has_dest: np.ndarray = v["slot_destination"].any(axis=2)  # type: ignore[assignment]
        self.dest = np.where(self.has_dest, v["slot_destination"].argmax(axis=2), Z)  # Z: none (the sink zone)
        self.crew = f("slot_crew")  # [N, K, S]
        self.pending = np.where(v["pending_slot"].any(axis=1), v["pending_slot"].argmax(axis=1), -1)
        self.placed = v["placed"]
        self.event_pile = v["event_pile_size"][:, 0].astype(np.int64)
        self.pool = f("mineral_pool")  # [N, 3]
        self.own_bonus = v["own_bonus"].astype(bool)
        self.setup_hand = v["own_setup_hand"].astype(bool)
        self.known_discovery = v["known_discovery"].astype(bool)  # [N, Z, 11]
        self.drawn = np.where(v["drawn"].any(axis=1), v["drawn"].argmax(axis=1), -1)
        self.me = v["own_colour"].argmax(axis=1).astype(np.int64)  # absolute seat: the colour ids of seduce / kill

    def slot_weights(self, pad_weight: float | np.ndarray) -> np.ndarray:
        """[N, K] weight of each slot's crew: 1 in the air, ``pad_weight`` on the pad, 0 empty."""
        pw = np.broadcast_to(np.asarray(pad_weight, dtype=np.float64), (self.N,))[:, None]
        return np.where(self.airborne, 1.0, pw) * self.slot_used

    def pool_value(self, values: np.ndarray = MINERAL_VALUES) -> np.ndarray:
        """[N] expected value of the next mineral token drawn from the pool (M-L5)."""
        total = self.pool.sum(axis=1)
        return np.where(total > 0, (self.pool * values).sum(axis=1) / np.maximum(total, 1), values.mean())

    def zone_value(self, values: np.ndarray = MINERAL_VALUES) -> np.ndarray:
        """[N, Z] value of one counter of each zone: its revealed type, else the pool's mean."""
        known = (self.mineral * values).sum(axis=2)
        return np.where(self.revealed, known, self.pool_value(values)[:, None])

    def projection(self, pad_weight: float | np.ndarray) -> np.ndarray:
        """[N, Z + 1, S]: Mars plus ship crews at their destinations (airborne ships weigh 1,
        pad ships ``pad_weight``, a number or one per row [N]); zone Z is a sink for ships
        without destination."""
        proj = np.zeros((self.N, Z + 1, S))
        proj[:, :Z] = self.mars
        w = self.slot_weights(pad_weight)
        rows = np.repeat(np.arange(self.N), S)
        np.add.at(proj, (rows, self.dest.reshape(-1)), (self.crew * w[:, :, None]).reshape(-1, S))
        return proj


def finite(values: np.ndarray) -> np.ndarray:
    """Values with -inf / NaN (an impossible option, e.g. a hand-piloted ship when no
    destination token is left) as -1e9 and +inf as 1e9, so a legal action always
    outranks the masked ones."""
    return np.nan_to_num(values, nan=-1e9, neginf=-1e9, posinf=1e9)


_GOLDEN = np.uint64(0x9E3779B97F4A7C15)


def _mix(z: np.ndarray) -> np.ndarray:
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


def tie_noise(obs: np.ndarray, salt: int, scale: float = 1e-6) -> np.ndarray:
    """[N, NUM_ACTIONS] noise in [0, scale): a hash of the seed, the observation and the
    action id (SplitMix64 mixing); the same observation gives the same noise."""
    d = obs.shape[1]
    weights = _mix(np.arange(1, d + 1, dtype=np.uint64) * _GOLDEN + np.uint64(salt))
    with np.errstate(over="ignore"):
        h = (obs.astype(np.int64).astype(np.uint64) * weights[None, :]).sum(axis=1, dtype=np.uint64)
        ids = np.arange(NUM_ACTIONS, dtype=np.uint64) * _GOLDEN
        z = _mix(h[:, None] + ids[None, :] + np.uint64(salt))
    return (z >> np.uint64(11)).astype(np.float64) / float(2**53) * scale


def check_seed(seed) -> int:
    if seed is not None and (not is_int(seed) or seed < 0):
        raise ValueError(f"seed must be a non-negative integer or None, got {shown(seed)}")
    return salt64(seed or 0)


@functools.lru_cache(maxsize=None)
def _seat_block(observation_type: str) -> tuple[int, int]:
    """(start, stop) of the observation's seat_present block (the bots' player count)."""
    return required_block_span(observation_layout(observation_type), "seat_present")


class RedPlanetBot(BasePolicy):
    """The policy protocol for Red Planet bots: checks shapes and dtypes, then calls
    ``_decide(observations int8 [N, D], masks bool [N, 243]) -> int[N]``."""

    name = "bot"
    observation_type = "info"
    uses_observation = True

    def __init__(self, seed: int | None = 0):
        self.config: BindConfig | None = None
        self.seed(seed)

    def seed(self, seed: int | None = None) -> None:
        """Deterministic play given the seed (None means 0)."""
        self._salt = check_seed(seed)

    def bind(self, config: BindConfig) -> None:
        """Refuse a configuration of another game or player count (M-X2: 3-5 players).
        ``config``: an object with ``num_players`` (and optionally ``game``) attributes, or
        a mapping with those keys; TypeError when it has no ``num_players``."""
        bind_players(config, GAME, type(self).__name__)
        self.config = config

    def act(self, observation: np.ndarray | None, action_mask: np.ndarray) -> int:
        """``act_batch`` on a batch of one; a bot that reads only the mask takes any
        observation (None or an empty array too)."""
        obs = np.zeros(0, np.int8) if observation is None and not self.uses_observation else np.asarray(observation)
        mask = np.asarray(action_mask)
        if obs.ndim != 1 or mask.shape != (NUM_ACTIONS,):
            raise ValueError(f"{self.name}.act takes one observation [D] and one mask [{NUM_ACTIONS}], "
                             f"got shapes {obs.shape} and {mask.shape}")
        return int(self.act_batch(obs[None], mask[None])[0])

    def act_batch(self, observations: np.ndarray, action_masks: np.ndarray) -> np.ndarray:
        masks = np.asarray(action_masks)
        if masks.ndim != 2 or masks.shape[1] != NUM_ACTIONS:
            raise ValueError(f"{self.name}: action masks must have shape [N, {NUM_ACTIONS}], got {masks.shape}")
        masks = check_masks(masks)  # 0/1 or bool values only
        if masks.shape[0] and not masks.any(axis=1).all():
            raise ValueError(f"{self.name}: mask row {int(np.argmin(masks.any(axis=1)))} has no legal action")
        obs = np.asarray(observations)
        d = observation_size(self.observation_type)
        if self.uses_observation:
            if obs.ndim != 2 or obs.shape != (masks.shape[0], d):
                raise ValueError(f"{self.name}: observations must have shape [{masks.shape[0]}, {d}] "
                                 f"(observation_type {self.observation_type!r}), got {obs.shape}")
            if obs.dtype != np.int8:
                raise ValueError(f"{self.name}: observations must be int8, got {obs.dtype}")
            start, stop = _seat_block(self.observation_type)
            check_seat_present(obs[:, start:stop], self.name, MIN_PLAYERS, MAX_PLAYERS)  # M-X2
        if not masks.shape[0]:
            return np.zeros(0, dtype=np.int64)
        out = np.asarray(self._decide(obs, masks), dtype=np.int64)
        assert masks[np.arange(len(out)), out].all(), f"{self.name} chose an illegal action"
        return out

    def _decide(self, obs: np.ndarray, masks: np.ndarray) -> np.ndarray:
        raise NotImplementedError

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"
