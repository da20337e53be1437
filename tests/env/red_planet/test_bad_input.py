"""Bad input to every entry point of the Red Planet reference engine and its encoding:
TypeError for a wrong type, ValueError for a wrong value, a message naming the problem,
and the state exactly as it was (its JSON document compared before and after)."""
import json
import random

import numpy as np
import pytest

from spacemission_env.red_planet import actions as A
from spacemission_env.red_planet import encoding as E
from spacemission_env.red_planet.errors import WrongTypeError
from spacemission_env.red_planet.rules import (
    action_label,
    apply,
    from_json,
    is_legal,
    is_over,
    legal_action_mask,
    legal_actions,
    new_game,
    scores,
    to_json,
    winners,
)
from tests.helpers.red_planet_positions import position

NOT_INTEGERS = [None, 1.5, "3", True, np.True_, [1], np.array([2]), b"1"]


def states_by_phase(n: int = 4, seeds=range(4)) -> dict:
    """The first state of each phase met in random games (all phases but the rare setup_zone)."""
    found = {}
    for seed in seeds:
        s = new_game(n, seed=seed)
        rand = random.Random(seed)
        while True:
            found.setdefault(s.phase, s.copy())
            if is_over(s):
                break
            apply(s, rand.choice(legal_actions(s)))
    found.setdefault("setup_zone", position(n, phase="setup_zone", pad={0: 30}, crew={30: {0: 1}}, pending_slot=0))
    return found


STATES = states_by_phase()


def test_the_phases_are_all_here():
    assert set(STATES) == {"setup_zone", "keep", "commit", "place", "destination", "ability", "discovery", "over"}


# --- new_game ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("n", [True, 3.0, "3", None, [3]])
def test_new_game_rejects_a_player_count_of_the_wrong_type(n):
    with pytest.raises(TypeError, match="num_players"):
        new_game(n, seed=0)


@pytest.mark.parametrize("seed", ["1", 1.5, True, [1], b"1"])
def test_new_game_rejects_a_seed_of_the_wrong_type(seed):
    with pytest.raises(TypeError, match="seed"):
        new_game(3, seed=seed)


@pytest.mark.parametrize("seed", [-1, 2**64])
def test_new_game_rejects_a_seed_out_of_range(seed):
    with pytest.raises(ValueError, match="seed"):
        new_game(3, seed=seed)


def test_new_game_takes_numpy_integers():
    assert new_game(np.int64(4), seed=np.uint64(7)) == new_game(4, seed=7)


# --- apply ------------------------------------------------------------------------------------------
@pytest.mark.parametrize("phase", sorted(STATES))
def test_apply_rejects_non_integers_out_of_range_and_illegal_ids_leaving_the_state_alone(phase):
    s = STATES[phase].copy()
    before = to_json(s)
    for bad in NOT_INTEGERS:
        with pytest.raises(TypeError, match="action must be an integer"):
            apply(s, bad)
    for bad in (-1, A.NUM_ACTIONS, 10**9, np.int64(-5)):
        with pytest.raises(ValueError, match="out of range"):
            apply(s, bad)
    legal = set(legal_actions(s))
    for bad in [a for a in range(A.NUM_ACTIONS) if a not in legal]:
        with pytest.raises(ValueError, match="over" if phase == "over" else "not legal"):
            apply(s, bad)
        assert not is_legal(s, bad)
    assert to_json(s) == before


def test_wrong_type_errors_are_value_errors_too():
    """Callers written when every bad id raised ValueError still catch it."""
    assert issubclass(WrongTypeError, TypeError) and issubclass(WrongTypeError, ValueError)


@pytest.mark.parametrize("fn", [apply, is_legal])
def test_apply_and_is_legal_reject_a_state_of_another_kind(fn):
    for state in (None, {}, json.loads(to_json(STATES["commit"]))):
        with pytest.raises(TypeError, match="GameState"):
            fn(state, 0)


@pytest.mark.parametrize("fn", [legal_actions, legal_action_mask, scores, winners])
def test_queries_reject_a_state_of_another_kind(fn):
    with pytest.raises(TypeError, match="GameState"):
        fn(to_json(STATES["commit"]))


# --- observe ------------------------------------------------------------------------------------------
@pytest.mark.parametrize("player, error", [("0", TypeError), (0.0, TypeError), (True, TypeError), ([0], TypeError),
                                           (-1, ValueError), (4, ValueError)])
def test_observe_rejects_a_bad_player(player, error):
    s = STATES["place"]
    before = to_json(s)
    with pytest.raises(error, match="player"):
        E.observe(s, player)
    assert to_json(s) == before


@pytest.mark.parametrize("kind, error", [(None, TypeError), (3, TypeError), (["info"], TypeError),
                                         ("INFO", ValueError), ("", ValueError), ("full", ValueError)])
def test_observe_and_the_layout_reject_a_bad_observation_type(kind, error):
    s = STATES["ability"]
    before = to_json(s)
    for call in (lambda: E.observe(s, 0, kind), lambda: E.observation_size(kind),
                 lambda: E.decode(np.zeros(E.observation_size()), kind)):
        with pytest.raises(error, match="observation_type"):
            call()
    assert to_json(s) == before


def test_observe_once_the_game_is_over_needs_a_named_player():
    s = STATES["over"]
    with pytest.raises(ValueError, match="name it once the game is over"):
        E.observe(s)
    assert E.observe(s, 0).shape == (E.observation_size(),)


def test_observe_rejects_a_state_of_another_kind():
    with pytest.raises(TypeError, match="GameState"):
        E.observe(None, 0)


@pytest.mark.parametrize("obs", [np.zeros(5), np.zeros((2, 2, E.observation_size())), None, "obs"])
def test_decode_of_an_observation_rejects_a_wrong_shape(obs):
    with pytest.raises(ValueError, match="shape"):
        E.decode(obs)


# --- action ids: decode, encode, action_label ----------------------------------------------------------
@pytest.mark.parametrize("bad", NOT_INTEGERS)
def test_decode_and_action_label_reject_non_integers(bad):
    for fn in (A.decode, lambda a: action_label(None, a), lambda a: action_label(STATES["place"], a)):
        with pytest.raises(TypeError, match="action must be an integer"):
            fn(bad)


@pytest.mark.parametrize("bad", [-1, A.NUM_ACTIONS, 2**70])
def test_decode_and_action_label_reject_ids_out_of_range(bad):
    for fn in (A.decode, lambda a: action_label(None, a)):
        with pytest.raises(ValueError, match="out of range"):
            fn(bad)


def test_action_label_rejects_a_state_of_another_kind():
    with pytest.raises(TypeError, match="GameState"):
        action_label("a state", 5)


@pytest.mark.parametrize("kind, args, error, words", [
    ("fly", (1,), ValueError, "unknown action kind"),
    (3, (), ValueError, "unknown action kind"),
    ("place", (), ValueError, "takes 1 argument"),
    ("pass", (1,), ValueError, "takes 0 argument"),
    ("place", (5,), ValueError, "out of range"),
    ("place", (1.5,), TypeError, "must be an integer"),
    ("place", ("1",), TypeError, "must be an integer"),
    ("seduce", (0, 5), ValueError, "out of range"),  # colour 5 used to spill into slot 1's block
    ("kill", (3, 7), ValueError, "out of range"),
    ("pilot", (0, 10), ValueError, "out of range"),  # zone 10 used to name slot 1, zone 0
    ("kill", (3, "a"), TypeError, "must be an integer"),
    ("keep", (0,), ValueError, "not a bonus card"),
    ("move", (0, 9), ValueError, "no border"),
])
def test_encode_rejects_bad_arguments_without_aliasing(kind, args, error, words):
    with pytest.raises(error, match=words):
        A.encode(kind, *args)


def test_encode_inverts_decode_on_every_id():
    for a in range(A.NUM_ACTIONS):
        kind, args = A.decode(a)
        assert A.encode(kind, *args) == a and isinstance(A.encode(kind, *args), int)


# --- from_json: wrong types and contradictory documents ---------------------------------------------------
@pytest.mark.parametrize("text", [None, 3, b"{}", bytearray(b"{}"), {"game": "red_planet"}])
def test_from_json_rejects_what_is_not_a_str(text):
    with pytest.raises(TypeError, match="must be a str"):
        from_json(text)


def document(phase: str) -> dict:
    return json.loads(to_json(STATES[phase]))


def load(d: dict):
    return from_json(json.dumps(d))


def _discovery_laid_by_a_blind_player(d):
    z = next(z for z, zone in enumerate(d["zones"]) if zone["discovery"])
    owner = d["zones"][z]["discovery_owner"]
    d["players"][owner]["seen"].remove(d["zones"][z]["discovery"])
    d["zones"][z]["looked"] = []


@pytest.mark.parametrize("phase, edit, words", [
    ("place", lambda d: d.update(phase="over", current_player=None, turn=dict(d["turn"], role=None, placed_slots=[])),
     "M-X1"),
    ("setup_zone", lambda d: d["players"][1].update(seen=["Celerium"]), "M-S5"),
    ("commit", lambda d: d["players"][d["current_player"]].update(acted=True, commit="Pilot"), "acted in step 2"),
    ("place", lambda d: d["turn"].update(steps_left=2), "M-O2"),
    ("commit", lambda d: d["turn"].update(last_actor=(d["current_player"] + 1) % 4), "M-R8"),
    ("discovery", lambda d: d["turn"].update(role="Pilot"), "M-E1"),
    ("over", _discovery_laid_by_a_blind_player, "M-I2"),
])
def test_contradictory_documents_are_rejected_naming_the_rule(phase, edit, words):
    d = document(phase)
    assert load(d) == STATES[phase]  # the unedited document loads
    edit(d)
    with pytest.raises(ValueError, match=words):
        load(d)


def test_a_turn_taken_during_step_2_is_rejected():
    s = position(3, start=0, current=1, commits={0: "Pilot"})  # seat 0 committed, seat 1 to commit
    d = json.loads(to_json(s))
    d["players"][0]["acted"] = True
    d["players"][0]["discard"] = ["Pilot"]
    with pytest.raises(ValueError, match="M-R3, M-R4"):
        load(d)


def test_a_keep_in_the_wrong_seat_order_is_rejected():
    d = document("keep")
    order = [(d["start_player"] + i) % 4 for i in range(4)]
    last = order[-1]
    p = d["players"][last]
    if p["setup_hand"]:  # the last seat has not kept yet: give him a kept card, as if he had kept out of turn
        bonus = [c for c in p["setup_hand"] if c in ("Celerium", "Sylvanit", "Kolonisation", "Gute Planung",
                                                      "Strategische Zonen", "Lost-in-Space-Memorial",
                                                      "Supergeheime Mission", "Eisblöcke 1", "Eisblöcke 2")
                 or c.startswith("Geheime Mission")]
        if bonus:
            p["bonus"] = bonus[:1]
            d["set_aside"] += [c for c in p["setup_hand"] if c != bonus[0]]
            p["setup_hand"] = []
            with pytest.raises(ValueError, match="M-S6"):
                load(d)
            return
    pytest.fail("the keep-phase state has no waiting last seat with a bonus card")
