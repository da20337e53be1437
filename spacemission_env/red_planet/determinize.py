"""Determinization for Mission: Red Planet: a full ``GameState`` drawn among those a player
cannot tell from the true one (M-I3), for the leak test and for search bots.

``sample_world(state, player, rng)`` keeps every public count and fact (M-I1) and the
player's private knowledge (M-I2, M-I5) and redraws what he cannot know (M-I3):

- event cards: the cards whose place he knows stay (his bonus and setup cards, the drawn
  card he holds, the discovery cards on Mars he laid or looked at, the removed cards he drew,
  the set-aside cards he has seen); the others are relabelled by a random permutation that
  maps bonus cards to bonus cards and discovery cards to discovery cards, applied to every
  place a card can be (other hands, other setup hands, other players' seen sets, the
  event pile, Mars, removed and set-aside cards). Kinds per place stay, so every public
  count (bonus cards per player, discovery cards on Mars, the pile's size) stays too; and
  every other player holds a bonus card he cannot have got from this player's setup cards
  (his M-S6 keep), and the hands shown at setup (M-S5), seen by all, are relabelled among
  themselves, so every player has seen them in every world;
- the event pile, ship deck and mineral pool are reshuffled (their contents are public
  or follow from the relabelling; their order is hidden);
- every unrevealed commit of another player (M-R3, M-I4) is redrawn from his remaining
  role cards, above the role in execution once roles are called (M-R4);
- the random generator's state is fresh.
"""
from __future__ import annotations

import numpy as np

from .components import IS_BONUS, NUM_EVENTS
from .encoding import revealed
from .errors import require_int
from .rules.state import NONE, GameState, check_state


def known_cards(state: GameState, player: int) -> set[int]:
    """Event cards whose place ``player`` knows (M-I2)."""
    me = state.players[player]
    known = set(me.bonus) | set(me.setup_hand)
    if state.drawn != NONE and state.current_player == player:
        known.add(state.drawn)
    for z, c in enumerate(state.discovery):
        if c != NONE and (state.discovery_owner[z] == player or player in state.looked[z]):
            known.add(c)
    seen = set(me.seen)
    # M-E1: a removed card is known to its drawer only (having seen it at setup says nothing of
    # where it went); a schema-1 document did not record the drawer (NONE): then a removed card
    # he has seen counts as his
    known |= {c for c, q in zip(state.removed_cards, state.removed_by) if q == player or (q == NONE and c in seen)}
    known |= seen & set(state.set_aside)  # setup: the cards he set aside or returned stay set aside
    return known


def sample_world(state: GameState, player: int, rng: np.random.Generator | None = None) -> GameState:
    """One state consistent with everything ``player`` knows (module docstring); the
    argument is not modified."""
    check_state(state)
    player = require_int(player, "player")  # not a bool, a float or a str
    if not 0 <= player < state.num_players:
        raise ValueError(f"player must be a seat in 0..{state.num_players - 1}, got {player!r}")
    if rng is None:
        rng = np.random.default_rng()
    elif not isinstance(rng, np.random.Generator):
        raise TypeError(f"rng must be a numpy.random.Generator or None, got {rng!r}")
    t = state.copy()
    _relabel_event_cards(t, player, rng)
    for pile in (t.event_pile, t.ship_deck, t.mineral_pool):
        pile[:] = [pile[i] for i in rng.permutation(len(pile))]
    _redraw_commits(t, player, rng)
    t.rng = int(rng.integers(0, 2**63)) * 2 + int(rng.integers(0, 2))
    return t


MAX_DRAWS = 10_000  # of the bonus relabelling; in random games each fits with probability 0.3 or more


def _relabel_event_cards(t: GameState, player: int, rng: np.random.Generator) -> None:
    known = known_cards(t, player)
    # M-S6: every other player's kept bonus card came from his own setup hand, never from the
    # cards this player saw and no longer knows the place of (those he returned, the hands
    # shown at M-S5): each other player keeps a bonus card outside them in any world
    unplaced_seen = set(t.players[player].seen) - known
    # M-S5, M-I1: the hands shown at setup were seen by every player, as everyone knows; they
    # are the cards in every seat's seen set (no other way of seeing a card is shared by all
    # seats without the card's place being known). They are relabelled among themselves, so
    # that every seat has seen them in every world.
    shown = set.intersection(*(set(pl.seen) for pl in t.players)) - known
    sigma = list(range(NUM_EVENTS))
    for bonus in (True, False):
        free = [c for c in range(NUM_EVENTS) if c not in known and IS_BONUS[c] == bonus]
        for _ in range(MAX_DRAWS):  # rejection: uniform among the relabellings that fit
            for group in ([c for c in free if c in shown], [c for c in free if c not in shown]):
                for c, d in zip(group, (group[i] for i in rng.permutation(len(group)))):
                    sigma[c] = d
            if not bonus or all(not pl.bonus or any(sigma[c] not in unplaced_seen for c in pl.bonus)
                                for q, pl in enumerate(t.players) if q != player):
                break
        else:
            raise RuntimeError("no relabelling of the bonus cards fits what the player saw at setup")
    m = sigma.__getitem__
    for q, pl in enumerate(t.players):
        if q != player:
            pl.bonus = [m(c) for c in pl.bonus]
            pl.setup_hand = [m(c) for c in pl.setup_hand]
            pl.seen = sorted(m(c) for c in pl.seen)
    t.event_pile = [m(c) for c in t.event_pile]
    t.set_aside = [m(c) for c in t.set_aside]
    t.removed_cards = [m(c) for c in t.removed_cards]
    t.discovery = [c if c == NONE else m(c) for c in t.discovery]
    t.drawn = t.drawn if t.drawn == NONE else m(t.drawn)


def _redraw_commits(t: GameState, player: int, rng: np.random.Generator) -> None:
    for q, pl in enumerate(t.players):
        if q == player or pl.commit == NONE or revealed(t, q):
            continue
        held = sorted(pl.hand + [pl.commit])
        options = [r for r in held if t.role == NONE or r > t.role]  # M-I4: above the role called
        pl.commit = options[int(rng.integers(len(options)))]
        held.remove(pl.commit)
        pl.hand = held
