"""A small builder of explicit Mission: Red Planet positions for rule tests.

``position(...)`` builds a state from the fields a test names and fills in the rest so
that every component stays conserved (check_invariants):

- astronauts: a player's supply is 22 minus those on ships, on Mars, in the LiSM and
  removed; ``supply={q: n}`` instead puts the difference into ``removed`` (inert: removed
  astronauts score nothing and never return).
- ships: ``pad={slot: ship or None}`` (default: slot k holds ship DEFAULT_PAD[k], capacity
  5, printed destination zone k); crews ``crew={ship: {seat: n}}`` and tokens
  ``tokens={ship: zone}``; the other ships lie in the deck in id order (top = highest),
  or in ``ship_deck`` exactly, the rest then in the used pile.
- Mars: ``mars={zone: {seat: n}}``; a zone with astronauts or leftovers and no named
  ``minerals={zone: "ice"}`` gets an ice token (else sylvanite, celerium); the other
  tokens form the pool, sorted by type (top = last), or ``mineral_pool`` exactly.
- event cards (by label, components.CARD_LABELS): ``bonus={seat: [...]}``,
  ``discoveries={zone: (label, owner)}``, ``removed_cards`` (``removed_by``: their drawers,
  who must have seen them; default unknown), ``drawn``; the rest form the
  event pile in id order, or ``event_pile`` (top = last) exactly, then leftover
  discovery cards are removed from the game and leftover bonus cards go to the last seat.
- roles (by name): ``discard={seat: [...]}``, ``commits={seat: role}``, ``acted=[seats]``;
  the hand is the rest. ``role`` (with ``phase`` place/ability/destination/discovery)
  makes ``current`` execute it; the players whose commit is not named committed the Pilot.

The result goes through ``from_json(to_json(state))``: validated like any loaded state.
"""
from __future__ import annotations

from spacemission_env.red_planet import actions as A
from spacemission_env.red_planet.components import (
    ASTRONAUTS,
    CARD_INDEX,
    IS_BONUS,
    MINERAL_NAMES,
    MINERAL_TOKENS,
    NUM_EVENTS,
    NUM_MINERALS,
    NUM_ROLES,
    NUM_SHIPS,
    NUM_ZONES,
    ROLE_NAMES,
    TOKENS_PER_ZONE,
)
from spacemission_env.red_planet.rules import NONE, GameState, PlayerState
from spacemission_env import rng

DEFAULT_PAD = (2, 5, 8, 11, 14)  # capacity 5, printed zones 0..4
ROLE = {name: r for r, name in enumerate(ROLE_NAMES)}
MINERAL = {name: t for t, name in enumerate(MINERAL_NAMES)}


def card(label: str) -> int:
    return CARD_INDEX[label]


def position(
    num_players: int = 3,
    *,
    seed: int = 0,
    round: int = 1,
    phase: str = "commit",
    start: int = 0,
    current: int | None = None,
    mars: dict[int, dict[int, int]] | None = None,
    minerals: dict[int, str] | None = None,
    leftover: dict[int, int] | None = None,
    mineral_pool: list[str] | None = None,
    discoveries: dict[int, tuple[str, int]] | None = None,
    removed_cards: list[str] | None = None,
    removed_by: list[int | None] | None = None,
    drawn: str | None = None,
    event_pile: list[str] | None = None,
    bonus: dict[int, list[str]] | None = None,
    counters: dict[int, dict[str, int]] | None = None,
    lism: dict[int, int] | None = None,
    removed: dict[int, int] | None = None,
    supply: dict[int, int] | None = None,
    pad: dict[int, int | None] | None = None,
    crew: dict[int, dict[int, int]] | None = None,
    tokens: dict[int, int] | None = None,
    airborne: list[int] | None = None,
    ship_deck: list[int] | None = None,
    used_ships: list[int] | None = None,
    discard: dict[int, list[str]] | None = None,
    commits: dict[int, str] | None = None,
    acted: list[int] | None = None,
    role: str | None = None,
    placed_slots: list[int] | None = None,
    steps_left: int = 0,
    pending_slot: int | None = None,
    last_actor: int | None = None,
) -> GameState:
    """An explicit, valid position (see the module docstring)."""
    n = num_players
    current = start if current is None else current
    players = [PlayerState() for _ in range(n)]
    s = GameState(num_players=n, rng=rng.seed_state(seed), players=players, start_player=start,
                  current_player=NONE if phase == "over" else current, phase=phase, round=round,
                  mars=[[0] * n for _ in range(NUM_ZONES)], crew=[[0] * n for _ in range(NUM_SHIPS)])
    # Mars
    for z, per in (mars or {}).items():
        for q, k in per.items():
            s.mars[z][q] = k
    for z, k in (leftover or {}).items():
        s.leftover[z] = k
    left = list(MINERAL_TOKENS)
    for z, name in (minerals or {}).items():
        s.mineral[z] = MINERAL[name]
        left[MINERAL[name]] -= 1
    for z in range(NUM_ZONES):
        if s.mineral[z] == NONE and (any(s.mars[z]) or s.leftover[z]):
            t = next(t for t in range(NUM_MINERALS) if left[t] > 0)
            s.mineral[z] = t
            left[t] -= 1
    assert min(left) >= 0, "more mineral tokens laid than exist"
    if mineral_pool is None:
        s.mineral_pool = [t for t in range(NUM_MINERALS) for _ in range(left[t])]
    else:
        s.mineral_pool = [MINERAL[m] for m in mineral_pool]
    # ships
    slots = {k: DEFAULT_PAD[k] for k in range(n)}
    slots.update(pad or {})
    s.slots = [NONE if slots[k] is None else slots[k] for k in range(n)]
    for ship, per in (crew or {}).items():
        for q, k in per.items():
            s.crew[ship][q] = k
    for ship, z in (tokens or {}).items():
        s.token[ship] = z
    s.token_supply = [TOKENS_PER_ZONE - s.token.count(z) for z in range(NUM_ZONES)]
    s.airborne = list(airborne or [])
    in_use = set(s.slots) | set(used_ships or [])
    if ship_deck is None:
        s.ship_deck = [x for x in range(NUM_SHIPS) if x not in in_use]
        s.used_ships = list(used_ships or [])
    else:
        s.ship_deck = list(ship_deck)
        s.used_ships = list(used_ships or []) + [x for x in range(NUM_SHIPS) if x not in in_use | set(ship_deck)]
    # event cards
    claimed = [card(c) for h in (bonus or {}).values() for c in h]
    claimed += [card(label) for label, _q in (discoveries or {}).values()]
    claimed += [card(c) for c in (removed_cards or [])] + ([card(drawn)] if drawn else [])
    for q, h in (bonus or {}).items():
        players[q].bonus = [card(c) for c in h]
    for z, (label, q) in (discoveries or {}).items():
        s.discovery[z], s.discovery_owner[z] = card(label), q
    s.removed_cards = [card(c) for c in (removed_cards or [])]
    s.drawn = card(drawn) if drawn else NONE
    if event_pile is None:
        s.event_pile = [c for c in range(NUM_EVENTS) if c not in claimed]
    else:
        s.event_pile = [card(c) for c in event_pile]
        rest = [c for c in range(NUM_EVENTS) if c not in claimed and c not in s.event_pile]
        s.removed_cards += [c for c in rest if not IS_BONUS[c]]
        players[n - 1].bonus += [c for c in rest if IS_BONUS[c]]
    s.removed_by = [NONE if q is None else q for q in (removed_by or [])]
    s.removed_by += [NONE] * (len(s.removed_cards) - len(s.removed_by))  # who drew them: not said
    # players
    for q, pl in enumerate(players):
        pl.counters = [(counters or {}).get(q, {}).get(m, 0) for m in MINERAL_NAMES]
        pl.lism = (lism or {}).get(q, 0)
        pl.removed = (removed or {}).get(q, 0)
        placed = sum(s.crew[x][q] for x in range(NUM_SHIPS)) + sum(s.mars[z][q] for z in range(NUM_ZONES))
        pl.supply = ASTRONAUTS - placed - pl.lism - pl.removed
        if supply and q in supply:
            pl.removed += pl.supply - supply[q]
            pl.supply = supply[q]
        assert pl.supply >= 0 and pl.removed >= 0, f"player {q}: more than {ASTRONAUTS} astronauts"
        pl.discard = sorted(ROLE[r] for r in (discard or {}).get(q, []))
        pl.seen = sorted({*pl.bonus, *[s.discovery[z] for z in range(NUM_ZONES) if s.discovery_owner[z] == q]})
    # commits and the turn in progress
    all_commits = {q: ROLE[r] for q, r in (commits or {}).items()}
    if role is not None:
        all_commits[current] = ROLE[role]
        s.role = ROLE[role]
        for q in range(n):  # roles are being executed: everybody has committed
            all_commits.setdefault(q, ROLE["Pilot"])
    for q, r in all_commits.items():
        players[q].commit = r
        players[q].acted = q in (acted or [])
        if not players[q].acted:
            players[q].discard = [x for x in players[q].discard if x != r]
        elif r not in players[q].discard:
            players[q].discard = sorted(players[q].discard + [r])
    for pl in players:
        held = set(pl.discard) | ({pl.commit} if pl.commit != NONE and not pl.acted else set())
        pl.hand = [r for r in range(NUM_ROLES) if r not in held]
    s.placed_slots = list(placed_slots or [])
    s.steps_left = steps_left
    s.pending_slot = NONE if pending_slot is None else pending_slot
    s.last_actor = (current if role is not None else NONE) if last_actor is None else last_actor
    return GameState.from_json(s.to_json())  # validated like any loaded state


# --- action ids (docs/red_planet/actions.md) -------------------------------------------------
def act(kind: str, *args) -> int:
    """The id of an action; roles, cards and minerals may be named."""
    if kind == "commit" and isinstance(args[0], str):
        args = (ROLE[args[0]],)
    if kind == "keep" and isinstance(args[0], str):
        args = (card(args[0]),)
    return A.encode(kind, *args)


def kinds(state: GameState) -> set[str]:
    """The action kinds legal now."""
    from spacemission_env.red_planet.rules import legal_actions
    return {A.decode(a)[0] for a in legal_actions(state)}


def play(state: GameState, *actions: int) -> GameState:
    """Apply actions in order (each must be legal); returns the state."""
    from spacemission_env.red_planet.rules import apply
    for a in actions:
        apply(state, a)
    return state
