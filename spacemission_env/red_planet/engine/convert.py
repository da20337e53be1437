"""Exact conversion between a batch slot and the reference GameState, both ways."""
from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ...checks import shown
from ...engine_common import check_batch, check_reference_states
from ..components import MINERAL_VALUE, NUM_EVENTS, NUM_MINERALS, NUM_ROLES, NUM_SHIPS, NUM_ZONES
from ..rules.state import NONE, PHASES, GameState, PlayerState
from ..rules.state_json import MAX_COUNTERS, state_from_dict, state_to_dict
from .state import F_CURRENT_PLAYER, F_TERMINATED, NB, OFFSETS, PAD, BatchState

_OVER = PHASES.index("over")


def to_reference(st: BatchState, i: int) -> GameState:
    """The reference GameState of batch slot ``i`` (equal with ``==`` to the one the
    reference engine reaches with the same seed and actions)."""
    check_batch(st, BatchState, "Red Planet")
    if isinstance(i, (bool, np.bool_)) or not isinstance(i, (int, np.integer)):
        raise TypeError(f"batch index must be an int, got {shown(i)}")
    i = int(i)
    if not 0 <= i < st.batch_size:
        raise ValueError(f"batch index {shown(i)} out of range [0, {st.batch_size})")
    n = st.num_players
    rec = st.record[i].tolist()  # plain ints: reading lists is far cheaper than numpy scalars

    def one(name):
        return rec[OFFSETS[name]]

    def flat(name, size):
        o = OFFSETS[name]
        return rec[o:o + size]

    def rows(name, count, width, used):
        o = OFFSETS[name]
        return [rec[o + r * width:o + r * width + used] for r in range(count)]

    def pile(name):
        o = OFFSETS[name]
        return rec[o:o + one(name + "_len")]

    def seat_rows(name, width):  # [P, width]
        return rows(name, n, width, width)

    def mask(values):
        return [k for k, v in enumerate(values) if v]

    hand, discard, seen = seat_rows("hand", NUM_ROLES), seat_rows("discard", NUM_ROLES), seat_rows("seen", NUM_EVENTS)
    bonus, counters, setup = seat_rows("bonus", NB), seat_rows("counters", NUM_MINERALS), seat_rows("setup_hand", 3)
    supply, lism, removed = flat("supply", n), flat("lism", n), flat("removed", n)
    commit, acted = flat("commit", n), flat("acted", n)
    bonus_len, setup_len = flat("bonus_len", n), flat("setup_hand_len", n)
    players = [PlayerState(
        supply=supply[q], lism=lism[q], removed=removed[q], hand=mask(hand[q]), discard=mask(discard[q]),
        commit=commit[q], acted=bool(acted[q]), bonus=bonus[q][:bonus_len[q]], counters=counters[q],
        setup_hand=setup[q][:setup_len[q]], seen=mask(seen[q]),
    ) for q in range(n)]
    over = one("phase") == _OVER
    return GameState(
        num_players=n,
        rng=int(st.rng[i]),
        players=players,
        start_player=one("start_player"),
        current_player=NONE if over else one("current_player"),
        phase=PHASES[one("phase")],
        round=one("round"),
        mars=rows("mars", NUM_ZONES, PAD, n),
        mineral=flat("mineral", NUM_ZONES),
        leftover=flat("leftover", NUM_ZONES),
        discovery=flat("discovery", NUM_ZONES),
        discovery_owner=flat("discovery_owner", NUM_ZONES),
        looked=[mask(r) for r in rows("looked", NUM_ZONES, PAD, n)],
        removed_cards=pile("removed_cards"),
        removed_by=rec[OFFSETS["removed_by"]:OFFSETS["removed_by"] + one("removed_cards_len")],
        mineral_pool=pile("mineral_pool"),
        event_pile=pile("event_pile"),
        set_aside=pile("set_aside"),
        ship_deck=pile("ship_deck"),
        slots=flat("slots", n),
        airborne=pile("airborne"),
        used_ships=pile("used_ships"),
        crew=rows("crew", NUM_SHIPS, PAD, n),
        token=flat("token", NUM_SHIPS),
        token_supply=flat("token_supply", NUM_ZONES),
        role=one("role"),
        placed_slots=rec[OFFSETS["placed_slots"]:OFFSETS["placed_slots"] + one("placed_len")],
        steps_left=one("steps_left"),
        drawn=one("drawn"),
        pending_slot=one("pending_slot"),
        last_actor=one("last_actor"),
    )


def _put(arr, i, values, name: str) -> None:
    """arr[i, :len] = values, and the length; ValueError when they do not fit."""
    values = list(values)
    if len(values) > arr.shape[-1]:
        raise ValueError(f"{name}: {len(values)} entries, the batch holds at most {arr.shape[-1]}")
    arr[i] = 0
    arr[i, :len(values)] = values


# The fast engine's scores are int16 (api.scores). A loaded state holds at most
# state_json.MAX_COUNTERS counters (89); a hand-built reference state may hold any number
# (M-C5), so the conversion refuses one whose totals could wrap: every counter held or lying
# in a zone, plus all the game can still hand out, at the top value 3, plus far more than
# every other point the game gives (ice bonus, discovery and bonus cards: under 300).
_OTHER_POINTS = 1000
ENGINE_MAX_COUNTERS = (np.iinfo(np.int16).max - _OTHER_POINTS) // max(MINERAL_VALUE) - MAX_COUNTERS


def _check_range(s: GameState) -> None:
    """Counters and leftovers are unlimited in the reference (M-C5); the batch's scores are int16."""
    held = sum(abs(c) for pl in s.players for c in pl.counters) + sum(map(abs, s.leftover))
    if held > ENGINE_MAX_COUNTERS:
        raise ValueError(f"counters and leftovers hold {held} counters together; the fast engine takes at most "
                         f"{ENGINE_MAX_COUNTERS} (its int16 scores could wrap)")


def write_slot(st: BatchState, i: int, s: GameState) -> None:
    """Overwrite batch slot ``i`` with the reference state ``s`` (same player count);
    call ``st.sync()`` after the last slot."""
    if s.num_players != st.num_players:
        raise ValueError(f"state has {s.num_players} players, the batch {st.num_players}")
    _check_range(s)
    over = s.phase == "over"
    st.rng[i] = np.uint64(s.rng)
    st.record[i, F_TERMINATED] = over
    st.phase[i] = PHASES.index(s.phase)
    st.round[i] = s.round
    st.start_player[i] = s.start_player
    st.record[i, F_CURRENT_PLAYER] = s.start_player if over else s.current_player  # never -1 (state.py)
    st.last_actor[i] = s.last_actor
    st.role[i] = s.role
    st.steps_left[i] = s.steps_left
    st.drawn[i] = s.drawn
    st.pending_slot[i] = s.pending_slot
    _put(st.placed_slots, i, s.placed_slots, "placed_slots")
    st.placed_len[i] = len(s.placed_slots)
    st.mars[i] = s.mars
    st.mineral[i] = s.mineral
    st.leftover[i] = s.leftover
    st.discovery[i] = s.discovery
    st.discovery_owner[i] = s.discovery_owner
    st.looked[i] = False
    for z in range(NUM_ZONES):
        st.looked[i, z, s.looked[z]] = True
    for name in ("removed_cards", "mineral_pool", "event_pile", "set_aside", "ship_deck", "airborne", "used_ships"):
        values = getattr(s, name)
        _put(getattr(st, name), i, values, name)
        getattr(st, name + "_len")[i] = len(values)
    _put(st.removed_by, i, s.removed_by, "removed_by")
    st.slots[i] = s.slots
    st.crew[i] = s.crew
    st.token[i] = s.token
    st.token_supply[i] = s.token_supply
    st.hand[i] = st.discard[i] = st.seen[i] = False
    for q, pl in enumerate(s.players):
        st.supply[i, q] = pl.supply
        st.lism[i, q] = pl.lism
        st.removed[i, q] = pl.removed
        st.hand[i, q, pl.hand] = True
        st.discard[i, q, pl.discard] = True
        st.commit[i, q] = pl.commit
        st.acted[i, q] = pl.acted
        st.bonus[i, q] = 0
        st.bonus[i, q, :len(pl.bonus)] = pl.bonus
        st.bonus_len[i, q] = len(pl.bonus)
        st.counters[i, q] = pl.counters
        st.setup_hand[i, q] = 0
        st.setup_hand[i, q, :len(pl.setup_hand)] = pl.setup_hand
        st.setup_hand_len[i, q] = len(pl.setup_hand)
        st.seen[i, q, pl.seen] = True


def from_reference(states: Sequence[GameState], check: bool = True) -> BatchState:
    """A batch holding copies of the given reference states (one player count), each checked as a
    JSON state is (ValueError naming the first bad one); ``check=False`` copies synthetic
    states that break the conservation laws on purpose, unchecked."""
    states = check_reference_states(states, GameState, "Red Planet", state_to_dict, state_from_dict, check)
    st = BatchState(len(states), states[0].num_players)
    for i, s in enumerate(states):
        write_slot(st, i, s)
    st.sync()
    return st
