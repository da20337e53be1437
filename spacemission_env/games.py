"""The game protocol: what a game provides, so that every interface, bot, arena and trainer
is written once (pgx's ``Env`` and OpenSpiel's ``Game`` are the models).

A game is a package under ``spacemission_env`` of one shape (``space_mission/``,
``red_planet/``): its data file and ``components``, a readable reference engine
(``rules``), a fast batched engine (``engine``), its observations (``encoding``, with
``decode``), its action labels, its game description, and a ``protocol`` module whose
``GAME`` is the :class:`Game` below. The interfaces (``pettingzoo_env``, ``vector``,
``gym_env``, ``sb3``), the opponents (``policies``), the rewards and everything in
``spacemission_agents`` / ``spacemission_training`` / ``spacemission_cli`` reach a game
only through a :class:`Game`, found by name with :func:`get_game`. Adding a game means
adding its package and one line to :data:`GAMES`; nothing else changes.

The fast engine (``Game.engine``) is a module of pure functions over a batch state, each
hot path one numba kernel over the whole batch, all with the signatures of Space
Mission's ``spacemission_env.space_mission.engine``:

=============================================  ==========================================
``init(batch_size, num_players, seeds, **o)``  B new games (``o``: ``rules``, ``max_rounds``
                                               where the game has them, see ``init_options``)
``step(st, actions, select=None)``             one action per game, in place; ValueError
                                               naming the first illegal one, no game changed
``legal_action_mask(st, out=None, select=None)``  bool ``[B, num_actions]``; finished rows all True
``observe(st, player=None, observation_type="info", out=None)``  int8 ``[B, D]``
``scores(st)``                                 int16 ``[B, P, len(score_names)]``, total last
``rewards(st)``                                float32 ``[B, P]`` rank rewards of ended games
``reset_finished(st, seeds)``                  new games in the finished slots
``sample_actions(mask, rng)``                  a uniformly random legal id per row
``to_reference(st, i)`` / ``from_reference(states)``  the reference engine's state and back
=============================================  ==========================================

and a ``BatchState`` with ``batch_size``, ``num_players``, ``current_player`` (int8
``[B]``), ``terminated`` (bool ``[B]``), ``copy()`` and ``take(rows)``.
"""
from __future__ import annotations

import importlib
import inspect
from collections.abc import Mapping
from dataclasses import dataclass
from types import ModuleType
from typing import Any, Callable, Protocol, TypeAlias

import numpy as np

from .checks import SettingTypeError, is_int, shown, wrong_type_text
from .game_description import GameDescription

RENDER_MODES = ("ansi", "human", "rgb_array")  # Game.render's; human: prints the ansi text


def check_render_mode(mode, name: str = "render mode", none_ok: bool = False, modes=RENDER_MODES):
    """``mode`` if it is one of ``modes`` (or None where ``none_ok``): the one check of a
    render mode, which Game.render and every interface's ``render_mode`` / ``render(mode)``
    use, so they refuse alike and in the same order. What is not a str (an int, bytes, a
    list, an array) raises TypeError naming its type and value, an unknown str ValueError
    (Gymnasium's convention), each cut (checks.shown)."""
    if mode is None and none_ok:
        return None
    expected = f"{'None or ' if none_ok else ''}one of {list(modes)}"
    if not isinstance(mode, str):  # before `in`: an array's `in` is numpy's error
        raise TypeError(wrong_type_text(name, f"{expected} (a str)", mode))
    if mode not in modes:
        raise ValueError(f"unknown {name} {shown(mode)}; expected {expected}")
    return mode


# name -> the module whose GAME is the game (imported on first use: the engines compile numba kernels)
GAMES = {
    "spacemission": "spacemission_env.space_mission.protocol",
    "red_planet": "spacemission_env.red_planet.protocol",
}
DEFAULT_GAME = "spacemission"
_LOADED: dict = {}  # name -> Game, once imported


@dataclass(frozen=True, eq=False)
class Game:
    """One game as the interfaces see it (module doc). Built once per game in its
    ``protocol`` module; compare games by ``name``."""

    description: GameDescription
    engine: ModuleType  # the fast batched engine (module doc)
    encoding: ModuleType  # OBSERVATION_TYPES, observe(state, player, observation_type), decode(obs, observation_type)
    rules: ModuleType  # the reference engine: new_game, apply, legal_actions, current_player, is_over, to_json, from_json
    score_names: tuple[str, ...]  # the columns of engine.scores, "total" last
    score_scale: float  # the "score" reward is (own total - mean of the others) / score_scale
    rule_sets: tuple[str, ...]  # the values of a config's ``rules``, default first
    default_max_rounds: int
    max_rounds_limit: int  # the largest ``max_rounds`` (the game's own length where it has one)
    action_label: Callable[..., str]  # (action id, reference state=None) -> str, for people
    action_table: Callable[[], list]  # rows (ids, kind, ...) of the action space, for docs
    render_module: str  # the module with render_ansi(state, viewer=None) and render_rgb(state, viewer=None)
    env_class_prefix: str  # the interfaces' class names for this game, e.g. "SpaceMission"
    tiebreak: Callable[[Any], np.ndarray] | None = None  # st -> int [B, P]: what orders seats of equal total (None: nothing)
    # (action, reference state before it) -> what the other seats see of the move, or None where
    # they see it all (the actor always does): play, replay --seat and serve show it (None: every move public)
    hidden_label: Callable[[int, Any], str | None] | None = None

    @property
    def name(self) -> str:
        """The game's name in :data:`GAMES` ("spacemission", "red_planet")."""
        return self.description.name

    @property
    def num_actions(self) -> int:
        """The size of the game's action space (every env's Discrete(n))."""
        return self.description.num_actions

    @property
    def observation_types(self) -> tuple[str, ...]:
        """The names an env's ``observation_type=`` takes (GameDescription's)."""
        return self.description.observation_types

    @property
    def fixed_length(self) -> bool:
        """The game has its own number of rounds and no ``max_rounds`` option."""
        return self.max_rounds_limit == self.default_max_rounds

    def init_options(self, rules: str | None, max_rounds: int | None) -> dict[str, Any]:
        """The keyword arguments of ``engine.init`` for a configuration: only the options
        the game has (one rule set and a fixed length need none). ``rules`` and
        ``max_rounds`` are a :class:`GameConfig`'s (Optional in its annotations, never None
        once constructed: it fills them with the game's defaults)."""
        opts: dict[str, Any] = {}
        if len(self.rule_sets) > 1:
            opts["rules"] = rules
        if not self.fixed_length:
            opts["max_rounds"] = max_rounds
        return opts

    def new_batch(self, batch_size: int, config: "GameConfig", seeds=0):
        """``batch_size`` new games of ``config`` (``engine.init``)."""
        return self.engine.init(batch_size, config.num_players, seeds=seeds,
                                **self.init_options(config.rules, config.max_rounds))

    def new_reference_game(self, config: "GameConfig", seed: int):
        """One new game of ``config`` in the reference engine."""
        return self.rules.new_game(config.num_players, seed=seed,
                                   **self.init_options(config.rules, config.max_rounds))

    def round_limit(self, st) -> np.ndarray:
        """bool [B]: the ended games that stopped at the round limit rather than by the
        game's own end (always False for a game of fixed length)."""
        flags = getattr(st, "round_limit", None)
        return np.zeros(st.batch_size, dtype=np.bool_) if flags is None else flags

    def tiebreak_values(self, st) -> np.ndarray:
        """int64 [B, P]: what ranks seats of equal total, higher first (Space Mission's
        stations, R-P8); zeros for a game where equal totals share the place (M-P4)."""
        if self.tiebreak is None:
            return np.zeros((st.batch_size, st.num_players), dtype=np.int64)
        return np.asarray(self.tiebreak(st), dtype=np.int64)

    def seat_label(self, action: int, state, viewer: int | None) -> str:
        """The move as ``viewer`` saw it (``state`` before it): ``action_label`` for everyone
        (``viewer`` None) and for the actor, else ``hidden_label``'s text where it gives one."""
        if viewer is not None and self.hidden_label is not None and viewer != self.rules.current_player(state):
            hidden = self.hidden_label(action, state)
            if hidden is not None:
                return hidden
        return self.action_label(action, state)

    def render(self, state, mode: str = "ansi", viewer: int | None = None):
        """A reference state as ``"ansi"`` text, printed (``"human"``, returns None) or an
        RGB picture (``"rgb_array"``), each showing only what seat ``viewer`` may see (None:
        everything). A game whose ``render_ansi`` takes no viewer (Space Mission's text is
        the whole table) refuses one in the text modes (ValueError) rather than show it all."""
        check_render_mode(mode)
        module = importlib.import_module(self.render_module)
        if mode in ("ansi", "human"):
            if viewer is None:
                text = module.render_ansi(state)
            elif "viewer" in inspect.signature(module.render_ansi).parameters:
                text = module.render_ansi(state, viewer=viewer)
            else:
                raise ValueError(f"{self.description.title}'s text view shows the whole table: it takes no viewer "
                                 f"(got viewer={shown(viewer)}); mode 'rgb_array' takes one")
            if mode == "ansi":
                return text
            print(text + "\n", flush=True)  # a blank line between frames, as the render modules' render_human
            return None
        return module.render_rgb(state, viewer=viewer)

    def __repr__(self) -> str:
        return f"Game({self.name!r})"


def get_game(game: "str | Game" = DEFAULT_GAME) -> Game:
    """The :class:`Game` of a name in :data:`GAMES` (a Game is returned as it is);
    ValueError naming an unknown game and the known ones, TypeError for anything else
    (each naming the value cut, checks.shown)."""
    loaded = _LOADED.get(game) if isinstance(game, str) else None
    if loaded is not None:  # the common case: every interface call looks its game up by name
        return loaded
    if isinstance(game, Game):
        return game
    if not isinstance(game, str):
        raise TypeError(f"game must be a game name (one of {sorted(GAMES)}) or a Game, got {shown(game)}")
    if game not in GAMES:
        raise ValueError(f"unknown game {shown(game)}; expected one of {sorted(GAMES)}")
    _LOADED[game] = importlib.import_module(GAMES[game]).GAME
    return _LOADED[game]


def player_ranges() -> str:
    """Each registered game's player counts, e.g. ``Space Mission 2-5, Mission: Red Planet
    3-5``: what the commands' and the trainers' help texts say of ``--players``."""
    out = []
    for g in (get_game(name) for name in GAMES):
        d = g.description
        out.append(f"{d.title} {d.min_players}-{d.max_players}" if d.min_players != d.max_players
                   else f"{d.title} {d.min_players}")
    return ", ".join(out)


def rule_sets_by_game() -> str:
    """Each registered game's rule sets, its default first, e.g. ``Space Mission: yucata,
    schmidt; Mission: Red Planet: first_edition``."""
    return "; ".join(f"{g.description.title}: {', '.join(g.rule_sets)}" for g in (get_game(name) for name in GAMES))


class GameConfigError(ValueError):
    """A :class:`GameConfig` refused: ``field`` names the bad one (``num_players``,
    ``rules`` or ``max_rounds``), so that a command line can name its option."""

    def __init__(self, field: str, message: str):
        super().__init__(message)
        self.field = field

    def __reduce__(self):  # pickled whole (a worker process's error)
        return type(self), (self.field, str(self))

    @property
    def option(self) -> str:
        """The option that sets ``field`` in the commands and the trainers' configurations
        (``players``, ``rules``, ``max_rounds``)."""
        return "players" if self.field == "num_players" else self.field


class GameConfigTypeError(GameConfigError, SettingTypeError):
    """A :class:`GameConfig` field of the wrong type (``num_players=2.0``, ``rules=3``,
    ``max_rounds="10"``): a :class:`GameConfigError` (a ValueError, with ``field``), as every
    refused configuration was before, and also a TypeError (checks.SettingTypeError).
    Built from its message alone (``gymnasium.make`` re-raises a TypeError of the env's
    creator as ``type(e)(text)``), ``field`` is the message's first word: the field it names."""

    def __init__(self, field: str, message: str | None = None):
        if message is None:
            field, message = field.split(" ", 1)[0], field
        super().__init__(field, message)


CONFIG_FIELDS = ("num_players", "rules", "max_rounds")


def config_allowed(game: "str | Game", field: str) -> str:
    """What the configuration field ``field`` (one of :data:`CONFIG_FIELDS`) of ``game``
    allows, in the words of :class:`GameConfig`'s messages: "an integer in 2..5 for Space
    Mission", "one of yucata, schmidt for Space Mission", "10 for Mission: Red Planet"."""
    g = get_game(game)
    d = g.description
    if field == "num_players":
        return f"an integer in {d.min_players}..{d.max_players} for {d.title}"
    if field == "rules":
        return f"one of {', '.join(g.rule_sets)} for {d.title}"
    if field == "max_rounds":
        return f"{g.default_max_rounds if g.fixed_length else f'an integer in 1..{g.max_rounds_limit}'} for {d.title}"
    raise ValueError(f"unknown configuration field {shown(field)}; expected one of {CONFIG_FIELDS}")


@dataclass(frozen=True)
class GameConfig:
    """The game an environment plays: what a policy's optional ``bind(config)`` hook
    receives (policies.py), so that an agent can refuse a game it does not fit or learn
    the configuration. ``rules`` and ``max_rounds`` left None take the game's defaults;
    validated on construction (:class:`GameConfigError`, a ValueError, naming the bad field
    and listing the allowed values plainly, the value cut: checks.shown). A field of the
    wrong type (``num_players`` a bool, float or str, ``rules`` not a str, ``max_rounds``
    not an integer; numpy integers are integers) raises :class:`GameConfigTypeError`, a
    GameConfigError that is also a TypeError, naming the type; a right-typed value that is
    not allowed (``num_players=9``) a plain GameConfigError."""

    num_players: int = 2
    rules: str | None = None
    max_rounds: int | None = None
    game: str = DEFAULT_GAME

    def __post_init__(self):
        g = get_game(self.game)
        d = g.description
        object.__setattr__(self, "game", g.name)
        players = config_allowed(g, "num_players")
        if not is_int(self.num_players):  # a bool, float, str or None: GameConfigTypeError
            raise GameConfigTypeError("num_players", wrong_type_text("num_players", players, self.num_players))
        if not d.min_players <= self.num_players <= d.max_players:
            raise GameConfigError("num_players", f"num_players must be {players}, got {shown(self.num_players)}")
        rules = g.rule_sets[0] if self.rules is None else self.rules
        if not isinstance(rules, str):  # before `in`: an array's `in` was numpy's own ValueError
            raise GameConfigTypeError("rules", wrong_type_text("rules", config_allowed(g, "rules") + " (a str)", rules))
        if rules not in g.rule_sets:
            raise GameConfigError("rules", f"unknown rules {shown(rules)} for {d.title}; expected one of "
                                           f"{', '.join(g.rule_sets)}")
        max_rounds = g.default_max_rounds if self.max_rounds is None else self.max_rounds
        lowest = g.default_max_rounds if g.fixed_length else 1
        allowed = config_allowed(g, "max_rounds")
        if not is_int(max_rounds):
            raise GameConfigTypeError("max_rounds", wrong_type_text(
                "max_rounds", allowed + (" (an integer)" if g.fixed_length else ""), max_rounds))
        if not lowest <= max_rounds <= g.max_rounds_limit:
            raise GameConfigError("max_rounds", f"max_rounds must be {allowed}, got {shown(max_rounds)}")
        object.__setattr__(self, "num_players", int(self.num_players))
        object.__setattr__(self, "rules", str(rules))  # a str subclass (numpy's str_) as a plain str
        object.__setattr__(self, "max_rounds", int(max_rounds))

    @property
    def description(self) -> GameDescription:
        """The configured game's :class:`GameDescription` (spaces, sizes, reward ranges)."""
        return get_game(self.game).description


class HasNumPlayers(Protocol):
    """An object a bot's ``bind`` takes as a configuration: one with ``num_players`` (and
    ``game``, ``rules``, ``max_rounds`` where it has them; bind_config reads them)."""

    @property
    def num_players(self) -> int:
        """The player count."""
        ...


# what the bots' ``bind`` and bind_config / bind_players take: a GameConfig (what the envs
# pass), an object with its fields or a mapping with those keys ({"num_players": 3})
BindConfig: TypeAlias = GameConfig | HasNumPlayers | Mapping[str, Any]


def not_a_config(who: str, config: object) -> TypeError:
    """The error of a ``bind`` given something that is not a game configuration."""
    return TypeError(f"{who}: bind needs a game configuration (a GameConfig: num_players, rules, max_rounds), "
                     f"got {shown(config)}")


def bind_players(config: BindConfig, game: str, who: str) -> int:
    """The player count of ``config`` for a ``bind`` that also takes a plain mapping
    (``{"num_players": 3}``; an object needs the attribute; without ``game`` it is taken as
    ``game``'s): ValueError for another game, a count the game does not have, or ``rules`` /
    ``max_rounds`` (where given) the game does not have, each message starting ``who``;
    TypeError (``not_a_config``) without a count. A value of the wrong type (``num_players``
    2.0 or "2", ``rules`` 3, ``max_rounds`` "10") raises :class:`GameConfigTypeError` (a
    GameConfigError and a TypeError, as GameConfig's), a ``game`` that is not a str a
    checks.SettingTypeError (its message as for another game); a refused ``num_players`` /
    ``rules`` / ``max_rounds`` of the right type a plain GameConfigError, with its field
    (each a ValueError whose message starts with ``who``)."""
    return bind_config(config, game, who).num_players


def bind_config(config: BindConfig, game: str, who: str) -> GameConfig:
    """:func:`bind_players`'s checks, returning the configuration as a :class:`GameConfig` of
    ``game`` (``rules`` and ``max_rounds`` not given: the game's defaults), for a ``bind``
    that needs them too (the PPO models: the game a model was trained for)."""
    get = config.get if isinstance(config, Mapping) else (lambda key, default: getattr(config, key, default))
    _check_game(get("game", game), game, who)
    n = get("num_players", None)
    if n is None:
        raise not_a_config(who, config)
    d = get_game(game).description
    if is_int(n) and not d.min_players <= n <= d.max_players:
        raise GameConfigError("num_players", f"{who} plays {d.min_players} to {d.max_players} players, "
                                             f"got num_players={shown(n)}")
    try:  # the rest of the configuration, where given, as GameConfig checks it (a wrong-typed count too)
        return GameConfig(n, get("rules", None), get("max_rounds", None), game)
    except GameConfigError as exc:  # its own class (a GameConfigTypeError for a wrong type) and field, named
        raise type(exc)(exc.field, f"{who}: {exc}") from None


def _check_game(have, game: str, who: str) -> None:
    """ValueError naming ``who`` unless ``have`` (a configuration's ``game``) is ``game``
    (checks.SettingTypeError, a ValueError and a TypeError, for one that is not a str); a
    game of this package is named by its title, an unknown name or a list as it is."""
    if not isinstance(have, str) or have != game:  # an array's != was numpy's "truth value ... ambiguous"
        known = isinstance(have, str) and have in GAMES
        theirs = f"{get_game(have).description.title} ({have!r})" if known else shown(have)
        error = ValueError if isinstance(have, str) else SettingTypeError  # a list, an array: a TypeError too
        raise error(f"{who} plays {get_game(game).description.title} ({game!r}), not {theirs}")


def require_game(config, game: str, who: str) -> None:
    """ValueError naming ``who`` unless ``config`` (a :class:`GameConfig`, or any object with
    the same fields; one without ``game`` is Space Mission's) is a configuration of ``game``
    (a ``game`` that is not a str: checks.SettingTypeError, a ValueError and a TypeError):
    what the ``bind`` of a policy written for one game calls. TypeError naming ``who`` for
    something that is not a configuration (no ``num_players``)."""
    if not hasattr(config, "num_players"):
        raise not_a_config(who, config)
    _check_game(getattr(config, "game", DEFAULT_GAME), game, who)
