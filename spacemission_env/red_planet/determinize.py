"""Determinization for Mission: Red Planet: a full ``GameState`` drawn among those a player
cannot tell from the true one (M-I3), for the leak test and for search bots.

``sample_world(state, player, rng)`` keeps every public count and fact (M-I1) and the
player's private knowledge (M-I2, M-I5) and redraws what he cannot know (M-I3). The event
cards whose place he knows stay (his bonus and setup cards, the drawn card he holds, the
discovery cards on Mars he laid or looked at, the removed cards he drew, the set-aside
cards he has seen: the shown hands and his own returned cards); the others are dealt
again:

- while bonus cards are kept (M-S6): the unknown cards are dealt afresh, three to each
  other player, every such hand holding a bonus card (M-S5: the final hands are the ones
  with one), the rest undealt. Another player who has already kept keeps a bonus card of
  his hand drawn at random and has returned the other two (set aside, after the shown
  hands, in keep order). So how many bonus cards each hidden hand, the set-aside cards and
  the undealt pile hold is redrawn too (not public until M-S6 ends); with each keep drawn
  uniformly among the hand's bonus cards, the deal is the exact posterior;
- after setup (the kinds per place are public: bonus cards per player, discovery cards on
  Mars, the pile's size): the unknown bonus cards and the unknown discovery cards are each
  dealt uniformly at random over the hidden places of their kind (other players' bonus
  cards, the event pile, Mars, removed cards, a rival's drawn card), except that every other
  player's kept card (his first bonus card, M-S6) is never one this player returned;
- every other player's seen set (M-I2) is rebuilt from the world: his setup hand (during
  the keep: his three cards; after it: his kept card and two returned cards drawn at
  random among the cards outside the shown hands, this player's setup hand and the kept
  cards, weighted as a uniformly random keep weights them), the shown hands (M-S5: every
  player saw them), and the cards he holds, laid, looked at or drew and removed;
- the event pile, ship deck and mineral pool are reshuffled (their contents are public
  or follow from the deal; their order is hidden), each from its contents sorted, so that
  the world is a function of the player's knowledge and the generator, whatever the true
  order (a permutation of the true order was uniform too, but two states the player cannot
  tell apart gave different worlds for one seed);
- every unrevealed commit of another player (M-R3, M-I4) is redrawn from his remaining
  role cards, above the role in execution once roles are called (M-R4);
- the random generator's state is fresh.

The uniform deals are the exact posterior when the other players' choices (keeps, draws,
where they lay) do not depend on which card of a kind they hold; the returned pairs are
weighted as a uniformly random keep weights them. Any such dependence of a real player's
play is not used, nor is which seat showed which hand (it constrains nothing else).

The shown hands are public (M-S5), and during the keep they open the set-aside cards, but
the state stops recording them once M-S6 ends. They are then read from every seat's seen
set in the true state (only to recover what the player saw shown, M-I2): the discovery
cards every seat has seen and two or more seats cannot place; a card every seat has seen
that all but one seat can place (laid by one, looked at by the others) counts as shown
only when the shown cards must make whole hands of three or a seat would otherwise have
returned more than two cards (in random play this read was right at every position
tried). The player's returned cards are read as his seen cards outside the shown hands
whose place he does not know; once he has seen one of them again (drew or looked at it),
none of his seen cards goes into a rival's returned pair (so a rival's returned card the
player saw later is then never drawn as one). A schema-1 removed card (drawer unknown)
that the player cannot place counts as seen by the seats that had seen the true one.
"""
from __future__ import annotations

import itertools

import numpy as np

from ..checks import shown
from .components import IS_BONUS, NUM_EVENTS, SETUP_HAND
from .encoding import revealed
from .errors import require_int
from .rules.state import NONE, GameState, check_state


def known_cards(state: GameState, player: int) -> set[int]:
    """Event cards whose place ``player`` knows (M-I2): those the state shows he has seen
    where they are (:func:`explained_cards`) and, during setup, the cards he set aside or
    returned, which stay set aside."""
    return explained_cards(state, player) | (set(state.players[player].seen) & set(state.set_aside))


def sample_world(state: GameState, player: int, rng: np.random.Generator | None = None) -> GameState:
    """One state consistent with everything ``player`` knows (module docstring); the
    argument is not modified."""
    check_state(state)
    player = require_int(player, "player")  # not a bool, a float or a str
    if not 0 <= player < state.num_players:
        raise ValueError(f"player must be a seat in 0..{state.num_players - 1}, got {shown(player)}")
    if rng is None:
        rng = np.random.default_rng()
    elif not isinstance(rng, np.random.Generator):
        raise TypeError(f"rng must be a numpy.random.Generator or None, got {shown(rng)}")
    t = state.copy()
    if t.phase == "keep":
        _deal_keep(t, player, rng)
    elif t.phase != "setup_zone":  # setup_zone: nothing dealt yet, the pile holds every card
        _deal_after_setup(t, player, rng)
    for pile in (t.event_pile, t.ship_deck, t.mineral_pool):  # M-I3: the orders are hidden, the contents not
        pile[:] = _shuffled(sorted(pile), rng)  # from a sorted pile: the true order never reaches the world
    _redraw_commits(t, player, rng)
    t.rng = int(rng.integers(0, 2**63)) * 2 + int(rng.integers(0, 2))
    return t


MAX_DRAWS = 10_000  # of a rejection step; in play a keep-phase deal fits with probability about 0.5 or more


def _shuffled(cards, rng: np.random.Generator) -> list[int]:
    cards = list(cards)
    return [cards[i] for i in rng.permutation(len(cards))]


# --- the keep (M-S5, M-S6) ---------------------------------------------------------------------
def _deal_keep(t: GameState, player: int, rng: np.random.Generator) -> None:
    order = t.seat_order()
    kept = order[:order.index(t.current_player)]  # M-S6: they have kept, in this order
    n_shown = len(t.set_aside) - 2 * len(kept)  # set_aside = shown hands (M-S5), then returned pairs
    shown = t.set_aside[:n_shown]
    unknown = sorted(set(range(NUM_EVENTS)) - known_cards(t, player))
    rivals = [q for q in order if q != player]
    for _ in range(MAX_DRAWS):  # rejection: uniform among the deals where every hand holds a bonus card
        deal = _shuffled(unknown, rng)
        hands = {q: deal[SETUP_HAND * i:SETUP_HAND * (i + 1)] for i, q in enumerate(rivals)}
        if all(any(IS_BONUS[c] for c in h) for h in hands.values()):
            break
    else:
        raise RuntimeError("no deal of the setup hands gives every other player a bonus card")
    t.event_pile = deal[SETUP_HAND * len(rivals):]
    set_aside = list(shown)
    for i, q in enumerate(kept):
        if q == player:  # his own returned cards stay
            set_aside += t.set_aside[n_shown + 2 * i:n_shown + 2 * i + 2]
            continue
        h = hands[q]
        bonus = [c for c in h if IS_BONUS[c]]
        keep = bonus[int(rng.integers(len(bonus)))]  # M-S6: a keep drawn uniformly among his bonus cards
        t.players[q].bonus = [keep]
        set_aside += [c for c in h if c != keep]
    t.set_aside = set_aside
    for q in rivals:
        pl = t.players[q]
        if q not in kept:
            pl.setup_hand = hands[q]
        pl.seen = sorted(set(hands[q]) | set(shown))


# --- after setup ---------------------------------------------------------------------------------
def explained_cards(t: GameState, q: int) -> set[int]:
    """Event cards seat ``q`` has seen for a reason the state shows: he holds them, laid or
    looked at them, drew and removed them (M-O3, M-E1). A removed card is known to its
    drawer only (having seen it at setup says nothing of where it went); a schema-1
    document did not record the drawer (NONE): then a removed card he has seen counts as
    his."""
    pl = t.players[q]
    out = set(pl.bonus) | set(pl.setup_hand)
    if t.drawn != NONE and t.current_player == q:
        out.add(t.drawn)
    for z, c in enumerate(t.discovery):
        if c != NONE and (t.discovery_owner[z] == q or q in t.looked[z]):
            out.add(c)
    out |= {c for c, d in zip(t.removed_cards, t.removed_by) if d == q or (d == NONE and c in pl.seen)}
    return out


def shown_cards(t: GameState) -> set[int]:
    """The cards shown at M-S5, read from a state after setup (module docstring)."""
    n = t.num_players
    seen = [set(pl.seen) for pl in t.players]
    unplaced = [seen[q] - explained_cards(t, q) for q in range(n)]
    common = {c for c in set.intersection(*seen) if not IS_BONUS[c]}  # shown hands hold no bonus card
    sure = {c for c in common if sum(c in u for u in unplaced) >= 2}  # a returned card: one seat only
    doubt = sorted(common - sure)
    best, best_key = set(sure), None
    for k in range(min(len(doubt), 6) + 1):
        for extra in itertools.combinations(doubt, k):
            s = sure | set(extra)
            left = [len(u - s) for u in unplaced]  # each seat's returned cards not placed since
            if len(s) % SETUP_HAND or max(left) > 2:
                continue
            key = (sum(2 - x for x in left), k)  # fewest returned cards drawn back, then fewest shown
            if best_key is None or key < best_key:
                best, best_key = s, key
    return best


def _deal_after_setup(t: GameState, player: int, rng: np.random.Generator) -> None:
    n = t.num_players
    shown = shown_cards(t)
    true_removed, true_seen = list(t.removed_cards), [set(pl.seen) for pl in t.players]
    me = t.players[player]
    known = known_cards(t, player)
    returned = set(me.seen) - known - shown  # M-I2: the cards he returned at M-S6, place unknown
    rivals = [q for q in range(n) if q != player]
    unknown_bonus = [c for c in range(NUM_EVENTS) if c not in known and IS_BONUS[c]]
    unknown_disc = [c for c in range(NUM_EVENTS) if c not in known and not IS_BONUS[c]]
    # M-S6: a rival's kept card (his first) came from his own setup hand: not one this player returned
    firsts = [q for q in rivals if t.players[q].bonus]
    allowed = [c for c in unknown_bonus if c not in returned]
    if len(allowed) < len(firsts):  # a state no play reaches; keep what fits
        allowed = unknown_bonus
    allowed = _shuffled(allowed, rng)
    kept = {q: allowed[i] for i, q in enumerate(firsts)}
    bonus_rest = _shuffled([c for c in unknown_bonus if c not in kept.values()], rng)
    for q in rivals:
        pl = t.players[q]
        if pl.bonus:
            pl.bonus = [kept[q]] + [bonus_rest.pop() for _ in pl.bonus[1:]]
    disc = _shuffled(unknown_disc, rng)
    for z, c in enumerate(t.discovery):
        if c != NONE and c not in known:
            t.discovery[z] = disc.pop()
    for i, c in enumerate(t.removed_cards):
        if c not in known:
            t.removed_cards[i] = disc.pop()
    if t.drawn != NONE and t.drawn not in known:
        t.drawn = disc.pop()
    t.event_pile = bonus_rest + disc  # reshuffled by the caller
    # M-I2: each rival's seen set, rebuilt from the world's places
    setup_me = set(me.bonus[:1]) | returned | shown  # his setup hand (as far as read) and the shown ones
    if len(returned) < 2:  # he has seen a returned card again (drew it, looked at it): any seen card may be it
        setup_me |= set(me.seen)
    pool = [c for c in range(NUM_EVENTS) if c not in setup_me and c not in kept.values()]
    for _ in range(MAX_DRAWS):  # rejection: the returned pairs weighted by 1 / bonus cards in the hand
        draw = _shuffled(pool, rng)
        pairs = {q: draw[2 * i:2 * i + 2] for i, q in enumerate(firsts)}
        weight = np.prod([1 / (1 + sum(IS_BONUS[c] for c in p)) for p in pairs.values()])
        if rng.random() < weight:
            break
    for q in rivals:
        pl = t.players[q]
        s = set(shown) | set(pairs.get(q, ())) | explained_cards(t, q)
        for c, c0, d in zip(t.removed_cards, true_removed, t.removed_by):
            if d == NONE and c0 in true_seen[q] and c0 not in known:
                s.add(c)  # schema 1: the drawer unknown; whoever had seen the true card has seen this one
        pl.seen = sorted(s)


def _redraw_commits(t: GameState, player: int, rng: np.random.Generator) -> None:
    for q, pl in enumerate(t.players):
        if q == player or pl.commit == NONE or revealed(t, q):
            continue
        held = sorted(pl.hand + [pl.commit])
        options = [r for r in held if t.role == NONE or r > t.role]  # M-I4: above the role called
        pl.commit = options[int(rng.integers(len(options)))]
        held.remove(pl.commit)
        pl.hand = held
