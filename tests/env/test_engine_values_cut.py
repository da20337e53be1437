"""The engines' own functions (both games' reference engine, encoding, render, determinize,
action ids and the fast engine's init / to_reference) name a rejected value cut to 80
characters (checks.shown), as the interfaces above them do (test_long_values_cut.py).
Before: a 5000-character string or a 5000-element list came back whole (29 KB for the
list), and a 5000-digit integer replaced the error with Python's own "Exceeds the limit
(4300 digits) for integer string conversion". Also Space Mission's encoding.observe read
``player`` with int(): 1.5, True and "1" observed seat 1 (Red Planet's refused them)."""
from __future__ import annotations

import numpy as np
import pytest

from spacemission_env.checks import SHOWN_CHARS
from spacemission_env.games import get_game
from spacemission_env.red_planet import actions as RA
from spacemission_env.red_planet import determinize as RD
from spacemission_env.red_planet import render as RR
from spacemission_env.space_mission import determinize as SD
from spacemission_env.space_mission import render as SR
from spacemission_env.space_mission.encoding import observe as sm_observe

LONG_STR = "x" * 5000
LONG_LIST = list(range(5000))
HUGE_INT = 10**5000  # past Python's 4300-digit limit for str


def _new(game: str):
    g = get_game(game)
    return g, g.rules.new_game(3, seed=0)


def _calls(game: str) -> dict:
    g, s = _new(game)
    render, det = (RR, RD) if game == "red_planet" else (SR, SD)
    return {
        "new_game seed": lambda v: g.rules.new_game(3, seed=v),
        "apply": lambda v: g.rules.apply(_new(game)[1], v),
        "action_label": lambda v: g.action_label(v, None),
        "observe player": lambda v: g.encoding.observe(s, v),
        "render viewer": lambda v: render.render_ansi(s, viewer=v),
        "sample_world player": lambda v: det.sample_world(s, v),
        "sample_world rng": lambda v: det.sample_world(s, 0, rng=v),
        "engine init seeds": lambda v: g.engine.init(2, 3, seeds=v),
        "engine init batch_size": lambda v: g.engine.init(v, 3),
        "engine to_reference": lambda v: g.engine.to_reference(g.engine.init(2, 3), v),
        "engine sample rng": lambda v: g.engine.sample_actions(np.ones((1, g.num_actions), bool), rng=v),
        "engine step actions": lambda v: g.engine.step(g.engine.init(2, 3), v),
        "engine step select": lambda v: g.engine.step(g.engine.init(2, 3), np.zeros(2, np.int64), select=v),
        "differential run_many chunk": lambda v: _differential(game).run_many(1, chunk=-v if isinstance(v, int) else v),
    }


def _differential(game: str):
    from spacemission_env.red_planet.engine import differential as red_planet
    from spacemission_env.space_mission.engine import differential as space_mission

    return red_planet if game == "red_planet" else space_mission


CASES = [(game, call) for game in ("spacemission", "red_planet") for call in _calls(game)] + [
    ("red_planet", "actions.encode kind"), ("red_planet", "actions.encode argument")]


def _call(game: str, call: str, value):
    if call == "actions.encode kind":
        return RA.encode(value, 1)
    if call == "actions.encode argument":
        return RA.encode("keep", value)
    return _calls(game)[call](value)


@pytest.mark.parametrize("value", [LONG_STR, LONG_LIST, HUGE_INT], ids=["str", "list", "int"])
@pytest.mark.parametrize("game, call", CASES)
def test_a_long_value_is_cut_in_the_engines_errors(game, call, value):
    with pytest.raises((TypeError, ValueError)) as info:
        _call(game, call, value)
    message = str(info.value)
    assert "Exceeds the limit" not in message, message
    assert len(message) < 400, message[:400]
    assert LONG_STR[:SHOWN_CHARS] not in message and ", ".join(map(str, range(40))) not in message, message


@pytest.mark.parametrize("player", [1.5, 1.0, True, np.True_, "1", np.float64(1)])
def test_space_missions_observe_takes_an_int_seat_only(player):
    s = get_game("spacemission").rules.new_game(3, seed=0)
    with pytest.raises(TypeError, match=r"player must be an int seat, got \w+ "):
        sm_observe(s, player)
    assert np.array_equal(sm_observe(s, np.int64(1)), sm_observe(s, 1))  # numpy ints are ints
