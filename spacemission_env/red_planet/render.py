"""Human views of a Mission: Red Planet game: ``render_ansi`` (text), ``render_human``
(prints that text), ``render_rgb`` (a Pillow picture) and ``save_png``.

All read a reference :class:`~spacemission_env.red_planet.rules.state.GameState`. With
``viewer=None`` they show the whole table, hidden cards included (for people watching or
debugging); with ``viewer=q`` only what seat q may know, by the rules of the ``info``
observation (encoding.py, M-I1..M-I4): Mars, the pad, ships in the air, piles' sizes,
supplies, LiSM, counters and every seat's remaining role cards are public; bonus cards,
setup hands, unrevealed commits and discovery cards are shown only to whoever may see
them (a hidden commit counts among its owner's remaining cards, M-I4). Both views are
drawn from one description (``seat_view``, ``zone_view``, ``slot_view``), so text and
picture hide the same things.

The picture: Mars as a disc of three central zones inside a ring of seven outer zones
(M-C2, borders as in the data file), each with its name, mineral token (ice blue,
sylvanite purple, celerium brown; "?" until revealed, M-L5), leftover counters, the
discovery card laid there (face down: "?", with its layer's colour) and each seat's
astronauts as numbered discs in its colour. A side panel shows round, phase and the seat
to act, the piles, the launch pad (per slot: ship, capacity, destination and whether it
is a token, on the pad or in the air with its launch order, and the crew by colour) and
per seat: supply, LiSM, counters, the nine role cards (bright: in hand, dim: spent,
outlined: this round's revealed role), bonus cards and setup cards as the viewer may see
them. ``zone_region``, ``slot_region``, ``seat_region`` and ``header_region`` give the
boxes the parts are drawn in.
"""
from __future__ import annotations

import math
import unicodedata
from functools import lru_cache

import numpy as np

from ..checks import is_int, shown
from ..extras import require
from .components import (
    CARD_LABELS,
    CENTRAL,
    MINERAL_NAMES,
    MINERAL_VALUE,
    NUM_ROLES,
    NUM_ROUNDS,
    NUM_ZONES,
    OUTER_ZONES,
    ROLE_NAMES,
    SHIP_CAPACITY,
    SHIP_DEST,
    ZONE_NAMES,
)
from .encoding import revealed
from .rules.labels import name_seats
from .rules.scoring import scores
from .rules.state import NONE, TURN_PHASES, GameState

PLAYER_COLOURS = ((220, 60, 60), (70, 130, 230), (240, 200, 40), (80, 190, 90), (190, 90, 210))
PLAYER_NAMES = ("red", "blue", "yellow", "green", "purple")
MINERAL_COLOURS = ((120, 200, 245), (160, 90, 200), (150, 100, 60))  # ice, sylvanite, celerium
BACKGROUND = (14, 10, 12)
TEXT = (240, 235, 230)
DIM = (150, 140, 140)
SPENT = (70, 62, 62)
CENTRAL_FILL = (170, 80, 50)
OUTER_FILL = (195, 105, 60)
BORDER = (60, 25, 20)
WIDTH, HEIGHT = 1340, 820
BOARD = 820  # Mars fills the left 820 x 820 square; the panel is on the right
CENTRE = (BOARD // 2, HEIGHT // 2)
R_OUTER, R_INNER = 395, 178  # the ring of outer zones lies between these radii


# --- what a viewer sees -------------------------------------------------------------------
def _check_viewer(state: GameState, viewer) -> None:
    if viewer is None:
        return
    if not is_int(viewer):
        raise TypeError(f"viewer must be an int seat or None, got {type(viewer).__name__} {shown(viewer)}")
    if not 0 <= viewer < state.num_players:
        raise ValueError(f"viewer must be a seat in 0..{state.num_players - 1} or None, got {shown(viewer)}")


def _check_state(state) -> None:
    if not isinstance(state, GameState):
        raise TypeError(f"state must be a red planet GameState, got {type(state).__name__}")


def may_see(state: GameState, viewer: int | None, seat: int) -> bool:
    """Whether ``viewer`` sees ``seat``'s private cards (M-I2, M-I3)."""
    return viewer is None or viewer == seat


def role_status(state: GameState, seat: int, viewer: int | None) -> list[str]:
    """Per role card of ``seat`` as ``viewer`` sees it: "hand" (remaining), "spent"
    (discard pile, M-R6), "revealed" (this round's role, called and not yet discarded,
    M-R4) or "committed" (chosen, not yet called: shown only to its owner and to
    everyone-viewers; to the others it counts among the remaining cards, M-I4)."""
    pl = state.players[seat]
    status = []
    for r in range(NUM_ROLES):
        if r in pl.hand:
            status.append("hand")
        elif r in pl.discard:
            status.append("spent")
        elif revealed(state, seat):
            status.append("revealed")
        else:
            status.append("committed" if may_see(state, viewer, seat) else "hand")
    return status


def seat_view(state: GameState, seat: int, viewer: int | None) -> dict:
    """What ``viewer`` sees of ``seat``: counts, role cards, cards in words."""
    pl = state.players[seat]
    mine = may_see(state, viewer, seat)
    commit = "-"
    if pl.commit != NONE:
        if revealed(state, seat) or mine:
            commit = ROLE_NAMES[pl.commit] + ("" if revealed(state, seat) else " (hidden)")
        else:
            commit = "chosen (hidden)"
    bonus = ", ".join(CARD_LABELS[c] for c in pl.bonus) if mine or not pl.bonus else f"{len(pl.bonus)} hidden"
    setup = (", ".join(CARD_LABELS[c] for c in pl.setup_hand) if mine else f"{len(pl.setup_hand)} hidden") \
        if pl.setup_hand else ""
    drawn = ""
    if state.drawn != NONE and state.current_player == seat:  # M-E1: its drawer alone sees it
        drawn = CARD_LABELS[state.drawn] if mine else "a discovery card (hidden)"
    points = sum(c * v for c, v in zip(pl.counters, MINERAL_VALUE))
    total = scores(state)[seat]["total"] if viewer is None else None  # final totals use hidden cards
    return {
        "supply": pl.supply, "lism": pl.lism, "removed": pl.removed, "counters": list(pl.counters),
        "points": points, "total": total, "roles": role_status(state, seat, viewer), "commit": commit,
        "acted": pl.acted, "bonus": bonus or "-", "setup": setup, "drawn": drawn,
    }


def discovery_text(state: GameState, zone: int, viewer: int | None) -> str:
    """The discovery card in ``zone``: its name for whoever laid it or looked at it (M-I2), "?" otherwise."""
    c = state.discovery[zone]
    if c == NONE:
        return "-"
    known = viewer is None or state.discovery_owner[zone] == viewer or viewer in state.looked[zone]
    return CARD_LABELS[c] if known else "?"


def zone_view(state: GameState, zone: int, viewer: int | None) -> dict:
    t = state.mineral[zone]
    return {
        "mineral": MINERAL_NAMES[t] if t != NONE else "?",
        "leftover": state.leftover[zone],
        "discovery": discovery_text(state, zone, viewer),
        "discovery_owner": state.discovery_owner[zone],
        "looked": list(state.looked[zone]),
        "astronauts": [(q, k) for q, k in enumerate(state.mars[zone]) if k],
    }


def slot_view(state: GameState, slot: int) -> dict | None:
    """A pad slot's ship (public, M-I1), or None for an empty slot."""
    ship = state.slots[slot]
    if ship == NONE:
        return None
    dest = state.destination(ship)
    where = f"air #{state.airborne.index(slot) + 1}" if slot in state.airborne else "pad"
    return {
        "ship": ship, "capacity": SHIP_CAPACITY[ship], "free": state.free_seats(ship), "where": where,
        "destination": ZONE_NAMES[dest] if dest != NONE else "none yet",
        "token": state.token[ship] != NONE, "hand_piloted": SHIP_DEST[ship] == NONE,
        "crew": [(q, k) for q, k in enumerate(state.crew[ship]) if k],
        "pending": slot == state.pending_slot, "placed": state.placed_slots.count(slot),
    }


def status_line(state: GameState, names: tuple[str, ...] | None = None) -> str:
    """The round, phase and acting seat; with ``names`` each seat is written by its name
    (:func:`render_ansi_colours`), else as ``player_Q``."""
    who = names or tuple(f"player_{q}" for q in range(state.num_players))
    if state.phase == "over":
        return f"round {state.round}/{NUM_ROUNDS}: game over"
    role = f", role {ROLE_NAMES[state.role]}" if state.phase in TURN_PHASES else ""
    steps = f", {state.steps_left} step(s) left" if state.steps_left else ""
    return (f"round {state.round}/{NUM_ROUNDS}, phase {state.phase}: {who[state.current_player]} to act"
            f"{role}{steps} | start {who[state.start_player]}")


def piles_text(state: GameState, viewer: int | None) -> list[str]:
    """The piles' sizes (M-I1); the removed discovery cards by name for everyone-viewers."""
    removed = (" (" + ", ".join(CARD_LABELS[c] for c in state.removed_cards) + ")"
               if viewer is None and state.removed_cards else "")
    pool = ", ".join(f"{MINERAL_NAMES[t]} {state.mineral_pool.count(t)}" for t in range(len(MINERAL_NAMES)))
    return [f"ship deck {len(state.ship_deck)} | used ships {len(state.used_ships)} | event pile {len(state.event_pile)}",
            f"mineral pool {len(state.mineral_pool)} ({pool}) | destination tokens {sum(state.token_supply)}",
            f"removed cards {len(state.removed_cards)}{removed}"]


def _astronauts(pairs, short: tuple[str, ...]) -> str:
    return " ".join(f"{short[q]}:{k}" for q, k in pairs) or "-"


def _roles_text(status: list[str]) -> str:
    marks = {"hand": "{}", "spent": "({})", "revealed": "[{}]", "committed": "<{}>"}
    return " ".join(marks[s].format(r + 1) for r, s in enumerate(status))


def render_ansi(state: GameState, viewer: int | None = None) -> str:
    """A plain-text table of the game as ``viewer`` sees it (None: everything). Role cards
    are numbered 1-9 (M-C7): ``5`` in hand, ``(5)`` spent, ``[5]`` revealed this round,
    ``<5>`` chosen and not yet called. Every seat is written as its agent's name,
    ``player_Q`` ("player_2 to act", "player_0:3", "by player_1", "player_0's view"), its
    colour once, in its row ("player_0 (red)"), as the picture names it."""
    return _table(state, viewer, colours=False)


def render_ansi_colours(state: GameState, viewer: int | None = None) -> str:
    """:func:`render_ansi`'s table with every seat written by its colour (``red``, ``blue``,
    ...: "red to act", "red:2", "by blue", "red's view"): the one naming terminal play uses,
    as Space Mission's play does."""
    return _table(state, viewer, colours=True)


def label_in_colours(label: str) -> str:
    """A move's label (or a log line) as a person reads it beside :func:`render_ansi_colours`:
    a seat it names ("kill a player 2 astronaut", the Soldier's and the Femme Fatale's targets,
    rules/labels.py) by its colour ("kill a yellow astronaut")."""
    return name_seats(label, PLAYER_NAMES)


def _table(state: GameState, viewer: int | None, colours: bool) -> str:
    _check_state(state)
    _check_viewer(state, viewer)
    n = state.num_players
    # one name per seat on the whole table: its colour (play), or its agent's name (the env)
    short = PLAYER_NAMES[:n] if colours else tuple(f"player_{q}" for q in range(n))
    lines = [f"Mission: Red Planet, {n} players, {status_line(state, short)}"
             + (f" | {short[viewer]}'s view" if viewer is not None else " | whole table: every card shown"),
             " | ".join(piles_text(state, viewer))]
    zones = []
    for z in range(NUM_ZONES):
        v = zone_view(state, z, viewer)
        disc = v["discovery"] if v["discovery"] == "-" else f"{v['discovery']} by {short[v['discovery_owner']]}"
        if v["looked"]:
            disc += " seen by " + ",".join(short[q] for q in v["looked"])
        zones.append((z, v, disc))
    width = max(38, *(len(disc) for _, _, disc in zones))  # a long discovery text keeps the astronauts apart
    lines.append(f"zone            kind     mineral    left  {'discovery':<{width}} astronauts")
    for z, v, disc in zones:
        lines.append(f"{z} {ZONE_NAMES[z]:<13} {'central' if CENTRAL[z] else 'outer':<8} {v['mineral']:<10} "
                     f"{v['leftover']:>4}  {disc:<{width}} {_astronauts(v['astronauts'], short)}")
    lines.append("slot ship cap free destination         where   crew")
    for k in range(n):
        v = slot_view(state, k)
        if v is None:
            lines.append(f"{k:<4} -")
            continue
        dest = v["destination"] + (" (token)" if v["token"] else "")
        lines.append(f"{k:<4} {v['ship']:<4} {v['capacity']:<3} {v['free']:<4} {dest:<19} {v['where']:<7} "
                     f"{_astronauts(v['crew'], short)}" + (" <- awaits its destination" if v["pending"] else ""))
    for q in range(n):
        v = seat_view(state, q, viewer)
        marker = ">" if q == state.current_player else " "
        ice, syl, cel = v["counters"]
        score = f"score {v['total']}" if v["total"] is not None else f"counter points {v['points']}"
        who = PLAYER_NAMES[q] if colours else f"player_{q} ({PLAYER_NAMES[q]})"
        lines.append(f"{marker} {who}: supply {v['supply']}, LiSM {v['lism']}, removed "
                     f"{v['removed']} | counters ice {ice} sylvanite {syl} celerium {cel} | {score}")
        extra = (f" | setup cards: {v['setup']}" if v["setup"] else "") + (f" | drawn: {v['drawn']}" if v["drawn"] else "")
        lines.append(f"    roles {_roles_text(v['roles'])} | commit {v['commit']} | bonus: {v['bonus']}{extra}")
    return "\n".join(lines)


def render_human(state: GameState, file=None, viewer: int | None = None) -> None:
    """Print :func:`render_ansi`'s table, followed by a blank line between frames."""
    print(render_ansi(state, viewer) + "\n", file=file, flush=True)


# --- the picture ---------------------------------------------------------------------------
@lru_cache(maxsize=8)
def _font(size: int):
    ImageFont = require("PIL.ImageFont", "render", "drawing the board")
    try:
        return ImageFont.load_default(size=size)
    except TypeError:  # Pillow < 10.1: bitmap font only
        return ImageFont.load_default()


# Pillow's built-in font has ASCII glyphs only: the German card names' umlauts drew as empty
# boxes ("Eisbl?cke"). The picture spells them as German does without them; the text keeps them.
_SPELLED = str.maketrans({"ä": "ae", "ö": "oe", "ü": "ue", "Ä": "Ae", "Ö": "Oe", "Ü": "Ue", "ß": "ss"})


def _drawable(text: str) -> str:
    """``text`` in the characters the picture's font has: umlauts spelled out (ae, oe, ue, ss),
    other accents dropped (é: e), anything else without an ASCII form "?"."""
    if text.isascii():
        return text
    text = unicodedata.normalize("NFKD", text.translate(_SPELLED))
    return "".join(c if c.isascii() else "?" for c in text if not unicodedata.combining(c))


@lru_cache(maxsize=None)
def _spelling_draw():
    """Pillow's ImageDraw whose ``text`` and ``textbbox`` take any text and draw (or measure)
    it as :func:`_drawable` spells it: every text of the picture goes through it."""
    ImageDraw = require("PIL.ImageDraw", "render", "rgb_array rendering")

    class SpellingDraw(ImageDraw.ImageDraw):  # type: ignore[name-defined]  # Pillow, imported at run time (the render extra)
        def text(self, xy, text, *args, **kwargs):
            return super().text(xy, _drawable(text), *args, **kwargs)

        def textbbox(self, xy, text, *args, **kwargs):
            return super().textbbox(xy, _drawable(text), *args, **kwargs)

    return SpellingDraw


def _centred(draw, xy, text, fill, size):
    font = _font(size)
    left, top, right, bottom = draw.textbbox((0, 0), text, font=font)
    draw.text((xy[0] - (right - left) / 2, xy[1] - (bottom - top) / 2 - top), text, fill=fill, font=font)


_STEP = 360 / len(OUTER_ZONES)  # degrees per outer zone, clockwise from the top (Pillow's angles)


def _outer_angle(i: float) -> float:
    """Centre angle of outer zone OUTER_ZONES[i] (fractional i: between zones)."""
    return -90 + (i - 1) * _STEP  # the second outer zone at the top, under the first central zone


def _central_span(c: int) -> tuple[float, float]:
    """Angles of central zone c: over the outer zones it borders (M-C2), halfway between."""
    bounds = (_outer_angle(-0.5), _outer_angle(2), _outer_angle(4), _outer_angle(6.5))
    return bounds[c], bounds[c + 1]


def _zone_xy(z: int) -> tuple[float, float]:
    if CENTRAL[z]:
        a0, a1 = _central_span(CENTRAL_ORDER.index(z))
        angle, radius = (a0 + a1) / 2, 100
    else:
        angle, radius = _outer_angle(OUTER_ZONES.index(z)), (R_OUTER + R_INNER) / 2
    rad = math.radians(angle)
    return CENTRE[0] + radius * math.cos(rad), CENTRE[1] + radius * math.sin(rad)


CENTRAL_ORDER = tuple(z for z in range(NUM_ZONES) if CENTRAL[z])


# Regions (x0, y0, x1, y1), for tests and for people cropping the picture: everything drawn
# for a zone (name, mineral, leftover, discovery card, astronauts) lies in zone_region(z);
# a pad slot's row in slot_region(k); a seat's panel in seat_region(q, n); round, phase and
# piles in header_region().
def zone_region(z: int) -> tuple[int, int, int, int]:
    x, y = _zone_xy(z)
    w, h = (120, 100) if CENTRAL[z] else (150, 120)
    return int(x - w / 2), int(y - h / 2), int(x + w / 2) + 1, int(y + h / 2) + 1


PANEL_X = BOARD + 10
HEADER_BOTTOM = 100
SLOT_TOP, SLOT_HEIGHT = 126, 30
SEATS_TOP = SLOT_TOP + 5 * SLOT_HEIGHT + 14


def header_region() -> tuple[int, int, int, int]:
    return PANEL_X, 8, WIDTH - 10, HEADER_BOTTOM


def slot_region(k: int) -> tuple[int, int, int, int]:
    top = SLOT_TOP + k * SLOT_HEIGHT
    return PANEL_X, top, WIDTH - 10, top + SLOT_HEIGHT - 3


def seat_region(q: int, num_players: int) -> tuple[int, int, int, int]:
    step = (HEIGHT - 8 - SEATS_TOP) // num_players
    top = SEATS_TOP + q * step
    return PANEL_X, top, WIDTH - 10, top + step - 6


def _disc(draw, x, y, colour, label, r=9):
    draw.ellipse([x - r, y - r, x + r, y + r], fill=colour, outline=(255, 255, 255))
    _centred(draw, (x, y), label, (0, 0, 0), 12)


def _draw_mars(draw) -> None:
    cx, cy = CENTRE
    box = [cx - R_OUTER, cy - R_OUTER, cx + R_OUTER, cy + R_OUTER]
    for i in range(len(OUTER_ZONES)):
        a = _outer_angle(i)
        draw.pieslice(box, a - _STEP / 2, a + _STEP / 2, fill=OUTER_FILL, outline=BORDER, width=3)
    inner = [cx - R_INNER, cy - R_INNER, cx + R_INNER, cy + R_INNER]
    for c in range(len(CENTRAL_ORDER)):
        a0, a1 = _central_span(c)
        draw.pieslice(inner, a0, a1, fill=CENTRAL_FILL, outline=BORDER, width=3)


def _draw_legend(draw) -> None:
    """The corners of the board square, outside Mars: what the marks mean."""
    font = _font(12)
    for t, name in enumerate(MINERAL_NAMES):
        y = 12 + t * 22
        draw.rectangle([12, y, 30, y + 18], fill=MINERAL_COLOURS[t], outline=(255, 255, 255))
        _centred(draw, (21, y + 9), str(MINERAL_VALUE[t]), (0, 0, 0), 12)
        draw.text((38, y + 2), f"{name} (value {MINERAL_VALUE[t]})", fill=TEXT, font=font)
    notes = ("? square: no mineral yet (M-L5)", "+k: leftover counters", "card: discovery card, border: who laid",
             "it, ? if unknown; dots: who looked", "numbered discs: astronauts by colour")
    for i, line in enumerate(notes):
        draw.text((12, HEIGHT - 14 - 15 * (len(notes) - i)), line, fill=DIM, font=font)


def _draw_zone(draw, state: GameState, z: int, viewer: int | None) -> None:
    v = zone_view(state, z, viewer)
    x0, y0, x1, y1 = zone_region(z)
    xm = (x0 + x1) / 2
    _centred(draw, (xm, y0 + 10), f"{ZONE_NAMES[z]} #{z}", TEXT, 14)
    # mineral token (M-L5) and leftover counters (M-P1, M-P2)
    t = state.mineral[z]
    colour = MINERAL_COLOURS[t] if t != NONE else (90, 60, 50)
    draw.rectangle([xm - 52, y0 + 24, xm - 30, y0 + 46], fill=colour, outline=(255, 255, 255))
    _centred(draw, (xm - 41, y0 + 35), str(MINERAL_VALUE[t]) if t != NONE else "?", (0, 0, 0), 13)
    if v["leftover"]:
        _centred(draw, (xm - 8, y0 + 35), f"+{v['leftover']}", TEXT, 13)
    # discovery card (M-E1): face down in its layer's colour, its name if the viewer knows it
    if v["discovery"] != "-":
        owner = PLAYER_COLOURS[v["discovery_owner"]]
        draw.rectangle([xm + 14, y0 + 22, xm + 52, y0 + 48], fill=(40, 30, 60), outline=owner, width=3)
        _centred(draw, (xm + 33, y0 + 35), "?" if v["discovery"] == "?" else _drawable(v["discovery"])[:5], TEXT, 11)
        for i, q in enumerate(v["looked"]):  # M-O3(b): who looked is public
            draw.rectangle([xm + 16 + 7 * i, y0 + 50, xm + 21 + 7 * i, y0 + 54], fill=PLAYER_COLOURS[q])
    # astronauts by colour, numbered
    here = v["astronauts"]
    for i, (q, k) in enumerate(here):
        row, col = divmod(i, 5)
        per_row = min(5, len(here) - row * 5)
        _disc(draw, xm + (col - (per_row - 1) / 2) * 22, y0 + 70 + row * 22, PLAYER_COLOURS[q], str(k))


def _draw_header(draw, state: GameState, viewer: int | None) -> None:
    x0, y0, x1, _ = header_region()
    title = "Mission: Red Planet" + (f" - player_{viewer}'s view" if viewer is not None else " - whole table, every card shown")
    draw.text((x0, y0), title, fill=TEXT, font=_font(20))
    status = status_line(state).split(" | ")
    draw.text((x0, y0 + 28), status[0], fill=TEXT, font=_font(13))
    if len(status) > 1:
        draw.text((x0, y0 + 45), status[1], fill=TEXT, font=_font(13))
    piles = piles_text(state, viewer)
    draw.text((x0, y0 + 62), piles[0] + " | " + piles[2].split(" (")[0], fill=DIM, font=_font(12))
    draw.text((x0, y0 + 77), piles[1], fill=DIM, font=_font(12))


def _draw_slot(draw, state: GameState, k: int) -> None:
    x0, y0, x1, y1 = slot_region(k)
    v = slot_view(state, k)
    draw.rectangle([x0, y0, x1, y1], outline=(90, 80, 80))
    if v is None:
        draw.text((x0 + 6, y0 + 7), f"slot {k}: empty", fill=DIM, font=_font(13))
        return
    colour = (255, 220, 120) if v["pending"] else TEXT
    air = v["where"] != "pad"
    dest = v["destination"] + (" (token)" if v["token"] else "")
    text = f"slot {k}: ship {v['ship']}, {v['free']} of {v['capacity']} free -> {dest}"
    draw.text((x0 + 6, y0 + 7), text, fill=colour, font=_font(13))
    draw.text((x0 + 318, y0 + 7), v["where"], fill=(120, 200, 255) if air else DIM, font=_font(13))
    for i, (q, n) in enumerate(v["crew"]):
        _disc(draw, x0 + 385 + i * 22, (y0 + y1) / 2, PLAYER_COLOURS[q], str(n))


def _draw_seat(draw, state: GameState, q: int, viewer: int | None) -> None:
    n = state.num_players
    x0, y0, x1, y1 = seat_region(q, n)
    v = seat_view(state, q, viewer)
    acting = q == state.current_player
    draw.rectangle([x0, y0, x1, y1], outline=PLAYER_COLOURS[q], width=3 if acting else 1)
    who = f"player_{q} ({PLAYER_NAMES[q]})" + (" - this view" if q == viewer else "") + ("  <- to act" if acting else "")
    draw.text((x0 + 6, y0 + 3), who, fill=PLAYER_COLOURS[q], font=_font(14))
    score = f"score {v['total']}" if v["total"] is not None else f"counter points {v['points']}"
    ice, syl, cel = v["counters"]
    font = _font(12)
    draw.text((x0 + 6, y0 + 21), f"supply {v['supply']}  LiSM {v['lism']}  removed {v['removed']}  | counters "
              f"ice {ice} syl {syl} cel {cel} | {score}", fill=TEXT, font=font)
    # the nine role cards (M-C7): bright in hand, dim spent, outlined revealed, dotted committed
    for r, status in enumerate(v["roles"]):
        bx, by = x0 + 6 + r * 26, y0 + 38
        fill = {"hand": (210, 200, 190), "spent": SPENT, "revealed": (255, 230, 120), "committed": (120, 110, 160)}[status]
        draw.rectangle([bx, by, bx + 22, by + 18], fill=fill, outline=(255, 255, 255) if status == "revealed" else BORDER)
        _centred(draw, (bx + 11, by + 9), str(r + 1), (0, 0, 0), 12)
    draw.text((x0 + 246, y0 + 40), f"commit: {v['commit']}", fill=TEXT, font=font)
    lines = [f"bonus: {v['bonus']}"]
    if v["setup"]:
        lines.append(f"setup cards: {v['setup']}")
    if v["drawn"]:
        lines.append(f"drawn: {v['drawn']}")
    yy = y0 + 60
    for line in lines:
        if yy + 14 > y1:  # five players leave less room: the last lines give way
            break
        draw.text((x0 + 6, yy), line[:80], fill=TEXT, font=font)
        yy += 15


@lru_cache(maxsize=1)
def _board():
    """Mars and the legend: the same in every picture, drawn once."""
    Image = require("PIL.Image", "render", "rgb_array rendering")
    image = Image.new("RGB", (WIDTH, HEIGHT), BACKGROUND)
    draw = _spelling_draw()(image)
    _draw_mars(draw)
    _draw_legend(draw)
    return image


def render_rgb(state: GameState, viewer: int | None = None) -> np.ndarray:
    """The board as an RGB picture, uint8 [820, 1340, 3], as ``viewer`` sees it (None:
    everything; see the module docstring for what a seat may see)."""
    _check_state(state)
    _check_viewer(state, viewer)
    image = _board().copy()
    draw = _spelling_draw()(image)
    for z in range(NUM_ZONES):
        _draw_zone(draw, state, z, viewer)
    _draw_header(draw, state, viewer)
    draw.text((PANEL_X, SLOT_TOP - 20), "launch pad (slot: ship, capacity, destination; crew by colour)",
              fill=DIM, font=_font(12))
    for k in range(state.num_players):
        _draw_slot(draw, state, k)
    for q in range(state.num_players):
        _draw_seat(draw, state, q, viewer)
    return np.asarray(image, dtype=np.uint8).copy()


def save_png(state: GameState, path, viewer: int | None = None, compress_level: int = 6) -> None:
    """Write the picture of ``state`` as ``viewer`` sees it (default everything) to ``path`` (PNG)."""
    Image = require("PIL.Image", "render", "saving a PNG")
    Image.fromarray(render_rgb(state, viewer)).save(path, compress_level=compress_level)


def example_state() -> GameState:
    """The position of docs/red_planet/render.md: a 4-player game (seed EXAMPLE_SEED) played
    by uniformly random legal actions until round 6 has a ship in the air during a turn."""
    import random

    from .rules import apply, legal_actions, new_game
    state = new_game(4, seed=EXAMPLE_SEED)
    rand = random.Random(EXAMPLE_SEED)
    while not (state.round == 6 and state.airborne and state.phase in TURN_PHASES):
        apply(state, rand.choice(legal_actions(state)))
    return state


def _write_examples(folder: str) -> None:
    """The pictures of docs/red_planet/render.md, and its text table on stdout."""
    from pathlib import Path

    state = example_state()
    Path(folder).mkdir(parents=True, exist_ok=True)
    save_png(state, Path(folder) / "red_planet_board.png", compress_level=9)
    save_png(state, Path(folder) / "red_planet_board_seat0.png", viewer=0, compress_level=9)
    print(render_ansi(state, viewer=0))


EXAMPLE_SEED = 11

__all__ = ["label_in_colours", "render_ansi", "render_ansi_colours", "render_human", "render_rgb", "save_png", "PLAYER_COLOURS", "PLAYER_NAMES",
           "zone_region", "slot_region", "seat_region", "header_region", "seat_view", "zone_view", "slot_view"]

def main(argv=None) -> None:
    """python -m spacemission_env.red_planet.render docs/images"""
    import argparse

    ap = argparse.ArgumentParser(prog="python -m spacemission_env.red_planet.render",
                                 description="Draw the pictures of docs/red_planet/render.md into FOLDER "
                                 "and print the example's text table.")
    ap.add_argument("folder", nargs="?", default=".", help="where the two PNG files go (default: .)")
    _write_examples(ap.parse_args(argv).folder)


if __name__ == "__main__":
    main()
