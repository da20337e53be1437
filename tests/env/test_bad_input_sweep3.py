"""Bad input found by a third robustness sweep (Red Planet first, then the game-generic
interfaces), beyond test_bad_input.py and test_bad_input_sweep.py: each case raises an
error naming the problem and changes nothing. Each test failed before its fix."""
import re

import numpy as np
import pytest

from spacemission_env import red_planet_v2
from spacemission_env.pettingzoo_env import UnknownAgentError, env, raw_env
from spacemission_env.policies import check_masks
from spacemission_env.red_planet import engine as rp_engine
from spacemission_env.space_mission import engine as sm_engine
from tests.helpers.sb3 import GameVecEnv, needs_sb3

ENGINES = [(sm_engine, 2, 100, "Space Mission"), (rp_engine, 3, 243, "Red Planet")]


def _seer(engine, st):
    return engine.observe(st, player=0, observation_type="seer").copy()


# --- engine.sample_actions: mask values ----------------------------------------------------------
@pytest.mark.parametrize("engine, players, width, title", ENGINES)
@pytest.mark.parametrize("dtype, value, shown", [
    (np.int8, 2, "2"), (np.int64, -1, "-1"), (np.float32, np.nan, "nan"), (np.float64, 0.5, "0.5"),
])
def test_sample_actions_refuses_mask_values_other_than_0_and_1(engine, players, width, title, dtype, value, shown):
    """Before: the int8 mask was reinterpreted as bool and a float mask cast to bool, so a 2,
    a -1, a NaN or a 0.5 counted as a legal action (and could be drawn)."""
    mask = np.zeros((2, width), dtype=dtype)
    mask[:, 5] = 1
    mask[1, 7] = value
    with pytest.raises(ValueError, match=re.escape(f"got {shown} at row 1, action 7")):
        engine.sample_actions(mask, np.random.default_rng(0))
    mask[1, 7] = 0
    assert engine.sample_actions(mask, np.random.default_rng(0)).tolist() == [5, 5]  # 0/1 numbers still fine


@pytest.mark.parametrize("engine, players, width, title", ENGINES)
def test_sample_actions_refuses_a_mask_of_strings(engine, players, width, title):
    """Before: np.full(.., "a").astype(bool) made every action legal."""
    with pytest.raises(ValueError, match="action masks must be bool or 0/1 numbers, got dtype <U1"):
        engine.sample_actions(np.full((1, width), "a"), np.random.default_rng(0))


def test_policies_check_masks_is_the_engines_helper():
    """One check of mask values, shared (moved to engine_common, still importable from policies)."""
    from spacemission_env import engine_common
    assert check_masks is engine_common.check_masks


@pytest.mark.parametrize("out", [np.empty(1, np.int32), np.empty(1, np.float64), np.empty(2, np.int64), [0]])
def test_space_mission_sample_actions_checks_out_as_red_planet_does(out):
    """Before: Space Mission's sample_actions wrote into an int32 / float / list ``out`` (or
    failed in numba); Red Planet's already refused it."""
    mask = np.ones((1, 100), bool)
    for engine in (sm_engine, rp_engine):
        m = mask if engine is sm_engine else np.ones((1, 243), bool)
        with pytest.raises(ValueError, match=re.escape("out must be a writeable C-contiguous int64 array of shape (1,)")):
            engine.sample_actions(m, np.random.default_rng(0), out=out)


# --- engine functions given something that is not their game's batch -------------------------------
def _calls(engine):
    return {
        "step": lambda st: engine.step(st, np.zeros(2, np.int64)),
        "legal_action_mask": lambda st: engine.legal_action_mask(st),
        "observe": lambda st: engine.observe(st),
        "scores": lambda st: engine.scores(st),
        "rewards": lambda st: engine.rewards(st),
        "reset_finished": lambda st: engine.reset_finished(st, 0),
        "to_reference": lambda st: engine.to_reference(st, 0),
    }


@pytest.mark.parametrize("engine, players, width, title", ENGINES)
@pytest.mark.parametrize("call", sorted(_calls(sm_engine)))
def test_engine_functions_name_a_state_that_is_not_their_batch(engine, players, width, title, call):
    """Before: None or the other game's BatchState failed with AttributeError deep inside
    (``'NoneType' object has no attribute 'batch_size'``, ``... no attribute 'record'``), and
    reset_finished on the other game's batch returned as if it had worked."""
    other, other_players = (rp_engine, 3) if engine is sm_engine else (sm_engine, 2)
    foreign = other.init(2, other_players, seeds=4)
    before = _seer(other, foreign)
    fn = _calls(engine)[call]
    for bad, shown in ((None, "builtins.NoneType"), (foreign, f"{other.__name__}.state.BatchState"),
                       (other.to_reference(foreign, 0), "GameState")):
        with pytest.raises(TypeError, match=f"st must be a {title} BatchState .*got .*{re.escape(shown)}"):
            fn(bad)
    assert np.array_equal(_seer(other, foreign), before)  # the other game's batch untouched
    own = engine.init(2, players, seeds=4)
    if call == "step":  # its own batch: fine
        engine.step(own, engine.sample_actions(engine.legal_action_mask(own), np.random.default_rng(0)))
    else:
        fn(own)


def test_space_mission_step_observe_names_a_foreign_state():
    st = rp_engine.init(1, 3)
    with pytest.raises(TypeError, match="st must be a Space Mission BatchState"):
        sm_engine.step_observe(st, np.zeros(1, np.int64), np.zeros((1, 100), bool),
                               np.zeros((1, sm_engine.observation_size()), np.int8))


# --- PettingZoo: an unknown agent name ------------------------------------------------------------------
def _envs():
    return [("raw spacemission", lambda: raw_env(num_players=2)),
            ("raw red_planet", lambda: red_planet_v2.raw_env(num_players=3)),
            ("wrapped red_planet", lambda: red_planet_v2.env(num_players=3)),
            ("wrapped spacemission", lambda: env(num_players=2))]


@pytest.mark.parametrize("name, make", _envs(), ids=[n for n, _ in _envs()])
@pytest.mark.parametrize("agent", ["player_9", "player0", 0, None, ["player_0"], ("player_0",)])
def test_pettingzoo_names_an_unknown_agent_and_the_valid_ones(name, make, agent):
    """Before: a bare ``KeyError: 'player_9'`` (and TypeError: unhashable type for a list).
    Now a KeyError subclass (PettingZoo's own lookups raise KeyError) naming the agent and
    listing the agents; the game goes on unchanged."""
    e = make()
    e.reset(seed=1)
    n = len(e.possible_agents)
    agents = [f"player_{i}" for i in range(n)]
    text = f"unknown agent {agent!r}; the agents are {agents}"
    selected, seer = e.agent_selection, e.unwrapped.state().copy()
    calls = [e.observe, e.action_space, e.observation_space]
    if name.startswith("raw"):
        calls.append(e.action_mask)
    for call in calls:
        with pytest.raises(UnknownAgentError, match=re.escape(text)) as err:
            call(agent)
        assert isinstance(err.value, KeyError) and str(err.value) == text  # no quotes around the message
    assert e.agent_selection == selected and np.array_equal(e.unwrapped.state(), seer)
    mask = e.observe(selected)["action_mask"]
    assert e.action_space(selected).n == mask.size and "observation" in e.observation_space(selected).spaces
    e.step(int(np.flatnonzero(mask)[0]))  # the game goes on


# --- SB3 VecEnv: indices ----------------------------------------------------------------------------
@pytest.mark.parametrize("call", [
    lambda v, i: v.get_attr("seats", indices=i),
    lambda v, i: v.get_attr("num_players", indices=i),
    lambda v, i: v.env_method("action_masks", indices=i),
    lambda v, i: v.env_is_wrapped(object, indices=i),
])
@needs_sb3
def test_sb3_indices_outside_the_games_are_named(call):
    """Before: ``get_attr("num_players", indices=[5])`` and ``env_is_wrapped(.., indices=5)``
    answered for a game that does not exist, ``get_attr("seats", [5])`` raised numpy's bare
    IndexError, a float or True failed inside SB3's helper (or read True as game 1)."""
    v = GameVecEnv(2, num_players=3, game="red_planet", seed=0)
    v.reset()
    for bad in (5, [0, 2], -3, np.int64(2)):
        with pytest.raises(IndexError, match=r"indices: game index -?\d is out of range for 2 games \(0\.\.1\)"):
            call(v, bad)
    for bad in (True, 1.0, [0.0], "0", [None]):
        with pytest.raises(TypeError, match=r"indices must be None, a game index or a sequence of them \(0\.\.1\)"):
            call(v, bad)
    assert len(call(v, None)) == 2 and len(call(v, [0, -1])) == 2 and len(call(v, np.int64(1))) == 1
    assert v.get_attr("seats", indices=[1, -2]) == [int(v.seats[1]), int(v.seats[0])]


@pytest.mark.parametrize("rng", [5, "seed", np.random.RandomState(0)])
def test_space_mission_sample_world_names_an_rng_that_is_not_a_generator(rng):
    """Before: rng=5 failed with AttributeError ('int' object has no attribute 'integers'), as
    Red Planet's determinizer did before this sweep."""
    from spacemission_env.space_mission import determinize, rules
    state = rules.new_game(2, seed=0)
    before = state.to_json()
    with pytest.raises(TypeError, match="rng must be a numpy.random.Generator or None"):
        determinize.sample_world(state, 0, rng)
    assert state.to_json() == before
    assert determinize.sample_world(state, 0, np.random.default_rng(1)).num_players == 2


# --- engine.from_reference: hand-built reference states -------------------------------------------
def _sm_state():
    from spacemission_env.space_mission import rules
    return rules.new_game(2, seed=3)


def _rp_state():
    from spacemission_env.red_planet import rules
    return rules.new_game(3, seed=3)


def _set(path, value):
    def edit(s):
        obj = s
        for name in path[:-1]:
            obj = obj[name] if isinstance(name, int) else getattr(obj, name)
        if isinstance(path[-1], int):
            obj[path[-1]] = value
        else:
            setattr(obj, path[-1], value)
    return edit


@pytest.mark.parametrize("engine, make, edit, match", [
    (sm_engine, _sm_state, _set(["players", 0, "hand", 0], 99), "Space Mission state"),  # card id out of range
    (sm_engine, _sm_state, _set(["players", 0, "supply"], 1.5), "Space Mission state"),  # was truncated to 1
    (sm_engine, _sm_state, _set(["phase"], "dance"), "Space Mission state"),
    (rp_engine, _rp_state, _set(["players", 0, "counters", 0], 1.5), "Red Planet state"),
    (rp_engine, _rp_state, _set(["players", 1, "supply"], -4), "Red Planet state"),
])
def test_from_reference_checks_the_states_as_json_states_are(engine, make, edit, match):
    """Before: a hand-built state was copied field by field unchecked: a card id of 99 raised
    IndexError mid-copy, an unknown phase a bare 'tuple.index' error, and a counter of 1.5
    was silently truncated to 1. Now each is the JSON loader's ValueError, naming the state."""
    good, bad = make(), make()
    edit(bad)
    with pytest.raises(ValueError, match=re.escape(f"states[1] is not a valid {match}")):
        engine.from_reference([good, bad])
    assert engine.to_reference(engine.from_reference([good]), 0) == good
    with pytest.raises(TypeError, match="check must be True or False"):
        engine.from_reference([good], check="no")


@pytest.mark.parametrize("text", ['{"seed": NaN}', '[Infinity]', '-Infinity'])
def test_parse_json_refuses_the_constants_json_does_not_have(text):
    """Before: Python's json read NaN, Infinity and -Infinity, which are not JSON; every caller
    then refused them only later, as a number of the wrong kind (e.g. 'seed must be an integer,
    got inf'), and a field that takes any number would have taken them."""
    from spacemission_env.json_input import parse_json
    with pytest.raises(ValueError, match=r"not valid JSON: .*Infinity|not valid JSON: NaN"):
        parse_json(text)
    assert parse_json('{"x": 1.5e300}') == {"x": 1.5e300}


@pytest.mark.parametrize("game", ["spacemission", "red_planet"])
def test_json_with_a_repeated_key_is_refused(game):
    """Before: a repeated key in an object (a state, a record, a request body) was read as its
    last value (Python's json), so '{"players": 2, "players": 3}' made a 3-player game; RFC
    8259 leaves that to each parser, so the document is ambiguous and now refused by name."""
    from spacemission_env.games import get_game
    from spacemission_env.json_input import parse_json
    with pytest.raises(ValueError, match=re.escape('not valid JSON: the key "players" appears more than once')):
        parse_json('{"players": 2, "players": 3}')
    with pytest.raises(ValueError, match=re.escape('the key "y" appears more than once')):
        parse_json('[1, {"x": {"y": 1, "z": 2, "y": 1}}]')  # nested, even with the same value
    assert parse_json('{"a": {"y": 1}, "b": {"y": 1}}') == {"a": {"y": 1}, "b": {"y": 1}}  # one key per object
    rules = get_game(game).rules
    text = rules.to_json(rules.new_game(3, seed=0))
    assert rules.to_json(rules.from_json(text)) == text
    doubled = text.replace("{", '{"version": 1, ', 1)
    with pytest.raises(ValueError, match='the key "version" appears more than once'):
        rules.from_json(doubled)


@pytest.mark.parametrize("game", ["space_mission", "red_planet"])
@pytest.mark.parametrize("kwargs, message", [
    ({"total_games": 4, "chunk": 0}, "chunk must be an integer >= 1, got 0"),
    ({"total_games": -3, "chunk": 2}, "total_games must be an integer >= 0, got -3"),
    ({"total_games": 2.5, "chunk": 2}, "total_games must be an integer >= 0, got 2.5"),
    ({"total_games": 4, "chunk": True}, "chunk must be an integer >= 1, got True"),
])
def test_differential_run_many_refuses_arguments_that_never_end(game, kwargs, message):
    """Before: chunk=0 (both games) and a negative total (Red Planet) looped forever."""
    import importlib

    D = importlib.import_module(f"spacemission_env.{game}.engine.differential")
    with pytest.raises(ValueError, match=re.escape(message)):
        D.run_many(**kwargs)
    assert D.run_many(0, chunk=1).games == 0


def test_json_integer_past_the_digit_limit_names_its_digits_not_python_advice():
    """Before: an integer of 6000 digits in a document (an upload, a state) was refused with
    Python's own message, ending "use sys.set_int_max_str_digits() to increase the limit":
    advice for a programmer. Now the refusal names the digits and the limit."""
    import sys

    from spacemission_env.json_input import parse_json
    limit = sys.get_int_max_str_digits()
    with pytest.raises(ValueError) as caught:
        parse_json('{"x": [' + "9" * (limit + 1700) + "]}")
    assert str(caught.value) == f"not valid JSON: an integer of {limit + 1700} digits (at most {limit})"
    with pytest.raises(ValueError, match=f"an integer of {limit + 1} digits"):
        parse_json("-" + "1" * (limit + 1))
    assert parse_json("-" + "1" * limit) == -int("1" * limit)  # the limit itself is read
    assert parse_json("[12, -3]") == [12, -3]
