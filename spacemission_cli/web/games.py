"""Live games of the server: held in memory under unguessable ids, at most ``max_games``
at once; when full, the game idle longest is dropped if it is over or has been idle for
``idle_seconds``, else a new game is refused with a message saying so. Each game has a
lock: one request changes it at a time, and a request that finds it busy (the bots still
thinking) is refused rather than queued."""
from __future__ import annotations

import secrets
import threading
import time
from dataclasses import dataclass, field

from spacemission_env.json_input import json_kind, json_shown
from spacemission_env.games import GameConfig
from spacemission_env.space_mission.config import MAX_ROUNDS_LIMIT, RULE_SETS
from spacemission_env.space_mission.rules import new_game

from .._protocol_play import ProtocolTable
from .._table import Table


class ApiError(Exception):
    """A refused request: HTTP ``status`` and a message naming the problem."""

    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status, self.message = status, message


@dataclass
class LiveGame:
    """A game of the store. ``seed_chosen``: the visitor named the seed in the new-game
    request (then the responses may give it while the game runs; else only once it is over:
    the seed determines every hidden card and the bots' moves). ``version``: bumped by every
    change (a move with the bots' answers, undo, resign); a move naming another version is
    refused (the page that sent it showed an older game)."""
    table: Table | ProtocolTable
    lock: threading.Lock = field(default_factory=threading.Lock)
    last_used: float = field(default_factory=time.monotonic)
    seed_chosen: bool = False
    version: int = 0


def int_field(body: dict, key: str, default, lo: int, hi: int | None):
    """``body[key]`` checked as an integer in lo..hi; absent or null: ``default``."""
    value = body.get(key)
    if value is None:
        return default
    if isinstance(value, bool) or not isinstance(value, int):
        raise ApiError(400, f"{key} must be an integer, got {json_shown(value)}")
    if value < lo or (hi is not None and value > hi):
        raise ApiError(400, f"{key} must be in {lo}..{hi if hi is not None else ''}, got {json_shown(value)}")
    return value


def refuse_null(body: dict, key: str, default: str) -> None:
    """ApiError 400 when the name field ``key`` (game, rules, opponents) is given as null: it
    is a name, given or left out (``default``: what leaving it out means); only a number field
    takes its default from null (``int_field``; seed: a random one), as documented."""
    if key in body and body[key] is None:
        raise ApiError(400, f"{key} is null, which names nothing: leave {key} out for {default} (only a number "
                            f"field, players, seat, seed or max_rounds, takes its default from null)")


def seats_and_seed(body: dict, allowed_opponents: list[str], players: int) -> tuple[list[str], int, int]:
    """(opponents' specs in seat order, the person's seat, the seed) of a new game's request,
    for any game: one offered spec for all or one per opponent, a seat number or "random",
    a seed or null (a random one)."""
    if allowed_opponents:
        refuse_null(body, "opponents", f"the server's first, {allowed_opponents[0]}")
    specs = body.get("opponents", allowed_opponents[0] if allowed_opponents else None)
    if isinstance(specs, str):
        specs = [specs]
    if not isinstance(specs, list) or not specs or not all(isinstance(x, str) for x in specs):
        raise ApiError(400, f"opponents must be a spec or a list of specs, got {json_shown(specs)}")
    if len(specs) == 1:
        specs = specs * (players - 1)
    if len(specs) != players - 1:
        raise ApiError(400, f"{players} players have {players - 1} opponent{'s' if players > 2 else ''}: give one "
                            f"spec for all or {players - 1}, got {len(specs)}")
    for spec in specs:
        if spec not in allowed_opponents:
            raise ApiError(400, f"opponent {json_shown(spec)} is not offered by this server; choose from {', '.join(allowed_opponents)}")
    seat = body.get("seat", 0)
    if seat == "random":
        seat = secrets.randbelow(players)
    seat = int_field({"seat": seat}, "seat", 0, 0, players - 1)
    seed = int_field(body, "seed", None, 0, 2**64 - 1)  # the engines' seeds, as play --seed
    return specs, seat, secrets.randbits(31) if seed is None else seed


def seed_chosen(body: dict) -> bool:
    """Whether a new game's request named its seed (the visitor knows it already)."""
    return body.get("seed") is not None


def shown_seed(table, seed_known: bool) -> int | None:
    """The seed a game's JSON may carry: it decides every hidden card and the bots' moves,
    so only once the game is over or when the visitor chose it (``seed_known``)."""
    return table.seed if table.over or seed_known else None


def game_options(body, allowed_opponents: list[str], max_players: int) -> dict:
    """The checked options of a new game from the request's JSON object: players, opponents
    (one of the server's specs for all, or one per opponent), rules, seat (a number or
    "random"), seed (null: a random one), max_rounds; a null number takes its default."""
    if not isinstance(body, dict):
        raise ApiError(400, f"a new game is a JSON object, got {json_kind(body)}")
    known = {"players", "opponents", "rules", "seat", "seed", "max_rounds"}
    unknown = sorted(set(body) - known)
    if unknown:
        raise ApiError(400, f"unknown field {json_shown(unknown[0])}; a new game takes {', '.join(sorted(known))}")
    players = int_field(body, "players", 2, 2, max_players)
    refuse_null(body, "rules", "yucata")
    rules = body.get("rules", "yucata")
    if rules not in RULE_SETS:
        raise ApiError(400, f"rules must be one of {', '.join(RULE_SETS)}, got {json_shown(rules)}")
    specs, seat, seed = seats_and_seed(body, allowed_opponents, players)
    max_rounds = int_field(body, "max_rounds", 100, 1, MAX_ROUNDS_LIMIT)
    try:
        config = GameConfig(players, rules, max_rounds)
    except ValueError as exc:
        raise ApiError(400, str(exc)) from None
    return {"config": config, "specs": specs[:seat] + [None] + specs[seat:], "seat": seat, "seed": seed,
            "seed_chosen": seed_chosen(body)}


# what a refused whole-state bot's message says: the visitor cannot allow it, the server's owner can
SERVE_SEER_HELP = "this server offers it only when started with spacemission serve --allow-seer"


def make_table(options: dict) -> Table:
    """A new game with its bots built and bound (ApiError 400 when a bot refuses the game)."""
    from ..play import Opponent

    config, specs, seat, seed = options["config"], options["specs"], options["seat"], options["seed"]
    opponents = {}
    for q, spec in enumerate(specs):
        if spec is None:
            continue
        try:
            opponents[q] = Opponent(spec, q, seed, config, options.get("allow_seer", False), SERVE_SEER_HELP)
        except ValueError as exc:
            raise ApiError(400, str(exc)) from None
    state = new_game(config.num_players, seed=seed, rules=config.rules, max_rounds=config.max_rounds)
    return Table(state, seat, seed, specs, opponents)


class GameStore:
    def __init__(self, max_games: int = 200, idle_seconds: float = 1800.0, clock=time.monotonic):
        self.max_games, self.idle_seconds, self.clock = max_games, idle_seconds, clock
        self._games: dict[str, LiveGame] = {}
        self._reserved = 0  # places held for games being made (reserve, then add or release)
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._games)

    def reserve(self) -> None:
        """Hold a place for a new game, before its bots are built and play their opening moves:
        when the server is full (the games held and the places held for games being made), the
        game idle longest makes room if it may (``_expire_one``), else ApiError 503. Each
        ``reserve`` is followed by one ``add`` (the place taken) or ``release`` (given back)."""
        with self._lock:
            if len(self._games) + self._reserved >= self.max_games:
                self._expire_one()
            self._reserved += 1

    def release(self) -> None:
        """Give back a place of ``reserve`` whose game was not made (a bot refused it)."""
        with self._lock:
            self._reserved -= 1

    def add(self, table: Table | ProtocolTable, seed_chosen: bool = False) -> tuple[str, LiveGame]:
        """Store a game made in a place held by ``reserve``; returns its id and the stored game
        (not to be looked up again: a game over at once may make room for another's at once)."""
        with self._lock:
            if self._reserved < 1:  # a place not held would let the store grow past max_games
                raise RuntimeError("GameStore.add without a place held by reserve()")
            self._reserved -= 1
            game_id = secrets.token_urlsafe(18)
            game = self._games[game_id] = LiveGame(table, last_used=self.clock(), seed_chosen=seed_chosen)
            return game_id, game

    def _expire_one(self) -> None:
        now = self.clock()
        idle = [(g.last_used, gid) for gid, g in self._games.items()
                if not g.lock.locked() and (g.table.over or now - g.last_used >= self.idle_seconds)]
        if not idle:
            raise ApiError(503, f"the server is full: {self.max_games} games are being played or started and none "
                                f"has been idle for {self.idle_seconds:g} s; try again in a few minutes")
        del self._games[min(idle)[1]]

    def get(self, game_id: str) -> LiveGame:
        game = self._games.get(game_id)
        if game is None:
            raise ApiError(404, "no game with this id (it never existed, it expired after being idle, "
                                "or the server restarted)")
        game.last_used = self.clock()
        return game
