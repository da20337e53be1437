"""The flat action space: blocks, decode/encode, labels, and docs/red_planet/actions.md."""
import numpy as np
import pytest

from spacemission_env.red_planet import actions as A
from spacemission_env.red_planet.rules import (
    action_label,
    legal_action_mask,
    legal_actions,
)
from tests.env.red_planet.test_information import random_game
from tests.helpers.paths import ROOT


def test_blocks_tile_the_space():
    ids = []
    for kind, size, *_ in A.BLOCKS:
        ids += range(A.START[kind], A.START[kind] + size)
    assert ids == list(range(A.NUM_ACTIONS)) == list(range(243))


def test_decode_and_encode_are_inverse():
    for a in range(A.NUM_ACTIONS):
        kind, args = A.decode(a)
        assert A.encode(kind, *args) == a
        assert isinstance(action_label(None, a), str) and action_label(None, a)
    assert A.decode(np.int64(5)) == ("setup_zone", (5,))


@pytest.mark.parametrize("bad", [-1, 243, 1.5, "7", True, None])
def test_decode_rejects_what_is_not_an_id(bad):
    with pytest.raises(ValueError):
        A.decode(bad)


def test_encode_rejects_bad_arguments():
    with pytest.raises(ValueError):
        A.encode("fly", 1)
    with pytest.raises(ValueError):
        A.encode("place", 5)
    with pytest.raises(ValueError):
        A.encode("pass", 1)


def test_docs_page_is_generated_from_the_code():
    assert (ROOT / "docs" / "red_planet" / "actions.md").read_text(encoding="utf-8") == A.actions_markdown()


def test_labels_name_the_ships_with_a_state_and_the_mask_matches_the_legal_list():
    s = random_game(4, 5, until=25)
    mask = legal_action_mask(s)
    assert mask.dtype == bool and mask.shape == (A.NUM_ACTIONS,)
    assert np.flatnonzero(mask).tolist() == legal_actions(s)
    place = A.START["place"]
    assert "ship" in action_label(s, place) and "capacity" in action_label(s, place)
