"""Live games of the page for every game of the protocol other than Space Mission (which keeps
its own view model, ``_table.Table``): the simplest honest page, the game's own
viewer-restricted text board (``render_ansi_colours(state, viewer=seat)`` where the game has
it, as terminal play: the seats by colour; else ``render_ansi``), its picture
(``render_rgb(state, viewer=seat)``) and the person's legal moves as buttons.

Only the seat's view ever leaves the server while the game runs: the board and the picture
are drawn for the person's seat, the log gives the other seats' hidden moves as hidden
(``Game.seat_label``: Red Planet's commits and keeps, M-R3, M-S6), and the moves are the person's
own legal ones, only when it is the person's turn. At the end everything is turned face up,
as a table does."""
from __future__ import annotations

import copy
import importlib
import io

from spacemission_env.games import GameConfig, get_game
from spacemission_env.json_input import json_shown

from .._protocol_games import SeatWords, final_ranks, game_record
from .._protocol_play import ProtocolTable
from .games import SERVE_SEER_HELP, ApiError, int_field, seats_and_seed, seed_chosen, shown_seed
from .payload import seer_seats


def picture_snapshot(table: ProtocolTable) -> tuple:
    """What the picture needs, copied (quick, under the game's lock): the game, the state and
    the viewer (the person's seat; None, everything, once the game is over)."""
    return table.game, copy.deepcopy(table.state), None if table.over else table.seat


def picture_png(snapshot: tuple) -> bytes:
    """The picture of a :func:`picture_snapshot`, drawn without the game's lock: a move sent
    while it is drawn is played, not refused as busy."""
    from PIL import Image

    game, state, viewer = snapshot
    render = importlib.import_module(game.render_module)
    rgb = render.render_rgb(state, viewer=viewer)
    out = io.BytesIO()
    Image.fromarray(rgb).save(out, format="PNG", compress_level=1)
    return out.getvalue()


def protocol_options(body: dict, allowed: list[str], max_players: int) -> dict:
    """The checked options of a new game of ``body["game"]``: players, opponents (one of the
    server's specs for all, or one per opponent), seat (a number or "random"), seed."""
    known = {"game", "players", "opponents", "seat", "seed"}
    unknown = sorted(set(body) - known)
    if unknown:
        raise ApiError(400, f"unknown field {json_shown(unknown[0])}; a new {body['game']} game takes {', '.join(sorted(known))}")
    try:
        game = get_game(body["game"])
    except (TypeError, ValueError) as exc:
        raise ApiError(400, str(exc)) from None
    d = game.description
    if max_players < d.min_players:  # else the default would pass the server's limit, or no count is offered
        raise ApiError(400, f"{d.title} needs {d.min_players}..{d.max_players} players, but this server offers games "
                            f"of at most {max_players} (serve --players)")
    players = int_field(body, "players", d.min_players, d.min_players, min(max_players, d.max_players))
    specs, seat, seed = seats_and_seed(body, allowed, players)
    return {"game": game, "config": GameConfig(players, game=game.name), "seat": seat, "seed": seed,
            "specs": specs[:seat] + [None] + specs[seat:], "seed_chosen": seed_chosen(body)}


def make_protocol_table(options: dict) -> ProtocolTable:
    """A new game with its bots built and bound (ApiError 400 when a bot refuses the game)."""
    try:
        return ProtocolTable(options["game"], options["config"], options["seat"], options["seed"], options["specs"],
                             allow_seer=options.get("allow_seer", False), seer_help=SERVE_SEER_HELP)
    except ValueError as exc:
        raise ApiError(400, str(exc)) from None


def protocol_game_json(game_id: str, table: ProtocolTable, since: int, seed_known: bool = False,
                       version: int = 0) -> dict:
    """The game as the person's seat sees it (everything once it is over), the person's moves
    when it is the person's turn, and the log from entry ``since`` on. The seed, which decides
    every hidden card, only once the game is over or when the person chose it (``seed_known``)."""
    g, s = table.game, table.state
    viewer = None if table.over else table.seat
    words = SeatWords(g)
    out = {
        "id": game_id, "game": g.name, "title": g.description.title, "seat": table.seat,
        "players": table.config.num_players, "version": version,
        "seed": shown_seed(table, seed_known),
        # the seats as terminal play names them (by colour where the game's board can write them);
        # the labels and the log as the person reads them (records keep the game's own labels)
        "names": [words.name(q, table.seat, sp) for q, sp in enumerate(table.specs)],
        "seers": seer_seats(table.bots),
        "board": words.board(s, viewer), "picture": f"/api/games/{game_id}/picture.png",
        "moves": ([{"action": int(a), "label": words.said(g.action_label(a, s))} for a in g.rules.legal_actions(s)]
                  if table.person_to_act else []),
        "can_undo": False, "over": table.over, "your_turn": table.person_to_act, "error": table.failure,
        "log": [dict(e, text=words.said(e["text"])) for e in table.log[since:]], "log_from": since, "log_size": len(table.log), "final": None,
    }
    if g.rules.is_over(s):
        rec = game_record(g, table.config, s, table.seed, table.agents(), table.actions)
        out["final"] = {"scores": rec["scores"], "ranks": rec["ranks"], "winners": rec["winners"],
                        "score_parts": list(g.score_names), "record": rec, "failure": None}
    elif table.failure is not None:  # a bot's failure ended it: Space Mission's final shape, its failure
        # named there as well as in error; the scores and ranks so far, no winner, no record of a game not played out
        out["final"] = {"scores": g.rules.scores(s), "ranks": final_ranks(g, s), "winners": [],
                        "score_parts": list(g.score_names), "record": None, "failure": table.failure}
    return out
