"""Recorded games and moves in words for every game of the protocol other than Space Mission
(whose records, labels and views keep their own module, ``_games.py``): what ``play
--game``, ``replay`` and ``serve`` share. Everything reaches the game through
:func:`spacemission_env.games.get_game`: the reference engine rebuilds a record from its
seed, configuration and actions, and ``game.action_label`` names the moves.

A record has the arena's ``games.jsonl`` shape (docs/arena.md) with ``config.game``
naming the game; a game saved unfinished by ``play`` is the same record with
``"unfinished": true`` (its scores those at the save, ranks and winners null).
"""
from __future__ import annotations

import importlib

from spacemission_env.games import DEFAULT_GAME, GameConfig, get_game
from spacemission_env.json_input import json_shown

from ._games import ReplayError as RecordError  # malformed or not replaying: one error for every game
from ._games import check_forfeit, record_config_problem, recorded_totals

RECORD_FORMAT, RECORD_VERSION = "spacemission-arena-game", 1


class SeatWords:
    """A game's seats as a person reads them (terminal play, replay, the web page): by colour
    where the game's render module can write its text board so (``render_ansi_colours`` and
    ``PLAYER_NAMES``, and ``label_in_colours`` for labels that name seats: Red Planet's), as
    Space Mission's play does ("red", "kill a yellow astronaut"); else ``seat Q``. Only printed
    text: records keep the labels (checked on replay)."""

    def __init__(self, game):
        self.render = importlib.import_module(game.render_module)
        self.colours = hasattr(self.render, "render_ansi_colours")
        hook = getattr(self.render, "label_in_colours", None) if self.colours else None
        self._label_hook = hook if callable(hook) else None  # the game's wording of labels, found once

    def colour(self, q: int) -> str:
        return self.render.PLAYER_NAMES[q] if self.colours else f"seat {q}"

    def who(self, q: int, player: str) -> str:
        """The seat and who plays it: "red (random)" (else "seat 1 (random)")."""
        return f"{self.colour(q)} ({player})"

    def name(self, q: int, person: int | None, player: str | None) -> str:
        """Seat ``q`` in a game the person plays at seat ``person``: "red (you)", "blue
        (random)"; without colours the person is "you", the others "seat 1 (random)"."""
        if q == person:
            return self.who(q, "you") if self.colours else "you"
        return self.who(q, str(player))

    def said(self, label: str) -> str:
        """A move's label (or a log line) as shown: where the board is in colours, the game's
        render module words it so (``label_in_colours``: Red Planet's names a Soldier's target
        "kill a yellow astronaut", not "kill a player 2 astronaut"); else as the game wrote it."""
        return self._label_hook(label) if self._label_hook is not None else label

    def board(self, state, viewer: int | None) -> str:
        """The game's text board, in the seats' colours where its render module can write them."""
        if self.colours:
            return self.render.render_ansi_colours(state, viewer=viewer)
        return self.render.render_ansi(state, viewer=viewer)


def record_game(rec: dict) -> str:
    """The game a record is of: ``config.game``; records from before the field are Space Mission's."""
    cfg = rec.get("config") if isinstance(rec, dict) else None
    return cfg.get("game", DEFAULT_GAME) if isinstance(cfg, dict) else DEFAULT_GAME


def final_ranks(game, state, forfeit_seat: int | None = None) -> list[int]:
    """1 + the seats strictly ahead (total, then the game's tiebreak), as the arena records;
    a seat that forfeited (``forfeit_seat``) ranks last, the others by their scores so far."""
    totals = [s["total"] for s in game.rules.scores(state)]
    tie = [0] * len(totals)
    if game.tiebreak is not None:
        tie = game.tiebreak_values(game.engine.from_reference([state]))[0].tolist()
    key = [(t, b) for t, b in zip(totals, tie)]
    if forfeit_seat is not None:
        key[forfeit_seat] = (float("-inf"), 0)
    return [1 + sum(k > key[q] for k in key) for q in range(len(key))]


def ended_at_round_limit(game, state) -> bool:
    """Whether a reference state's game stopped at its round limit (the protocol's
    ``round_limit`` reads the fast engine's state; False for a game of fixed length)."""
    return bool(game.round_limit(game.engine.from_reference([state]))[0])


def game_record(game, config: GameConfig, state, seed: int, agents: list[str], actions: list,
                unfinished: bool = False) -> dict:
    """A game as one record (arena shape, ``config.game`` set); ``unfinished`` for a save."""
    over = game.rules.is_over(state)
    ranks = final_ranks(game, state) if over else None
    rec = {
        "format": RECORD_FORMAT, "version": RECORD_VERSION, "game": 0, "seed": int(seed),
        "config": {"game": game.name, "num_players": config.num_players, "rules": config.rules,
                   "max_rounds": config.max_rounds},
        "lineup": None, "deal": None, "seating": None, "agents": list(agents),
        "start_player": getattr(game.new_reference_game(config, seed), "start_player", None),  # of the deal
        "actions": [list(a) for a in actions],
        "scores": game.rules.scores(state), "ranks": ranks,
        "winners": None if ranks is None else [q for q, r in enumerate(ranks) if r == 1],
        "rounds": getattr(state, "round", 0),  # 0: a game without rounds, as the arena records it
        "round_limit": ended_at_round_limit(game, state), "forfeit": None,
    }
    if unfinished:
        rec["unfinished"] = True
    return rec


def check_record(rec: dict, where: str) -> None:
    """RecordError naming the field unless ``rec`` (format and required keys already checked)
    has a valid configuration of its game, a seed and actions of the right shape."""
    problem = record_config_problem(rec["config"])
    if problem:
        raise RecordError(f"{where}: config: {problem}")
    seed = rec["seed"]
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**64:
        raise RecordError(f"{where}: seed must be an integer in [0, 2**64), got {json_shown(seed)}")
    acts = rec["actions"]
    if not isinstance(acts, list) or not all(
            isinstance(a, list) and len(a) == 3 and all(isinstance(x, int) and not isinstance(x, bool) for x in a[:2])
            and isinstance(a[2], str) for a in acts):
        raise RecordError(f"{where}: actions must be a list of [seat, action id, label]")


def record_config(rec: dict) -> GameConfig:
    cfg = rec["config"]
    return GameConfig(cfg["num_players"], cfg.get("rules"), cfg.get("max_rounds"), game=record_game(rec))


class Replayer:
    """Rebuilds a record of any protocol game action by action with its reference engine,
    checking each recorded seat, id and label (``peek`` then ``step``) and at the end the
    recorded scores, ranks, winners and rounds (``finish``)."""

    def __init__(self, rec: dict, where: str):
        self.rec, self.where = rec, where
        self.game = get_game(record_game(rec))
        self.config = record_config(rec)
        self.state = self.game.new_reference_game(self.config, rec["seed"])
        self.index = 0
        start = getattr(self.state, "start_player", None)
        if rec.get("start_player") is not None and start is not None and rec["start_player"] != start:
            raise RecordError(f"{where}: recorded start player {json_shown(rec['start_player'])} but seed {rec['seed']} deals "
                              f"start player {start}")

    @property
    def done(self) -> bool:
        return self.index >= len(self.rec["actions"])

    def peek(self) -> tuple[int, int, str]:
        seat, action, label = self.rec["actions"][self.index]
        g, s = self.game, self.state
        what = f"{self.where}: action {self.index + 1} of {len(self.rec['actions'])}"
        if g.rules.is_over(s):
            raise RecordError(f"{what}: the game is already over, yet more actions are recorded")
        if seat != g.rules.current_player(s):
            raise RecordError(f"{what}: recorded for seat {seat}, but seat {g.rules.current_player(s)} is to act")
        if not 0 <= action < g.num_actions:
            raise RecordError(f"{what}: action id {action} is out of range 0..{g.num_actions - 1} "
                              f"(recorded label {json_shown(label)})")
        if action not in g.rules.legal_actions(s):
            raise RecordError(f"{what}: action {action} ({g.action_label(action, s)}) is not legal in the rebuilt "
                              f"game (recorded label {json_shown(label)})")
        expected = g.action_label(action, s)
        if expected != label:
            raise RecordError(f"{what}: recorded label {json_shown(label)}, but the rebuilt game says {json_shown(expected)}")
        return seat, action, label

    def step(self) -> tuple[int, int, str]:
        seat, action, label = self.peek()
        self.game.rules.apply(self.state, action)
        self.index += 1
        return seat, action, label

    def finish(self) -> list[str]:
        """Check the recorded result against the rebuilt end; returns what matched."""
        g, s, rec = self.game, self.state, self.rec
        if not rec.get("unfinished") and rec.get("forfeit") is None and not g.rules.is_over(s):
            raise RecordError(f"{self.where}: the recorded actions end before the game is over")
        if scores_differ(g.rules.scores(s), rec["scores"]):
            raise RecordError(f"{self.where}: recorded scores {json_shown(recorded_totals(rec['scores']))}"
                              f" but the rebuilt game scores {[x['total'] for x in g.rules.scores(s)]}")
        if rec.get("unfinished"):
            return ["scores at the save"]
        check_forfeit(rec.get("forfeit"), g.rules.is_over(s), g.rules.current_player(s), self.where)
        checked = ["scores"]
        expect = {"rounds": getattr(s, "round", 0), "round_limit": ended_at_round_limit(g, s)}
        ranks = final_ranks(g, s, None if rec.get("forfeit") is None else rec["forfeit"]["seat"])  # forfeit: the arena's
        expect.update(ranks=ranks, winners=[q for q, r in enumerate(ranks) if r == 1])
        for key, value in expect.items():  # a field recorded (null included) must be the rebuilt game's
            if key in rec:
                if rec[key] != value:
                    raise RecordError(f"{self.where}: recorded {key} {json_shown(rec[key])} but the rebuilt game gives {json_shown(value)}")
                checked.append(key)
        return checked


def scores_differ(rebuilt: list[dict], recorded) -> bool:
    return not isinstance(recorded, list) or [dict(x) for x in rebuilt] != recorded
