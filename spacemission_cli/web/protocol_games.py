"""Live games of the page for every game of the protocol other than Space Mission (which keeps
its own view model, ``_table.Table``): the simplest honest page, the game's own
viewer-restricted text board (``render_ansi(state, viewer=seat)``), its picture
(``render_rgb(state, viewer=seat)``) and the person's legal moves as buttons.

Only the seat's view ever leaves the server while the game runs: the board and the picture
are drawn for the person's seat, the log gives the other seats' hidden moves as hidden
(``seat_label``: Red Planet's commits and keeps, M-R3, M-S6), and the moves are the person's
own legal ones, only when it is the person's turn. At the end everything is turned face up,
as a table does."""
from __future__ import annotations

import importlib
import io

from spacemission_env.games import GameConfig, get_game

from .._protocol_games import game_record, seat_label
from .._protocol_play import Bot
from .games import ApiError, _int_field, seats_and_seed


class ProtocolTable:
    """One person's seat against bots in a protocol game: ``play`` the person's move,
    ``bots_until_person`` the bots' moves, ``log`` every move as the person saw it."""

    def __init__(self, game, config: GameConfig, seat: int, seed: int, specs: list):
        self.game, self.config, self.seat, self.seed, self.specs = game, config, seat, seed, specs
        self.state = game.new_reference_game(config, seed)
        self.bots = {}
        for q, spec in enumerate(specs):
            if spec is not None:
                try:
                    self.bots[q] = Bot(game, spec, q, seed, config)
                except ValueError as exc:
                    raise ApiError(400, str(exc)) from None
        self.render = importlib.import_module(game.render_module)
        self.log: list[dict] = []
        self.actions: list[list] = []
        self.failure = None

    @property
    def over(self) -> bool:
        return self.game.rules.is_over(self.state) or self.failure is not None

    @property
    def person_to_act(self) -> bool:
        return not self.over and self.game.rules.current_player(self.state) == self.seat

    def _apply(self, action: int) -> None:
        g, s = self.game, self.state
        q = g.rules.current_player(s)
        self.log.append({"seat": q, "text": seat_label(g, action, s, self.seat), "round": getattr(s, "round", None)})
        self.actions.append([q, action, g.action_label(action, s)])
        g.rules.apply(s, action)

    def play(self, action) -> None:
        """The person's move; ValueError naming the problem (the game left as it was)."""
        if self.over:
            raise ValueError("the game is over")
        if not self.person_to_act:
            raise ValueError(f"it is seat {self.game.rules.current_player(self.state)}'s turn, not yours")
        legal = self.game.rules.legal_actions(self.state)
        if action not in legal:
            raise ValueError(f"action {action} is not one of your legal moves now ({len(legal)} legal: "
                             f"{', '.join(map(str, legal[:12]))}{', ...' if len(legal) > 12 else ''})")
        self._apply(action)

    def bots_until_person(self) -> None:
        while not self.over and not self.person_to_act:
            q = self.game.rules.current_player(self.state)
            try:
                action = self.bots[q].act(self.state, len(self.actions))
            except RuntimeError as exc:
                self.failure = str(exc)
                return
            self._apply(action)

    def picture_png(self) -> bytes:
        """The picture as the person's seat sees it (everything once the game is over)."""
        from PIL import Image

        rgb = self.render.render_rgb(self.state, viewer=None if self.over else self.seat)
        out = io.BytesIO()
        Image.fromarray(rgb).save(out, format="PNG", compress_level=1)
        return out.getvalue()


def protocol_options(body: dict, allowed: list[str], max_players: int) -> dict:
    """The checked options of a new game of ``body["game"]``: players, opponents (one of the
    server's specs for all, or one per opponent), seat (a number or "random"), seed."""
    known = {"game", "players", "opponents", "seat", "seed"}
    unknown = sorted(set(body) - known)
    if unknown:
        raise ApiError(400, f"unknown field {unknown[0]!r}; a new {body['game']} game takes {', '.join(sorted(known))}")
    try:
        game = get_game(body["game"])
    except (TypeError, ValueError) as exc:
        raise ApiError(400, str(exc)) from None
    d = game.description
    players = _int_field(body, "players", d.min_players, d.min_players, min(max_players, d.max_players))
    specs, seat, seed = seats_and_seed(body, allowed, players)
    return {"game": game, "config": GameConfig(players, game=game.name), "seat": seat, "seed": seed,
            "specs": specs[:seat] + [None] + specs[seat:]}


def make_protocol_table(options: dict) -> ProtocolTable:
    return ProtocolTable(options["game"], options["config"], options["seat"], options["seed"], options["specs"])


def protocol_game_json(game_id: str, table: ProtocolTable, since: int) -> dict:
    """The game as the person's seat sees it (everything once it is over), the person's moves
    when it is the person's turn, and the log from entry ``since`` on."""
    g, s = table.game, table.state
    viewer = None if table.over else table.seat
    out = {
        "id": game_id, "game": g.name, "title": g.description.title, "seat": table.seat,
        "players": table.config.num_players, "seed": table.seed,
        "names": ["you" if q == table.seat else f"seat {q} ({sp})" for q, sp in enumerate(table.specs)],
        "board": table.render.render_ansi(s, viewer=viewer), "picture": f"/api/games/{game_id}/picture.png",
        "moves": ([{"action": int(a), "label": g.action_label(a, s)} for a in g.rules.legal_actions(s)]
                  if table.person_to_act else []),
        "can_undo": False, "over": table.over, "your_turn": table.person_to_act, "error": table.failure,
        "log": table.log[since:], "log_from": since, "log_size": len(table.log), "final": None,
    }
    if g.rules.is_over(s):
        rec = game_record(g, table.config, s, table.seed, ["human" if sp is None else sp for sp in table.specs],
                          table.actions)
        out["final"] = {"scores": rec["scores"], "ranks": rec["ranks"], "winners": rec["winners"],
                        "score_parts": list(g.score_names), "record": rec}
    return out
