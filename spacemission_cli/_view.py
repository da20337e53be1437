"""The board as one seat sees it, built from that seat's observation (``spacemission_env.decode``),
and its rich rendering; shared by ``spacemission play`` and ``spacemission replay``.

A view is made only from the decoded observation blocks plus the public configuration
(player count, rule set, round limit), never from the full state, so it cannot show what
the rules hide: under ``schmidt`` a seat's own reservations appear as probe counts only
(R-A4c), other hands and collected tile types never (R-I4). The omniscient view of a
replay is the same view built from the ``seer`` observation, which holds everything.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from spacemission_env import decode
from spacemission_env.space_mission.components import (
    CARD_LABELS,
    END_THRESHOLD,
    NUM_POINT_TYPES,
    PLANET_JUMP,
    PLANET_LANDING,
    PLANET_NAMES,
    PLANET_SCAN,
    RING_SIZE,
    SPACE,
    TILE_NAMES,
)
from spacemission_env.space_mission import encoding
from spacemission_env.space_mission.encoding import CARD_FEATURE_TABLE, CLIP, TURN_KINDS
from spacemission_env.space_mission.scoring import jump_gate_points, score_breakdown

COLOUR_NAMES = ("red", "blue", "yellow", "green", "purple")  # as in the picture (render.PLAYER_NAMES)
COLOUR_STYLES = ("bold red", "bold blue", "bold yellow", "bold green", "bold magenta")
_CARD_BY_FEATURES = {bytes(row.astype(np.int8)): c for c, row in enumerate(CARD_FEATURE_TABLE)}
PENDING_KINDS = ("scan", "develop", "discover")


def tile_name(t: int) -> str:
    """'mineral_red' -> 'red mineral', 'space' -> 'space'."""
    kind, _, colour = TILE_NAMES[t].partition("_")
    return f"{colour} {kind}" if colour else kind


def tiles_text(counts, empty: str = "-") -> str:
    """'2 water, 1 red mineral' from counts per tile type (R-C3 order)."""
    parts = [f"{int(n)} {tile_name(t)}" for t, n in enumerate(counts) if n]
    return ", ".join(parts) if parts else empty


def planet_coords(planet: int) -> str:
    l1, l2 = PLANET_LANDING[planet]
    return f"J{PLANET_JUMP[planet]} S{PLANET_SCAN[planet]} L{l1},{l2}"


@dataclass
class SeatView:
    seat: int
    ship: int | None  # ring position, None on the jump gate
    supply: int
    gate_probes: int
    hand_size: int
    collected: int
    stations: int
    last_turn: str
    hand: list[str] | None = None  # card labels, when this view may see them
    collection: list[int] | None = None  # counts by point type, when visible
    score: dict | None = None  # full provisional breakdown, when the collection is visible
    public_points: int = 0  # jump gate + stations: what everyone can count


@dataclass
class PlanetView:
    position: int
    planet: int
    pile_size: int
    revealed: bool
    revealed_space: int
    station: int | None  # owner seat
    probes: dict[int, int]  # seat -> probes (reservations, by count: public)
    ships: list[int]
    visits: dict[int, int]  # seat -> rounds since it last looked through the pile (R-I1)
    reservations: dict[int, list[int]] = field(default_factory=dict)  # seat -> types, where visible
    pile: list[int] | None = None  # the whole pile, seer view only
    last_look: tuple[int, list[int]] | None = None  # (rounds ago, pile) of the observer's last visit


@dataclass
class View:
    num_players: int
    rules: str
    observer: int | None  # the seat whose view this is; None = everything (seer)
    round: str
    acting: int
    actions_left: int
    pending: str | None  # the action awaiting its tile decision
    end_triggered: bool
    game_over: bool
    round_limit: bool
    revealed_count: int
    threshold: int
    draw_pile: int
    discard_pile: int
    planets: list[PlanetView]
    seats: list[SeatView]
    pile_seen: list[int] | None  # the pile the observer looks at during its own tile decision (R-I3)
    reservation_types_hidden: bool  # schmidt table view: own reservations by count only (R-A4c)
    discard: list[str] = field(default_factory=list)  # the discard pile's cards (public, R-I1)


def _card_label(features: np.ndarray) -> str | None:
    if not features.any():
        return None
    return CARD_LABELS[_CARD_BY_FEATURES[bytes(features.astype(np.int8))]]


def _turn_text(kinds: np.ndarray, targets: np.ndarray, tiles: np.ndarray, cards: np.ndarray, ring: list[int]) -> str:
    parts = []
    for k in range(kinds.shape[0]):
        if not kinds[k].any():
            continue
        kind = TURN_KINDS[int(np.argmax(kinds[k]))]
        played = " ".join(CARD_LABELS[c] for c in np.flatnonzero(cards[k]))
        if kind == "top_up":
            parts.append(f"top up ({'discarded ' + played if played else 'kept all'})")
            continue
        where = PLANET_NAMES[ring[int(np.argmax(targets[k]))]]
        verb = f"{kind} to" if kind in ("jump", "fly") else kind
        parts.append(f"{verb} {where}" + (f" ({played})" if played else "") + (" + a tile" if tiles[k] else ""))
    return "; ".join(parts) or "-"


def view_from_observation(obs, observation_type: str, observer: int, num_players: int, rules: str,
                          max_rounds: int) -> View:
    """The view of seat ``observer`` from its observation vector (any of the three types)."""
    v = decode(np.asarray(obs), observation_type)
    n = num_players
    seer = observation_type == "seer"
    seat = lambda r: (observer + r) % n  # noqa: E731 - relative seat (egocentric blocks) -> seat
    ring = [int(x) for x in v["ring_planet"]]
    rnd, left = int(v["round"][0]), int(v["rounds_left"][0])
    round_text = str(rnd) if rnd < CLIP else (str(max_rounds - left) if left < CLIP else f">={CLIP}")
    stations = [sum(int(v["station"][p, r]) for p in range(RING_SIZE)) for r in range(n)]
    gate = [int(v["gate_probes"][r]) for r in range(n)]
    gate_points = jump_gate_points(gate)
    own_res_known = seer or observation_type == "recall" or rules == "yucata"
    seats = []
    for r in range(n):
        ship = np.flatnonzero(v["ship"][r])
        sv = SeatView(
            seat=seat(r), ship=int(ship[0]) if ship.size else None, supply=int(v["supply"][r]), gate_probes=gate[r],
            hand_size=int(v["hand_size"][r]), collected=int(v["collected"][r]), stations=stations[r],
            last_turn=_turn_text(v["last_turn_kind"][r], v["last_turn_target"][r], v["last_turn_tile"][r],
                                 v["last_turn_cards"][r], ring),
            public_points=gate_points[r] + 3 * stations[r])
        hand = v["seer_hands"][r] if seer else (v["own_hand"] if r == 0 else None)
        coll = v["seer_collections"][r] if seer else (v["own_collection"] if r == 0 else None)
        if hand is not None:
            sv.hand = [label for label in (_card_label(f) for f in hand) if label]
        if coll is not None:
            sv.collection = [int(x) for x in coll]
            sv.score = score_breakdown(gate_points[r], stations[r], sv.collection)
        seats.append(sv)
    planets = []
    for p in range(RING_SIZE):
        station = np.flatnonzero(v["station"][p, :n])
        pv = PlanetView(
            position=p, planet=ring[p], pile_size=int(v["pile_size"][p]), revealed=bool(v["revealed"][p]),
            revealed_space=int(v["revealed_space"][p]), station=seat(int(station[0])) if station.size else None,
            probes={seat(r): int(v["probes"][p, r]) for r in range(n) if v["probes"][p, r]},
            ships=[seat(r) for r in range(n) if v["ship"][r, p]],
            visits={seat(r): int(v["visit_age"][r, p]) for r in range(n) if v["visited"][r, p]})
        if seer:
            pv.reservations = {seat(r): [int(x) for x in v["seer_reservations"][p, r]]
                               for r in range(n) if v["seer_reservations"][p, r].any()}
            pv.pile = [int(x) for x in v["seer_piles"][p]]
        elif own_res_known and v["own_reservations"][p].any():
            pv.reservations = {observer: [int(x) for x in v["own_reservations"][p]]}
        if own_res_known and not seer and v["visited"][0, p]:  # R-I3 yucata table view / R-I5 recall
            pv.last_look = (int(v["visit_age"][0, p]), [int(x) for x in v["last_visit_pile"][p]])
        planets.append(pv)
    pending = np.flatnonzero(v["pending"])
    acting = seat(int(np.argmax(v["acting_seat"][:n])))
    own_decision = bool(v["tile_decision"][0]) and acting == observer and not seer  # seer: every pile is listed
    return View(
        num_players=n, rules=rules, observer=None if seer else observer, round=f"{round_text}/{max_rounds}",
        acting=acting, actions_left=int(v["actions_left"][0]),
        pending=PENDING_KINDS[int(pending[0])] if pending.size else None,
        end_triggered=bool(v["end_triggered"][0]), game_over=bool(v["game_over"][0]),
        round_limit=bool(v["round_limit"][0]), revealed_count=int(v["revealed_count"][0]),
        threshold=int(END_THRESHOLD[n]), draw_pile=int(v["draw_pile_size"][0]),
        discard_pile=int(v["discard_pile_size"][0]), planets=planets, seats=seats,
        pile_seen=[int(x) for x in v["pile_seen"]] if own_decision else None,
        reservation_types_hidden=not own_res_known,
        discard=[CARD_LABELS[c] for c in np.flatnonzero(v["discard_cards"])])


# --- rich rendering ----------------------------------------------------------------------
def seat_name(seat: int, names: list[str] | None = None) -> str:
    """'blue (heuristic)' or 'red (you)': colour first, so plain output stays readable."""
    who = names[seat] if names else f"seat {seat}"
    return f"{COLOUR_NAMES[seat]} ({who})"


def styled(seat: int, text: str) -> str:
    return f"[{COLOUR_STYLES[seat]}]{text}[/]"


def _seats_text(counts: dict[int, int] | list[int], show_count: bool = True) -> str:
    if isinstance(counts, dict):  # in seat order, whoever observes
        return " ".join(styled(q, f"{COLOUR_NAMES[q]} {counts[q]}" if show_count else COLOUR_NAMES[q])
                        for q in sorted(counts)) or "-"
    return " ".join(styled(q, COLOUR_NAMES[q]) for q in sorted(counts)) or "-"


def state_view(s, seat: int | None) -> View:
    """The board of reference state ``s`` as ``seat`` saw it (its ``info`` observation) or as
    everyone (``seat`` None: the ``seer`` observation). A finished game is face up for every
    seat, as play and serve end it (the final scoring counts every collected tile,
    R-P3..R-P7); one saved unfinished or stopped by a forfeit is not."""
    if seat is None or s.is_over:
        return view_from_observation(encoding.observe(s, 0, "seer"), "seer", 0, s.num_players, s.rules, s.max_rounds)
    return view_from_observation(encoding.observe(s, seat, "info"), "info", seat, s.num_players, s.rules, s.max_rounds)


def status_line(view: View, names: list[str] | None = None) -> str:
    if view.game_over:
        state = "game over" + (" (round limit, R-E3)" if view.round_limit else "")
    else:
        who = styled(view.acting, seat_name(view.acting, names))
        if view.pending:  # the tile decision belongs to its action (R-T2): that action is not over yet
            state = f"{who} to act: choosing the tile of a {view.pending}" + (", then 1 more action" if view.actions_left == 2 else "")
        else:
            state = f"{who} to act, {view.actions_left} action{'s' if view.actions_left != 1 else ''} left"
    end = " - last round (R-E1)" if view.end_triggered and not view.game_over else ""
    return (f"round {view.round} | {state}\nrevealed space tiles {view.revealed_count}/{view.threshold}{end} | "
            f"draw pile {view.draw_pile}, discard pile {view.discard_pile}")


def board(view: View, names: list[str] | None = None, title: str | None = None):
    """A rich Group: status, the ring, the jump gate, the players and (for the observer) its
    hand, tiles, reservations, score and, during its tile decision, the pile."""
    from rich.console import Group
    from rich.table import Table
    from rich.text import Text

    items: list = []  # rich renderables: texts and tables
    heading = title or (f"Space Mission [{view.rules}], {view.num_players} players"
                        + (f" - {COLOUR_NAMES[view.observer]}'s view" if view.observer is not None else " - all cards shown"))
    items.append(Text(heading, style="bold"))
    items.append(Text.from_markup(status_line(view, names)))
    ring = Table(box=None, pad_edge=False, show_edge=False, header_style="bold")
    for col in ("#", "planet", "coordinates", "pile", "station", "probes", "ships", "looked (rounds ago)"):
        ring.add_column(col, no_wrap=col in ("#", "planet", "coordinates", "pile"))
    for pv in view.planets:
        pile = f"{pv.revealed_space} space up" if pv.revealed else f"{pv.pile_size} tiles"
        row = [str(pv.position), PLANET_NAMES[pv.planet], planet_coords(pv.planet), pile,
               _seats_text([pv.station]) if pv.station is not None else "-", _seats_text(pv.probes),
               _seats_text(pv.ships), _seats_text(pv.visits)]
        ring.add_row(*row)
    items.append(ring)
    if view.observer is None:  # the seer view: every pile's contents and every reservation's types
        for pv in view.planets:
            res = "; ".join(f"{styled(q, COLOUR_NAMES[q])} {tiles_text(t[:NUM_POINT_TYPES])}" for q, t in pv.reservations.items())
            reserved = "lost reservations (R-E2)" if view.game_over else "reserved"
            items.append(Text.from_markup(f"  {PLANET_NAMES[pv.planet]} pile: {tiles_text(pv.pile, 'empty')}"
                                          + (f" | {reserved}: {res}" if res else "")))
    gate_ships = [sv.seat for sv in view.seats if sv.ship is None]
    items.append(Text.from_markup("jump gate: probes " + _seats_text({sv.seat: sv.gate_probes for sv in view.seats})
                                  + " | ships " + _seats_text(gate_ships)))
    items.append(Text(f"discard pile ({view.discard_pile}): {' '.join(view.discard) or 'empty'}"))
    players = Table(box=None, pad_edge=False, show_edge=False, header_style="bold")
    for col in ("player", "supply", "gate", "stations", "hand", "tiles", "points"):
        players.add_column(col, justify="left" if col in ("player", "points") else "right", no_wrap=True)
    for sv in sorted(view.seats, key=lambda sv: sv.seat):
        marker = "> " if sv.seat == view.acting and not view.game_over else "  "
        points = f"{sv.score['total']}" if sv.score is not None else f"{sv.public_points} public"
        players.add_row(marker + styled(sv.seat, seat_name(sv.seat, names)), str(sv.supply), str(sv.gate_probes),
                        str(sv.stations), str(sv.hand_size), str(sv.collected), points)
    items.append(players)
    # each last turn on its own line: as a table column it wrapped to several lines at 80 columns
    items.extend(Text.from_markup(f"  {styled(sv.seat, COLOUR_NAMES[sv.seat])}'s last turn: ") + Text(sv.last_turn)
                 for sv in sorted(view.seats, key=lambda sv: sv.seat))
    items.extend(_private_lines(view))
    return Group(*items)


def _private_lines(view: View) -> list:
    from rich.text import Text

    lines = []
    for sv in sorted(view.seats, key=lambda sv: sv.seat):
        if sv.hand is None:
            continue
        who = "Your" if view.observer is not None else COLOUR_NAMES[sv.seat]
        hand = "  ".join(sv.hand) or "-"
        lines.append(Text.from_markup(f"{styled(sv.seat, who)} hand: {hand} | tiles: {tiles_text(sv.collection)}"))
        s = sv.score
        assert s is not None  # a visible hand comes with its visible collection (from_obs)
        lines.append(Text(f"  {'final' if view.game_over else 'provisional'} score {s['total']}: jump gate {s['jump_gate']}, stations {s['stations']}, "
                          f"minerals {s['minerals']}, aliens {s['aliens']}, matter {s['matter']}, water {s['water']}, "
                          f"medals {s['medals']}"))
    if view.observer is not None:
        me = view.observer
        probes = {PLANET_NAMES[pv.planet]: pv.probes[me] for pv in view.planets if pv.probes.get(me)}
        reserved = {PLANET_NAMES[pv.planet]: pv.reservations[me] for pv in view.planets if me in pv.reservations}
        if reserved:
            lines.append(Text("  your reserved tiles: " + "; ".join(
                f"{name} {tiles_text(t[:NUM_POINT_TYPES])}" for name, t in reserved.items())))
        if probes and view.reservation_types_hidden:
            lines.append(Text("  your probes (reserved tiles, types not shown under schmidt, R-A4c): "
                              + ", ".join(f"{name} {k}" for name, k in probes.items())))
        looks = [(PLANET_NAMES[pv.planet], pv.last_look) for pv in view.planets if pv.last_look is not None]
        if looks:
            lines.append(Text("  piles as you left them (R-I3):"))
            lines.extend(Text(f"    {name}, {age} round{'s' if age != 1 else ''} ago: {tiles_text(pile, 'empty')}")
                         for name, (age, pile) in looks)
    if view.pile_seen is not None:
        lines.append(_pile_line(view, next(sv for sv in view.seats if sv.seat == view.observer)))
    return lines


def compact_lines(view: View) -> list:
    """Between the person's decisions of one turn: the hand and, during a tile decision, the pile."""
    from rich.text import Text

    me = next(sv for sv in view.seats if sv.seat == view.observer)
    assert me.hand is not None and me.score is not None  # the observer sees its own hand and tiles
    where = f"on {PLANET_NAMES[view.planets[me.ship].planet]}" if me.ship is not None else "on the jump gate"
    lines = [Text.from_markup(f"{styled(me.seat, 'Your')} hand: {'  '.join(me.hand) or '-'} | "
                              f"tiles: {tiles_text(me.collection)} | provisional score {me.score['total']} | "
                              f"your ship is {where}")]
    if view.pile_seen is not None:
        lines.append(_pile_line(view, me))
    return lines


def _pile_line(view: View, me: SeatView):
    from rich.text import Text

    where = PLANET_NAMES[view.planets[me.ship].planet] if me.ship is not None else "?"
    pile = view.pile_seen
    assert pile is not None  # the callers check
    space = pile[SPACE]
    return Text.from_markup(f"[bold]The pile on {where}:[/bold] {tiles_text(pile[:NUM_POINT_TYPES])}"
                            + (f" (and {space} space)" if space else ""))
