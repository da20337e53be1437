"""Red Planet bad input found by a third robustness sweep, beyond test_bad_input.py: the
JSON state, the determinizer and contradictory turn records. Each raises an error naming
the problem and leaves the argument as it was; each test failed before its fix."""
import json
import re

import numpy as np
import pytest

from spacemission_env.red_planet.determinize import sample_world
from spacemission_env.red_planet.errors import WrongTypeError
from spacemission_env.red_planet.rules import from_json, new_game, to_json
from tests.helpers.red_planet_positions import position


def load(d: dict):
    return from_json(json.dumps(d))


# --- from_json: the schema version -----------------------------------------------------------------
def test_from_json_refuses_a_version_that_is_not_the_integer_1_or_2():
    """Before: ``"version": 1.0`` loaded (1.0 == 1); Space Mission's loader refuses a float version."""
    d = json.loads(to_json(new_game(3, seed=0)))
    assert load(d) == new_game(3, seed=0)
    for version in (1.0, 2.0, True, "2", 0, 3):
        d["version"] = version
        with pytest.raises(ValueError, match=re.escape(f"red planet state JSON: version must be 2 (or 1), got {json.dumps(version)}")):
            load(d)


# --- from_json: contradictory placements of the turn in progress -----------------------------------
@pytest.mark.parametrize("role, valid, bad, rule", [
    ("Secret Agent", [0, 1], [1, 1], "M-O4"),  # two different ships
    ("Travel Agent", [0, 0, 0], [0, 0, 1], "M-O7, M-O8"),  # the group into one ship
    ("Soldier", [0, 0], [0, 1], "M-O7, M-O8"),
])
def test_from_json_refuses_placements_the_role_cannot_make(role, valid, bad, rule):
    """Before: a Secret Agent's turn that had boarded one slot twice (or a Travel Agent's or
    Soldier's group spread over two ships) loaded and play went on from it. The placed
    astronauts are aboard (slot 0 holds ship 2, slot 1 ship 5; M-L1, check_placements)."""
    crew = {2: {0: 2}, 5: {0: 2}} if role != "Travel Agent" else {2: {0: 3}, 5: {0: 1}}
    s = position(3, phase="ability", role=role, current=0, placed_slots=valid, crew=crew)
    d = json.loads(to_json(s))
    assert load(d) == s
    d["turn"]["placed_slots"] = bad
    with pytest.raises(ValueError, match=re.escape(f"placed_slots {bad}: ") + f".*\\({rule}\\)"):
        load(d)


# --- determinize.sample_world ------------------------------------------------------------------------
@pytest.mark.parametrize("player, shown", [(True, "bool True"), (1.0, "float 1.0"), ("1", "str '1'"),
                                           (None, "NoneType None"), (np.float64(0), "float64")])
def test_sample_world_refuses_a_player_that_is_not_an_integer(player, shown):
    """Before: True was read as seat 1, and a float, str or None failed inside with
    ``list indices must be integers`` or ``'<=' not supported``."""
    s = new_game(3, seed=2)
    before = to_json(s)
    with pytest.raises(WrongTypeError, match=f"player must be an integer, got {shown}"):
        sample_world(s, player, np.random.default_rng(0))
    assert to_json(s) == before
    assert sample_world(s, np.int64(1), np.random.default_rng(0)).num_players == 3  # numpy ints still fine


def test_sample_world_refuses_a_bad_state_and_rng():
    """Before: AttributeError (``'NoneType' object has no attribute 'num_players'``,
    ``'int' object has no attribute 'permutation'``)."""
    s = new_game(3, seed=2)
    before = to_json(s)
    with pytest.raises(TypeError, match="state must be a red planet GameState, got NoneType"):
        sample_world(None, 0)
    with pytest.raises(TypeError, match="state must be a red planet GameState, got str"):
        sample_world(before, 0)
    for rng in (5, np.random.RandomState(0), "seed"):
        with pytest.raises(TypeError, match="rng must be a numpy.random.Generator or None"):
            sample_world(s, 0, rng)
    with pytest.raises(ValueError, match="player must be a seat in 0..2, got 3"):
        sample_world(s, 3)
    assert to_json(s) == before


@pytest.mark.parametrize("count", ["3", 3.0, True, None])
def test_a_player_count_of_another_type_is_a_type_and_a_value_error(count):
    """Before: a plain TypeError, where Space Mission raises ValueError for any bad count, so
    code catching ValueError for both games (as for every other bad argument, M-X2's range
    included) missed it; now WrongTypeError, both."""
    for error in (TypeError, ValueError, WrongTypeError):
        with pytest.raises(error, match="num_players must be an int, got"):
            new_game(count, seed=0)


@pytest.mark.parametrize("name", ["is_over", "current_player", "to_json"])
def test_every_reference_function_refuses_what_is_not_a_red_planet_state(name):
    """The rest of the reference API (legal_actions, apply, scores, ...)
    already refused another object. Before: is_over and current_player raised AttributeError
    ('NoneType' object has no attribute 'phase'), and given a Space Mission state is_over
    answered False and to_json wrote Space Mission's document."""
    from spacemission_env.red_planet import rules
    from spacemission_env.space_mission.rules import new_game as space_mission_game

    f = getattr(rules, name)
    for other, kind in ((None, "NoneType"), (space_mission_game(2, seed=0), "GameState"), ({}, "dict")):
        with pytest.raises(TypeError, match=f"state must be a red planet GameState, got {kind}"):
            f(other)
    assert f(new_game(3, seed=0)) is not None
