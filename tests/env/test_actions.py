"""The flat action space (docs/actions.md), labels, and rejection of bad input."""

import numpy as np
import pytest
from tests.helpers.positions import position, top_up

from spacemission_env.space_mission import actions as A
from spacemission_env.space_mission.components import TILE_NAMES
from spacemission_env.space_mission.rules import action_label, apply, legal_action_mask, legal_actions, new_game
from tests.helpers.paths import ROOT

DOC = ROOT / "docs" / "actions.md"


def doc_rows(header: str) -> list[list[str]]:
    """Rows of the markdown table whose header line starts with ``header``."""
    lines = DOC.read_text().splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(header))
    rows = []
    for line in lines[start + 2:]:
        if not line.startswith("|"):
            break
        rows.append([c.strip() for c in line.strip("|").split("|")])
    return rows


def doc_header(header: str) -> list[str]:
    line = next(line for line in DOC.read_text().splitlines() if line.startswith(header))
    return [c.strip() for c in line.strip("|").split("|")]


def test_doc_table_matches_action_table():
    assert [tuple(r) for r in doc_rows("| ids | kind | meaning |")] == A.action_table()


def test_doc_develop_pairs_and_tile_ids():
    header, [slots] = doc_header("| id | 79 |"), doc_rows("| id | 79 |")
    assert [int(h) for h in header[1:]] == list(range(A.DEVELOP, A.DISCOVER))
    assert [tuple(int(x) for x in c.split(",")) for c in slots[1:]] == list(A.DEVELOP_PAIRS)
    tile_header, [names] = doc_header("| id | 90 |"), doc_rows("| id | 90 |")
    assert [int(h) for h in tile_header[1:]] == list(range(A.TILE, A.NUM_ACTIONS))
    assert names[1:] == list(TILE_NAMES[:10])


def test_id_ranges_cover_0_to_99_without_gaps():
    covered = []
    for ids, _kind, _meaning in A.action_table():
        lo, _, hi = ids.partition("-")
        covered += range(int(lo), int(hi or lo) + 1)
    assert covered == list(range(A.NUM_ACTIONS)) and A.NUM_ACTIONS == 100


def test_decode_every_id():
    kinds = [A.decode(a)[0] for a in range(100)]
    assert kinds.count("top_up") == 32 and kinds.count("jump") == 40 and kinds.count("fly") == 2
    assert kinds.count("scan") == 5 and kinds.count("develop") == 10 and kinds.count("discover") == 1
    assert kinds.count("tile") == 10
    assert A.decode(45) == ("jump", (1, 5))
    assert A.decode(5) == ("top_up", (5,)) and A.slots_of_mask(5) == [0, 2]
    assert A.decode(73) == ("fly", (-1,)) and A.decode(88) == ("develop", (3, 4))
    assert A.decode(99) == ("tile", (9,))


def test_numpy_integers_are_action_ids():
    import numpy as np
    s = new_game(2, seed=1)
    assert A.decode(np.int64(45)) == ("jump", (1, 5))
    apply(s, np.int32(0))
    assert s.actions_left == 1


@pytest.mark.parametrize("bad", [-1, 100, 1.0, "3", True, None, np.True_])  # numpy < 2.3 indexes np.True_ as 1
def test_decode_rejects_non_ids(bad):
    with pytest.raises(ValueError):
        A.decode(bad)


def test_action_label_with_and_without_state():
    s = position(2, ring=["Freezer", "Hazard", "Caldera", "Green Heggar", "Ruby Red", "Aurora", "Basalt", "Cinder"],
                 hands={0: ["J1/S2", "J1/L1", "J3/L3"]})
    assert action_label(33) == "jump with card 0 to ring position 1"
    assert action_label(33, s) == "jump with card 0 (J1/S2) to Hazard"
    assert action_label(5, s) == "top up, discarding card 0 (J1/S2), card 2 (J3/L3)"
    assert action_label(0) == "top up, discarding nothing"
    assert action_label(89) == "discover" and action_label(98) == "take tile water"
    assert len({action_label(a) for a in range(100)}) == 100


def test_doc_label_examples():
    text = DOC.read_text()
    block = text[text.index("```text") + 8:]
    block = block[:block.index("```")]
    s = new_game(3, seed=7)
    for line in block.strip().splitlines():
        action, label = line.split(maxsplit=1)
        assert action_label(int(action), s) == label.strip()


def test_legal_action_mask_matches_legal_actions():
    s = new_game(3, seed=4)
    mask = legal_action_mask(s)
    assert mask.shape == (100,) and mask.dtype == bool
    assert mask.nonzero()[0].tolist() == legal_actions(s)


# --- bad input leaves the state unchanged --------------------------------------------------
@pytest.mark.parametrize("bad", [-1, 100, 10**9, 2.5, "0", None])
def test_apply_rejects_out_of_range_ids_state_unchanged(bad):
    s = new_game(2, seed=1)
    before = s.to_json()
    with pytest.raises(ValueError, match="action|integer|range"):
        apply(s, bad)
    assert s.to_json() == before


def test_apply_rejects_illegal_action_naming_it_state_unchanged():
    s = new_game(2, seed=1)  # ships on the jump gate: no fly, no scan, no tile
    before = s.to_json()
    for a in (A.FLY_CW, A.SCAN, A.DISCOVER, A.TILE):
        with pytest.raises(ValueError, match=f"action {a} .*not legal"):
            apply(s, a)
    assert s.to_json() == before


def test_apply_rejects_action_on_finished_game_state_unchanged():
    s = position(2, max_rounds=1)
    for _ in range(4):
        apply(s, top_up())
    assert s.is_over and legal_actions(s) == [] and not legal_action_mask(s).any()
    before = s.to_json()
    with pytest.raises(ValueError, match="over"):
        apply(s, top_up())
    assert s.to_json() == before


@pytest.mark.parametrize("n", [0, 1, 6, -2, 2.0, "3", True, None])
def test_new_game_rejects_player_counts_outside_2_to_5(n):
    with pytest.raises(ValueError, match="num_players"):
        new_game(n)


@pytest.mark.parametrize("kw, word", [
    ({"rules": "classic"}, "rules"), ({"rules": None}, "rules"), ({"max_rounds": 0}, "max_rounds"),
    ({"seed": -1}, "seed"), ({"seed": "x"}, "seed"),
])
def test_new_game_rejects_bad_options(kw, word):
    with pytest.raises(ValueError, match=word):
        new_game(2, **kw)
