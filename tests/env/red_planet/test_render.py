"""Rendering of Mission: Red Planet (spacemission_env/red_planet/render.py): every phase of
random 3-5 player games renders; the text shows the counts of explicit positions; a seat's
view hides exactly what the info observation hides (M-I1..M-I4: resampling what it may not
know, red_planet/determinize.py, changes neither its picture nor its text); the picture's
parts lie in their regions."""
import contextlib
import io
import random
import re

import numpy as np
import pytest

from spacemission_env.games import get_game
from spacemission_env.red_planet.determinize import sample_world
from spacemission_env.red_planet.render import (
    HEIGHT,
    PLAYER_COLOURS,
    WIDTH,
    header_region,
    render_ansi,
    render_human,
    render_rgb,
    save_png,
    seat_region,
    slot_region,
    zone_region,
)
from spacemission_env.red_planet.rules import apply, is_over, legal_actions, new_game
from spacemission_env.red_planet.rules.state import PHASES
from spacemission_env.space_mission.rules import new_game as sm_new_game
from tests.env.red_planet.test_encoding import rich_position
from tests.helpers.pictures import record_drawn_text
from tests.helpers.red_planet_positions import position

pytest.importorskip("PIL")


def random_states(n: int, seed: int, every: int = 1):
    """The states of one random game, every ``every``-th (the last one always)."""
    s = new_game(n, seed=seed)
    rand = random.Random(seed)
    t = 0
    while True:
        if t % every == 0 or is_over(s):
            yield s
        if is_over(s):
            return
        apply(s, rand.choice(legal_actions(s)))
        t += 1


def explicit_position():
    """Round 4, seat 1's Femme Fatale turn in 3 players (test_encoding.rich_position)."""
    return rich_position()


# --- every phase -------------------------------------------------------------------------------
@pytest.mark.parametrize("n", [3, 4, 5])
def test_every_phase_of_random_games_renders(n):
    pictured = set()
    phases = set()
    for seed in range(2):
        for s in random_states(n, seed):
            phases.add(s.phase)
            viewer = s.current_player if s.current_player >= 0 else 0
            assert render_ansi(s).startswith("Mission: Red Planet")
            assert f"player_{viewer}'s view" in render_ansi(s, viewer)
            if (s.phase, s.round in (1, 10)) not in pictured:  # a picture per phase, early/late
                pictured.add((s.phase, s.round in (1, 10)))
                for v in (None, viewer):
                    img = render_rgb(s, v)
                    assert img.shape == (HEIGHT, WIDTH, 3) and img.dtype == np.uint8
    assert {"keep", "commit", "place", "ability", "over"} <= phases


@pytest.mark.parametrize("kw", [
    dict(phase="setup_zone", pad={0: 30}, crew={30: {0: 1}}, pending_slot=0),
    dict(phase="destination", role="Scientist", pad={0: 30}, crew={30: {0: 1}}, pending_slot=0, placed_slots=[0]),
    dict(phase="discovery", role="Scientist", drawn="Meteoritenfeld"),
    dict(phase="ability", role="Explorer", steps_left=2, mars={3: {0: 1}}),
])
def test_the_rarer_phases_render(kw):
    s = position(3, **kw)
    assert s.phase in PHASES
    for v in (None, 0, 1):
        assert render_rgb(s, v).shape == (HEIGHT, WIDTH, 3)
        assert f"phase {s.phase}" in render_ansi(s, v)


# --- text from an explicit position ---------------------------------------------------------
def lines_of(text: str) -> dict[str, str]:
    """Zone lines by zone id, slot lines by 'slot k', seat lines by 'player_q' (two lines each)."""
    lines = text.splitlines()
    out = {}
    for i, line in enumerate(lines):
        words = line.split()
        if words and words[0].isdigit() and ("central" in line or "outer" in line):
            out[f"zone {words[0]}"] = line
        elif words and words[0].isdigit():
            out[f"slot {words[0]}"] = line
        elif "player_" in line and "(" in line and "supply" in line:
            out[line.lstrip("> ").split()[0]] = line + "\n" + lines[i + 1]
    return out


def test_text_shows_the_counts_of_an_explicit_position():
    s = explicit_position()
    rows = lines_of(render_ansi(s))
    assert rows["zone 3"].split()[4] == "celerium" and rows["zone 3"].split()[5] == "1"  # leftover 1
    assert rows["zone 3"].endswith("player_0:2 player_2:1")
    assert rows["zone 5"].endswith("player_1:4") and "Grubenunglück by player_2" in rows["zone 5"]
    assert rows["zone 0"].endswith(" -")
    # slot 0: ship 2, capacity 5, 3 aboard, token to Rim 5 (zone 7); slot 1: ship 5 full, in the air
    assert rows["slot 0"].split()[:4] == ["0", "2", "5", "2"] and "Rim 5 (token)" in rows["slot 0"]
    assert rows["slot 0"].endswith("player_0:1 player_1:2")
    assert "air #1" in rows["slot 1"] and rows["slot 1"].endswith("player_2:5")
    p2 = rows["player_2"]
    assert "supply 13, LiSM 3" in p2  # 22 - 5 aboard - 1 on Mars - 3 killed
    assert "ice 1 sylvanite 0 celerium 3" in p2 and "score 10" in p2  # 1 + 3 x 3
    assert "(4)" in p2 and "Gute Planung" in p2
    assert "commit Femme Fatale" in rows["player_1"] and "[5]" in rows["player_1"]  # in execution
    assert "commit Soldier (hidden)" in rows["player_0"] and "<8>" in rows["player_0"]
    assert rows["player_1"].startswith("> ") or "> player_1" in render_ansi(s)


def test_a_seat_sees_its_own_cards_and_only_counts_of_the_others():
    s = explicit_position()
    text = render_ansi(s, 0)
    rows = lines_of(text)
    assert "Celerium" in rows["player_0"] and "Soldier (hidden)" in rows["player_0"]
    assert "bonus: 2 hidden" in rows["player_1"] and "Kolonisation" not in text
    assert "Gute Planung" not in text and "bonus: 1 hidden" in rows["player_2"]
    assert "Grubenunglück" not in text and "? by player_2" in rows["zone 5"]  # laid by seat 2, unseen by 0
    assert "Hübscher Felsen 1 by player_1" in render_ansi(s, 1)  # its layer knows it (M-I2)
    assert "score" not in text and "counter points 10" in rows["player_2"]
    rows1 = lines_of(render_ansi(s, 1))
    assert "commit chosen (hidden)" in rows1["player_0"] and "8" in rows1["player_0"] and "<8>" not in rows1["player_0"]


def test_render_human_prints_the_table():
    s = explicit_position()
    out = io.StringIO()
    render_human(s, file=out)
    assert out.getvalue() == render_ansi(s) + "\n\n"


# --- hidden information ---------------------------------------------------------------------------
@pytest.mark.parametrize("n", [3, 4, 5])
def test_a_seats_view_does_not_change_when_what_it_cannot_know_is_resampled(n):
    rng = np.random.default_rng(n)
    changed = 0
    for t, s in enumerate(random_states(n, 100 + n, every=4)):
        for viewer in range(n):  # the text for every seat, every 4th state
            other = sample_world(s, viewer, rng)
            assert render_ansi(other, viewer) == render_ansi(s, viewer), (s.phase, s.round, viewer)
            changed += render_ansi(other) != render_ansi(s)
        if t % 6 == 0 or is_over(s):  # the picture for one seat in turn, every 24th state
            viewer = t // 6 % n
            other = sample_world(s, viewer, rng)
            assert np.array_equal(render_rgb(other, viewer), render_rgb(s, viewer)), (s.phase, s.round, viewer)
    assert changed > 0  # the everything-view does show what was resampled: the check can fail


def test_the_seat_view_hides_an_unrevealed_commit_that_the_full_view_shows():
    s = explicit_position()
    t = s.copy()
    t.players[0].commit, t.players[0].hand = 6, sorted(set(t.players[0].hand) - {6} | {7})  # Travel Agent instead
    assert not np.array_equal(render_rgb(t), render_rgb(s))
    assert np.array_equal(render_rgb(t, 1), render_rgb(s, 1))


# --- the picture --------------------------------------------------------------------------------
def crop(img, box):
    x0, y0, x1, y1 = box
    return img[y0:y1, x0:x1]


def has_colour(img, box, colour) -> bool:
    return bool((crop(img, box) == np.array(colour, dtype=np.uint8)).all(axis=-1).any())


def test_regions_lie_in_the_picture_and_do_not_overlap():
    boxes = [zone_region(z) for z in range(10)] + [slot_region(k) for k in range(5)] + [header_region()]
    boxes += [seat_region(q, 5) for q in range(5)]
    for i, (a0, b0, a1, b1) in enumerate(boxes):
        assert 0 <= a0 < a1 <= WIDTH and 0 <= b0 < b1 <= HEIGHT
        for c0, d0, c1, d1 in boxes[i + 1:]:
            assert a1 <= c0 or c1 <= a0 or b1 <= d0 or d1 <= b0, f"{(a0, b0, a1, b1)} overlaps {(c0, d0, c1, d1)}"


def test_astronauts_and_crews_are_drawn_in_their_regions():
    s = position(3, mars={6: {1: 2}}, crew={8: {2: 3}})  # seat 1 (blue) in zone 6; seat 2 (yellow) on slot 2's ship
    img = render_rgb(s)
    blue, yellow = PLAYER_COLOURS[1], PLAYER_COLOURS[2]
    assert has_colour(img, zone_region(6), blue)
    assert not any(has_colour(img, zone_region(z), blue) for z in range(10) if z != 6)
    assert has_colour(img, slot_region(2), yellow) and not has_colour(img, slot_region(0), yellow)


def test_size_dtype_and_png(tmp_path):
    s = new_game(4, seed=0)
    img = render_rgb(s, 2)
    assert img.shape == (820, 1340, 3) and img.dtype == np.uint8 and img.flags.writeable
    PIL = pytest.importorskip("PIL.Image")
    save_png(s, tmp_path / "board.png", viewer=2)
    assert np.array_equal(np.asarray(PIL.open(tmp_path / "board.png").convert("RGB")), img)


@pytest.mark.parametrize("viewer, error", [("0", TypeError), (True, TypeError), (1.0, TypeError), (-1, ValueError),
                                           (3, ValueError)])
def test_a_bad_viewer_is_rejected(viewer, error):
    s = new_game(3, seed=0)
    for fn in (render_rgb, render_ansi):
        with pytest.raises(error, match="viewer"):
            fn(s, viewer)


def test_a_state_of_another_kind_is_rejected():
    with pytest.raises(TypeError, match="GameState"):
        render_ansi({"phase": "commit"})


def test_the_docs_page_shows_the_example_as_rendered_and_its_pictures_exist():
    from spacemission_env.red_planet.render import example_state
    from tests.helpers.paths import ROOT
    page = (ROOT / "docs" / "red_planet" / "render.md").read_text(encoding="utf-8")
    s = example_state()
    assert s.num_players == 4 and s.round == 6 and s.airborne
    assert render_ansi(s, viewer=0) in page
    for name in ("red_planet_board.png", "red_planet_board_seat0.png"):
        assert f"../images/{name}" in page and (ROOT / "docs" / "images" / name).stat().st_size > 10_000


def test_the_game_protocols_render_passes_the_viewer_to_the_text():
    """Before: ``get_game("red_planet").render(state, "ansi", viewer=q)`` (games.md's protocol
    entry) and ``"human"`` dropped the viewer and showed every seat's bonus cards and unrevealed
    commit; only ``"rgb_array"`` honoured it. Space Mission's text, which has no seat view,
    refuses a viewer instead of showing the whole table."""
    s = explicit_position()
    game = get_game("red_planet")
    assert game.render(s, "ansi", viewer=0) == render_ansi(s, 0)
    assert "Kolonisation" not in game.render(s, "ansi", viewer=0)
    assert game.render(s, "ansi") == render_ansi(s)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert game.render(s, "human", viewer=0) is None
    assert out.getvalue() == render_ansi(s, 0) + "\n\n"  # a blank line between frames, as render_human
    sm = get_game("spacemission")
    with pytest.raises(ValueError, match=r"Space Mission's text view shows the whole table: it takes no viewer \(got viewer=0\)"):
        sm.render(sm_new_game(2, seed=0), "ansi", viewer=0)
    assert isinstance(sm.render(sm_new_game(2, seed=0), "ansi"), str)


def test_the_picture_spells_out_the_umlauts_its_font_lacks(monkeypatch):
    """Pillow's built-in font has no umlauts: "Eisblöcke 1", "Grubenunglück" and "Hübscher Felsen 1"
    drew with empty boxes in the picture (the web view too). Every text drawn is now ASCII, spelled
    out as German does without umlauts; the text table keeps the names as they are."""
    drawn = record_drawn_text(monkeypatch)
    s = explicit_position()  # seat 1's bonus "Eisblöcke 1", discovery cards "Grubenunglück", "Hübscher Felsen 1"
    render_rgb(s)
    assert drawn and all(text.isascii() for text in drawn), [t for t in drawn if not t.isascii()]
    assert any("Eisbloecke 1" in text for text in drawn) and any(text.startswith("Grube") for text in drawn)
    assert "Eisblöcke 1" in render_ansi(s)
    from spacemission_env.red_planet.render import _drawable

    assert _drawable("Hübscher Felsen, Mine erschöpft, Größe, Café – x") == "Huebscher Felsen, Mine erschoepft, Groesse, Cafe ? x"


def test_the_whole_table_says_it_is_not_a_seats_view(monkeypatch):
    """Without a viewer the text and the picture show every seat's hidden cards; they now say so,
    as a seat's view says whose it is (before: no word, easy to take for the acting seat's view)."""
    s = explicit_position()
    assert render_ansi(s).splitlines()[0].endswith("| whole table: every card shown")
    assert "whole table" not in render_ansi(s, viewer=0)
    drawn = record_drawn_text(monkeypatch)
    render_rgb(s)
    assert "Mission: Red Planet - whole table, every card shown" in drawn


def test_the_text_in_colours_names_every_seat_by_its_colour_only():
    # terminal play printed this board with "player_1 (blue)" rows, "P0:2" astronauts, "by P2"
    # discoveries, "player_1 to act | start player_0" and "seat 0's view", while its own lines said
    # "seat 1 (random)": one person read four namings of the same seat. render_ansi_colours (what play
    # prints, as Space Mission's play) writes each seat by its colour, and nothing else.
    from spacemission_env.red_planet.render import render_ansi_colours

    s = explicit_position()
    text = render_ansi_colours(s, 0)
    rows = text.splitlines()
    assert rows[0].endswith("phase place: blue to act, role Femme Fatale | start yellow | red's view"), rows[0]
    zone = {ln.split()[0]: ln for ln in rows[3:13]}
    assert zone["3"].endswith("red:2 yellow:1") and zone["5"].endswith("blue:4") and "? by yellow" in zone["5"]
    slot = {ln.split()[0]: ln for ln in rows[14:17]}
    assert slot["0"].endswith("red:1 blue:2") and slot["1"].endswith("yellow:5")
    assert [ln.split(":")[0] for ln in rows if "supply" in ln] == ["  red", "> blue", "  yellow"]
    assert "Hübscher Felsen 1 by blue" in render_ansi_colours(s, 1)
    for viewer in (None, 0, 1, 2):
        shown = render_ansi_colours(s, viewer)
        assert not re.search(r"player_\d|\bP\d|seat \d", shown), re.findall(r".{20}(?:player_\d|\bP\d|seat \d).{10}", shown)
    assert "player_1 (blue)" in render_ansi(s, 0) and "player_0:2" in render_ansi(s, 0)  # the env's: its agents' names


def test_the_env_text_and_picture_name_every_seat_as_its_agent():
    # the env's text said "player_1 (blue)" in its rows but "P0:2" astronauts, "by P2" discoveries
    # and "seat 0's view" in its header, and the picture "player_0 (red)" beside "seat 0's view":
    # three names for one seat on one screen. The env's renders are read by RL users whose agents
    # are player_Q (PettingZoo): every seat is now player_Q, its colour once, in its own row/panel.
    s = explicit_position()
    for viewer in (None, 0, 1, 2):
        text = render_ansi(s, viewer)
        assert not re.search(r"\bP\d|seat \d|\b(red|blue|yellow)\b(?!\))", text), \
            re.findall(r".{20}(?:\bP\d|seat \d|\b(?:red|blue|yellow)\b(?!\))).{10}", text)
        assert [re.findall(r"\((red|blue|yellow)\)", ln) for ln in text.splitlines() if "(red)" in ln or "(blue)" in ln
                or "(yellow)" in ln] == [["red"], ["blue"], ["yellow"]]  # the colour once, in its row
    rows = render_ansi(s, 0).splitlines()
    assert rows[0].endswith("phase place: player_1 to act, role Femme Fatale | start player_2 | player_0's view"), rows[0]
    assert rows[2].index("astronauts") == rows[3].index("-", rows[2].index("discovery") + 10)  # the heading over its column


def test_a_long_discovery_text_keeps_the_astronauts_column_apart():
    # the discovery column was 38 wide: "Moose und Flechten by player_0 seen by player_2,player_3"
    # ran into the astronauts ("... player_3 -"); the column now widens to its longest text
    from spacemission_env.red_planet.render import render_ansi_colours

    s = position(4, discoveries={8: ("Moose und Flechten", 0)}, mars={1: {0: 3}})
    s.looked[8] = [2, 3]  # M-O3(b): who looked is public
    for text in (render_ansi(s), render_ansi_colours(s)):
        lines = text.splitlines()
        at = next(ln for ln in lines if ln.startswith("zone ")).index("astronauts")
        rows = {ln.split()[0]: ln for ln in lines if ln[:1].isdigit() and ("central" in ln or "outer" in ln)}
        assert "Moose und Flechten by " in rows["8"] and rows["8"][at - 1] == " " and rows["8"][at:] == "-", rows["8"]
        assert rows["1"][at:] in ("player_0:3", "red:3"), rows["1"]


def test_the_picture_names_every_seat_as_its_agent(monkeypatch):
    s = explicit_position()
    drawn = record_drawn_text(monkeypatch)
    for viewer in (None, 0, 2):
        drawn.clear()
        render_rgb(s, viewer)
        assert not any(re.search(r"\bP\d|seat \d", t) for t in drawn), [t for t in drawn if re.search(r"\bP\d|seat \d", t)]
        assert [t.split(" - ")[0].split("  <-")[0] for t in drawn if re.match(r"player_\d \(", t)] == \
            ["player_0 (red)", "player_1 (blue)", "player_2 (yellow)"]
    assert "Mission: Red Planet - player_2's view" in drawn and "player_2 (yellow) - this view" in drawn
