"""Exact conversion between a batch slot and the reference GameState, both ways."""
from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ..components import NUM_ZONES
from ..rules.state import NONE, PHASES, GameState, PlayerState
from .state import F_CURRENT_PLAYER, F_TERMINATED, BatchState

_OVER = PHASES.index("over")


def _ints(a) -> list[int]:
    return [int(x) for x in a]


def _where(mask) -> list[int]:
    return [int(x) for x in np.flatnonzero(mask)]


def to_reference(st: BatchState, i: int) -> GameState:
    """The reference GameState of batch slot ``i`` (equal with ``==`` to the one the
    reference engine reaches with the same seed and actions)."""
    if isinstance(i, (bool, np.bool_)) or not isinstance(i, (int, np.integer)):
        raise TypeError(f"batch index must be an int, got {i!r}")
    i = int(i)
    if not 0 <= i < st.batch_size:
        raise ValueError(f"batch index {i} out of range [0, {st.batch_size})")
    n = st.num_players
    players = [PlayerState(
        supply=int(st.supply[i, q]),
        lism=int(st.lism[i, q]),
        removed=int(st.removed[i, q]),
        hand=_where(st.hand[i, q]),
        discard=_where(st.discard[i, q]),
        commit=int(st.commit[i, q]),
        acted=bool(st.acted[i, q]),
        bonus=_ints(st.bonus[i, q, :st.bonus_len[i, q]]),
        counters=_ints(st.counters[i, q]),
        setup_hand=_ints(st.setup_hand[i, q, :st.setup_hand_len[i, q]]),
        seen=_where(st.seen[i, q]),
    ) for q in range(n)]
    over = bool(st.terminated[i])
    return GameState(
        num_players=n,
        rng=int(st.rng[i]),
        players=players,
        start_player=int(st.start_player[i]),
        current_player=NONE if over else int(st.current_player[i]),
        phase=PHASES[int(st.phase[i])],
        round=int(st.round[i]),
        mars=[_ints(row) for row in st.mars[i]],
        mineral=_ints(st.mineral[i]),
        leftover=_ints(st.leftover[i]),
        discovery=_ints(st.discovery[i]),
        discovery_owner=_ints(st.discovery_owner[i]),
        looked=[_where(row) for row in st.looked[i]],
        removed_cards=_ints(st.removed_cards[i, :st.removed_cards_len[i]]),
        mineral_pool=_ints(st.mineral_pool[i, :st.mineral_pool_len[i]]),
        event_pile=_ints(st.event_pile[i, :st.event_pile_len[i]]),
        set_aside=_ints(st.set_aside[i, :st.set_aside_len[i]]),
        ship_deck=_ints(st.ship_deck[i, :st.ship_deck_len[i]]),
        slots=_ints(st.slots[i]),
        airborne=_ints(st.airborne[i, :st.airborne_len[i]]),
        used_ships=_ints(st.used_ships[i, :st.used_ships_len[i]]),
        crew=[_ints(row) for row in st.crew[i]],
        token=_ints(st.token[i]),
        token_supply=_ints(st.token_supply[i]),
        role=int(st.role[i]),
        placed_slots=_ints(st.placed_slots[i, :st.placed_len[i]]),
        steps_left=int(st.steps_left[i]),
        drawn=int(st.drawn[i]),
        pending_slot=int(st.pending_slot[i]),
        last_actor=int(st.last_actor[i]),
    )


def _put(arr, i, values, name: str) -> None:
    """arr[i, :len] = values, and the length; ValueError when they do not fit."""
    values = list(values)
    if len(values) > arr.shape[-1]:
        raise ValueError(f"{name}: {len(values)} entries, the batch holds at most {arr.shape[-1]}")
    arr[i] = 0
    arr[i, :len(values)] = values


def _check_range(s: GameState) -> None:
    """Counters and leftovers are unlimited in the reference (M-C5); the batch holds int32."""
    big = max([c for pl in s.players for c in pl.counters] + list(s.leftover))
    if big >= 2**31:
        raise ValueError(f"a counter or leftover of {big} does not fit the batch's int32")


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


def from_reference(states: Sequence[GameState]) -> BatchState:
    """A batch holding copies of the given reference states (one player count)."""
    states = list(states)
    if not states:
        raise ValueError("from_reference needs at least one state")
    for k, s in enumerate(states):
        if not isinstance(s, GameState):
            raise TypeError(f"states[{k}] must be a red_planet GameState, got {type(s).__name__}")
    st = BatchState(len(states), states[0].num_players)
    for i, s in enumerate(states):
        write_slot(st, i, s)
    st.sync()
    return st
