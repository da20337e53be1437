"""A review of ``spacemission serve`` played through its pages in a real headless Chromium, as a
player who never read the code (the seventh sweep): the defects found, each with its test.
A move clicked after the server stopped said only fetch's "Failed to fetch"; now the page says
it cannot reach the server.

The browser tests are skipped, with the reason, where Playwright or Debian's chromium is
absent (as in test_serve_browser.py)."""
from __future__ import annotations

import pytest

from tests.helpers.web import desktop_page, playwright_or_skip, served

PAGES = {  # the page, its start button, what shows once a game is on, where its message goes
    "spacemission": ("/?delay=0", "#ng-start", "#moves .move:enabled", "#error"),
    "red_planet": ("/play/red_planet", "#newgame button[type=submit]", "#moves button:enabled", "#status"),
}


@pytest.fixture
def page(browser):
    """A page and its uncaught exceptions (console errors are not collected: a refused
    connection is logged as one)."""
    with desktop_page(browser, 15_000) as opened:
        yield opened


@pytest.mark.parametrize("name", PAGES)
def test_a_move_after_the_server_stopped_says_the_server_cannot_be_reached(browser, page, name):
    playwright_or_skip()
    from spacemission_cli.web.app import create_app

    path, start, move, message = PAGES[name]
    pg, errors = page
    with served(create_app(["random"], game_opponents={"red_planet": ["random"]})) as url:
        pg.goto(url + path)
        pg.wait_for_selector("body[data-ready='1']")
        pg.fill("#ng-seed" if name == "spacemission" else "#seed", "3")
        pg.click(start)
        pg.wait_for_selector(move)
    pg.locator(move).first.click()  # the server has stopped
    pg.wait_for_function("([sel]) => document.querySelector(sel).textContent.includes('cannot reach the server')",
                         arg=[message])
    # was: "Failed to fetch", fetch's own words
    assert "it has stopped or the network is down" in pg.inner_text(message)
    assert pg.locator(move).count() > 0 and not errors, errors  # the buttons stay, to try again
