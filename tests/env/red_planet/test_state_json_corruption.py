"""Corruption fuzz of the Red Planet JSON state: real positions of random play (3-5
players, every phase from the bonus keep to the end), each changed in one field at a time
(tests/helpers/state_corruption.py). Every variant is refused with a ValueError naming the
problem, or loads as a consistent state that writes back the same document and plays alike
in both engines. Then one test per defect the fuzz found, each failing before its fix."""
import json
import re

import pytest

from spacemission_env.red_planet.rules import from_json
from tests.helpers import state_corruption as C
from tests.helpers.red_planet_positions import position


def test_corrupted_states_are_refused_by_name_or_load_consistent():
    counts = C.fuzz("rp", 4, per_kind=1, seed=0)  # about 7,200 variants
    assert counts["loaded"] > 100 and counts["refused"] > 2000, counts


@pytest.mark.slow
def test_corrupted_states_every_edit_of_every_field():
    counts = C.fuzz("rp", 6, per_kind=None, seed=1)  # about 90,000 variants
    assert counts["loaded"] > 2000 and counts["refused"] > 50000, counts


# --- the defects found, one explicit position each -------------------------------------------
def load(d: dict):
    return from_json(json.dumps(d))


def refused(d: dict, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        load(d)


def test_a_player_to_commit_with_an_empty_hand_is_refused_M_O1_M_R3():
    """M-O1, M-R3: the Recruiter takes every used role card back, so the hand is never empty
    in step 2. Before: a player to commit with all nine roles discarded loaded, and the game
    stood still (legal_actions empty, is_over false)."""
    d = json.loads(position(3, round=3, phase="commit", current=1, commits={0: "Pilot"}).to_json())
    load(d)
    d["players"][1]["discard"], d["players"][1]["hand"] = d["players"][1]["hand"], []
    refused(d, re.escape("player 1 is to act in phase 'commit' but has no legal action: an empty hand") + r".*\(M-O1, M-R3\)")


def test_a_held_bonus_card_the_player_has_not_seen_is_refused_M_I2():
    """M-I2: a player knows his own bonus cards. Before: a bonus card missing from its holder's
    ``seen`` (or moved to another player) loaded, and his observation hid his own card."""
    d = json.loads(position(3, bonus={0: ["Geheime Mission GM1"]}).to_json())
    load(d)
    d["players"][0]["seen"].remove("Geheime Mission GM1")
    refused(d, r"player 0 holds event card Geheime Mission GM1 but has not seen it .*\(M-I2\)")
