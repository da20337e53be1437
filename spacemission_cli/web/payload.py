"""JSON for the page, built from a :class:`~spacemission_cli._view.View` (a seat's own
observation, decoded) and the person's legal moves: never from the full state. The one
exception is the end of a game, when :meth:`Table.final_view` shows everything, as a table
turns every card face up."""
from __future__ import annotations

from dataclasses import asdict, replace

from rich.text import Text

from spacemission_env.space_mission import render
from spacemission_env.space_mission.components import (
    CARD_LABELS,
    END_THRESHOLD,
    MAX_PLAYERS,
    MIN_PLAYERS,
    PLANET_JUMP,
    PLANET_LANDING,
    PLANET_NAMES,
    PLANET_SCAN,
    RING_SIZE,
    TILE_NAMES,
)
from spacemission_env.space_mission.config import RULE_SETS

from .. import _view as V
from .._table import Table
from .games import shown_seed

SCORE_PARTS = ("jump_gate", "stations", "minerals", "aliens", "matter", "water", "medals", "total")


def _rgb(colour) -> str:
    return "#%02x%02x%02x" % tuple(colour)


def meta(opponents: list[str], max_players: int) -> dict:
    """What the page needs before any game: the board's fixed pieces (the picture's colours
    and layout constants from ``spacemission_env.space_mission.render``) and the server's choices."""
    return {
        "planets": [{"name": PLANET_NAMES[p], "jump": int(PLANET_JUMP[p]), "scan": int(PLANET_SCAN[p]),
                     "landing": [int(x) for x in PLANET_LANDING[p]], "coords": V.planet_coords(p),
                     "colour": _rgb(render.PLANET_COLOURS[p])} for p in range(len(PLANET_NAMES))],
        "players": {"colours": [_rgb(c) for c in render.PLAYER_COLOURS], "names": list(V.COLOUR_NAMES),
                    "min": MIN_PLAYERS, "max": min(MAX_PLAYERS, max_players)},
        "tiles": [V.tile_name(t) for t in range(len(TILE_NAMES))],
        "cards": list(CARD_LABELS),
        "colours": {"jump": _rgb(render.JUMP_COLOUR), "scan": _rgb(render.SCAN_COLOUR),
                    "landing": _rgb(render.LANDING_COLOUR), "background": _rgb(render.BACKGROUND),
                    "gate": _rgb(render.GATE_FILL), "text": _rgb(render.TEXT), "dim": _rgb(render.DIM),
                    "band": _rgb(render.REVEALED_BAND)},
        "layout": {"board": render.BOARD, "ring_radius": render.RING_RADIUS, "planet_radius": render.PLANET_RADIUS,
                   "gate_radius": render.GATE_RADIUS, "ring_size": RING_SIZE},
        "end_threshold": [int(x) for x in END_THRESHOLD],
        "rules": list(RULE_SETS),
        "opponents": list(opponents),
    }


def view_json(view: V.View) -> dict:
    data = asdict(view)
    for pv in data["planets"]:  # JSON object keys are strings: give seat-keyed maps as lists
        pv["probes"] = [[q, k] for q, k in pv["probes"].items()]
        pv["visits"] = [[q, k] for q, k in pv["visits"].items()]
        pv["reservations"] = [[q, V.tiles_text(t)] for q, t in pv["reservations"].items()]
        pv["pile_text"] = V.tiles_text(pv["pile"], "empty") if pv["pile"] is not None else None
        pv["last_look"] = ({"rounds_ago": pv["last_look"][0], "pile": V.tiles_text(pv["last_look"][1], "empty")}
                           if pv["last_look"] is not None else None)
        pv["name"], pv["coords"] = PLANET_NAMES[pv["planet"]], V.planet_coords(pv["planet"])
    for sv in data["seats"]:
        sv["collection_text"] = V.tiles_text(sv["collection"]) if sv["collection"] is not None else None
    data["pile_seen_text"] = V.tiles_text(view.pile_seen, "empty") if view.pile_seen is not None else None
    data["status"] = Text.from_markup(V.status_line(view, None)).plain
    return data


def seer_seats(bots: dict) -> list[int]:
    """The seats whose bot plays on the whole state (``serve --allow-seer``): it sees the
    person's hand and every hidden card, and the page says so."""
    from spacemission_agents.arena import WHOLE_STATE_VIEWS

    return [q for q, b in sorted(bots.items()) if getattr(b, "observation_type", None) in WHOLE_STATE_VIEWS]


def game_json(game_id: str, table: Table, since: int, seed_known: bool = False, version: int = 0) -> dict:
    """The game as the person's seat sees it, the moves it may make, and the log of moves in
    words from entry ``since`` on (the bots' moves since the person's last). The seed, which
    decides every hidden card and the bots' moves, only once the game is over or when the
    person chose it (``seed_known``); ``version`` counts the game's changes; ``seers``: the
    seats whose bot sees the whole state (serve --allow-seer)."""
    s = table.state
    view = table.view()
    if table.over and not view.game_over:  # resigned, or a bot failed: over, with no one to act
        view = replace(view, game_over=True)
    out = {
        "id": game_id, "seat": table.seat, "players": s.num_players, "rules": s.rules, "version": version,
        "seed": shown_seed(table, seed_known),
        "max_rounds": s.max_rounds, "names": table.names, "seers": seer_seats(table.opponents),
        "view": view_json(view),
        "moves": [{"action": m.action, "kind": m.kind, "label": m.label, "cards": list(m.cards)} for m in table.moves()],
        "can_undo": table.can_undo, "over": table.over, "your_turn": table.person_to_act,
        "log": table.log[since:], "log_from": since, "log_size": len(table.log), "final": None,
    }
    if table.over:
        res = table.result()
        out["final"] = dict(res, view=view_json(replace(table.final_view(), game_over=True)),
                            score_parts=list(SCORE_PARTS))
    return out
