"""render.py: the text table and the board picture show what the state holds."""
import re

import numpy as np
import pytest
from tests.helpers.env_play import progress_action
from tests.helpers.pictures import record_drawn_text

from spacemission_env.space_mission.components import PLANET_LANDING, PLANET_NAMES
from spacemission_env.space_mission.render import PLAYER_COLOURS, PLAYER_NAMES, render_ansi, render_rgb, save_png
from spacemission_env.space_mission.rules import apply, legal_action_mask, new_game


def _midgame(num_players=4, seed=3, actions=120):
    s = new_game(num_players, seed=seed)
    rng = np.random.default_rng(seed)
    for _ in range(actions):
        if s.is_over:
            break
        apply(s, progress_action(legal_action_mask(s), rng))
    return s


def test_ansi_lists_every_planet_with_coordinates_and_players():
    s = _midgame()
    text = render_ansi(s)
    for p, planet in enumerate(s.ring):
        assert PLANET_NAMES[planet] in text
        l1, l2 = PLANET_LANDING[planet]
        assert f"L{l1},{l2}" in text
    for q in range(s.num_players):
        assert f"player_{q} ({PLAYER_NAMES[q]}): score" in text
    assert f"round {s.round}/{s.max_rounds}" in text
    assert "jump gate: ships" in text


def test_ansi_shows_stations_probes_and_revealed_piles():
    # a played game: every station is in its planet's row; the seed reveals piles 1, 2 and 5
    s = _midgame(actions=200)
    text = render_ansi(s)
    station_planets = [p for p in range(8) if s.stations[p] >= 0]
    assert station_planets, "the progress player builds stations"
    for p in station_planets:
        row = next(line for line in text.splitlines() if line.startswith(f"{p} "))
        assert f"player_{s.stations[p]}" in row
    assert any(s.revealed) and "revealed:" in text

    # an explicit position: each row's station, probes (one per reserved tile) and pile, by hand
    from tests.helpers.positions import position

    ring = ["Freezer", "Hazard", "Caldera", "Green Heggar", "Ruby Red", "Aurora", "Basalt", "Cinder"]
    s = position(3, ring=ring, ships={0: None, 1: None, 2: None}, stations={0: 1, 5: 2},
                 reservations={(3, 0): {"water": 1, "medal": 1}, (3, 2): {"water": 1}, (6, 1): {"medal": 3}},
                 piles={1: {"space": 2}, 2: {"space": 1}, 4: {"water": 2, "space": 1}}, revealed=[1, 2],
                 gate_probes={0: 2, 2: 5})
    lines = render_ansi(s).splitlines()
    rows = {p: next(line for line in lines if line.startswith(f"{p} ")) for p in range(8)}
    station = {0: "1", 5: "2"}  # ships are all on the gate: a bare player_<q> in a row is a station
    probes = {3: {("0", "2"), ("2", "1")}, 6: {("1", "3")}}
    for p, row in rows.items():
        assert re.findall(r"\bplayer_(\d)\b(?!:)", row) == ([station[p]] if p in station else []), row
        assert set(re.findall(r"\bplayer_(\d):(\d+)", row)) == probes.get(p, set()), row
    assert "revealed: 2 space" in rows[1] and "revealed: 1 space" in rows[2] and "pile 3 " in rows[4]
    assert all("revealed" not in rows[p] for p in (0, 3, 4, 5, 6, 7))
    assert "jump gate: ships player_0 player_1 player_2 | probes player_0:2 player_1:0 player_2:5" in lines


def test_ansi_keeps_the_ships_column_apart_from_many_seats_probes():
    # five seats' probes on one planet (24 characters, then "P3:1 P4:1") ran into the ships column: "P3:1 P4:1 P1"
    # read as a sixth probe entry or a ship; the column now widens to the longest probes text
    from tests.helpers.positions import position

    s = position(5, ring=["Freezer", "Hazard", "Caldera", "Green Heggar", "Ruby Red", "Aurora", "Basalt", "Cinder"],
                 ships={0: None, 1: 3, 2: None, 3: None, 4: None},
                 reservations={(3, q): {"water": 1} for q in range(5)})
    lines = render_ansi(s).splitlines()
    header = next(line for line in lines if line.startswith("pos planet"))
    at = header.index("ships")
    for p in range(8):
        row = next(line for line in lines if line.startswith(f"{p} "))
        assert row[at - 1] == " " and row[at - 2] == " ", row  # the probes end before the ships column
        assert row[at:].split() == (["player_1"] if p == 3 else ["-"]), row
        # each heading stands over its column (the headings from "pile" on stood one to the right)
        assert re.match(r"pile \d ", row[header.index("pile"):]), row
        assert row[header.index("station"):].split()[0] == "-", row
    row3 = next(line for line in lines if line.startswith("3 "))
    assert row3[header.index("probes"):at].split() == [f"player_{q}:1" for q in range(5)], row3


def test_rgb_picture_is_a_real_image_that_changes_with_the_state():
    start = new_game(3, seed=1)
    img = render_rgb(start)
    assert img.shape == (800, 1200, 3) and img.dtype == np.uint8
    # anti-aliased text gives thousands of colours; Pillow < 10.1 has only its bitmap font (23 at 9.5)
    from spacemission_env.space_mission.render import _font
    from PIL import ImageFont

    least = 50 if isinstance(_font(12), ImageFont.FreeTypeFont) else 15
    assert len(np.unique(img.reshape(-1, 3), axis=0)) > least, "planets, text and colours, not a blank canvas"
    later = render_rgb(_midgame(3, seed=1, actions=60))
    assert (img != later).any()
    # every player's colour appears (ships on the gate at the start, panel boxes)
    flat = img.reshape(-1, 3)
    for q in range(3):
        assert (flat == np.array(PLAYER_COLOURS[q], dtype=np.uint8)).all(axis=1).any()
    # the jump gate sits in the middle of the board: its fill colour is at the centre
    assert tuple(img[400, 335]) == (40, 30, 80)


def test_save_png(tmp_path):
    PIL = pytest.importorskip("PIL.Image")
    path = tmp_path / "board.png"
    save_png(_midgame(5, seed=2), str(path))
    with PIL.open(path) as im:
        assert im.size == (1200, 800)


def test_game_over_is_rendered():
    s = _midgame(2, seed=4, actions=5000)
    assert s.is_over
    assert "game over" in render_ansi(s)
    assert render_rgb(s).shape == (800, 1200, 3)


# --- the picture follows the state: each change shows where it should ----------------------------
from tests.helpers.positions import develop, jump, position, scan, take  # noqa: E402

from spacemission_env.space_mission import actions as A  # noqa: E402
from spacemission_env.space_mission.render import gate_region, header_region, panel_region, planet_region  # noqa: E402
from tests.helpers.paths import ROOT

RING = ["Freezer", "Hazard", "Caldera", "Green Heggar", "Ruby Red", "Aurora", "Basalt", "Cinder"]  # 2: Caldera J1 S3 L3,4


def _base(**kw):
    args = dict(ring=RING, ships={0: 2, 1: 5, 2: None}, current=0,
                hands={0: ["J1/S3", "S3/L4", "J2/L3", "J4/L4", "J1/L1"]},
                piles={2: {"water": 2, "medal": 1, "space": 2}}, scanned={0: [2]})
    args.update(kw)
    return position(3, **args)


def _changed(before, after) -> np.ndarray:
    return (render_rgb(before) != render_rgb(after)).any(axis=2)


def _box(mask: np.ndarray, region) -> np.ndarray:
    x0, y0, x1, y1 = region
    return mask[y0:y1, x0:x1]


def _check_regions(diff: np.ndarray, expected: list, allowed: list) -> None:
    """Every changed pixel lies in an allowed region; each expected region has changed pixels."""
    inside = np.zeros_like(diff)
    for x0, y0, x1, y1 in expected + allowed:
        inside[y0:y1, x0:x1] = True
    ys, xs = np.nonzero(diff & ~inside)
    assert ys.size == 0, f"{ys.size} pixels changed outside the expected regions, e.g. at x={xs[0]}, y={ys[0]}"
    for region in expected:
        assert _box(diff, region).any(), f"nothing changed in {region}"


def _apply(s, *actions):
    t = s.copy()
    for a in actions:
        apply(t, a)
    return t


SIDE = [header_region(), panel_region(0, 3)]  # the acting seat's box and the status lines may change too


def test_picture_ship_move_changes_both_planets_only():
    s = _base()
    after = _apply(s, A.FLY_CW)  # R-A3: from ring position 2 to 3
    diff = _changed(s, after)
    _check_regions(diff, [planet_region(2), planet_region(3)], SIDE)
    assert not _box(diff, gate_region()).any() and not _box(diff, planet_region(6)).any()


def test_picture_probe_shows_on_the_planet():
    s = _base()
    after = _apply(s, scan(s, "J1/S3"), take("water"))  # R-A4: a reservation under a probe
    assert after.probes_on(2, 0) == 1
    _check_regions(_changed(s, after), [planet_region(2)], SIDE)


def test_picture_station_shows_on_the_planet():
    s = _base()
    mid = _apply(s, develop(s, "J2/L3", "J4/L4"))  # R-A5 needs a tile decision next: take it
    after = _apply(mid, take("water"))
    assert after.stations[2] == 0
    diff = _changed(s, after)
    _check_regions(diff, [planet_region(2)], SIDE)
    x, y = (planet_region(2)[0] + planet_region(2)[2]) // 2, (planet_region(2)[1] + planet_region(2)[3]) // 2
    assert tuple(render_rgb(after)[y + 40, x - 7]) == PLAYER_COLOURS[0], "the station square is the owner's colour"


def test_picture_revealed_pile_shows_on_the_planet():
    s = _base(piles={2: {"water": 1, "space": 3}}, stations={2: 1})
    after = _apply(s, A.DISCOVER, take("water"))  # R-A6 then R-V1: no point tile left, the space tiles turn up
    assert after.revealed[2] and not s.revealed[2]
    _check_regions(_changed(s, after), [planet_region(2), header_region()], [panel_region(0, 3)])


def test_picture_jump_moves_the_ship_and_adds_a_gate_probe():
    s = _base(ships={0: None, 1: 5, 2: 6})
    after = _apply(s, jump(s, "J1/S3", 0))  # R-A2: a probe on the jump gate, the ship to position 0
    _check_regions(_changed(s, after), [planet_region(0), gate_region()], SIDE)


def test_picture_is_deterministic():
    s = _midgame(3, seed=5, actions=80)
    first = render_rgb(s)
    assert np.array_equal(first, render_rgb(s))
    assert np.array_equal(first, render_rgb(s.from_json(s.to_json())))


def test_viewer_picture_hides_other_hands_and_tiles():
    mine = {0: ["J1/S3", "S3/L4"], 2: ["J2/L2"]}
    s = _base(hands={**mine, 1: ["J2/S2", "J3/S4"]}, collections={1: {"water": 2}})
    other = _base(hands={**mine, 1: ["J4/S1", "S1/L3"]}, collections={1: {"medal": 2}})
    assert np.array_equal(render_rgb(s, viewer=0), render_rgb(other, viewer=0)), "seat 0 cannot tell seat 1's cards"
    assert not np.array_equal(render_rgb(s), render_rgb(other))
    assert not np.array_equal(render_rgb(s, viewer=1), render_rgb(other, viewer=1))
    with pytest.raises(ValueError, match="viewer"):
        render_rgb(s, viewer=3)


@pytest.mark.parametrize("viewer, error", [("0", TypeError), (True, TypeError), (1.0, TypeError), (-1, ValueError),
                                           (3, ValueError)])
def test_a_bad_viewer_raises_the_error_of_its_kind(viewer, error):
    # a viewer of the wrong type raised ValueError here, TypeError in Red Planet's render (checks' convention)
    with pytest.raises(error, match="viewer must be"):
        render_rgb(new_game(3, seed=0), viewer)


def test_docs_board_picture_is_there_and_linked():

    root = ROOT
    with __import__("PIL.Image").Image.open(root / "docs" / "images" / "board.png") as im:
        assert im.size == (1200, 800)
    assert "docs/images/board.png" in (root / "README.md").read_text()
    assert "images/board.png" in (root / "docs" / "play.md").read_text()


def test_five_players_panels_keep_the_last_turn_when_the_tiles_take_two_lines(monkeypatch):
    # five seats' panels have room for five lines of 16 pixels: a collection wrapping onto a
    # second line pushed the "last turn" line out of the box, and it was not drawn at all
    drawn = record_drawn_text(monkeypatch, where=True)
    many = {"mineral_red": 1, "mineral_green": 1, "alien_blue": 3, "matter_blue": 1, "water": 2, "medal": 1}
    s = position(5, ring=RING, collections={0: many})
    render_rgb(s)
    for q in range(5):
        x0, top, x1, bottom = panel_region(q, 5)
        inside = [text for (x, y), text in drawn if x0 <= x < x1 and top <= y < bottom]
        assert any(text.startswith("last turn:") for text in inside), (q, inside)
        if q == 0:  # the collection takes two lines
            tiles = next(i for i, text in enumerate(inside) if text.startswith("tiles:"))
            assert "medal" not in inside[tiles] and "medal" in inside[tiles + 1], inside


def test_the_whole_table_says_it_is_not_a_seats_view(monkeypatch):
    # the text (every hand) and the picture without a viewer did not say they show what no seat
    # sees; a person watching an env's render could take it for the acting seat's view
    s = position(3, ring=RING)
    assert render_ansi(s).splitlines()[0].endswith("| whole table: every hand shown")
    drawn = record_drawn_text(monkeypatch)
    render_rgb(s)
    assert "Space Mission [yucata] - whole table" in drawn
    drawn.clear()
    render_rgb(s, viewer=1)
    assert "Space Mission [yucata] - player_1's view" in drawn and not any("whole table" in t for t in drawn)


@pytest.mark.parametrize("game", ["spacemission", "red_planet"])
def test_human_frames_are_apart(game, capsys):
    # render_mode="human" printed each frame straight after the last one (Game.render's print),
    # though render_human, which the module docs name as that mode, ends each with a blank line
    from spacemission_env import gym_env

    env = gym_env.GameEnv(num_players=3, render_mode="human", game=game)
    env.reset(seed=1)
    frame = env.game.render(env.engine.to_reference(env.batch_state, 0), "ansi")
    assert capsys.readouterr().out == frame + "\n\n"
    env.step(int(np.flatnonzero(env.action_masks())[0]))
    assert env.render() is None
    out = capsys.readouterr().out
    assert out.endswith("\n\n") and out.count("\n\n") == 2 and out.split("\n\n")[1].startswith(frame.split(" ")[0])


def test_five_players_panel_draws_every_line_when_it_wraps_to_eight(monkeypatch):
    # at five seats a panel holds seven lines at the closest spacing (13 px); a seat with ten tile
    # types (three lines) and a two-action last turn (two lines) wraps to eight, and the last one
    # ("J4/S1)" of the top up) was not drawn at all. Built from the JSON state (docs/state_json.md).
    import json

    from spacemission_env.space_mission.rules.state import GameState

    every = {"mineral_red": 1, "mineral_purple": 1, "mineral_green": 1, "mineral_blue": 1, "alien_brown": 1,
             "alien_blue": 3, "matter_green": 1, "matter_blue": 1, "water": 2, "medal": 1}
    s = position(5, ring=RING, collections={0: every}, ships={0: 3}, current=1,
                 hands={0: ["J1/S1", "J2/S2", "J3/S3", "J4/L2", "S3/L1"]})
    d = json.loads(s.to_json())
    d["players"][0]["last_turn"] = [{"action": "jump", "target": 3, "cards": ["J2/S4"], "tile": False},
                                    {"action": "top_up", "target": None, "cards": ["J2/S1", "J3/S1", "J4/S1"],
                                     "tile": False}]
    s = GameState.from_json(json.dumps(d))
    drawn = record_drawn_text(monkeypatch, where=True)
    render_rgb(s)
    x0, top, x1, bottom = panel_region(0, 5)
    inside = [text for (x, y), text in drawn if x0 <= x < x1 and top <= y < bottom]
    text = " ".join(inside)
    for words in ("score 31", "chips: supply", "hand: J1/S1 J2/S2 J3/S3 J4/L2 S3/L1", "1 medal",
                  "last turn: jump to Green Heggar (J2/S4); top up (J2/S1 J3/S1", "J4/S1)"):
        assert words in text, (words, inside)
    assert all(y < bottom - 8 for (x, y), t in drawn if x0 <= x < x1 and top <= y < bottom), inside
    # the other panels and the legend keep their size and every line
    legend = [t for t in drawn if isinstance(t[1], str) and t[1].startswith("numbered dots")]
    assert legend, drawn
    for q in range(1, 5):
        x0, top, x1, bottom = panel_region(q, 5)
        assert any(t.startswith("last turn:") for (x, y), t in drawn if x0 <= x < x1 and top <= y < bottom), q


def test_the_text_and_picture_name_every_seat_as_its_agent(monkeypatch):
    # the text said "player_0" in its rows and "to act" but "P0" for stations and ships and "P0:2"
    # for probes, and the picture "player_0 (red)" over its panels beside "seat 1's view" in its
    # title: two or three names for one seat on one screen. The env's renders are read by RL users
    # whose agents are player_Q (PettingZoo): every seat is now player_Q, its colour once, in its row
    s = position(3, ring=RING, ships={0: None, 1: 2, 2: None}, stations={0: 1, 5: 2},
                 reservations={(3, 0): {"water": 1}, (3, 2): {"water": 1}}, gate_probes={0: 2})
    text = render_ansi(s)
    assert not re.search(r"\bP\d|seat \d|\b(red|blue|yellow)\b(?!\))", text), text
    rows = text.splitlines()
    assert rows[0].startswith("Space Mission [yucata] 3 players, round 1/100: player_0 to act")
    assert [ln.split(":")[0] for ln in rows if "score" in ln] == ["> player_0 (red)", "  player_1 (blue)", "  player_2 (yellow)"]
    by_pos = {ln.split()[0]: ln for ln in rows if ln[:1].isdigit()}
    assert by_pos["0"].split()[7] == "player_1" and "player_0:1 player_2:1" in by_pos["3"] and by_pos["2"].endswith(" player_1")
    assert "jump gate: ships player_0 player_2 | probes player_0:2 player_1:0 player_2:0" in rows
    drawn = record_drawn_text(monkeypatch)
    for viewer in (None, 1):
        drawn.clear()
        render_rgb(s, viewer)
        assert not any(re.search(r"\bP\d|seat \d", t) for t in drawn), [t for t in drawn if re.search(r"\bP\d|seat \d", t)]
        assert [t.split(" - ")[0].split("  <-")[0] for t in drawn if re.match(r"player_\d \(", t)] == \
            ["player_0 (red)", "player_1 (blue)", "player_2 (yellow)"]
    assert "player_1 (blue) - this view" in drawn and any(t.startswith("player_0 to act") for t in drawn)
