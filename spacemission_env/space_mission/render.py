"""Human views of a game: ``render_ansi`` (text), ``render_human`` (prints that text) and
``render_rgb`` (a Pillow picture).

All read a reference :class:`~spacemission_env.space_mission.rules.state.GameState` (the batched
engine converts with ``engine.to_reference``), so they work for every engine and
interface. They show the whole table, hands included: they are for people
watching or debugging, not for agents (agents get ``observe``).

The picture: the eight ring planets sit in a circle around the central jump gate,
in ring order (position 0 at the top, clockwise), each with its position and pile
size (or, once revealed, its face-up space tiles on a dark band), its name, its jump
(blue), scan (green) and landing (orange) coordinates, small dots for the seats that
have looked through its pile (R-I1 visits), its station and the probes (reservations,
by count) of each player. Ships are coloured triangles beside their planet or on the
gate; gate probes are listed per player in the gate. A side panel shows round, acting
player, revealed space tiles against the end threshold (R-E1), draw and discard piles
and, per player, score, chips, hand, collection and last turn (R-I1). With ``viewer``
the panel hides what that seat may not see. ``planet_region`` and friends give the
boxes the parts are drawn in.
"""
from __future__ import annotations

import math
from functools import lru_cache

import numpy as np

from .components import (
    CARD_LABELS,
    END_THRESHOLD,
    PLANET_JUMP,
    PLANET_LANDING,
    PLANET_NAMES,
    PLANET_SCAN,
    RING_SIZE,
    SPACE,
    TILE_NAMES,
)
from .rules.game import scores
from ..checks import is_int, shown
from ..extras import require
from .rules.state import GATE, NO_STATION, GameState

PLAYER_COLOURS = ((220, 60, 60), (70, 130, 230), (240, 200, 40), (80, 190, 90), (190, 90, 210))
PLAYER_NAMES = ("red", "blue", "yellow", "green", "purple")
JUMP_COLOUR = (90, 160, 255)
SCAN_COLOUR = (90, 220, 120)
LANDING_COLOUR = (255, 160, 60)
PLANET_COLOURS = (
    (150, 200, 230), (200, 90, 70), (210, 120, 50), (90, 170, 90), (190, 50, 70), (120, 200, 200),
    (110, 110, 120), (170, 100, 60), (150, 150, 200), (200, 180, 230), (230, 210, 120), (200, 235, 250),
)
BACKGROUND = (12, 14, 30)
TEXT = (235, 235, 245)
DIM = (150, 150, 170)
GATE_FILL = (40, 30, 80)
REVEALED_BAND = (25, 25, 45)
WIDTH, HEIGHT = 1200, 800
BOARD = 800  # the board is the left 800 x 800 square
CENTRE = (BOARD // 2, HEIGHT // 2)
RING_RADIUS = 285
PLANET_RADIUS = 56
GATE_RADIUS = 82


def _coords(planet: int) -> tuple[str, str, str]:
    l1, l2 = PLANET_LANDING[planet]
    return f"J{PLANET_JUMP[planet]}", f"S{PLANET_SCAN[planet]}", f"L{l1},{l2}"


def _pile_text(state: GameState, p: int) -> str:
    pile = state.piles[p]
    if state.revealed[p]:
        return f"revealed: {pile[SPACE]} space"
    return f"pile {sum(pile)}"


def _collection_text(counts: list[int]) -> str:
    parts = [f"{TILE_NAMES[t]} x{n}" for t, n in enumerate(counts) if n]
    return ", ".join(parts) if parts else "-"


def _header(state: GameState) -> list[str]:
    status = "game over" + (" (round limit)" if state.round_limit else "") if state.is_over else (
        f"player_{state.current_player} to act, {state.actions_left} action(s) left, phase {state.phase}"
        + (f" ({state.pending} tile)" if state.pending else "")
    )
    return [
        f"Space Mission [{state.rules}] {state.num_players} players, round {state.round}/{state.max_rounds}: {status}",
        f"revealed space tiles {state.revealed_count}/{END_THRESHOLD[state.num_players]}"
        + (" (end triggered)" if state.end_triggered else "")
        + f" | draw pile {len(state.draw_pile)} | discard pile {len(state.discard_pile)}",
    ]


def render_ansi(state: GameState) -> str:
    """A plain-text table of the whole game state. Every seat is written as its agent's
    name, ``player_Q`` ("player_2 to act", "player_0:2" probes, stations and ships), its
    colour once, in its row ("player_0 (red)"), as the picture names it."""
    n = state.num_players
    lines = _header(state)
    lines[0] += " | whole table: every hand shown"  # not a seat's view (the picture takes a viewer)
    probes = [" ".join(f"player_{q}:{state.probes_on(p, q)}" for q in range(n) if state.probes_on(p, q)) or "-"
              for p in range(RING_SIZE)]
    width = max(17, *(len(text) + 1 for text in probes))  # four or five seats' probes need more: the ships stay apart
    lines.append(f"pos planet        coords       pile                station  {'probes':<{width}} ships")
    for p in range(RING_SIZE):
        planet = state.ring[p]
        j, s, lnd = _coords(planet)
        station = "-" if state.stations[p] == NO_STATION else f"player_{state.stations[p]}"
        ships = " ".join(f"player_{q}" for q in range(n) if state.players[q].ship == p) or "-"
        lines.append(
            f"{p:<3} {PLANET_NAMES[planet]:<13} {j} {s} {lnd:<6} {_pile_text(state, p):<19} {station:<8} {probes[p]:<{width}} {ships}"
        )
    gate_ships = " ".join(f"player_{q}" for q in range(n) if state.players[q].ship == GATE) or "-"
    gate_probes = " ".join(f"player_{q}:{pl.gate_probes}" for q, pl in enumerate(state.players)) or "-"
    lines.append(f"jump gate: ships {gate_ships} | probes {gate_probes}")
    totals = scores(state)
    for q, pl in enumerate(state.players):
        marker = ">" if q == state.current_player and not state.is_over else " "
        hand = " ".join(CARD_LABELS[c] for c in pl.hand)
        lines.append(
            f"{marker} player_{q} ({PLAYER_NAMES[q]}): score {totals[q]['total']:>3} | supply {pl.supply:>2} | hand [{hand}]"
            f" | collection {_collection_text(pl.collection)}"
        )
    return "\n".join(lines)


def render_human(state: GameState, file=None) -> None:
    """Print :func:`render_ansi`'s table (``render_mode="human"`` of every interface),
    followed by a blank line so that successive frames stay apart."""
    print(render_ansi(state) + "\n", file=file, flush=True)


# --- the picture ---------------------------------------------------------------------
@lru_cache(maxsize=16)
def _font(size: int):
    ImageFont = require("PIL.ImageFont", "render", "drawing the board")

    try:
        return ImageFont.load_default(size=size)
    except TypeError:  # Pillow < 10.1: bitmap font only
        return ImageFont.load_default()


def _planet_xy(p: int) -> tuple[float, float]:
    angle = -math.pi / 2 + 2 * math.pi * p / RING_SIZE
    return CENTRE[0] + RING_RADIUS * math.cos(angle), CENTRE[1] + RING_RADIUS * math.sin(angle)


# Regions of the picture (x0, y0, x1, y1), for tests and for people cropping the picture:
# everything drawn for a ring position (planet, station, visit marks, probes, ships) lies
# in planet_region(p); the gate's probes and ships in gate_region(); a seat's panel box in
# panel_region(q, num_players); the round, acting seat, revealed count and piles in header_region().
_PLANET_REACH = PLANET_RADIUS + 28  # probes and ships sit just outside the disc


def planet_region(p: int) -> tuple[int, int, int, int]:
    x, y = _planet_xy(p)
    r = _PLANET_REACH
    return int(x - r), int(y - r), int(x + r) + 1, int(y + r) + 1


def gate_region() -> tuple[int, int, int, int]:
    r = GATE_RADIUS + 3
    return CENTRE[0] - r, CENTRE[1] - r, CENTRE[0] + r + 1, CENTRE[1] + r + 1


HEADER_TOP, HEADER_BOTTOM = 10, 128
LEGEND_HEIGHT = 58
PANEL_LINE, MIN_PANEL_LINE = 16, 13  # a panel's line spacing, and the closest it gets at PANEL_FONT
PANEL_FONT, MIN_PANEL_FONT = 12, 8  # a panel's text size, and the smallest it gets to fit every line


def _panel_top(q: int, num_players: int) -> int:
    return HEADER_BOTTOM + q * _panel_step(num_players)


def _panel_step(num_players: int) -> int:
    return min(140, (HEIGHT - LEGEND_HEIGHT - HEADER_BOTTOM) // num_players)


def panel_region(q: int, num_players: int) -> tuple[int, int, int, int]:
    top = _panel_top(q, num_players)
    return BOARD + 10, top, WIDTH - 10, top + _panel_step(num_players) - 6


def header_region() -> tuple[int, int, int, int]:
    return BOARD + 10, HEADER_TOP, WIDTH - 10, HEADER_BOTTOM - 4


def _text_centered(draw, xy, text, fill, size):
    font = _font(size)
    left, top, right, bottom = draw.textbbox((0, 0), text, font=font)
    draw.text((xy[0] - (right - left) / 2, xy[1] - (bottom - top) / 2 - top), text, fill=fill, font=font)


def _ship(draw, x, y, colour):
    draw.polygon([(x, y - 9), (x - 7, y + 7), (x + 7, y + 7)], fill=colour, outline=(255, 255, 255))


def _draw_planet(draw, state: GameState, p: int) -> None:
    x, y = _planet_xy(p)
    planet = state.ring[p]
    r = PLANET_RADIUS
    draw.ellipse([x - r, y - r, x + r, y + r], fill=PLANET_COLOURS[planet], outline=(255, 255, 255), width=2)
    pile = state.piles[p]
    if state.revealed[p]:  # R-V1: face-up space tiles count towards the end (R-E1); a dark band stands out
        draw.rounded_rectangle([x - 46, y - 40, x + 46, y - 21], radius=5, fill=REVEALED_BAND)
        _text_centered(draw, (x, y - 30), f"#{p} {pile[SPACE]} space up", TEXT, 12)
    else:
        _text_centered(draw, (x, y - 30), f"#{p} pile {sum(pile)}", (20, 20, 30), 12)
    _text_centered(draw, (x, y - 9), PLANET_NAMES[planet], (10, 10, 20), 14)
    # coordinates in their colours on a dark band
    draw.rounded_rectangle([x - 44, y + 6, x + 44, y + 26], radius=5, fill=(20, 22, 40))
    j, s, lnd = _coords(planet)
    font = _font(13)
    cx = x - 40
    for text, colour in ((j, JUMP_COLOUR), (s, SCAN_COLOUR), (lnd, LANDING_COLOUR)):
        draw.text((cx, y + 8), text, fill=colour, font=font)
        cx += draw.textlength(text, font=font) + 6
    # R-I1 visits: a small dot per seat that has looked through this pile (scan, develop, discover)
    visitors = [q for q in range(state.num_players) if state.players[q].last_seen_round[p]]
    for i, q in enumerate(visitors):
        vx = x - (len(visitors) - 1) * 6 + i * 12
        draw.ellipse([vx - 4, y - 50, vx + 4, y - 42], fill=PLAYER_COLOURS[q], outline=(20, 20, 30))
    dx, dy = x - CENTRE[0], y - CENTRE[1]
    norm = math.hypot(dx, dy)
    ux, uy = dx / norm, dy / norm
    # station: a square in the owner's colour at the bottom of the planet
    owner = state.stations[p]
    if owner != NO_STATION:
        sx, sy = x, y + 40
        draw.rectangle([sx - 10, sy - 10, sx + 10, sy + 10], fill=PLAYER_COLOURS[owner], outline=(255, 255, 255), width=2)
        _text_centered(draw, (sx, sy), "S", (0, 0, 0), 12)
    # probes (reservations): a dot per player with its count, outside the ring (types never shown)
    probes = [(q, state.probes_on(p, q)) for q in range(state.num_players) if state.probes_on(p, q)]
    for i, (q, k) in enumerate(probes):
        off = (i - (len(probes) - 1) / 2) * 22
        px, py = x + ux * (r + 16) - uy * off, y + uy * (r + 16) + ux * off
        draw.ellipse([px - 9, py - 9, px + 9, py + 9], fill=PLAYER_COLOURS[q], outline=(255, 255, 255))
        _text_centered(draw, (px, py), str(k), (0, 0, 0), 12)
    # ships: triangles on the inner side of the planet
    here = [q for q in range(state.num_players) if state.players[q].ship == p]
    for i, q in enumerate(here):
        off = (i - (len(here) - 1) / 2) * 18
        bx, by = x - ux * (r + 16) - uy * off, y - uy * (r + 16) + ux * off
        _ship(draw, bx, by, PLAYER_COLOURS[q])


def _draw_gate(draw, state: GameState) -> None:
    x, y = CENTRE
    r = GATE_RADIUS
    draw.ellipse([x - r, y - r, x + r, y + r], fill=GATE_FILL, outline=JUMP_COLOUR, width=4)
    _text_centered(draw, (x, y - 52), "JUMP GATE", TEXT, 15)
    for q, pl in enumerate(state.players):
        row_y = y - 30 + q * 17
        draw.rectangle([x - 55, row_y - 6, x - 43, row_y + 6], fill=PLAYER_COLOURS[q])
        draw.text((x - 38, row_y - 8), f"{pl.gate_probes} probe(s)", fill=TEXT, font=_font(13))
    here = [q for q in range(state.num_players) if state.players[q].ship == GATE]
    for i, q in enumerate(here):
        _ship(draw, x - (len(here) - 1) * 10 + i * 20, y + 58, PLAYER_COLOURS[q])


def _turn_text(state: GameState, q: int) -> str:
    """R-I1: a seat's last turn as everyone saw it (kinds, targets, cards; a tile's type is private)."""
    parts = []
    for a in state.players[q].last_turn:
        where = PLANET_NAMES[state.ring[a.target]] if a.target >= 0 else ""
        cards = " ".join(CARD_LABELS[c] for c in a.cards)
        if a.kind == "top_up":
            text = f"top up ({cards or 'kept all'})"
        else:
            verb = f"{a.kind} to" if a.kind in ("jump", "fly") else a.kind
            text = f"{verb} {where}" + (f" ({cards})" if cards else "") + (" +tile" if a.tile else "")
        parts.append(text)
    return "; ".join(parts) or "-"


def _wrap(draw, text: str, font, width: float, sep: str = " ") -> list[str]:
    """Greedy wrap at ``sep`` to at most ``width`` pixels per line."""
    lines, line = [], ""
    for word in text.split(sep):
        trial = word if not line else line + sep + word
        if line and draw.textlength(trial, font=font) > width:
            lines.append(line)
            line = word
        else:
            line = trial
    return lines + [line]


def _player_lines(state: GameState, q: int, viewer: int | None, totals: list[dict]) -> list[str]:
    pl = state.players[q]
    stations = sum(1 for o in state.stations if o == q)
    t = totals[q]
    hidden = viewer is not None and q != viewer  # R-I4: other hands and collected types are private
    if hidden:
        score = f"public points {t['jump_gate'] + t['stations']} (gate {t['jump_gate']}, stations {t['stations']}; tiles hidden)"
        hand = f"hand: {len(pl.hand)} card{'' if len(pl.hand) == 1 else 's'}"
        tiles = f"tiles: {sum(pl.collection)} collected"
    else:
        score = (f"score {t['total']} (gate {t['jump_gate']}, stations {t['stations']}, "
                 f"tiles {t['total'] - t['jump_gate'] - t['stations']})")
        hand = "hand: " + (" ".join(CARD_LABELS[c] for c in pl.hand) or "-")
        tiles = "tiles: " + (", ".join(f"{n} {TILE_NAMES[i].replace('_', ' ')}" for i, n in enumerate(pl.collection) if n) or "-")
    return [score, f"chips: supply {pl.supply}, gate {pl.gate_probes}, stations {stations}", hand, tiles,
            "last turn: " + _turn_text(state, q)]


def _draw_panel(draw, state: GameState, viewer: int | None) -> None:
    x0 = BOARD + 10
    y = HEADER_TOP + 6
    header = _header(state)
    title = f"Space Mission [{state.rules}]" + (f" - player_{viewer}'s view" if viewer is not None else " - whole table")
    draw.text((x0, y), title, fill=TEXT, font=_font(20))
    y += 30
    status = header[0].split(": ", 1)[1]
    for line in (f"round {state.round}/{state.max_rounds}", status, header[1].split(" | ")[0],
                 f"draw pile {len(state.draw_pile)} | discard {len(state.discard_pile)}"):
        draw.text((x0, y), line, fill=TEXT, font=_font(13))
        y += 18
    totals = scores(state)
    n = state.num_players
    font = _font(PANEL_FONT)
    width = WIDTH - 10 - x0 - 16
    for q in range(n):
        acting = q == state.current_player and not state.is_over
        bx0, top, bx1, bottom = panel_region(q, n)
        draw.rectangle([bx0, top, bx1, bottom], outline=PLAYER_COLOURS[q], width=3 if acting else 1)
        who = f"player_{q} ({PLAYER_NAMES[q]})" + (" - this view" if q == viewer else "")
        draw.text((x0 + 8, top + 4), who + ("  <- to act" if acting else ""), fill=PLAYER_COLOURS[q], font=_font(15))
        yy = top + 24
        lines = _player_lines(state, q, viewer, totals)
        # five players leave less room: the lines close up to fit (at most to MIN_PANEL_LINE), and
        # when a panel wraps to more lines than that allows, the text gets smaller, one pixel of
        # font and spacing at a time, until every line fits (no line is left out)
        for size in range(PANEL_FONT, MIN_PANEL_FONT - 1, -1):
            font = _font(size)
            parts = [part for line in lines for part in _wrap(draw, line, font, width)]
            step = min(PANEL_LINE, (bottom - yy) // len(parts))
            if step >= MIN_PANEL_LINE - (PANEL_FONT - size):
                break
        for part in parts:
            draw.text((x0 + 8, yy), part, fill=TEXT, font=font)
            yy += step
    # legend
    font = _font(PANEL_FONT)  # the panels' text may have got smaller
    y = HEIGHT - LEGEND_HEIGHT + 8
    cx = x0
    for text, colour in (("jump", JUMP_COLOUR), ("scan", SCAN_COLOUR), ("landing", LANDING_COLOUR)):
        draw.text((cx, y), text, fill=colour, font=font)
        cx += draw.textlength(text, font=font) + 12
    draw.text((cx, y), "coordinates", fill=DIM, font=font)
    draw.text((x0, y + 16), "small dots on a planet: seats that looked through its pile", fill=DIM, font=font)
    draw.text((x0, y + 32), "numbered dots: probes (reservations) | S: station | triangles: ships", fill=DIM, font=font)


def render_rgb(state: GameState, viewer: int | None = None) -> np.ndarray:
    """The board as an RGB picture, uint8 [800, 1200, 3]. With ``viewer`` (a seat), the
    side panel shows only what that seat may see: its own hand, tiles and score, and for
    the others hand sizes, tile counts and public points (R-I2, R-I4); the board itself is
    public (reservations appear as probe counts, never by type)."""
    Image = require("PIL.Image", "render", "rgb_array rendering")
    ImageDraw = require("PIL.ImageDraw", "render", "rgb_array rendering")
    if viewer is not None and not is_int(viewer):  # a str, a float, a bool: the wrong type (as Red Planet's)
        raise TypeError(f"viewer must be an int seat in 0..{state.num_players - 1} or None, "
                        f"got {type(viewer).__name__} {shown(viewer)}")
    if viewer is not None and not 0 <= viewer < state.num_players:
        raise ValueError(f"viewer must be a seat in 0..{state.num_players - 1} or None, got {shown(viewer)}")
    image = Image.new("RGB", (WIDTH, HEIGHT), BACKGROUND)
    draw = ImageDraw.Draw(image)
    for p in range(RING_SIZE):  # ring lines first, planets over them
        x1, y1 = _planet_xy(p)
        x2, y2 = _planet_xy((p + 1) % RING_SIZE)
        draw.line([x1, y1, x2, y2], fill=(70, 70, 110), width=3)
    _draw_gate(draw, state)
    for p in range(RING_SIZE):
        _draw_planet(draw, state, p)
    _draw_panel(draw, state, viewer)
    return np.asarray(image, dtype=np.uint8).copy()


def save_png(state: GameState, path, viewer: int | None = None, compress_level: int = 6) -> None:
    """Write the picture of ``state`` (as seen by ``viewer``, default everything) to ``path`` (PNG;
    ``compress_level`` 0-9 trades file size for time, 1 is about twice as fast as the default 6)."""
    Image = require("PIL.Image", "render", "saving a PNG")
    Image.fromarray(render_rgb(state, viewer)).save(path, compress_level=compress_level)


__all__ = ["render_ansi", "render_human", "render_rgb", "save_png", "PLAYER_COLOURS", "PLAYER_NAMES",
           "planet_region", "gate_region", "panel_region", "header_region"]
