"""A user's and a third-party client's sweep of ``spacemission serve`` (the fourth): the
defects found, each with its test. Through the API: the Space Mission page at
/play/spacemission (the only way to it when another game is at /), and a resigned game's
view saying the game is over (not "red to act"). In a real headless Chromium: the Red Planet
page's text board readable, no empty result box during play, its move buttons disabled while
a move is on its way, a reload going on with the game, a phone's viewport; the Space Mission
page fitting a phone's width with 5 players, a reload showing the moves so far at once (not
replayed with the bots' delay) and its new-game form showing the resumed game's settings, and
back going to the previous game.

The browser tests are skipped, with the reason, where Playwright or Debian's chromium is
absent (as in test_serve_browser.py)."""
from __future__ import annotations

import threading
import time

import pytest

from tests.helpers.web import desktop_page, playwright_or_skip, post_json, served, web_client

# --- the API --------------------------------------------------------------------------------


def test_play_spacemission_is_its_page_when_another_game_is_at_the_root():
    client = web_client(("random",), game_opponents={"red_planet": ["random"]}, start_page="red_planet")
    root = client.get("/")
    assert root.status_code == 200 and "<pre id=\"board\">" in root.text  # / is Red Planet's page
    page = client.get("/play/spacemission")  # was 404: Space Mission's page was nowhere
    assert page.status_code == 200 and "<title>Space Mission</title>" in page.text
    r = client.get("/play/tom_tube")
    assert r.status_code == 404
    assert r.json()["error"] == ("no page for game 'tom_tube'; the pages are / (red_planet), /play/spacemission, "
                                 "/play/red_planet")


def test_a_resigned_game_says_it_is_over_with_no_one_to_act():
    client = web_client(("random",))
    g = client.post("/api/games", json={"seed": 4}).json()
    assert "red (seat 0) to act" in g["view"]["status"] and not g["view"]["game_over"]
    r = client.post(f"/api/games/{g['id']}/resign")
    assert r.status_code == 200
    g = r.json()
    assert g["over"] and g["final"]["resigned"] and not g["your_turn"] and g["moves"] == []
    for view in (g["view"], g["final"]["view"]):  # the page shows the status and marks the acting seat by these
        assert view["game_over"] is True
        assert view["status"].startswith("round 1/100 | game over\n"), view["status"]
        assert "to act" not in view["status"]


def test_a_move_sent_while_the_picture_is_drawn_is_played(monkeypatch):
    from spacemission_env.red_planet import render

    client = web_client(("random",), game_opponents={"red_planet": ["random"]})
    g = client.post("/api/games", json={"game": "red_planet", "seed": 4}).json()
    drawing, finish = threading.Event(), threading.Event()
    real = render.render_rgb

    def slow_render(state, viewer=None):  # a loaded machine: drawing takes a while
        drawing.set()
        assert finish.wait(10)
        return real(state, viewer=viewer)

    monkeypatch.setattr(render, "render_rgb", slow_render)
    pictures = []
    thread = threading.Thread(target=lambda: pictures.append(client.get(g["picture"])))
    thread.start()
    try:
        assert drawing.wait(10)
        # the page asks for the picture after every move; a click meanwhile was refused: 409, busy
        r = client.post(f"/api/games/{g['id']}/move", json={"action": g["moves"][0]["action"]})
    finally:
        finish.set()
        thread.join(10)
    assert r.status_code == 200, r.text
    assert r.json()["log"][0] == {"seat": 0, "text": g["moves"][0]["label"], "round": 1}
    assert pictures[0].status_code == 200 and pictures[0].content.startswith(b"\x89PNG")


# --- the pages in a browser -----------------------------------------------------------------

@pytest.fixture(scope="module")
def server():
    """The app on a free local port in a thread of this process."""
    playwright_or_skip()
    from spacemission_cli.web.app import create_app

    with served(create_app(["random"], game_opponents={"red_planet": ["random"]})) as url:
        yield url


@pytest.fixture
def page(browser):
    """A page and the errors it logs (uncaught exceptions and console errors)."""
    with desktop_page(browser, 15_000, console_errors=True) as opened:
        yield opened


READY = "document.getElementById('opponents').options.length > 0"  # the page has read /api/meta


def _red_planet_game(pg, url):
    pg.goto(f"{url}/play/red_planet")
    pg.wait_for_function(READY)
    pg.fill("#seed", "4")
    pg.click("#newgame button[type=submit]")
    pg.wait_for_selector("#moves button")


def _luminance(rgb: str) -> float:
    parts = [int(x) / 255 for x in rgb[rgb.index("(") + 1:rgb.index(")")].split(",")[:3]]
    lin = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in parts]
    return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]


def test_red_planet_text_board_is_readable_and_no_empty_result_box(server, page):
    pg, errors = page
    _red_planet_game(pg, server)
    colour, background = pg.evaluate("""() => { const s = getComputedStyle(document.getElementById('board'));
                                                return [s.color, s.backgroundColor]; }""")
    light, dark = sorted((_luminance(colour), _luminance(background)), reverse=True)
    # was the page's light text on the board's light grey (contrast 1.1)
    assert (light + 0.05) / (dark + 0.05) >= 7, (colour, background)
    assert "red's view" in pg.inner_text("#board")
    assert not pg.is_visible("#final")  # was an empty green box under the log during play
    assert not errors, errors


def test_red_planet_buttons_wait_for_the_move_on_its_way(server, page):
    pg, errors = page
    _red_planet_game(pg, server)
    held = []
    pg.route("**/api/games/*/move", lambda route: held.append(route))
    pg.locator("#moves button").first.click()
    deadline = time.monotonic() + 10
    while not held:
        assert time.monotonic() < deadline, "the move was not sent"
        pg.wait_for_timeout(20)
    # a second click would reach the server while the first is being played: 409, busy
    assert pg.locator("#moves button:enabled").count() == 0
    assert pg.locator("#newgame button:enabled").count() == 0
    held[0].continue_()
    pg.wait_for_selector("#moves button:enabled")
    assert pg.inner_text("#status") == "Your move." and not errors, errors


def test_red_planet_reload_goes_on_with_the_game(server, page):
    pg, errors = page
    _red_planet_game(pg, server)
    before = pg.locator("#log div").count()
    pg.locator("#moves button").first.click()
    pg.wait_for_function("n => document.getElementById('log').children.length > n", arg=before)
    pg.wait_for_selector("#moves button:enabled")
    log, board = pg.inner_text("#log"), pg.inner_text("#board")
    assert "#game=" in pg.url
    pg.reload()  # was an empty page: the game was only in the page's memory
    pg.wait_for_function(READY)
    pg.wait_for_selector("#moves button", timeout=5_000)
    assert pg.inner_text("#log") == log and pg.inner_text("#board") == board
    assert pg.inner_text("#title") == "Mission: Red Planet: you are seat 0" and not errors, errors


def test_red_planet_page_on_a_phone(browser, server):
    context = browser.new_context(viewport={"width": 375, "height": 740}, is_mobile=True, has_touch=True)
    try:
        pg = context.new_page()
        pg.goto(f"{server}/play/red_planet")
        pg.wait_for_function(READY)
        # without <meta name=viewport> a phone lays the page out 980 px wide and shrinks it
        assert pg.evaluate("innerWidth") == 375
    finally:
        context.close()


def test_space_mission_five_players_fit_a_phone(browser, server):
    context = browser.new_context(viewport={"width": 375, "height": 740})
    try:
        pg = context.new_page()
        pg.goto(f"{server}/?delay=0")
        pg.wait_for_selector("body[data-ready='1']")
        pg.select_option("#ng-players", "5")
        pg.fill("#ng-seed", "21")
        pg.click("#ng-start")
        pg.wait_for_selector("#moves .move")
        # the players' table was 463 px wide: the whole page scrolled sideways
        assert pg.evaluate("document.documentElement.scrollWidth") <= 375
        points = pg.locator("table.players thead th").last.bounding_box()
        assert points["x"] + points["width"] <= 375  # the points column is on the screen
    finally:
        context.close()


def test_space_mission_reload_shows_the_moves_so_far_at_once(server, page):
    pg, errors = page
    g = post_json(f"{server}/api/games", {"players": 5, "seat": 4, "seed": 3, "opponents": "random"})
    while g["log_size"] < 40:
        g = post_json(f"{server}/api/games/{g['id']}/move", {"action": g["moves"][0]["action"]})
    pg.goto(f"{server}/#game={g['id']}")  # the default delay, 350 ms between the bots' moves
    # was every bot move of the game replayed with the delay: 12 s here before any move
    pg.wait_for_selector("#moves .move:enabled", timeout=4_000)
    assert pg.locator("#log li").count() == g["log_size"] and not errors, errors


def test_space_mission_back_and_forward_between_games(server, page):
    pg, errors = page
    pg.goto(f"{server}/?delay=0")
    pg.wait_for_selector("body[data-ready='1']")
    urls, logs = [], []
    for seed in ("5", "6"):  # two games: different opening moves of the bots
        pg.evaluate("document.getElementById('new-game-box').open = true")
        pg.fill("#ng-seed", seed)
        before = pg.url  # read before the click: the address may change before click() returns
        pg.click("#ng-start")
        pg.wait_for_function("u => location.href !== u", arg=before)
        pg.wait_for_selector("#moves .move:enabled")
        urls.append(pg.url)
        logs.append(pg.inner_text("#log"))
    assert "#game=" in urls[0] and urls[0] != urls[1] and logs[0] != logs[1]
    same_log = "t => document.getElementById('log').innerText === t"
    pg.go_back()  # was: the address named the first game while the page still showed the second
    assert pg.url == urls[0]
    pg.wait_for_function(same_log, arg=logs[0], timeout=5_000)
    pg.wait_for_selector("#moves .move:enabled")
    pg.go_forward()
    pg.wait_for_function(same_log, arg=logs[1], timeout=5_000)
    assert not errors, errors


def test_space_mission_reload_shows_the_games_settings_in_the_new_game_form(server, page):
    pg, errors = page
    g = post_json(f"{server}/api/games", {"players": 4, "seat": 2, "seed": 8, "opponents": "random", "rules": "schmidt"})
    pg.goto(f"{server}/?delay=0#game={g['id']}")
    pg.wait_for_selector("#moves .move:enabled")
    # was the form's defaults (2 players, seat 0, yucata): "new game" started another kind of game
    assert pg.input_value("#ng-players") == "4"
    assert pg.input_value("#ng-seat") == "2"
    assert pg.input_value("#ng-rules") == "schmidt"
    assert pg.input_value("#ng-opponents") == "random"
    assert pg.input_value("#ng-seed") == ""  # a new game deals another game
    assert pg.locator("#ng-seat option").count() == 5  # "random" and the 4 seats
    assert not errors, errors
