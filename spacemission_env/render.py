"""Human views of a game: ``render_ansi`` (text), ``render_human`` (prints that text) and
``render_rgb`` (a Pillow picture).

All read a reference :class:`~spacemission_env.rules.state.GameState` (the batched
engine converts with ``engine.to_reference``), so they work for every engine and
interface. They show the whole table, hands included: they are for people
watching or debugging, not for agents (agents get ``observe``).

The picture: the eight ring planets sit in a circle around the central jump gate,
in ring order (position 0 at the top, clockwise), each with its name and its jump
(blue), scan (green) and landing (orange) coordinates, its pile (tiles left, or how
many space tiles were revealed), its station and the probes (reservations) of each
player. Ships are coloured triangles beside their planet or on the gate; gate probes
are listed per player in the gate. A side panel shows round, acting player, draw and
discard piles and, per player, score, chips, hand and collection.
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
    """A plain-text table of the whole game state."""
    n = state.num_players
    lines = _header(state)
    lines.append("pos planet        coords        pile                station  probes            ships")
    for p in range(RING_SIZE):
        planet = state.ring[p]
        j, s, lnd = _coords(planet)
        station = "-" if state.stations[p] == NO_STATION else f"P{state.stations[p]}"
        probes = " ".join(f"P{q}:{state.probes_on(p, q)}" for q in range(n) if state.probes_on(p, q)) or "-"
        ships = " ".join(f"P{q}" for q in range(n) if state.players[q].ship == p) or "-"
        lines.append(
            f"{p:<3} {PLANET_NAMES[planet]:<13} {j} {s} {lnd:<6} {_pile_text(state, p):<19} {station:<8} {probes:<17} {ships}"
        )
    gate_ships = " ".join(f"P{q}" for q in range(n) if state.players[q].ship == GATE) or "-"
    gate_probes = " ".join(f"P{q}:{pl.gate_probes}" for q, pl in enumerate(state.players)) or "-"
    lines.append(f"jump gate: ships {gate_ships} | probes {gate_probes}")
    totals = scores(state)
    for q, pl in enumerate(state.players):
        marker = ">" if q == state.current_player and not state.is_over else " "
        hand = " ".join(CARD_LABELS[c] for c in pl.hand)
        lines.append(
            f"{marker} player_{q}: score {totals[q]['total']:>3} | supply {pl.supply:>2} | hand [{hand}]"
            f" | collection {_collection_text(pl.collection)}"
        )
    return "\n".join(lines)


def render_human(state: GameState, file=None) -> None:
    """Print :func:`render_ansi`'s table (``render_mode="human"`` of every interface),
    followed by a blank line so that successive frames stay apart."""
    print(render_ansi(state) + "\n", file=file, flush=True)


# --- the picture ---------------------------------------------------------------------
@lru_cache(maxsize=8)
def _font(size: int):
    from PIL import ImageFont

    try:
        return ImageFont.load_default(size=size)
    except TypeError:  # Pillow < 10.1: bitmap font only
        return ImageFont.load_default()


def _planet_xy(p: int) -> tuple[float, float]:
    angle = -math.pi / 2 + 2 * math.pi * p / RING_SIZE
    return CENTRE[0] + RING_RADIUS * math.cos(angle), CENTRE[1] + RING_RADIUS * math.sin(angle)


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
    label = f"#{p} revealed {pile[SPACE]}" if state.revealed[p] else f"#{p} pile {sum(pile)}"
    _text_centered(draw, (x, y - 30), label, (20, 20, 30), 12)
    _text_centered(draw, (x, y - 9), PLANET_NAMES[planet], (10, 10, 20), 14)
    # coordinates in their colours on a dark band
    draw.rounded_rectangle([x - 44, y + 6, x + 44, y + 26], radius=5, fill=(20, 22, 40))
    j, s, lnd = _coords(planet)
    font = _font(13)
    cx = x - 40
    for text, colour in ((j, JUMP_COLOUR), (s, SCAN_COLOUR), (lnd, LANDING_COLOUR)):
        draw.text((cx, y + 8), text, fill=colour, font=font)
        cx += draw.textlength(text, font=font) + 6
    dx, dy = x - CENTRE[0], y - CENTRE[1]
    norm = math.hypot(dx, dy)
    ux, uy = dx / norm, dy / norm
    # station: a square in the owner's colour at the bottom of the planet
    owner = state.stations[p]
    if owner != NO_STATION:
        sx, sy = x, y + 40
        draw.rectangle([sx - 10, sy - 10, sx + 10, sy + 10], fill=PLAYER_COLOURS[owner], outline=(255, 255, 255), width=2)
        _text_centered(draw, (sx, sy), "S", (0, 0, 0), 12)
    # probes (reservations): a dot per player with its count, outside the ring
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
    draw.ellipse([x - r, y - r, x + r, y + r], fill=(40, 30, 80), outline=JUMP_COLOUR, width=4)
    _text_centered(draw, (x, y - 52), "JUMP GATE", TEXT, 15)
    for q, pl in enumerate(state.players):
        row_y = y - 30 + q * 17
        draw.rectangle([x - 55, row_y - 6, x - 43, row_y + 6], fill=PLAYER_COLOURS[q])
        draw.text((x - 38, row_y - 8), f"{pl.gate_probes} probe(s)", fill=TEXT, font=_font(13))
    here = [q for q in range(state.num_players) if state.players[q].ship == GATE]
    for i, q in enumerate(here):
        _ship(draw, x - (len(here) - 1) * 10 + i * 20, y + 58, PLAYER_COLOURS[q])


def _draw_panel(draw, state: GameState) -> None:
    x0 = BOARD + 10
    y = 16
    header = _header(state)
    title = f"Space Mission [{state.rules}]"
    draw.text((x0, y), title, fill=TEXT, font=_font(20))
    y += 30
    status = header[0].split(": ", 1)[1]
    for line in (f"round {state.round}/{state.max_rounds}", status, header[1].split(" | ")[0],
                 f"draw pile {len(state.draw_pile)} | discard {len(state.discard_pile)}"):
        draw.text((x0, y), line, fill=TEXT, font=_font(13))
        y += 18
    y += 8
    totals = scores(state)
    for q, pl in enumerate(state.players):
        acting = q == state.current_player and not state.is_over
        draw.rectangle([x0, y, BOARD + 380, y + 108], outline=PLAYER_COLOURS[q], width=3 if acting else 1)
        draw.text((x0 + 8, y + 4), f"player_{q} ({PLAYER_NAMES[q]})" + ("  <- to act" if acting else ""),
                  fill=PLAYER_COLOURS[q], font=_font(15))
        t = totals[q]
        lines = (
            f"score {t['total']} (gate {t['jump_gate']}, stations {t['stations']}, tiles "
            f"{t['total'] - t['jump_gate'] - t['stations']})",
            f"chips: supply {pl.supply}, gate {pl.gate_probes}",
            "hand: " + " ".join(CARD_LABELS[c] for c in pl.hand),
            "tiles: " + (" ".join(f"{TILE_NAMES[i].replace('_', ' ')} x{n}" for i, n in enumerate(pl.collection) if n) or "-"),
        )
        for i, line in enumerate(lines):
            draw.text((x0 + 8, y + 26 + i * 19), line, fill=TEXT, font=_font(12))
        y += 116
    # legend
    y = HEIGHT - 46
    font = _font(12)
    cx = x0
    for text, colour in (("jump", JUMP_COLOUR), ("scan", SCAN_COLOUR), ("landing", LANDING_COLOUR)):
        draw.text((cx, y), text, fill=colour, font=font)
        cx += draw.textlength(text, font=font) + 12
    draw.text((cx, y), "coordinates", fill=DIM, font=font)
    draw.text((x0, y + 18), "dots: probes (reservations) | S: station | triangles: ships", fill=DIM, font=font)


def render_rgb(state: GameState) -> np.ndarray:
    """The board as an RGB picture, uint8 [800, 1200, 3]."""
    try:
        from PIL import Image, ImageDraw
    except ImportError as exc:  # pragma: no cover - pillow is a dependency
        raise ImportError("rgb_array rendering needs Pillow: pip install pillow") from exc
    image = Image.new("RGB", (WIDTH, HEIGHT), BACKGROUND)
    draw = ImageDraw.Draw(image)
    for p in range(RING_SIZE):  # ring lines first, planets over them
        x1, y1 = _planet_xy(p)
        x2, y2 = _planet_xy((p + 1) % RING_SIZE)
        draw.line([x1, y1, x2, y2], fill=(70, 70, 110), width=3)
    _draw_gate(draw, state)
    for p in range(RING_SIZE):
        _draw_planet(draw, state, p)
    _draw_panel(draw, state)
    return np.asarray(image, dtype=np.uint8).copy()


def save_png(state: GameState, path: str) -> None:
    """Write the picture of ``state`` to ``path`` (PNG)."""
    from PIL import Image

    Image.fromarray(render_rgb(state)).save(path)


__all__ = ["render_ansi", "render_rgb", "save_png", "PLAYER_COLOURS"]
