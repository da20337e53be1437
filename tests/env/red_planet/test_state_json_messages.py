"""The consistency errors of a loaded Red Planet state name roles, event cards and minerals
as the JSON document does (``"Pilot"``, ``"Geheime Mission GM1"``, ``"ice"``), not by their
internal ids: before, ``role cards hand [1, 2, 3, 4, 5, 6, 7, 8] + commit -1``, ``mineral
tokens of type 0``, ``setup cards [2, 8, 20]``. Each test failed before the change."""
import json
import random
import re

import pytest

from spacemission_env.red_planet import rules as G
from spacemission_env.red_planet.components import CENTRAL_ZONES, CARD_INDEX, IS_BONUS
from tests.env.red_planet.test_information import random_game
from tests.helpers.red_planet_positions import position


def load(d: dict):
    return G.from_json(json.dumps(d))


def mid_game() -> dict:
    return json.loads(G.to_json(random_game(4, 1, until=60)))


def keeping() -> dict:
    """The first bonus card keep (M-S6) of a 3-player game."""
    s, r = G.new_game(3, seed=0), random.Random(0)
    while s.phase != "keep":
        G.apply(s, r.choice(G.legal_actions(s)))
    return json.loads(G.to_json(s))


def message(d: dict) -> str:
    with pytest.raises(ValueError) as err:
        load(d)
    return str(err.value)


def no_id_lists(msg: str) -> None:
    assert not re.search(r"\[-?\d+(, -?\d+)*\]", msg.replace("placed_slots", "")), msg


def test_role_cards_are_named():
    d = mid_game()
    hand = d["players"][1]["hand"]
    d["players"][1]["discard"] = []
    msg = message(d)
    assert f"player 1: role cards hand {json.dumps(hand)} + discard [] + commit " in msg, msg
    assert re.search(r"\+ commit (null|Recruiter|Explorer|Scientist|Secret Agent|Femme Fatale|Saboteur|Travel Agent"
                     r"|Soldier|Pilot) are not the 9 roles once each", msg), msg


def test_mineral_tokens_are_named():
    d = mid_game()
    gone = d["mineral_pool"].pop()
    count = d["mineral_pool"].count(gone) + sum(z["mineral"] == gone for z in d["zones"])
    msg = message(d)
    assert f"{count} {gone} mineral tokens in pool + zones, expected" in msg, msg


def test_negative_counters_are_named():
    d = mid_game()
    state = load(d)
    state.players[2].counters[1] = -1
    with pytest.raises(ValueError, match=re.escape("player 2 counters.sylvanite is -1")):
        G.check_invariants(state)


def test_setup_cards_are_named():
    """M-S6: a player after the keeper, who still holds his three cards, shown holding a
    bonus card already."""
    d = keeping()
    order = [(d["start_player"] + i) % 3 for i in range(3)]
    q = order[order.index(d["current_player"]) + 1]
    pl = d["players"][q]
    card = next(c for c in pl["setup_hand"] if IS_BONUS[CARD_INDEX[c]])
    pl["setup_hand"].remove(card)
    pl["bonus"] = [card]
    msg = message(d)
    assert (f"player {q} holds bonus {json.dumps([card], ensure_ascii=False)} and setup cards "
            f"{json.dumps(pl['setup_hand'], ensure_ascii=False)} while player") in msg, msg
    no_id_lists(msg)


def test_event_cards_seen_are_named():
    d = mid_game()
    q = next(q for q, pl in enumerate(d["players"]) if pl["bonus"])
    card = d["players"][q]["bonus"][0]
    d["players"][q]["seen"].remove(card)
    msg = message(d)
    assert f"player {q} holds event card {card} but has not seen it (M-I2); seen " \
           f"{json.dumps(d['players'][q]['seen'], ensure_ascii=False)}" in msg, msg


def test_a_discovery_card_on_a_central_zone_is_named():
    d = mid_game()
    z = CENTRAL_ZONES[0]
    card = d["event_pile"].pop(next(i for i, c in enumerate(d["event_pile"]) if not IS_BONUS[CARD_INDEX[c]]))
    d["zones"][z]["discovery"], d["zones"][z]["discovery_owner"] = card, 0
    d["players"][0]["seen"] = sorted(d["players"][0]["seen"] + [card], key=CARD_INDEX.get)
    assert f"zone {z}: discovery card {card} laid by 0" in message(d)


def test_roles_in_the_turn_are_named():
    with pytest.raises(ValueError, match=re.escape("player 0 (role Soldier) has not acted while player 1 executes "
                                                   "role Pilot (M-R4")):
        position(3, phase="place", role="Pilot", current=1, commits={0: "Soldier", 2: "Secret Agent"},
                 acted=[2], discard={2: ["Secret Agent"]})
    d = json.loads(G.to_json(position(3, phase="place", role="Pilot")))
    pl = d["players"][0]
    pl["commit"] = "Saboteur"
    order = ["Recruiter", "Explorer", "Scientist", "Secret Agent", "Femme Fatale", "Saboteur", "Travel Agent",
             "Soldier", "Pilot"]
    pl["hand"] = sorted([r for r in pl["hand"] if r != "Saboteur"] + ["Pilot"], key=order.index)
    assert "player 0 executes role Pilot but committed Saboteur (acted False)" in message(d)


@pytest.mark.parametrize("where", ["the document", "players[1]", "zones[3]", "turn", "players[0].counters"])
def test_an_unknown_key_is_named_cut(where):
    """A key no schema has is named cut to 80 characters (json_shown), as every other value of
    the document is. Before: the whole key came back (a 5000-character key, a 5050-character
    message), where Space Mission's loader cut it."""
    d = mid_game()
    target = {"the document": d, "players[1]": d["players"][1], "zones[3]": d["zones"][3], "turn": d["turn"],
              "players[0].counters": d["players"][0]["counters"]}[where]
    target["k" * 5000] = 1
    msg = message(d)
    assert msg.startswith('red planet state JSON: unknown key "kkkk') and msg.endswith(f" in {where}"), msg[:200]
    assert len(msg) < 150, len(msg)
