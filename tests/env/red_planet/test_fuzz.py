"""Fuzzing of the Red Planet reference engine: random games of 3, 4 and 5 players through
the engine-independent driver (tests/helpers/red_planet_fuzz.py), with every component
conserved after every action (astronauts M-C1/M-X3, ships M-C3/M-R2, event cards M-E1,
mineral tokens M-C4, destination tokens M-C6, role cards M-C7, counters M-P1/M-P2), JSON
round trips, and random illegal actions rejected with every game unchanged. A few hundred
games by default; thousands under ``-m slow``. The fast engine runs the same driver."""
import copy
import importlib.util
import types

import pytest

from spacemission_env.red_planet.rules import apply, check_invariants, new_game, to_json
from tests.helpers.red_planet_fuzz import (
    RED_PLANET,
    fuzz,
    fuzz_red_planet_engine,
    fuzz_red_planet_reference,
    red_planet_census,
    red_planet_check_step,
    red_planet_expected,
    reference_engine,
)
from tests.helpers.red_planet_positions import act, position

PLAYERS = [3, 4, 5]


@pytest.mark.parametrize("n", PLAYERS)
def test_fuzz_random_games_conserve_every_component(n):
    for batch in range(4):  # 4 batches of 20 games: 80 games per player count, 240 in all
        seeds = list(range(10_000 * n + 20 * batch, 10_000 * n + 20 * (batch + 1)))
        stats = fuzz_red_planet_reference(n, seeds)
        assert stats.finished == len(seeds)
        assert stats.illegal_rejected > 0 and stats.round_trips > 0


@pytest.mark.slow
@pytest.mark.parametrize("n", PLAYERS)
def test_fuzz_many_random_games(n):
    for batch in range(40):  # 2,000 games per player count
        seeds = list(range(1_000_000 * n + 50 * batch, 1_000_000 * n + 50 * (batch + 1)))
        stats = fuzz_red_planet_reference(n, seeds, json_every=10, illegal_every=7)
        assert stats.finished == len(seeds)


def fast_engine():
    """The batched engine, once it exists in the tree (spacemission_env/red_planet/engine)."""
    if importlib.util.find_spec("spacemission_env.red_planet.engine") is None:
        pytest.skip("no fast Red Planet engine in this tree")
    return importlib.import_module("spacemission_env.red_planet.engine")


@pytest.mark.parametrize("n", PLAYERS)
def test_fuzz_the_fast_engine_against_the_reference(n):
    engine = fast_engine()
    stats = fuzz_red_planet_engine(engine, n, list(range(20_000 * n, 20_000 * n + 32)))
    assert stats.finished == 32 and stats.illegal_rejected > 0


@pytest.mark.slow
@pytest.mark.parametrize("n", PLAYERS)
def test_fuzz_the_fast_engine_many_games(n):
    engine = fast_engine()
    for batch in range(10):  # 1,280 games per player count
        seeds = list(range(2_000_000 * n + 128 * batch, 2_000_000 * n + 128 * (batch + 1)))
        assert fuzz_red_planet_engine(engine, n, seeds, json_every=10, illegal_every=7).finished == 128


def test_the_engine_entry_point_runs_any_module_of_that_shape():
    """fuzz_red_planet_engine over the reference engine dressed as a batched engine module."""
    step, mask, to_reference = reference_engine(RED_PLANET, apply)
    fake = types.SimpleNamespace(init=lambda b, n, seeds: [new_game(n, seed=int(x)) for x in seeds],
                                 step=step, legal_action_mask=mask, to_reference=to_reference)
    assert fuzz_red_planet_engine(fake, 4, [5, 6, 7]).finished == 3


# --- the checks can fail ---------------------------------------------------------------------
def test_census_counts_each_component_of_a_new_game():
    s = new_game(4, seed=3)
    assert red_planet_census(s) == red_planet_expected(4)
    s.players[2].supply -= 1  # an astronaut vanishes
    census = red_planet_census(s)
    assert census["astronauts of seat 2"] == 21 and census["ships"] == 34


@pytest.mark.parametrize("break_it, words", [
    (lambda s: s.players[1].counters.__setitem__(0, 1), "counters appeared"),
    (lambda s: s.event_pile.append(s.removed_cards.pop()) or s.removed_by.pop(), "event pile"),
    (lambda s: setattr(s.players[0], "lism", 0) or setattr(s.players[0], "supply", s.players[0].supply + 2),
     "never return"),
])
def test_a_broken_transition_law_is_caught(break_it, words):
    before = position(3, lism={0: 2}, removed_cards=["Hübscher Felsen 1"])
    after = copy.deepcopy(before)
    break_it(after)
    with pytest.raises(AssertionError, match=words):
        red_planet_check_step(before, after, act("pass"))


@pytest.mark.parametrize("break_it, words", [
    (lambda s: s.players[0].__setattr__("supply", -1) or s.players[0].__setattr__("removed", s.players[0].removed + 1),
     "negative"),
    (lambda s: s.airborne.append(0), "in the air"),
    (lambda s: s.slots.__setitem__(1, -1) or s.used_ships.append(5), "pad holds"),
])
def test_check_invariants_catches_negative_counts_and_ships_outside_step_3(break_it, words):
    s = position(3)  # step 2 of round 1
    s.players[0].removed = 0
    break_it(s)
    with pytest.raises(ValueError, match=words):
        check_invariants(s)


def test_the_driver_catches_an_engine_that_accepts_an_illegal_action():
    def lax_apply(state, action):  # accepts anything: the driver must notice
        try:
            apply(state, action)
        except ValueError:
            pass

    states = [new_game(3, seed=1)]
    step, mask, to_reference = reference_engine(RED_PLANET, lax_apply)
    with pytest.raises(AssertionError, match="accepted the illegal action"):
        fuzz(states, 1, step, mask, to_reference, RED_PLANET, seed=0, illegal_every=1)


def test_the_driver_catches_a_mask_that_differs_from_the_reference():
    states = [new_game(3, seed=2)]
    step, mask, to_reference = reference_engine(RED_PLANET, apply)

    def wrong_mask(batch):
        m = mask(batch)
        m[0, :] = ~m[0, :]
        return m

    with pytest.raises(AssertionError, match="engine mask"):
        fuzz(states, 1, step, wrong_mask, to_reference, RED_PLANET, seed=0)


def test_the_driver_catches_an_engine_that_changes_a_state_when_it_rejects_an_action():
    states = [new_game(3, seed=4), new_game(3, seed=5)]
    step, mask, to_reference = reference_engine(RED_PLANET, apply)

    def leaky_step(batch, actions):
        batch[0].round += 0  # nothing yet
        try:
            step(batch, actions)
        except ValueError:
            batch[1].players[0].counters[0] += 1  # a side effect before the error
            raise

    with pytest.raises(AssertionError, match="changed when"):
        fuzz(states, 2, leaky_step, mask, to_reference, RED_PLANET, seed=0, illegal_every=1)
    assert to_json(states[0])  # still a valid document
