"""Reveal (R-V1), end (R-E1..R-E3) and information (R-I1..R-I5, as far as the state shows it)."""
import json

import pytest
from tests.helpers.positions import develop, jump, labels, position, scan, take, tiles, top_up

from spacemission_env.space_mission import actions as A
from spacemission_env.space_mission.components import END_THRESHOLD, TILE_INDEX
from spacemission_env.space_mission.rules import GameState, apply, legal_actions, scores
from spacemission_env.space_mission.rules.state_json import state_to_dict

RING = ["Freezer", "Hazard", "Caldera", "Green Heggar", "Ruby Red", "Aurora", "Basalt", "Cinder"]


# --- R-V1 reveal ------------------------------------------------------------------------
def test_R_V1_pile_revealed_when_its_last_point_tile_leaves():
    s = position(2, ring=RING, ships={0: 0}, stations={0: 1}, piles={0: {"water": 2, "space": 3}})
    apply(s, A.DISCOVER)
    apply(s, take("water"))
    assert not s.revealed[0] and s.revealed_count == 0  # a point tile is left
    apply(s, A.DISCOVER)
    apply(s, take("water"))
    assert s.revealed[0] and s.revealed_count == 3 and s.piles[0] == tiles({"space": 3})


def test_R_V1_scan_taking_the_last_point_tile_reveals():
    s = position(2, ring=RING, ships={0: 0}, hands={0: ["J1/S2"]}, piles={0: {"medal": 1, "space": 4}})
    apply(s, scan(s, "J1/S2"))
    apply(s, take("medal"))
    assert s.revealed[0] and s.revealed_count == 4


def test_R_V1_a_space_tile_can_never_be_taken():
    assert A.NUM_ACTIONS == A.TILE + 10 and A.decode(A.NUM_ACTIONS - 1) == ("tile", (TILE_INDEX["medal"],))
    s = position(2, ring=RING, ships={0: 0}, stations={0: 1}, piles={0: {"water": 1, "space": 5}})
    apply(s, A.DISCOVER)
    assert legal_actions(s) == [take("water")]
    with pytest.raises(ValueError):
        apply(s, A.NUM_ACTIONS)  # there is no id for "take space"


# --- R-E1 end of the game ------------------------------------------------------------------
def end_position(n=3, current=1, pile0_space=2, **kw):
    """Revealed count threshold-2 on piles 1 and 2; the player at Freezer (station there)
    can discover the last point tile of a pile with ``pile0_space`` space tiles."""
    t = int(END_THRESHOLD[n]) - 2
    base = dict(ring=RING, start=0, current=current, ships={current: 0}, stations={0: 0},
                piles={0: {"water": 1, "space": pile0_space}, 1: {"space": t - t // 2}, 2: {"space": t // 2}},
                revealed=[1, 2])
    base.update(kw)
    return position(n, **base)


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_R_E1_threshold_by_player_count(n):
    assert int(END_THRESHOLD[n]) == {2: 6, 3: 8, 4: 10, 5: 12}[n]
    for space, triggered in ((1, False), (2, True)):
        s = end_position(n, current=0, pile0_space=space)
        apply(s, A.DISCOVER)
        apply(s, take("water"))
        assert s.revealed_count == END_THRESHOLD[n] - 2 + space
        assert s.end_triggered is triggered and not s.is_over


def test_R_E1_finish_the_round_after_the_end_is_triggered():
    """Triggered by seat 1 of 3 (start 0): seat 1 completes its turn, seat 2 still plays,
    then the game ends before seat 0 plays again."""
    s = end_position(3, current=1)
    apply(s, A.DISCOVER)
    apply(s, take("water"))
    assert s.end_triggered and not s.is_over and s.current_player == 1 and s.actions_left == 1
    apply(s, top_up())  # seat 1 completes its turn
    assert s.current_player == 2 and not s.is_over
    apply(s, top_up())
    assert not s.is_over
    apply(s, top_up())  # seat 2 ends the round
    assert s.is_over and not s.round_limit and s.round == 1
    assert legal_actions(s) == []


def test_R_E1_triggered_by_the_last_seat_ends_after_its_turn():
    s = end_position(3, current=2)
    apply(s, A.DISCOVER)
    apply(s, take("water"))
    apply(s, top_up())
    assert s.is_over


def test_R_E1_R_E3_end_in_the_last_allowed_round_is_not_truncation():
    s = end_position(2, current=1, max_rounds=1)
    apply(s, A.DISCOVER)
    apply(s, take("water"))
    apply(s, top_up())
    assert s.is_over and not s.round_limit


# --- R-E2, R-E3 ---------------------------------------------------------------------
def test_R_E2_reservations_on_undeveloped_planets_score_nothing():
    s = position(2, ring=RING, reservations={(1, 0): {"water": 4, "medal": 2}}, collections={0: {}})
    assert scores(s)[0]["water"] == 0 and scores(s)[0]["medals"] == 0 and scores(s)[0]["total"] == 0


def test_R_E3_truncation_after_max_rounds_is_flagged_and_scored():
    s = position(2, max_rounds=2, start=1, gate_probes={0: 1}, collections={0: {"medal": 1}})
    for _ in range(7):
        apply(s, top_up())
    assert not s.is_over and s.round == 2
    apply(s, top_up())
    assert s.is_over and s.round_limit and s.round == 2
    assert scores(s)[0]["total"] == 9 + 3  # scored as at R-E1: gate rank 1 + a medal
    with pytest.raises(ValueError, match="over"):
        apply(s, top_up())


# --- R-I1..R-I5 (the observation encoder has its own tests) ----------------------------------
def test_R_I1_discard_pile_lists_every_card_played_since_the_last_reshuffle():
    s = position(2, ring=RING, hands={0: ["J1/S2", "J1/L1", "S1/L1"]}, discard_pile=[],
                 piles={0: {"water": 1, "space": 1}})
    apply(s, jump(s, "J1/L1", 0))
    apply(s, scan(s, "J1/S2"))
    apply(s, take("water"))
    assert labels(s.discard_pile) == ["J1/L1", "J1/S2"]  # public, in order


def test_R_I2_hands_and_collections_are_kept_per_player():
    s = position(2, ring=RING, ships={0: 0}, stations={0: 1}, piles={0: {"water": 1, "medal": 1}})
    other = (list(s.players[1].hand), list(s.players[1].collection))
    apply(s, A.DISCOVER)
    apply(s, take("medal"))
    assert (s.players[1].hand, s.players[1].collection) == other
    assert s.players[0].collection[TILE_INDEX["medal"]] >= 1


@pytest.mark.parametrize("rules", ["yucata", "schmidt"])
def test_R_I3_last_visit_records_the_pile_after_each_visit(rules):
    """R-I3: the state records each player's own last view of a pile and its round (yucata shows
    it in the observation; schmidt's observation leaves it out)."""
    s = position(2, rules=rules, ring=RING, ships={0: 0, 1: 0}, round=3,
                 hands={0: ["J1/S2"], 1: ["S2/L1"]}, piles={0: {"water": 2, "medal": 1, "space": 2}})
    apply(s, scan(s, "J1/S2"))
    apply(s, take("water"))
    seen_by_0 = tiles({"water": 1, "medal": 1, "space": 2})
    assert s.players[0].last_seen[0] == seen_by_0 and s.players[0].last_seen_round[0] == 3
    assert s.players[1].last_seen_round[0] == 0  # seat 1 has not looked
    apply(s, top_up())
    apply(s, scan(s, "S2/L1"))  # seat 1 visits the same planet
    apply(s, take("medal"))
    assert s.players[1].last_seen[0] == tiles({"water": 1, "space": 2})
    assert s.players[0].last_seen[0] == seen_by_0  # seat 0 keeps its older view


def test_R_I3_R_A4b_empty_scan_is_a_visit():
    s = position(2, ring=RING, ships={0: 1}, hands={0: ["J1/S4"]}, piles={1: {"space": 2}}, round=5)
    apply(s, scan(s, "J1/S4"))
    assert s.players[0].last_seen[1] == tiles({"space": 2}) and s.players[0].last_seen_round[1] == 5


def test_R_I3_develop_and_discover_update_the_last_visit():
    s = position(2, ring=RING, ships={0: 0}, scanned={0: [0]}, round=4,
                 hands={0: ["J1/L1", "J3/L3"]}, piles={0: {"water": 2, "space": 1}})
    apply(s, develop(s, "J1/L1", "J3/L3"))
    apply(s, take("water"))
    assert s.players[0].last_seen[0] == tiles({"water": 1, "space": 1}) and s.players[0].last_seen_round[0] == 4
    apply(s, A.DISCOVER)
    apply(s, take("water"))
    assert s.players[0].last_seen[0] == tiles({"space": 1})


def test_R_I4_legal_actions_do_not_depend_on_hidden_information():
    """Other players' hands and the draw pile order are hidden: changing them changes
    nothing the acting player may do."""
    a = position(3, ring=RING, ships={0: 0}, hands={0: ["J1/S2", "J?/S1", "S1/L1"], 1: ["J2/S2", "J4/L4"]},
                 draw_pile=["J3/S3", "S3/L3", "J4/S1"])
    b = position(3, ring=RING, ships={0: 0}, hands={0: ["J1/S2", "J?/S1", "S1/L1"], 1: ["J3/S3", "J4/S1"]},
                 draw_pile=["J4/L4", "J2/S2", "S3/L3"])
    assert legal_actions(a) == legal_actions(b)
    assert a.players[1].hand != b.players[1].hand and a.draw_pile != b.draw_pile


def test_R_I5_the_state_keeps_a_players_memory_under_both_rule_sets():
    """Perfect recall (R-I5) is the same under both rule sets, so the state must record,
    under schmidt as under yucata, the type of every tile a player reserved and each pile
    as it was after the player's own last visit. The same play under the two rule sets
    leaves the same records; a schmidt state reloaded as yucata keeps them. (The
    observation tests cover the "recall" view built from these records.)"""
    def play(rules):
        s = position(2, rules=rules, ring=RING, ships={0: 0, 1: 0}, round=3,
                     hands={0: ["J1/S2", "J1/L1"], 1: ["S2/L1"]}, piles={0: {"medal": 1, "water": 2, "space": 1}})
        apply(s, scan(s, "J1/S2"))
        apply(s, take("medal"))
        apply(s, top_up())
        apply(s, scan(s, "S2/L1"))
        apply(s, take("water"))
        return s

    schmidt, yucata = play("schmidt"), play("yucata")
    for s in (schmidt, yucata):
        assert s.reservations[0][0] == tiles({"medal": 1}, 10) and s.reservations[0][1] == tiles({"water": 1}, 10)
        assert s.players[0].last_seen[0] == tiles({"water": 2, "space": 1}) and s.players[0].last_seen_round[0] == 3
        assert s.players[1].last_seen[0] == tiles({"water": 1, "space": 1})
    a, b = state_to_dict(schmidt), state_to_dict(yucata)
    assert {k: v for k, v in a.items() if k not in ("rules", "rng")} == {k: v for k, v in b.items() if k not in ("rules", "rng")}
    reloaded = GameState.from_json(json.dumps(a | {"rules": "yucata"}))
    assert reloaded.rules == "yucata" and reloaded.reservations == schmidt.reservations
    assert [pl.last_seen for pl in reloaded.players] == [pl.last_seen for pl in schmidt.players]
