"""A machine-readable description of a game, for every environment built on it.

Modelled on OpenSpiel's ``GameType`` / ``GameInfo``: what a game is (name, version,
dynamics, chance, information, player range) and the contract its environments offer
(number of actions, observation size per observation type, reward range per reward
scheme, the longest possible game). Nothing here is specific to one game: each game
declares one :class:`GameDescription` with literal values, its interfaces build their
spaces, metadata and registry ids from it, and its tests check every value against
the real engine and spaces, so a change of the game that alters one of them fails a
test until the description (and, by docs/versioning.md, the version) is updated.
"""
from __future__ import annotations

from dataclasses import asdict, dataclass, field, fields
from types import MappingProxyType
from typing import Mapping

from .checks import SettingTypeError, check_choice, is_int, shown, wrong_type_text

# Allowed values, with OpenSpiel's meaning (open_spiel/spiel.h, GameType).
DYNAMICS = ("sequential", "simultaneous")  # one player acts at a time / all act at once
CHANCE_MODES = ("deterministic", "explicit_stochastic", "sampled_stochastic")  # sampled: shuffles drawn inside
INFORMATION = ("perfect", "imperfect")  # imperfect: some of the state is hidden from some player
UTILITIES = ("zero_sum", "constant_sum", "general_sum", "identical")  # how the seats' rewards of one game relate
PAYMENTS = ("terminal", "every_step")  # when a reward scheme pays


def _check_choice(what: str, value, allowed: tuple) -> None:
    if not isinstance(value, str) or value not in allowed:  # an array's `in`: numpy's "truth value" error
        raise ValueError(f"{what} must be one of {allowed}, got {shown(value)}")


def _check_positive_int(what: str, value) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise ValueError(f"{what} must be a positive integer, got {shown(value)}")


@dataclass(frozen=True)
class RewardScheme:
    """One reward option (an env's ``reward=`` argument): the range of the reward one
    seat receives in one game without shaping, when it is paid, and how the seats'
    rewards of one game relate (OpenSpiel's utility)."""

    low: float
    high: float
    utility: str
    paid: str = "terminal"

    def __post_init__(self):
        if not (isinstance(self.low, (int, float)) and isinstance(self.high, (int, float)) and self.low < self.high):
            raise ValueError(f"a reward range needs numbers low < high, got ({self.low!r}, {self.high!r})")
        _check_choice("utility", self.utility, UTILITIES)
        _check_choice("paid", self.paid, PAYMENTS)


@dataclass(frozen=True)
class GameDescription:
    """What a game and its environments are, as data (module doc).

    ``observation_sizes`` and ``reward_schemes`` are read-only mappings whose first
    entry is the default. ``max_steps_per_turn`` bounds the agent steps (decisions) of
    one turn and ``setup_steps_per_player`` those of one player before the first round,
    so that a game of ``max_rounds`` rounds of one turn per player lasts at most
    :meth:`max_game_length` agent steps."""

    name: str  # lower-case short name: PettingZoo metadata and module name "<name>_v<version>"
    title: str  # for people
    registry_name: str  # Gymnasium / PettingZoo registry ids "<registry_name>-v<version>"
    version: int  # bumped by docs/versioning.md's rule
    min_players: int
    max_players: int
    num_actions: int  # Discrete(num_actions), the same in every decision
    observation_sizes: Mapping[str, int] = field(hash=False)
    observation_low: int
    observation_high: int
    observation_dtype: str  # the engine's dtype
    reward_schemes: Mapping[str, RewardScheme] = field(hash=False)
    max_steps_per_turn: int
    dynamics: str
    chance_mode: str
    information: str
    setup_steps_per_player: int = 0  # decisions before the first round (none in Space Mission)
    # the keys of the envs' score dicts that rank the seats of an ended game, in order: the
    # first decides, each next one breaks the ties left; seats equal on all share the place
    # (Space Mission: ("total", "stations"), R-P8; Red Planet: ("total",), M-P4)
    rank_keys: tuple[str, ...] = ("total",)

    def __post_init__(self):
        for what in ("name", "title", "registry_name"):
            if not isinstance(getattr(self, what), str) or not getattr(self, what):
                raise ValueError(f"{what} must be a non-empty str, got {getattr(self, what)!r}")
        if isinstance(self.version, bool) or not isinstance(self.version, int) or self.version < 0:
            raise ValueError(f"version must be a non-negative integer, got {self.version!r}")
        if isinstance(self.setup_steps_per_player, bool) or not isinstance(self.setup_steps_per_player, int) \
                or self.setup_steps_per_player < 0:
            raise ValueError(f"setup_steps_per_player must be a non-negative integer, got {self.setup_steps_per_player!r}")
        for what in ("min_players", "max_players", "num_actions", "max_steps_per_turn"):
            _check_positive_int(what, getattr(self, what))
        if not isinstance(self.rank_keys, tuple) or not self.rank_keys \
                or not all(isinstance(k, str) and k for k in self.rank_keys) \
                or len(set(self.rank_keys)) != len(self.rank_keys):
            raise ValueError(f"rank_keys must be a non-empty tuple of distinct non-empty strs, got {shown(self.rank_keys)}")
        if self.min_players > self.max_players:
            raise ValueError(f"min_players {self.min_players} exceeds max_players {self.max_players}")
        if not self.observation_sizes or not self.reward_schemes:
            raise ValueError("a game needs at least one observation type and one reward scheme")
        for kind, size in self.observation_sizes.items():
            _check_positive_int(f"observation_sizes[{kind!r}]", size)
        for kind, scheme in self.reward_schemes.items():
            if not isinstance(scheme, RewardScheme):
                raise ValueError(f"reward_schemes[{kind!r}] must be a RewardScheme, got {scheme!r}")
        if not self.observation_low < self.observation_high:
            raise ValueError(f"observation range ({self.observation_low}, {self.observation_high}) is empty")
        _check_choice("dynamics", self.dynamics, DYNAMICS)
        _check_choice("chance_mode", self.chance_mode, CHANCE_MODES)
        _check_choice("information", self.information, INFORMATION)
        object.__setattr__(self, "observation_sizes", MappingProxyType(dict(self.observation_sizes)))
        object.__setattr__(self, "reward_schemes", MappingProxyType(dict(self.reward_schemes)))

    @property
    def env_id(self) -> str:
        """The Gymnasium and PettingZoo registry id, e.g. ``"SpaceMission-v3"``."""
        return f"{self.registry_name}-v{self.version}"

    @property
    def versioned_name(self) -> str:
        """PettingZoo's name for the env and its module, e.g. ``"spacemission_v3"``."""
        return f"{self.name}_v{self.version}"

    @property
    def observation_types(self) -> tuple[str, ...]:
        """The names an env's ``observation_type=`` takes ("info", "recall", "seer", ...)."""
        return tuple(self.observation_sizes)

    @property
    def reward_names(self) -> tuple[str, ...]:
        """The names an env's ``reward=`` takes ("win", "score")."""
        return tuple(self.reward_schemes)

    def observation_size(self, observation_type: str) -> int:
        """D of one observation type; ValueError naming an unknown type, checks.SettingTypeError
        (a ValueError and a TypeError) for one that is not a str."""
        return self.observation_sizes[check_choice(observation_type, "observation_type", self.observation_types)]

    def reward_range(self, reward: str) -> tuple[float, float]:
        """(low, high) of one reward scheme (without shaping); ValueError naming an unknown one,
        checks.SettingTypeError (a ValueError and a TypeError) for one that is not a str."""
        scheme = self.reward_schemes[check_choice(reward, "reward", self.reward_names)]
        return scheme.low, scheme.high

    def max_game_length(self, num_players: int, max_rounds: int) -> int:
        """The most agent steps a game of ``max_rounds`` rounds can take (every turn at
        its longest). ValueError for a count out of range, checks.SettingTypeError (a ValueError
        and a TypeError) for one that is not an integer (numpy integers are)."""
        players = f"an integer in {self.min_players}..{self.max_players}"
        if not is_int(num_players):
            raise SettingTypeError(wrong_type_text("num_players", players, num_players))
        if not self.min_players <= num_players <= self.max_players:
            raise ValueError(f"num_players must be in {self.min_players}..{self.max_players}, got {shown(num_players)}")
        if not is_int(max_rounds):  # a numpy integer is one (it was refused as 'not a positive integer')
            raise SettingTypeError(wrong_type_text("max_rounds", "a positive integer", max_rounds))
        if max_rounds < 1:
            raise ValueError(f"max_rounds must be a positive integer, got {shown(max_rounds)}")
        return int(max_rounds) * int(num_players) * self.max_steps_per_turn + int(num_players) * self.setup_steps_per_player

    def as_dict(self) -> dict:
        """The description as plain JSON-able values (mappings as dicts, ranges as lists)."""
        out = {f.name: getattr(self, f.name) for f in fields(self)}
        out["observation_sizes"] = dict(self.observation_sizes)
        out["reward_schemes"] = {k: asdict(v) for k, v in self.reward_schemes.items()}
        out["env_id"] = self.env_id
        out["versioned_name"] = self.versioned_name
        return out
