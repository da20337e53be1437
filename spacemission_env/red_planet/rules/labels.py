"""Actions in words: ``action_label(state, id)`` and the error messages of ``apply``."""
from __future__ import annotations

import re

from .. import actions as A
from ..components import CARD_LABELS, ROLE_NAMES, SHIP_CAPACITY, ZONE_NAMES
from .state import NONE, GameState, check_state


def seat_word(q: int) -> str:
    """How a label names a seat it targets (the Femme Fatale's and the Soldier's): "player 2"."""
    return f"player {int(q)}"


_SEAT_WORD = re.compile(r"\bplayer (\d)\b")  # seat_word's text: one digit, seats 0-4


def name_seats(text: str, names) -> str:
    """``text`` (labels, a log line) with each seat named as ``seat_word`` names it
    replaced by ``names[q]``: "kill a player 2 astronaut" -> "kill a yellow astronaut"."""
    return _SEAT_WORD.sub(lambda m: names[int(m.group(1))], text)


def describe(kind: str, args: tuple, state: GameState | None = None) -> str:
    """An action in words; with a state it names the ships in the slots."""
    def ship(k: int) -> str:
        if state is not None and 0 <= k < len(state.slots) and state.slots[k] != NONE:
            sh = state.slots[k]
            dest = state.destination(sh)
            to = ZONE_NAMES[dest] if dest != NONE else "no destination"
            where = "in the air" if k in state.airborne else "on the pad"
            return f"slot {k} (ship {sh}, capacity {SHIP_CAPACITY[sh]}, to {to}, {where})"
        return f"slot {k}"

    zone = lambda z: ZONE_NAMES[z]
    if kind == "setup_zone":
        return f"send the setup ship to {zone(args[0])} (M-S4)"
    if kind == "keep":
        return f"keep {CARD_LABELS[args[0]]} (M-S6)"
    if kind == "commit":
        return f"commit the {ROLE_NAMES[args[0]]} (M-R3)"
    if kind == "place":
        return f"place on {ship(args[0])}"
    if kind == "stop":
        return "place no more astronauts"
    if kind == "destination":
        return f"fly the boarded ship to {zone(args[0])} (M-L2)"
    if kind == "move":
        return f"Explorer: move an astronaut from {zone(args[0])} to {zone(args[1])}"
    if kind == "draw":
        return "Scientist: draw an event card"
    if kind == "look":
        return f"Scientist: look at the discovery card in {zone(args[0])}"
    if kind == "discovery":
        return f"lay the discovery card on {zone(args[0])}"
    if kind == "launch":
        return f"Secret Agent: launch {ship(args[0])}"
    if kind == "seduce":
        return f"Femme Fatale: replace a {seat_word(args[1])} astronaut on {ship(args[0])}"
    if kind == "sabotage":
        return f"Saboteur: destroy {ship(args[0])}"
    if kind == "kill":
        return f"Soldier: kill a {seat_word(args[1])} astronaut in {zone(args[0])}"
    if kind == "pilot":
        return f"Pilot: send {ship(args[0])} to {zone(args[1])}"
    return "pass (decline the ability)"


def action_label(state: GameState | None, action) -> str:
    """The action in words (``state`` may be None for a label without ship details);
    errors as ``actions.decode``, TypeError for a state of another kind."""
    if state is not None:
        check_state(state)
    kind, args = A.decode(action)
    return describe(kind, args, state)


