"""The Red Planet world sampler (red_planet/determinize.py) against exact posteriors and the
rules of setup (M-S5, M-S6) and memory (M-I2, M-I3), at positions of seeded games (found by
a hidden-information audit of the sampler; its findings F1..F5 are named below).

The frequencies are compared with posteriors computed by hand: at these positions every
event card the player cannot place is exchangeable with every other of its kind, so the
exact posterior is a hypergeometric count (checked by the audit against rejection
sampling of whole replayed games)."""
import collections
import itertools
import random
import types
from math import comb

import numpy as np
import pytest

from spacemission_env.red_planet import actions as A
from spacemission_env.red_planet.components import IS_BONUS, NUM_EVENTS
from spacemission_env.red_planet.determinize import known_cards, sample_world, shown_cards
from spacemission_env.red_planet.rules import NONE, apply, check_invariants, is_over, legal_actions, new_game


def scientist_policy(s, acts, rnd):
    """Random, but the Scientist is chosen often and prefers to draw or look (event-card traffic)."""
    if s.phase == "commit" and A.START["commit"] + 2 in acts and rnd.random() < 0.5:
        return A.START["commit"] + 2
    if s.phase == "ability" and A.START["draw"] in acts and rnd.random() < 0.7:
        return A.START["draw"]
    if s.phase == "ability" and rnd.random() < 0.5:
        looks = [a for a in acts if A.decode(a)[0] == "look"]
        if looks:
            return rnd.choice(looks)
    return rnd.choice(acts)


def uniform_policy(s, acts, rnd):
    return rnd.choice(acts)


class Game:
    """A seeded game played to a position, with what the rules showed at setup: the shown
    hands (M-S5) and every seat's setup hand (the three cards he kept one of, M-S6)."""

    def __init__(self, n, seed, policy=uniform_policy, steps=10**6, stop=None):
        s = new_game(n, seed=seed)
        rnd = random.Random(seed)
        self.shown, self.hands = None, None
        for _ in range(steps):
            if self.shown is None and s.phase == "keep":
                self.shown = set(s.set_aside)
                self.hands = {q: set(pl.setup_hand) for q, pl in enumerate(s.players)}
            if (stop and stop(s)) or is_over(s):
                break
            apply(s, policy(s, legal_actions(s), rnd))
        self.state = s


def positions(n, seed, policy, every):
    """(state, game) every ``every`` decisions of a seeded game, keep decisions always."""
    s = new_game(n, seed=seed)
    rnd = random.Random(seed)
    g = types.SimpleNamespace(shown=None, hands=None)  # as Game records them
    i = 0
    while not is_over(s):
        if g.shown is None and s.phase == "keep":
            g.shown = set(s.set_aside)
            g.hands = {q: set(pl.setup_hand) for q, pl in enumerate(s.players)}
        if g.shown is not None and (i % every == 0 or s.phase == "keep"):
            yield s.copy(), g
        apply(s, policy(s, legal_actions(s), rnd))
        i += 1


def frequencies(state, me, fn, worlds, seed=0):
    rng = np.random.default_rng(seed)
    c = collections.Counter(fn(sample_world(state, me, rng)) for _ in range(worlds))
    return {k: v / worlds for k, v in c.items()}


def explained(t, q):
    """The event cards seat q has seen for a reason the world's places show (M-I2)."""
    pl = t.players[q]
    out = set(pl.bonus) | set(pl.setup_hand)
    out |= {c for z, c in enumerate(t.discovery) if c != NONE and (t.discovery_owner[z] == q or q in t.looked[z])}
    out |= {c for c, d in zip(t.removed_cards, t.removed_by) if d == q}
    if t.drawn != NONE and t.current_player == q:
        out.add(t.drawn)
    return out


def memory_errors(t, me, shown, my_hand):
    """What is impossible in the other players' seen sets of world ``t`` (M-S5, M-S6, M-I2),
    given the true shown hands and the player's true setup hand: each rival has seen the
    shown hands, his own setup hand (during the keep: the three cards he holds, or his kept
    card and two of the set-aside cards; after it: his kept card and at most two more he
    cannot place, his returned cards) and what he holds, laid, looked at or drew and removed;
    no card lay in two setup hands or in a setup hand and a shown hand."""
    errors = []
    setup = {me: set(my_hand)}
    for q, pl in enumerate(t.players):
        if q == me:
            continue
        seen = set(pl.seen)
        if not shown <= seen:
            errors.append(f"seat {q} forgot shown cards {sorted(shown - seen)}")
        if t.phase == "keep":
            setup[q] = seen - shown
            if pl.setup_hand and setup[q] != set(pl.setup_hand):
                errors.append(f"seat {q} holds {pl.setup_hand} but has seen {sorted(setup[q])} besides the shown")
            if pl.bonus and not (len(setup[q]) == 3 and setup[q] - set(pl.bonus) <= set(t.set_aside)):
                errors.append(f"seat {q} kept {pl.bonus} but has seen {sorted(setup[q])} besides the shown")
        else:
            if not explained(t, q) <= seen:
                errors.append(f"seat {q} has not seen cards he holds, laid or looked at")
            extra = seen - shown - explained(t, q)
            if len(extra) > 2:
                errors.append(f"seat {q} has seen {sorted(extra)}: more than two returned cards")
            setup[q] = extra | set(pl.bonus[:1])
    for p, q in itertools.combinations(sorted(setup), 2):
        if setup[p] & setup[q]:
            errors.append(f"seats {p} and {q} both had {sorted(setup[p] & setup[q])} in their setup hands")
    for q, h in setup.items():
        if h & shown:
            errors.append(f"seat {q}'s setup hand holds shown cards {sorted(h & shown)}")
    return errors


def test_F1_M_S5_M_S6_bonus_cards_of_a_hidden_setup_hand_follow_the_hypergeometric_posterior():
    """F1 (M-S5, M-S6, M-I3): while bonus cards are kept, how many bonus cards a rival's
    unkept setup hand holds is hidden. 4 players, seat 3 to keep: the 21 cards he has not
    seen are dealt 3 to each rival, every hand with a bonus card; the sampler copied the
    true count (3) into every world."""
    g = Game(4, 20, steps=1)
    s, me = g.state, 3
    assert s.phase == "keep" and s.current_player == me and not g.shown
    unknown = set(range(NUM_EVENTS)) - known_cards(s, me)
    nb = sum(IS_BONUS[c] for c in unknown)
    nd = len(unknown) - nb
    assert (nb, nd) == (11, 10)
    weight = collections.Counter()  # exact: the three rival hands' bonus counts, each >= 1
    for a, b, c in itertools.product(range(1, 4), repeat=3):
        if a + b + c <= nb and 9 - a - b - c <= nd:
            weight[a] += comb(nb, a) * comb(nd, 3 - a) * comb(nb - a, b) * comb(nd - 3 + a, 3 - b) \
                * comb(nb - a - b, c) * comb(nd - 6 + a + b, 3 - c)
    exact = {k: v / sum(weight.values()) for k, v in weight.items()}
    got = frequencies(s, me, lambda t: sum(IS_BONUS[c] for c in t.players[0].setup_hand), 3000)
    assert set(got) == {1, 2, 3}, got
    for k in (1, 2, 3):
        assert abs(got[k] - exact[k]) < 0.03, (got, exact)
    pile = frequencies(s, me, lambda t: sum(IS_BONUS[c] for c in t.event_pile), 300)
    assert len(pile) >= 3  # the undealt pile's bonus cards vary too


def test_F1_M_S6_a_rival_who_kept_returned_two_cards_of_a_hand_with_a_bonus_card():
    """F1 (M-S6): with one rival kept, his returned cards (set aside) vary in kind; his hand
    (kept card and returned pair) always held a bonus card and his seen set is that hand
    and the shown cards."""
    for seed in range(40):
        g = Game(4, seed, steps=2)
        s = g.state
        if s.phase == "keep" and len(s.set_aside) - len(g.shown) == 2:
            break
    me = s.current_player
    got = frequencies(s, me, lambda t: sum(IS_BONUS[c] for c in t.set_aside[len(g.shown):]), 400)
    assert len(got) >= 2, got
    rng = np.random.default_rng(1)
    for _ in range(200):
        t = sample_world(s, me, rng)
        assert memory_errors(t, me, g.shown, g.hands[me]) == []


def test_F2_M_S5_a_rival_laid_zone_may_hold_a_shown_card():
    """F2 (M-S5, M-E1, M-I3): the shown cards went into the pile at M-S6 like the others, so a
    discovery card a rival laid is any of the 11 the player cannot place, 3 of them shown.
    The sampler kept every place's shown / not-shown membership (zone 4: never shown)."""
    g = Game(3, 0, scientist_policy, steps=12)
    s, me = g.state, 0
    assert g.shown == {5, 9, 10} and s.discovery_owner[4] == 1
    unknown_disc = [c for c in range(NUM_EVENTS) if not IS_BONUS[c] and c not in known_cards(s, me)]
    exact = len(g.shown & set(unknown_disc)) / len(unknown_disc)
    assert exact == 3 / 11
    got = frequencies(s, me, lambda t: t.discovery[4] in g.shown, 3000).get(True, 0)
    assert abs(got - exact) < 0.035, got


def test_F3_M_I3_a_card_the_player_returned_that_rivals_laid_and_looked_at_is_not_pinned():
    """F3 (M-I3, M-I2): seat 2 returned card 6 at setup; seat 1 drew it and laid it on zone 7,
    seat 0 looked at it: every seat has seen it, yet it was never shown. The sampler took
    it for a shown card and left it on zone 7 in every world; exactly, zone 7 holds any of
    the player's unplaced discovery cards alike."""
    g = Game(3, 15, scientist_policy, steps=20)
    s, me = g.state, 2
    assert s.discovery[7] == 6 and s.discovery_owner[7] == 1 and s.looked[7] == [0]
    assert 6 in g.hands[me] and 6 not in g.shown and shown_cards(s) == g.shown
    unknown_disc = [c for c in range(NUM_EVENTS) if not IS_BONUS[c] and c not in known_cards(s, me)]
    got = frequencies(s, me, lambda t: t.discovery[7], 2000)
    assert set(got) == set(unknown_disc)
    assert abs(got[6] - 1 / len(unknown_disc)) < 0.035, got


def test_F4_M_S6_a_rivals_kept_card_is_never_one_the_player_returned():
    """F4 (M-S6): a rival's first bonus card is the one he kept from his own setup hand, so
    never a card the player returned; a card drawn later may be. Seat 3 holds two bonus
    cards, seat 0 returned card 11: the sampler only asked for some card of the rival's to
    be outside the returned ones, and gave seat 3 card 11 as his kept card in a tenth of
    the worlds."""
    g = Game(4, 12, scientist_policy, steps=60)
    s, me = g.state, 0
    returned = g.hands[me] - set(s.players[me].bonus[:1])
    assert 11 in returned and len(s.players[3].bonus) == 2
    got = frequencies(s, me, lambda t: (t.players[3].bonus[0] == 11, 11 in t.players[3].bonus), 3000)
    assert sum(v for (first, _), v in got.items() if first) == 0
    assert 0.08 < sum(v for (_, held), v in got.items() if held) < 0.14  # exact 1/9: drawn later
    rng = np.random.default_rng(2)
    checked = 0
    for n, seed in itertools.product((3, 4, 5), range(4)):
        for s, g in positions(n, 4000 * n + seed, scientist_policy, every=25):
            if s.phase == "keep":
                continue
            for me in range(n):
                returned = g.hands[me] - set(s.players[me].bonus[:1])
                for _ in range(3):
                    t = sample_world(s, me, rng)
                    firsts = [pl.bonus[0] for q, pl in enumerate(t.players) if q != me]
                    assert not returned & set(firsts), (n, seed, me)
                    checked += 1
    assert checked > 500


@pytest.mark.parametrize("n", [3, 4, 5])
def test_F5_M_I2_every_rival_in_every_world_has_seen_what_his_places_show(n):
    """F5 (M-S5, M-I2): each rival's seen set in a world is his own setup hand, the shown
    hands and what he holds, laid, looked at or drew and removed there. The sampler
    relabelled the seen sets with the cards, so a card only the player saw at setup showed
    up in a rival's setup memory in a third to two thirds of the worlds."""
    rng = np.random.default_rng(n)
    worlds = 0
    for seed in range(3):
        policy = scientist_policy if seed % 2 else uniform_policy
        for s, g in positions(n, 9000 * n + seed, policy, every=15):
            assert shown_cards(s) == g.shown or s.phase == "keep"
            for me in range(n):
                assert memory_errors(s, me, g.shown, g.hands[me]) == []  # the checker passes the truth
                for _ in range(2):
                    t = sample_world(s, me, rng)
                    check_invariants(t)
                    assert memory_errors(t, me, g.shown, g.hands[me]) == [], (n, seed, s.phase, s.round, me)
                    worlds += 1
    assert worlds > 150


def test_F5_M_I2_cards_the_player_returned_stay_his_alone_at_the_first_commit():
    """F5: seat 2 returned cards 4 and 20 at setup; nobody else has seen them, in any world."""
    g = Game(3, 150000, steps=100, stop=lambda t: t.phase == "commit")
    s, me = g.state, 2
    ret = g.hands[me] - set(s.players[me].bonus)
    assert ret == {4, 20}
    got = frequencies(s, me, lambda t: any(c in t.players[q].seen for c in ret for q in (0, 1)), 1000)
    assert got == {False: 1.0}
