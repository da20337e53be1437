"""Information (M-I1..M-I5) as the reference engine keeps it, and the end and limits
(M-X1, M-X3). The observations themselves are built elsewhere from this state."""
import random

import pytest

from spacemission_env.red_planet.components import CARD_INDEX, NUM_ROLES
from spacemission_env.red_planet.rules import apply, is_over, legal_actions, new_game
from tests.helpers.red_planet_positions import ROLE, act, play, position


def random_game(n, seed, until=None):
    s = new_game(n, seed=seed)
    r = random.Random(seed)
    steps = 0
    while not is_over(s) and (until is None or steps < until):
        apply(s, r.choice(legal_actions(s)))
        steps += 1
    return s


def test_M_I1_remaining_role_cards_and_revealed_roles_are_public():
    s = position(3, start=0)
    play(s, act("commit", "Saboteur"), act("commit", "Pilot"), act("commit", "Pilot"))
    play(s, act("place", 0), act("pass"))  # seat 0's Saboteur turn
    pl = s.players[0]
    assert pl.commit == ROLE["Saboteur"] and pl.acted  # revealed when called, kept for the round
    assert sorted(pl.hand + pl.discard) == list(range(NUM_ROLES))  # the hand is what was not played


def test_M_I1_who_laid_each_discovery_card_is_recorded():
    s = position(3, phase="discovery", role="Scientist", current=1, drawn="Meteoritenfeld")
    apply(s, act("discovery", 5))
    assert s.discovery_owner[5] == 1


def test_M_I2_a_player_remembers_the_event_cards_he_saw():
    s = position(3, phase="ability", role="Scientist", discoveries={4: ("Grubenunglück", 2)},
                 event_pile=["Hübscher Felsen 1"])
    apply(s, act("look", 4))
    assert s.looked[4] == [0]  # M-I1: which card a Scientist looked at is public
    assert CARD_INDEX["Grubenunglück"] in s.players[0].seen
    assert CARD_INDEX["Grubenunglück"] not in s.players[1].seen
    assert CARD_INDEX["Grubenunglück"] in s.players[2].seen  # he laid it


def test_M_I3_hidden_orders_never_change_what_a_player_may_do():
    for seed in range(6):
        s = random_game(4, seed, until=40 + seed * 17)
        t = s.copy()
        r = random.Random(seed)
        r.shuffle(t.ship_deck)
        r.shuffle(t.event_pile)
        r.shuffle(t.mineral_pool)
        assert legal_actions(t) == legal_actions(s)


def test_M_I4_a_commit_depends_on_nothing_of_this_rounds_earlier_commits():
    masks = []
    for first in ("Recruiter", "Scientist", "Pilot"):
        s = position(3, start=0)
        apply(s, act("commit", first))
        masks.append(legal_actions(s))
    assert masks[0] == masks[1] == masks[2]


def test_M_I5_what_a_player_has_seen_is_never_forgotten():
    s = new_game(3, seed=9)
    r = random.Random(9)
    seen = [set() for _ in range(3)]
    while not is_over(s):
        apply(s, r.choice(legal_actions(s)))
        for q, pl in enumerate(s.players):
            assert seen[q] <= set(pl.seen)
            seen[q] = set(pl.seen)


def test_M_X1_the_game_ends_after_round_ten_and_only_then():
    s = random_game(3, 3)
    assert is_over(s) and s.round == 10 and s.current_player == -1 and legal_actions(s) == []
    with pytest.raises(ValueError, match="over"):
        apply(s, act("pass"))


@pytest.mark.parametrize("n", [3, 5])
def test_M_X3_supplies_killed_never_return_mineral_pool_never_runs_out(n):
    for seed in range(4):
        s = new_game(n, seed=seed)
        r = random.Random(seed)
        lism = [0] * n
        while not is_over(s):
            apply(s, r.choice(legal_actions(s)))
            assert all(pl.lism >= lism[q] for q, pl in enumerate(s.players))
            lism = [pl.lism for pl in s.players]
        assert len(s.mineral_pool) >= 3  # at most 11 of 14 drawn
