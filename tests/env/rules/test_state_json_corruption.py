"""Corruption fuzz of Space Mission's JSON state (docs/state_json.md, Validation): real
positions of random play (2-5 players, both rule sets, round limits 100 and 3, tile
decisions and finished games), each changed in one field at a time
(tests/helpers/state_corruption.py). Every variant is refused with a ValueError naming
the problem, or loads as a consistent state that writes back the same document and plays
alike in both engines. Then one test per defect the fuzz found, each failing before its fix."""
import json
import re

import pytest

from spacemission_env.space_mission.rules import GameState
from spacemission_env.space_mission.rules.state_json import state_to_dict
from tests.helpers import state_corruption as C
from tests.env.rules.test_state_json import example_state
from tests.helpers.positions import position


def test_corrupted_states_are_refused_by_name_or_load_consistent():
    counts = C.fuzz("sm", 1, per_kind=1, seed=0)  # about 9,600 variants
    assert counts["loaded"] > 150 and counts["refused"] > 2000, counts


@pytest.mark.slow
def test_corrupted_states_every_edit_of_every_field():
    counts = C.fuzz("sm", 2, per_kind=None, seed=1)  # about 90,000 variants
    assert counts["loaded"] > 3000 and counts["refused"] > 50000, counts


# --- the defects found, one explicit position each -------------------------------------------
def doc_of(s: GameState) -> dict:
    return state_to_dict(s)


def refused(d: dict, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        GameState.from_json(json.dumps(d))


def test_a_hand_out_of_card_id_order_is_refused_not_reordered():
    """docs/actions.md: hand slot i is hand[i]. Before: an unsorted hand loaded sorted, so
    every hand-slot action of the document meant other cards."""
    s = position(2, hands={0: ["J1/S2", "J3/L3", "S?/L1"]})
    d = doc_of(s)
    d["players"][0]["hand"] = ["S?/L1", "J1/S2", "J3/L3"]
    refused(d, re.escape("players[0].hand must list its cards sorted by card id (index = hand slot), got "
                         '["S?/L1", "J1/S2", "J3/L3"], expected ["J1/S2", "J3/L3", "S?/L1"]'))


@pytest.mark.parametrize("where", ["state", "ring[3]", "players[1]", "players[1].last_visits[0]", "players[1].last_turn[0]"])
def test_an_unknown_or_misspelt_key_is_refused_not_ignored(where):
    """Before: any key the schema does not know was ignored, so a misspelt one (``"suply"``
    beside a correct ``"supply"``) or a foreign one loaded silently."""
    d = doc_of(example_state())  # the documented example: visits and turn records
    node = {"state": d, "ring[3]": d["ring"][3], "players[1]": d["players"][1],
            "players[1].last_visits[0]": d["players"][1]["last_visits"][0],
            "players[1].last_turn[0]": d["players"][1]["last_turn"][0]}[where]
    GameState.from_json(json.dumps(d))  # loads as written
    node["suply"] = 3
    refused(d, re.escape(f'unknown key "suply" in {where} (expected only '))


def test_a_version_2_document_with_turn_records_is_refused_not_stripped():
    """Version 2 has no ``last_turn`` (R-I1). Before: a version 3 document relabelled 2 loaded
    with every turn record silently dropped."""
    d = doc_of(example_state())
    d["version"] = 2
    refused(d, re.escape('unknown key "last_turn" in players[0]'))
    for pl in d["players"]:
        del pl["last_turn"]
    assert GameState.from_json(json.dumps(d)).players[1].last_turn == []


def test_a_last_visit_listed_twice_is_refused_R_I3():
    """R-I3: one last view per pile. Before: two entries for one position loaded and the
    second silently replaced the first."""
    s = position(2, piles={0: {"water": 1, "space": 1}})
    d = doc_of(s)
    d["players"][0]["last_visits"] = [{"position": 0, "round": 1, "pile": {"water": 1, "space": 1}},
                                      {"position": 0, "round": 1, "pile": {"water": 1, "space": 2}}]
    refused(d, re.escape("players[0].last_visits lists position 0 twice"))
    d["players"][0]["last_visits"].pop()
    assert GameState.from_json(json.dumps(d)).players[0].last_seen_round[0] == 1


def test_a_scanned_position_listed_twice_is_refused():
    """Before: ``"scanned": [2, 2]`` loaded as [2] (R-A5's record of scans)."""
    d = doc_of(position(2, scanned={1: [2]}))
    d["players"][1]["scanned"] = [2, 2]
    refused(d, re.escape("players[1].scanned lists position 2 twice"))


def test_a_last_view_without_a_tile_the_pile_still_holds_is_refused_R_I3():
    """R-I3 records the pile as the player saw it after his visit; a pile only loses tiles
    afterwards (R-A4..R-A6). Before: a last view with fewer tiles than the pile now holds
    loaded (the yucata observation then showed a pile that cannot be)."""
    s = position(2, piles={0: {"water": 1, "medal": 1, "space": 1}})
    d = doc_of(s)
    d["players"][1]["last_visits"] = [{"position": 0, "round": 1, "pile": {"water": 1, "space": 1}}]
    refused(d, re.escape("player 1 last saw the pile at ring position 0 as") + ".*a pile only loses tiles \\(R-I3\\)")
    d["players"][1]["last_visits"][0]["pile"]["medal"] = 1
    GameState.from_json(json.dumps(d))  # the same pile: loads
    d["players"][1]["last_visits"][0]["pile"]["mineral_red"] = 1
    GameState.from_json(json.dumps(d))  # one tile more, taken since: loads


# --- error messages name the list entry and the object (review of the loader) -----------------
@pytest.mark.parametrize("edit, message", [
    (lambda d: d["players"][0]["last_visits"][2]["pile"].update(space="4"),
     'players[0].last_visits[2].pile.space must be an integer in [0, 16], got "4"'),
    (lambda d: d["players"][0]["last_visits"][1].update(position=8),
     "players[0].last_visits[1].position must be an integer in [0, 7], got 8"),
    (lambda d: d["players"][0]["last_visits"][1].update(round=0),
     "players[0].last_visits[1].round must be an integer in [1, "),
    (lambda d: d["players"][0]["last_visits"][1].pop("pile"), 'missing key "pile" in players[0].last_visits[1]'),
    (lambda d: d["players"][0]["last_visits"].__setitem__(1, 5), "players[0].last_visits[1] must be an object, got number 5"),
    (lambda d: d["players"][0]["last_visits"].append(dict(d["players"][0]["last_visits"][0])),
     "players[0].last_visits lists position 2 twice (players[0].last_visits[0] and [3])"),
    (lambda d: d["players"][0].update(scanned=[2, 5, "7"]), 'players[0].scanned[2] must be an integer in [0, 7], got "7"'),
    (lambda d: d["players"][0].update(scanned=[2, 5, 7, 5]),
     "players[0].scanned lists position 5 twice (players[0].scanned[1] and [3])"),
    (lambda d: d["players"].__setitem__(0, []), "players[0] must be an object, got array []"),
    (lambda d: d["ring"].__setitem__(0, "x"), 'ring[0] must be an object, got string "x"'),
    (lambda d: d["players"][1]["last_turn"].__setitem__(0, None), "players[1].last_turn[0] must be an object, got null"),
])
def test_errors_name_the_list_index_and_a_non_object_entry(edit, message):
    """Before: ``players[0].last_visits.pile.space must be an integer`` (which entry?), and a
    non-object entry such as ``players[0] = []`` was reported as ``missing key 'hand' in players[0]``."""
    d = doc_of(example_state())  # player 0 visited positions 2, 5 and 7
    edit(d)
    refused(d, re.escape(message))


def test_a_card_twice_is_named_with_both_places_R_C2():
    """Before: ``game state: a card appears twice``, naming neither the card nor where."""
    d = doc_of(example_state())
    d["draw_pile"][0] = d["players"][0]["hand"][1]  # J?/L2; the draw pile's S1/L4 is gone
    refused(d, re.escape("card J?/L2 appears twice, at draw_pile[0] and at players[0].hand[1]"))
    d = doc_of(example_state())
    d["discard_pile"][3] = d["discard_pile"][0]
    refused(d, re.escape("card J1/S4 appears twice, at discard_pile[0] and at discard_pile[3]"))


# --- contradictions play cannot produce (state.py, check_history) -----------------------------
def test_a_revealed_pile_with_point_tiles_is_refused_R_V1():
    """R-V1 reveals a pile once it holds no point tile, and tiles never go back. Before: loaded."""
    d = doc_of(example_state())
    d["ring"][1]["revealed"] = True  # Cinder still holds point tiles (2 + 2 revealed space tiles: no end)
    refused(d, re.escape("ring[1].revealed is true but its pile still holds point tiles") + ".*R-V1")


@pytest.mark.parametrize("owner", [1, 0])
def test_a_reservation_on_a_planet_with_a_station_is_refused_R_A5(owner):
    """R-A5 step 2 moves *every* seat's reservations on the developed planet into their
    collections (not only the developer's), and R-A4 scans only a planet without a station.
    Seat 1 holds a reservation on Glacier (ring 0); give the planet a station, of seat 1 or of
    seat 0 (who then has scanned and visited it too). Before: loaded."""
    d = doc_of(example_state())
    d["ring"][0]["station"] = owner
    d["players"][owner]["supply"] -= 1
    if owner == 0:
        d["players"][0]["scanned"].append(0)
        d["players"][0]["last_visits"].append({"position": 0, "round": 5, "pile": d["ring"][0]["pile"]})
    refused(d, re.escape("ring[0].reservations.1 holds tiles on a planet with a station") + ".*R-A5.*R-A4")


def test_a_reservation_or_station_without_the_scan_is_refused_R_A4_R_A5():
    """A reservation comes from a scan (R-A4), a station from a develop, which needs a scan
    (R-A5); nothing clears ``scanned``. Before: both loaded."""
    d = doc_of(example_state())
    d["players"][1]["scanned"] = [7]  # seat 1's reservation on ring 0 stays
    refused(d, re.escape("ring[0].reservations.1 holds tiles, but players[1].scanned lacks position 0") + ".*R-A4")
    d = doc_of(example_state())
    d["players"][0]["scanned"] = [2, 7]  # seat 0's station on ring 5 stays
    refused(d, re.escape("ring[5].station is seat 0's, but players[0].scanned lacks position 5") + ".*R-A5")


def test_a_scan_without_its_visit_is_refused_under_yucata_only_R_I3():
    """R-I3 (yucata): every scan shows the pile and is recorded in the last-visit table once
    its tile decision is taken. Schmidt shows no such table (R-I3), so there it is not required.
    Before: loaded under both."""
    d = doc_of(example_state())
    del d["players"][0]["last_visits"][0]  # position 2, which seat 0 scanned
    refused(d, re.escape("players[0].scanned lists position 2, but players[0].last_visits has no entry for it")
            + ".*R-I3, yucata")
    d["rules"] = "schmidt"
    assert not GameState.from_json(json.dumps(d)).players[0].last_seen_round[2]


def test_a_turn_record_that_does_not_end_at_the_ship_is_refused_R_A2_to_R_A6():
    """Only its owner moves a ship (R-A2, R-A3) and scan, develop and discover act on the ship's
    planet (R-A4..R-A6), so a record ends where the ship is. Before: each loaded."""
    d = doc_of(example_state())
    d["players"][0]["ship"] = 4  # seat 0 flew 2 -> 3 in its last turn
    refused(d, re.escape("players[0].last_turn[1].target is 3 (fly), but players[0].ship is 4") + ".*R-A3")
    d = doc_of(example_state())
    d["players"][0]["last_turn"][0]["target"] = 5  # 5 -> 3 is no fly to a neighbour
    refused(d, re.escape("players[0].last_turn[0].target is 5 (fly), but the record's later actions need the ship "
                         "at 2 or 4 then") + ".*R-A3")
    d = doc_of(example_state())  # the acting seat (1): its turn so far is one fly
    d["players"][1]["last_turn"] = [{"action": "fly", "target": 6, "cards": [], "tile": False}]
    refused(d, re.escape("players[1].last_turn[0].target is 6 (fly), but players[1].ship is 7") + ".*R-A3")


def test_a_pending_action_not_on_the_ship_planet_is_refused_R_A4_to_R_A6():
    from tests.env.rules.test_state_json import tile_decision_state
    s = tile_decision_state()
    d = doc_of(s)
    q = s.current_player
    GameState.from_json(json.dumps(d))
    d["players"][q]["last_turn"][-1]["target"] = (s.players[q].ship + 1) % 8
    i = len(s.players[q].last_turn) - 1
    rule = {"scan": "R-A4", "develop": "R-A5", "discover": "R-A6"}[s.pending]
    refused(d, re.escape(f"players[{q}].last_turn[{i}].target is {(s.players[q].ship + 1) % 8} ({s.pending}), but "
                         f"players[{q}].ship is {s.players[q].ship}") + f".*{rule}")


def test_a_card_played_this_turn_still_in_hand_is_refused_R_A2():
    """The acting seat's jump card went to the discard pile (R-A2); only a top up later in the
    turn could draw it back (R-A1). Before: the card loaded both played and held."""
    import random
    from spacemission_env.space_mission.random_play import kind_uniform_action
    from spacemission_env.space_mission.rules import apply, new_game
    s, r = new_game(2, seed=4), random.Random(4)
    while not (s.actions_left == 1 and s.phase == "main" and s.players[s.current_player].last_turn[0].kind == "jump"):
        apply(s, kind_uniform_action(s, r))
    q, c = s.current_player, s.players[s.current_player].last_turn[0].cards[0]
    d = doc_of(s)
    GameState.from_json(json.dumps(d))
    label = d["discard_pile"].pop(d["discard_pile"].index(state_to_dict(s)["players"][q]["last_turn"][0]["cards"][0]))
    s.players[q].hand = sorted(s.players[q].hand + [c])
    d["players"][q]["hand"] = doc_of(s)["players"][q]["hand"]
    refused(d, re.escape(f"players[{q}].hand holds {label}, which players[{q}].last_turn[0] (jump) played this turn")
            + r".*R-A2\)")


def test_turn_records_out_of_seat_order_are_refused_R_T1():
    """Round 1 starts with the start player (R-T1): a seat after the acting one has had no
    turn, so no record (R-I1). And records fill in seat order: a seat cannot hold one while
    a seat that acted after it holds none. Before: both loaded."""
    from spacemission_env.space_mission.rules import apply, new_game
    s = new_game(3, seed=2, rules="schmidt")  # start player 0
    apply(s, 0)  # seat 0 tops up twice, discarding nothing
    apply(s, 0)
    d = doc_of(s)
    assert (d["round"], d["current_player"], d["actions_left"]) == (1, 1, 2)
    GameState.from_json(json.dumps(d))
    d["players"][2]["last_turn"] = [{"action": "top_up", "target": None, "cards": [], "tile": False}]
    refused(d, re.escape("players[2].last_turn records actions, but in round 1 with start_player 0 and "
                         "current_player 1 seat 2 has not had a turn yet (R-T1, R-I1)"))
    d = doc_of(example_state())  # seat 1 acts (one action taken), after seat 0's last turn
    d["players"][1]["last_turn"] = []
    refused(d, re.escape("players[0].last_turn records actions but players[1].last_turn, of a seat that acted after "
                         "it") + r".*\(R-T1, R-I1\)")
