"""JSON save/load of the Red Planet state: round trips, and malformed or contradictory
documents rejected with a ValueError naming the field; bad actions leave the state as it was."""
import copy
import json

import pytest

from spacemission_env.red_planet.rules import (
    apply,
    from_json,
    legal_actions,
    new_game,
    to_json,
)
from tests.env.red_planet.test_events import FULL_RIM
from tests.env.red_planet.test_information import random_game
from tests.helpers.red_planet_positions import act, position


@pytest.mark.parametrize("n", [3, 4, 5])
def test_round_trip_at_every_phase(n):
    phases = set()
    s = new_game(n, seed=n)
    import random
    r = random.Random(n)
    while True:
        assert from_json(to_json(s)) == s
        phases.add(s.phase)
        if s.phase == "over":
            break
        apply(s, r.choice(legal_actions(s)))
    assert {"keep", "commit", "place", "ability", "over"} <= phases


def doc():
    return json.loads(to_json(random_game(4, 1, until=60)))


def load(d):
    return from_json(json.dumps(d))


@pytest.mark.parametrize("edit, field", [
    (lambda d: d.pop("rng"), "rng"),
    (lambda d: d.update(extra=1), "extra"),
    (lambda d: d.update(game="space_mission"), "game"),
    (lambda d: d.update(version=3), "version"),
    (lambda d: d.update(num_players=2), "num_players"),
    (lambda d: d.update(round=11), "round"),
    (lambda d: d.update(round=True), "round"),
    (lambda d: d.update(phase="dance"), "phase"),
    (lambda d: d.update(rng=-1), "rng"),
    (lambda d: d["players"][1].update(supply="3"), "players[1].supply"),
    (lambda d: d["players"][2]["counters"].update(ice=-1), "players[2].counters.ice"),
    (lambda d: d["players"][0]["counters"].pop("celerium"), "players[0].counters"),
    (lambda d: d["players"][0].update(hand=["Captain"]), "players[0].hand[0]"),
    (lambda d: d["players"][0].update(bonus=["Joker"]), "players[0].bonus[0]"),
    (lambda d: d["zones"][3].update(mineral="gold"), "zones[3].mineral"),
    (lambda d: d["zones"][3].update(name="Olympus"), "zones[3].name"),
    (lambda d: d["zones"][2].update(astronauts=[0, 0]), "zones[2].astronauts"),
    (lambda d: d.update(slots=[None] * 3), "slots"),
    (lambda d: d.update(ship_deck=[40]), "ship_deck[0]"),
    (lambda d: d["turn"].update(steps_left=4), "turn.steps_left"),
    (lambda d: d.update(ships={"99": {"crew": [0] * 4, "token": None}}), "ships"),
    (lambda d: d.update(token_supply=[3] * 10), "token_supply[0]"),
    (lambda d: d.pop("removed_by"), "removed_by"),
    (lambda d: d.update(removed_by=[0] * (len(d["removed_cards"]) + 1)), "removed_by"),
])
def test_malformed_documents_name_the_field(edit, field):
    d = doc()
    edit(d)
    with pytest.raises(ValueError) as err:
        load(d)
    assert field in str(err.value)


@pytest.mark.parametrize("edit, words", [
    (lambda d: d["players"][0].update(supply=d["players"][0]["supply"] + 1), "astronauts"),
    (lambda d: d["zones"][0]["astronauts"].__setitem__(0, d["zones"][0]["astronauts"][0] + 1), "astronauts"),
    (lambda d: d.update(ship_deck=d["ship_deck"][1:]), "ships"),
    (lambda d: d.update(event_pile=d["event_pile"] + d["event_pile"][:1]), "event cards"),
    (lambda d: d.update(mineral_pool=d["mineral_pool"][1:]), "mineral tokens"),
    (lambda d: d.update(token_supply=[1] + d["token_supply"][1:]), "destination tokens"),
    (lambda d: d["players"][1].update(discard=[]), "role cards"),
    (lambda d: d.update(current_player=None), "current_player"),
])
def test_contradictory_documents_are_rejected(edit, words):
    d = doc()
    edit(d)
    with pytest.raises(ValueError, match=words):
        load(d)


def _with_a_removed_card():
    s = position(3, phase="ability", role="Scientist", discoveries=FULL_RIM, event_pile=["Sylvanit-Ader"])
    apply(s, act("draw"))  # every outer zone taken: the card leaves the game, seen by seat 0 only (M-E1)
    return s


def test_M_E1_the_drawer_of_a_removed_card_is_saved_and_checked():
    s = _with_a_removed_card()
    d = json.loads(to_json(s))
    assert d["version"] == 2 and d["removed_by"][-1] == 0 and from_json(to_json(s)) == s
    last = len(d["removed_by"]) - 1  # the builder removed the discovery cards left over, drawers unknown
    d["removed_by"][-1] = 1  # seat 1 never saw the card
    with pytest.raises(ValueError, match="removed_by"):
        load(d)
    d["removed_by"][-1] = 3
    with pytest.raises(ValueError, match=rf"removed_by\[{last}\]"):
        load(d)
    d["removed_by"][-1] = None  # not known: allowed (what a schema-1 document says)
    assert load(d).removed_by[-1] == -1


def test_a_schema_1_document_loads_with_its_drawers_unknown():
    """Schema 1 had no "removed_by"; its documents still load, the drawers unknown (NONE)."""
    s = _with_a_removed_card()
    d = json.loads(to_json(s))
    d["version"] = 1
    del d["removed_by"]
    t = load(d)
    assert set(t.removed_by) == {-1} and t.removed_cards == s.removed_cards
    t.removed_by = s.removed_by
    assert t == s
    d["removed_by"] = s.removed_by  # a schema-1 document has no such key
    with pytest.raises(ValueError, match='unknown key "removed_by"'):
        load(d)


@pytest.mark.parametrize("text", [None, 3, b"{}", "", "{", "[]", "[" * 100000])
def test_not_a_document(text):
    with pytest.raises(ValueError):
        from_json(text)


def test_a_full_ship_on_the_pad_is_a_contradiction():
    d = json.loads(to_json(position(3)))
    d["ships"]["2"]["crew"] = [5, 0, 0]
    d["players"][0]["supply"] = 17
    with pytest.raises(ValueError, match="M-L3"):
        load(d)


def test_M_R4_a_role_executed_before_a_lower_unplayed_one_is_a_contradiction():
    position(3, phase="place", role="Femme Fatale", current=1, commits={0: "Soldier", 2: "Secret Agent"},
             acted=[2], discard={2: ["Secret Agent"]})  # called in order: loads
    with pytest.raises(ValueError, match="M-R4"):
        position(3, phase="place", role="Pilot", current=1, commits={0: "Soldier", 2: "Secret Agent"},
                 acted=[2], discard={2: ["Secret Agent"]})  # the Soldier would have been called first


@pytest.mark.parametrize("bad", [-1, 10**6, 1.0, "3", True, None, [1]])
def test_malformed_actions_rejected_state_unchanged(bad):
    s = random_game(3, 2, until=30)
    before = copy.deepcopy(s)
    with pytest.raises(ValueError):
        apply(s, bad)
    assert s == before


def test_illegal_action_rejected_state_unchanged():
    s = position(3, phase="place", role="Travel Agent")
    before = copy.deepcopy(s)
    for a in (act("stop"), act("commit", "Pilot"), act("pass")):
        with pytest.raises(ValueError, match="not legal"):
            apply(s, a)
    assert s == before


def leaves(d, path=()):
    """(path, value) of every scalar in a JSON document."""
    if isinstance(d, dict):
        for k, v in d.items():
            yield from leaves(v, (*path, k))
    elif isinstance(d, list):
        for i, v in enumerate(d):
            yield from leaves(v, (*path, i))
    else:
        yield path, d


def test_fuzzed_documents_load_or_raise_value_error():
    import random
    r = random.Random(0)
    base = [json.loads(to_json(random_game(n, seed, until=until))) for n, seed, until in
            ((3, 0, 10), (4, 1, 70), (5, 2, 130), (3, 3, 500))]
    values = [None, True, -1, 0, 1, 2, 5, 9, 22, 40, "ice", "Pilot", "Kolonisation", [], {}, 1.5]
    for _ in range(400):
        d = copy.deepcopy(r.choice(base))
        path, _old = r.choice(list(leaves(d)))
        target = d
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = r.choice(values)
        try:
            s = load(d)
        except ValueError:
            continue
        assert from_json(to_json(s)) == s
