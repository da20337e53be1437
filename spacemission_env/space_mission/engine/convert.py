"""Exact conversion between a batch slot and the reference GameState, both ways."""
from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ..components import RING_SIZE
from ..rules.state import TURN_KINDS, GameState, PlayerState, TurnAction
from ..rules.state_json import state_from_dict, state_to_dict
from ...checks import shown
from ...engine_common import check_batch, check_reference_states
from .state import PENDING_NONE, PHASE_TILE, BatchState

_PENDING = (None, "scan", "develop", "discover")


def to_reference(st: BatchState, i: int) -> GameState:
    """The reference GameState of batch slot ``i`` (equal with ``==`` to the one the
    reference engine reaches with the same seed and actions)."""
    check_batch(st, BatchState, "Space Mission")
    if isinstance(i, (bool, np.bool_)) or not isinstance(i, (int, np.integer)):
        raise TypeError(f"batch index must be an int, got {shown(i)}")
    i = int(i)
    if not 0 <= i < st.batch_size:
        raise ValueError(f"batch index {shown(i)} out of range [0, {st.batch_size})")
    n = st.num_players
    players = []
    for q in range(n):
        players.append(PlayerState(
            hand=[int(c) for c in st.hand[i, q, :st.hand_len[i, q]]],
            supply=int(st.supply[i, q]),
            gate_probes=int(st.gate_probes[i, q]),
            ship=int(st.ship[i, q]),
            collection=[int(x) for x in st.collection[i, q]],
            scanned=[bool(x) for x in st.scanned[i, q]],
            last_seen=[[int(x) for x in row] for row in st.last_seen[i, q]],
            last_seen_round=[int(x) for x in st.last_seen_round[i, q]],
            last_turn=[TurnAction(TURN_KINDS[st.turn_kind[i, q, k]], int(st.turn_target[i, q, k]),
                                  [int(c) for c in st.turn_cards[i, q, k, :st.turn_ncards[i, q, k]]],
                                  bool(st.turn_tile[i, q, k])) for k in range(st.turn_len[i, q])],
        ))
    return GameState(
        num_players=n,
        rules=st.rules,
        max_rounds=st.max_rounds,
        rng=int(st.rng[i]),
        ring=[int(x) for x in st.ring[i]],
        piles=[[int(x) for x in row] for row in st.piles[i]],
        revealed=[bool(x) for x in st.revealed[i]],
        draw_pile=[int(c) for c in st.draw[i, :st.draw_len[i]]],
        discard_pile=[int(c) for c in st.discard[i, :st.discard_len[i]]],
        players=players,
        reservations=[[[int(x) for x in st.reservations[i, p, q]] for q in range(n)] for p in range(RING_SIZE)],
        stations=[int(x) for x in st.stations[i]],
        start_player=int(st.start_player[i]),
        current_player=int(st.current_player[i]),
        round=int(st.round[i]),
        actions_left=int(st.actions_left[i]),
        phase="tile" if st.phase[i] == PHASE_TILE else "main",
        pending=_PENDING[int(st.pending[i])],
        end_triggered=bool(st.end_triggered[i]),
        is_over=bool(st.terminated[i]),
        round_limit=bool(st.round_limit[i]),
    )


def write_slot(st: BatchState, i: int, s: GameState) -> None:
    """Overwrite batch slot ``i`` with the reference state ``s`` (same configuration)."""
    if (s.num_players, s.rules, s.max_rounds) != (st.num_players, st.rules, st.max_rounds):
        raise ValueError("state configuration (num_players, rules, max_rounds) differs from the batch's")
    st.rng[i] = np.uint64(s.rng)
    st.ring[i] = s.ring
    st.piles[i] = s.piles
    st.revealed[i] = s.revealed
    st.draw[i] = 0
    st.draw[i, :len(s.draw_pile)] = s.draw_pile
    st.draw_len[i] = len(s.draw_pile)
    st.discard[i] = 0
    st.discard[i, :len(s.discard_pile)] = s.discard_pile
    st.discard_len[i] = len(s.discard_pile)
    st.hand[i] = 0
    for q, pl in enumerate(s.players):
        st.hand[i, q, :len(pl.hand)] = sorted(pl.hand)
        st.hand_len[i, q] = len(pl.hand)
        st.supply[i, q] = pl.supply
        st.gate_probes[i, q] = pl.gate_probes
        st.ship[i, q] = pl.ship
        st.collection[i, q] = pl.collection
        st.scanned[i, q] = pl.scanned
        st.last_seen[i, q] = pl.last_seen
        st.last_seen_round[i, q] = pl.last_seen_round
        _write_turn(st, i, q, pl.last_turn)
    for p in range(RING_SIZE):
        for q in range(s.num_players):
            st.reservations[i, p, q] = s.reservations[p][q]
    st.stations[i] = s.stations
    st.start_player[i] = s.start_player
    st.current_player[i] = s.current_player
    st.round[i] = s.round
    st.actions_left[i] = s.actions_left
    st.phase[i] = PHASE_TILE if s.phase == "tile" else 0
    st.pending[i] = _PENDING.index(s.pending) if s.pending is not None else PENDING_NONE
    st.end_triggered[i] = s.end_triggered
    st.terminated[i] = s.is_over
    st.round_limit[i] = s.round_limit


def _write_turn(st: BatchState, i: int, q: int, turn: list[TurnAction]) -> None:
    for name in ("turn_kind", "turn_target", "turn_ncards", "turn_cards", "turn_tile"):
        getattr(st, name)[i, q] = 0
    st.turn_len[i, q] = len(turn)
    for k, a in enumerate(turn):
        st.turn_kind[i, q, k] = TURN_KINDS.index(a.kind)
        st.turn_target[i, q, k] = a.target
        st.turn_ncards[i, q, k] = len(a.cards)
        st.turn_cards[i, q, k, :len(a.cards)] = a.cards
        st.turn_tile[i, q, k] = a.tile


def from_reference(states: Sequence[GameState], check: bool = True) -> BatchState:
    """A batch holding copies of the given reference states (one configuration), each checked as a
    JSON state is (ValueError naming the first bad one); ``check=False`` copies synthetic
    states that break the conservation laws on purpose, unchecked."""
    states = check_reference_states(states, GameState, "Space Mission", state_to_dict, state_from_dict, check)
    s0 = states[0]
    st = BatchState(len(states), s0.num_players, s0.rules, s0.max_rounds)
    for i, s in enumerate(states):
        write_slot(st, i, s)
    return st
