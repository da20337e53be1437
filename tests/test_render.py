"""render.py: the text table and the board picture show what the state holds."""
import numpy as np
import pytest
from env_helpers import progress_action

from spacemission_env.components import PLANET_LANDING, PLANET_NAMES
from spacemission_env.render import PLAYER_COLOURS, render_ansi, render_rgb, save_png
from spacemission_env.rules import apply, legal_action_mask, new_game


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
        assert f"player_{q}: score" in text
    assert f"round {s.round}/{s.max_rounds}" in text
    assert "jump gate: ships" in text


def test_ansi_shows_stations_probes_and_revealed_piles():
    s = _midgame(actions=200)
    text = render_ansi(s)
    station_planets = [p for p in range(8) if s.stations[p] >= 0]
    assert station_planets, "the progress player builds stations"
    for p in station_planets:
        row = next(line for line in text.splitlines() if line.startswith(f"{p} "))
        assert f"P{s.stations[p]}" in row
    if any(s.revealed):
        assert "revealed:" in text


def test_rgb_picture_is_a_real_image_that_changes_with_the_state():
    start = new_game(3, seed=1)
    img = render_rgb(start)
    assert img.shape == (800, 1200, 3) and img.dtype == np.uint8
    assert len(np.unique(img.reshape(-1, 3), axis=0)) > 50, "planets, text and colours, not a blank canvas"
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
