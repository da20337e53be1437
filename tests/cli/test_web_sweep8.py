"""``spacemission serve``'s pages in a real headless Chromium (the eighth sweep): Back pressed
while a New game request was pending (sent, its answer not back) ended on the new game once the
answer came, the Back undone (the address taken to the new game, the Forward entry lost). Now the
page keeps the game the address names and the new game is left, as a browser leaves a page
whose form's answer had not come when Back was pressed: the player went back, so that is where
they stay. Also: Back to the page's first address (no game named) puts the game away, and the
end of a Red Planet game names its winners as the page names the seats.

The browser tests are skipped, with the reason, where Playwright or Debian's chromium is
absent (as in test_serve_browser.py)."""
from __future__ import annotations


import pytest

from tests.helpers.web import desktop_page, playwright_or_skip, post_json, served

PAGES = {  # the page, its start button, the app's options, the body of a game of it
    "spacemission": ("/?delay=0", "#ng-start", {}, {"seed": 4}),
    "red_planet": ("/play/red_planet", "#newgame button[type=submit]",
                   {"game_opponents": {"red_planet": ["random"]}}, {"game": "red_planet", "seed": 4}),
}


SHOWN = "(typeof SHOWN !== 'undefined' ? SHOWN : gameId)"  # the game the page shows


@pytest.fixture
def page(browser):
    with desktop_page(browser, 15_000, console_errors=True) as opened:
        yield opened


@pytest.mark.parametrize("name", PAGES)
def test_back_while_a_new_game_starts_keeps_the_game_the_address_names(browser, page, name):
    playwright_or_skip()
    from spacemission_cli.web.app import create_app

    path, start, options, body = PAGES[name]
    pg, errors = page
    with served(create_app(["random"], **options)) as url:
        a = post_json(f"{url}/api/games", body)
        b = post_json(f"{url}/api/games", dict(body, seed=5))
        pg.goto(f"{url}{path}#game={a['id']}")
        pg.wait_for_selector("body[data-ready='1']")
        pg.evaluate(f"location.hash = 'game={b['id']}'")  # game B, after game A in the tab's history
        pg.wait_for_function(f"id => {SHOWN} === id", arg=b["id"])
        held = []
        pg.route("**/api/games", lambda route: held.append(route) if route.request.method == "POST"
                 else route.continue_())  # the new game's answer: held until the test lets it go
        pg.evaluate("document.querySelector('details#new-game-box') && (document.getElementById('new-game-box').open = true)")
        pg.click(start)
        while not held:
            pg.wait_for_timeout(50)
        pg.go_back()  # to game A while the new game starts
        assert pg.evaluate("location.hash") == f"#game={a['id']}"
        with pg.expect_response(lambda r: r.url.endswith("/api/games") and r.request.method == "POST"):
            held[0].continue_()
        pg.wait_for_function("s => !document.querySelector(s).disabled", arg=start)
        pg.wait_for_timeout(300)  # a followAddress / hashchange after it
        # was: the new game shown, the address taken to it
        assert pg.evaluate("location.hash") == f"#game={a['id']}"
        assert pg.evaluate(SHOWN) == a["id"]
        if name == "red_planet":
            assert pg.evaluate("document.getElementById('board').textContent") == a["board"]
        else:
            assert pg.evaluate("GAME.id") == a["id"]
    assert not errors, errors


@pytest.mark.parametrize("name", PAGES)
def test_back_to_an_address_naming_no_game_while_a_new_game_starts_shows_the_new_game(browser, page, name):
    """Back to the page's first address (no game named) while the first game starts: there is no
    game the address names to show, so the new game is shown and the address names it."""
    playwright_or_skip()
    from spacemission_cli.web.app import create_app

    path, start, options, body = PAGES[name]
    pg, errors = page
    with served(create_app(["random"], **options)) as url:
        a = post_json(f"{url}/api/games", body)
        pg.goto(f"{url}{path}")
        pg.wait_for_selector("body[data-ready='1']")
        pg.evaluate(f"location.hash = 'game={a['id']}'")
        pg.wait_for_function(f"id => {SHOWN} === id", arg=a["id"])
        held = []
        pg.route("**/api/games", lambda route: held.append(route) if route.request.method == "POST"
                 else route.continue_())
        pg.evaluate("document.getElementById('new-game-box') && (document.getElementById('new-game-box').open = true)")
        pg.click(start)
        while not held:
            pg.wait_for_timeout(50)
        pg.go_back()  # to the page's first address, no game in it
        assert pg.evaluate("location.hash") == ""
        with pg.expect_response(lambda r: r.url.endswith("/api/games") and r.request.method == "POST") as answer:
            held[0].continue_()
        new = answer.value.json()["id"]
        pg.wait_for_function(f"id => {SHOWN} === id", arg=new)
        assert pg.evaluate("location.hash") == f"#game={new}"
        assert "Starting" not in pg.evaluate("document.body.innerText")
    assert not errors, errors


def test_the_red_planet_end_names_the_winners_as_the_page_names_the_seats(browser, page):
    """The end's line names the winners as the rest of the page names the seats (the game's
    ``names``: "blue (random) won."); it said "Seat 1 won." beside "blue (random)" in the log."""
    playwright_or_skip()
    from spacemission_cli.web.app import create_app

    pg, errors = page
    with served(create_app(["random"], game_opponents={"red_planet": ["random"]})) as url:
        for seed in range(1, 20):  # a game the person (seat 0, always the last move) does not win
            g = post_json(f"{url}/api/games", {"game": "red_planet", "players": 3, "opponents": "random", "seat": 0,
                                           "seed": seed})
            while not g["over"]:
                g = post_json(f"{url}/api/games/{g['id']}/move", {"action": g["moves"][-1]["action"]})
            if 0 not in g["final"]["winners"]:
                break
        winners = g["final"]["winners"]
        assert winners and 0 not in winners, "a seed in 1..19 where a random bot wins"
        pg.goto(f"{url}/play/red_planet#game={g['id']}")
        pg.wait_for_selector("#winners")
        named = " and ".join(g["names"][q] for q in winners)
        assert pg.inner_text("#winners") == named + (" won (a tie)." if len(winners) > 1 else " won.")
        assert g["names"][winners[0]].startswith(("blue (", "yellow ("))
    assert not errors, errors


@pytest.mark.parametrize("name", PAGES)
def test_back_to_the_first_address_shows_no_game_as_its_reload_would(browser, page, name):
    """Back from a game to the page's first address (no game named) left that game on screen
    under an address that names none (a reload there shows the new-game form alone); now the game
    is put away, and Forward brings it back."""
    playwright_or_skip()
    from spacemission_cli.web.app import create_app

    path, _, options, body = PAGES[name]
    area = "game" if name == "spacemission" else "play-area"
    hidden = f"() => document.getElementById('{area}').hidden"
    pg, errors = page
    with served(create_app(["random"], **options)) as url:
        a = post_json(f"{url}/api/games", body)
        pg.goto(f"{url}{path}")
        pg.wait_for_selector("body[data-ready='1']")
        assert pg.evaluate(hidden)
        shown = f"() => !document.getElementById('{area}').hidden"
        pg.evaluate(f"location.hash = 'game={a['id']}'")
        pg.wait_for_function(shown)
        assert pg.evaluate(SHOWN) == a["id"]
        pg.go_back()
        pg.wait_for_function(hidden)  # was: game A still shown, the address naming none
        assert pg.evaluate("location.hash") == "" and pg.evaluate(SHOWN) is None
        pg.go_forward()
        pg.wait_for_function(shown)
        assert pg.evaluate(SHOWN) == a["id"]
        if name == "red_planet":
            assert pg.evaluate("document.getElementById('board').textContent") == a["board"]
    assert not errors, errors


def test_the_red_planet_form_lists_each_seat_with_its_colour(browser, page):
    """The new-game form's seats read "1: blue", as Space Mission's form does and as the game
    then names them ("blue (random)"); they read "0", "1", "2"."""
    playwright_or_skip()
    from spacemission_cli.web.app import create_app

    pg, errors = page
    with served(create_app(["random"], game_opponents={"red_planet": ["random"]})) as url:
        pg.goto(f"{url}/play/red_planet")
        pg.wait_for_selector("body[data-ready='1']")
        pg.fill("#players", "4")
        pg.dispatch_event("#players", "input")
        options = pg.eval_on_selector_all("#seat option", "os => os.map(o => [o.value, o.textContent])")
        assert options == [["random", "random"], ["0", "0: red"], ["1", "1: blue"], ["2", "2: yellow"],
                           ["3", "3: green"]]
        pg.select_option("#seat", "2")
        pg.click("#newgame button[type=submit]")
        pg.wait_for_function("() => !document.getElementById('play-area').hidden")
        assert pg.evaluate("gameId") and "yellow's view" in pg.inner_text("#board")
    assert not errors, errors
