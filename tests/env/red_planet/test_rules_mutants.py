"""Tests that kill mutants of the Red Planet reference rules (rules/game.py, rules/scoring.py)
which the rule tests let through: each one is pinned here from an explicit position, with
the expected values read from RED_PLANET.md (quoted in the docstrings), not from the code."""
from spacemission_env.red_planet.rules import apply, legal_actions
from tests.helpers.red_planet_positions import act, position


def last_turn(round_, **kw):
    """Round ``round_``, the last turn of step 3: seat 2's Pilot, seats 0 and 1 have acted."""
    return position(3, round=round_, phase="ability", role="Pilot", current=2, acted=[0, 1],
                    commits={0: "Recruiter", 1: "Explorer"}, **kw)


def test_M_R2_every_free_pad_slot_is_refilled():
    """M-R2: "Step 1 (rounds 2-10): draw ships into free pad slots until it holds N (text: as
    many as left last round, "so that" it holds N again). **Ruling:** destroyed ships (M-O6)
    count as having left." Two slots left empty in round 3: both are refilled from the deck
    in step 1 of round 4, the ship that stayed keeps its slot."""
    s = last_turn(3, pad={0: None, 1: 5, 2: None})
    deck = list(s.ship_deck)
    apply(s, act("pass"))  # the last turn of round 3 ends; round 4 starts with step 1
    assert s.round == 4 and s.phase == "commit"
    assert s.slots[1] == 5
    assert -1 not in s.slots and len(s.slots) == 3  # the pad holds N = 3 ships again
    assert {s.slots[0], s.slots[2]} == set(deck[-2:]) and s.ship_deck == deck[:-2]  # drawn from the deck


def test_M_O5_femme_fatale_never_replaces_an_astronaut_of_her_own_colour():
    """M-O5: "on a ship on the pad or in the air (launched this round) replace one astronaut
    of another colour with one from her supply". Seat 0 plays the Femme Fatale; the ship in
    slot 0 carries one of her astronauts and one of seat 1's: only seat 1's can be replaced."""
    s = position(3, phase="ability", role="Femme Fatale", current=0, crew={2: {0: 1, 1: 1}})
    legal = set(legal_actions(s))
    assert act("seduce", 0, 1) in legal
    assert act("seduce", 0, 0) not in legal  # her own colour
    assert legal == {act("seduce", 0, 1), act("pass")}
