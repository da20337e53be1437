"""The flat action space of Mission: Red Planet: one ``Discrete(NUM_ACTIONS)`` over every
decision of the spec's "Decisions an engine needs", as blocks of consecutive ids.

A ship is named by its *pad slot* ``k`` (0..N-1): the pad is refilled only in step 1
(M-R2), so within a round a slot holds one ship, on the pad or, once launched, in the
air; the slot names that ship until it lands or is destroyed. Zones are M-C2 ids,
colours are seats, event cards are M-E ids (components.CARD_LABELS).

The table (docs/red_planet/actions.md is generated from ``action_table`` and tested
against it):
"""
from __future__ import annotations


from ..action_ids import action_index
from ..checks import shown
from .components import BONUS_CARDS, EDGES, MAX_PLAYERS, NUM_EVENTS, NUM_ROLES, NUM_ZONES
from .errors import require_int

SLOTS = MAX_PLAYERS  # pad slots (M-S2: N slots, N <= 5)
COLOURS = MAX_PLAYERS

# (kind, size, decision, meaning of the arguments, rule)
BLOCKS: tuple[tuple[str, int, str, str, str], ...] = (
    ("setup_zone", NUM_ZONES, "setup_zone", "zone z for the hand-piloted ship holding one's setup astronaut", "M-S4"),
    ("keep", len(BONUS_CARDS), "keep", "keep bonus card BONUS_CARDS[i] (the others return)", "M-S6"),
    ("commit", NUM_ROLES, "commit", "commit role r (hidden until called)", "M-R3"),
    ("place", SLOTS, "place", "next astronaut (Travel Agent, Soldier: the whole group) onto the ship in pad slot k", "M-L1"),
    ("stop", 1, "place", "place no more astronauts this turn", "M-L1"),
    ("destination", NUM_ZONES, "destination", "zone z for the hand-piloted ship just boarded", "M-L2"),
    ("move", len(EDGES), "ability", "Explorer step along directed border EDGES[i] = (from, to)", "M-O2"),
    ("draw", 1, "ability", "Scientist draws the top event card", "M-O3"),
    ("look", NUM_ZONES, "ability", "Scientist looks at the discovery card in zone z", "M-O3"),
    ("discovery", NUM_ZONES, "discovery", "lay the drawn discovery card on outer zone z", "M-E1"),
    ("launch", SLOTS, "ability", "Secret Agent launches the pad ship in slot k", "M-O4"),
    ("seduce", SLOTS * COLOURS, "ability", "Femme Fatale: ship of slot k (pad or air), astronaut of colour c", "M-O5"),
    ("sabotage", SLOTS, "ability", "Saboteur destroys the pad ship in slot k", "M-O6"),
    ("kill", NUM_ZONES * COLOURS, "ability", "Soldier kills an astronaut of colour c in outer zone z", "M-O8"),
    ("pilot", SLOTS * NUM_ZONES, "ability", "Pilot sends the ship of slot k (pad or air) to zone z", "M-O9"),
    ("pass", 1, "ability", "decline the ability (Explorer: take no more steps)", "M-R5"),
)

ACTION_KINDS: tuple[str, ...] = tuple(b[0] for b in BLOCKS)
START: dict[str, int] = {}
_n = 0
for _kind, _size, *_ in BLOCKS:
    START[_kind] = _n
    _n += _size
NUM_ACTIONS = _n
SIZE = {b[0]: b[1] for b in BLOCKS}
_ORDER = sorted(START.items(), key=lambda kv: kv[1])


def _as_id(action) -> int:
    require_int(action, "action")  # WrongTypeError (a TypeError and a ValueError) for a non-integer
    return action_index(action, NUM_ACTIONS)


def decode(action) -> tuple[str, tuple[int, ...]]:
    """(kind, arguments) of an action id; ValueError when it is not an id of the space.

    Arguments: setup_zone/destination/look/discovery (zone,), keep (card id,), commit
    (role,), place/launch/sabotage (slot,), stop/draw/pass (), move (from, to),
    seduce (slot, colour), kill (zone, colour), pilot (slot, zone)."""
    a = _as_id(action)  # WrongTypeError for a non-integer, ValueError out of range
    kind = next(k for k, s in reversed(_ORDER) if a >= s)
    i = a - START[kind]
    if kind == "keep":
        return kind, (BONUS_CARDS[i],)
    if kind == "move":
        return kind, EDGES[i]
    if kind == "seduce":
        return kind, divmod(i, COLOURS)
    if kind == "kill":
        return kind, divmod(i, COLOURS)
    if kind == "pilot":
        return kind, divmod(i, NUM_ZONES)
    if SIZE[kind] == 1:
        return kind, ()
    return kind, (i,)


# the range of each argument of a kind (encode checks each, so no argument spills into the next)
ARG_RANGES: dict[str, tuple[int, ...]] = {
    "setup_zone": (NUM_ZONES,), "destination": (NUM_ZONES,), "look": (NUM_ZONES,), "discovery": (NUM_ZONES,),
    "commit": (NUM_ROLES,), "place": (SLOTS,), "launch": (SLOTS,), "sabotage": (SLOTS,),
    "seduce": (SLOTS, COLOURS), "kill": (NUM_ZONES, COLOURS), "pilot": (SLOTS, NUM_ZONES),
    "move": (NUM_ZONES, NUM_ZONES), "keep": (NUM_EVENTS,),
    "stop": (), "draw": (), "pass": (),
}


def encode(kind: str, *args: int) -> int:
    """The action id of ``kind`` with ``args`` (the inverse of ``decode``). ValueError for
    an unknown kind, a wrong number of arguments or one out of its range (a bonus card
    that is not one, a pair of zones without a border); WrongTypeError (a TypeError) for
    an argument that is not an integer."""
    if not isinstance(kind, str) or kind not in START:
        raise ValueError(f"unknown action kind {shown(kind)}; expected one of {ACTION_KINDS}")
    ranges = ARG_RANGES[kind]
    if len(args) != len(ranges):
        raise ValueError(f"{kind} takes {len(ranges)} argument(s), got {len(args)}: {shown(args)}")
    args = tuple(require_int(v, f"{kind} argument {j}") for j, v in enumerate(args))
    if any(not 0 <= v < hi for v, hi in zip(args, ranges)):
        raise ValueError(f"{kind} arguments {shown(args)} out of range (each below {ranges})")
    if kind == "keep":
        if args[0] not in BONUS_CARDS:
            raise ValueError(f"keep: event card {args[0]} is not a bonus card (BONUS_CARDS)")
        i = BONUS_CARDS.index(args[0])
    elif kind == "move":
        if tuple(args) not in EDGES:
            raise ValueError(f"move: zones {args} share no border (M-C2)")
        i = EDGES.index(tuple(args))
    elif kind in ("seduce", "kill"):
        i = args[0] * COLOURS + args[1]
    elif kind == "pilot":
        i = args[0] * NUM_ZONES + args[1]
    else:
        i = args[0] if args else 0
    return START[kind] + i


def action_table() -> list[tuple[str, str, str, str, str]]:
    """(ids, kind, decision, meaning, rule) rows; docs/red_planet/actions.md is tested against it."""
    rows = []
    for kind, size, decision, meaning, rule in BLOCKS:
        lo = START[kind]
        ids = f"{lo}" if size == 1 else f"{lo}-{lo + size - 1}"
        rows.append((ids, kind, decision, meaning, rule))
    return rows


def actions_markdown() -> str:
    """The text of docs/red_planet/actions.md."""
    lines = [
        "# Mission: Red Planet: the action space",
        "",
        f"One flat `Discrete({NUM_ACTIONS})` (spacemission_env/red_planet/actions.py; generated by",
        "`python tools/make_red_planet_actions_doc.py`, and a test checks this page against the code).",
        "`decode(id) -> (kind, args)`; `rules.action_label(state, id)` says it in words (the game protocol's "
        "action_label, in spacemission_env/red_planet/protocol.py, takes the id first and the state second).",
        "A ship is named by its pad slot k: the pad is refilled only in step 1 (M-R2), so within a",
        "round a slot holds one ship, on the pad or, once launched, in the air.",
        "`EDGES` are the 38 directed borders of M-C2 in ascending (from, to) order; `BONUS_CARDS`",
        "the 13 bonus card ids (M-E11..M-E19).",
        "",
        "The engine asks a player only when he has a choice beyond stop/pass: a placement with no",
        "boardable ship (or no astronaut left) and an ability with nothing to act on are skipped.",
        "",
        "| ids | kind | decision | meaning | rule |",
        "|---|---|---|---|---|",
    ]
    lines += [f"| {ids} | {kind} | {decision} | {meaning} | {rule} |" for ids, kind, decision, meaning, rule in action_table()]
    return "\n".join(lines) + "\n"


__doc__ += "\n" + "\n".join(f"    {ids:>9}  {kind:<11} {meaning} ({rule})" for ids, kind, _d, meaning, rule in action_table())
