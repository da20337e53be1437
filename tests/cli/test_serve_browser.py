"""``spacemission serve`` in a real headless Chromium: a whole 2-player game against the
heuristic bot played by clicking, the final scores shown checked against the reference
engine, and a screenshot (docs/images/serve.png is one of these).

Playwright drives Debian's ``chromium`` (``make browser`` installs it when missing); the
test is skipped, with the reason, only where that browser or Playwright is absent.
"""
from __future__ import annotations

import pytest

playwright_api = pytest.importorskip("playwright.sync_api", reason="Playwright for Python is not installed (dev extra)")
uvicorn = pytest.importorskip("uvicorn", reason="uvicorn is not installed (web extra)")

from spacemission_cli._games import append_record, game_record  # noqa: E402
from spacemission_cli.web.app import create_app  # noqa: E402
from spacemission_cli.web.headless import CHROMIUM  # noqa: E402
from spacemission_env.space_mission.rules import action_label, apply, legal_actions, new_game, scores  # noqa: E402
from tests.helpers.web import desktop_page, served  # noqa: E402
pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason=f"Debian's chromium is not installed at {CHROMIUM} "
                                                              "(make browser installs it; CI does)")


@pytest.fixture
def server(tmp_path):
    """The app on a free local port in a thread of this process (its store stays readable),
    with a recorded game to replay."""
    s = new_game(2, seed=9, max_rounds=4)
    actions = []
    while not s.is_over:
        a = legal_actions(s)[-1]
        actions.append([s.current_player, a, action_label(a, s)])
        apply(s, a)
    append_record(tmp_path / "games.jsonl", game_record(s, 9, ["random", "greedy"], actions))
    app = create_app(["heuristic", "random"], replay_file=tmp_path / "games.jsonl", loopback_only=True)  # as serve
    with served(app) as url:
        yield app, url


@pytest.fixture
def page(browser):
    """A page in a browser context of its own (no cookies, storage or cache shared with the
    other tests') of the module's one Chromium (tests/cli/conftest.py)."""
    with desktop_page(browser, 20_000) as opened:
        yield opened


def test_a_whole_game_by_clicking(server, page, tmp_path):
    app, url = server
    pg, errors = page
    pg.goto(f"{url}/?delay=0")
    pg.wait_for_selector("body[data-ready='1']")
    pg.select_option("#ng-opponents", "heuristic")
    pg.fill("#ng-seed", "5")
    pg.click("#ng-start")
    pg.wait_for_selector("#moves .move")
    clicks = 0
    while not pg.is_visible("#final"):
        assert clicks < 400, "the game did not end"
        # the first listed move, or a top up keeping every card when it is all there is
        pg.locator("#moves .move:enabled").first.click()
        clicks += 1
        pg.wait_for_selector("#moves .move:enabled, #final:not([hidden])")
    assert clicks > 10 and not errors, errors
    ((game_id, live),) = app.state.store._games.items()
    table = live.table
    assert table.state.is_over and table.specs[1] == "heuristic"
    check = new_game(2, seed=5, rules="yucata", max_rounds=100)  # the engine replays the same moves
    for _, action, _ in table.actions:
        apply(check, action)
    expected = [sc["total"] for sc in scores(check)]
    shown = [int(pg.inner_text(f"#scores tr[data-seat='{q}'] td.score-total")) for q in range(2)]
    assert shown == expected
    assert pg.inner_text("#status")  # the status line is there at the end too
    revealed = pg.inner_text("#revealed")
    assert "blue (heuristic): hand" in revealed  # every hand is shown face up at the end
    shot = tmp_path / "serve.png"
    pg.screenshot(path=str(shot))
    assert shot.stat().st_size > 10_000


def test_narrow_window_keeps_the_moves_reachable(server, page):
    _, url = server
    pg, errors = page
    pg.set_viewport_size({"width": 420, "height": 800})
    pg.goto(f"{url}/?delay=0")
    pg.wait_for_selector("body[data-ready='1']")
    pg.fill("#ng-seed", "2")
    pg.focus("#ng-start")
    pg.keyboard.press("Enter")  # keyboard only: the form submits, the moves are buttons
    pg.wait_for_selector("#moves .move")
    box = pg.locator("#board").bounding_box()
    assert box["width"] <= 420
    for _ in range(3):  # the focus goes to the first move after the start and after each move
        pg.wait_for_function(FOCUS_ON_A_MOVE, arg="#moves .move")
        before = pg.inner_text("#log")
        pg.keyboard.press("Enter")
        pg.wait_for_function("t => document.getElementById('log').innerText !== t", arg=before)
    assert "red (you)" in pg.inner_text("#log") and not errors


# before: the start button kept the focus (Red Planet's page: Enter dealt another game) or the
# page had it (the pressed button was gone): a keyboard player tabbed through the page again
FOCUS_ON_A_MOVE = "sel => { const a = document.activeElement; return a && a.matches(sel) && !a.disabled; }"


def test_keyboard_play_on_the_red_planet_page_keeps_the_focus_on_the_moves(server, page):
    _, url = server
    pg, errors = page
    pg.goto(f"{url}/play/red_planet")
    pg.wait_for_selector("body[data-ready='1']")
    pg.fill("#seed", "3")
    pg.focus("#newgame button[type=submit]")
    pg.keyboard.press("Enter")
    pg.wait_for_selector("#moves button")
    for _ in range(3):
        pg.wait_for_function(FOCUS_ON_A_MOVE, arg="#moves button")
        before = pg.inner_text("#log")
        pg.keyboard.press("Enter")
        pg.wait_for_function("t => document.getElementById('log').innerText !== t", arg=before)
    assert not errors, errors


def test_replay_steps_forward_and_back(server, page):
    _, url = server
    pg, errors = page
    pg.goto(f"{url}/")
    pg.wait_for_selector("body[data-ready='1']")
    pg.click("#tab-replay")
    pg.click(".replay-game")
    pg.wait_for_function("document.getElementById('rp-where').innerText.startsWith('move 0 of')")
    pg.keyboard.press("ArrowRight")
    pg.wait_for_function("document.getElementById('rp-where').innerText.startsWith('move 1 of')")
    pg.click("#rp-next")
    pg.wait_for_function("document.getElementById('rp-where').innerText.startsWith('move 2 of')")
    pg.click("#rp-back")
    pg.wait_for_function("document.getElementById('rp-where').innerText.startsWith('move 1 of')")
    assert pg.locator("#rp-log li").count() == 1
    pg.select_option("#rp-seat", "1")  # as blue saw it: red's hand hidden
    pg.wait_for_function("document.getElementById('rp-players').innerText.includes('public')")
    pg.click("#rp-last")
    pg.wait_for_function("document.getElementById('rp-result').innerText.startsWith('Final scores')")
    assert not errors, errors


@pytest.mark.parametrize("where, seed_box, start", [("/?delay=0", "#ng-seed", "#ng-start"),
                                                    ("/play/red_planet", "#seed", "#newgame button[type=submit]")])
def test_the_pages_send_a_seed_past_2_53_exactly(server, page, where, seed_box, start):
    """Seeds go to 2**64 - 1 (as ``play --seed``); the pages sent the typed seed as a
    JavaScript number, which rounds past 2**53 to another seed: 9007199254740993 dealt the
    game of 9007199254740992 (and serve refused seeds from 2**63 on)."""
    app, url = server
    pg, errors = page
    seeds = []
    for typed in ("9007199254740993", "18446744073709551615"):
        pg.goto(f"{url}{where}")
        pg.wait_for_selector("body[data-ready='1']")
        pg.fill(seed_box, typed)
        before = set(app.state.store._games)
        pg.click(start)
        for _ in range(300):  # the new game, or none when the server refused the request (30 s: a busy machine)
            if set(app.state.store._games) - before or pg.is_visible("#error:not([hidden])"):
                break
            pg.wait_for_timeout(100)
        added = set(app.state.store._games) - before
        seeds.append(app.state.store._games[added.pop()].table.seed if added else None)
    assert seeds == [9007199254740993, 2**64 - 1] and not errors, (seeds, errors)


@pytest.mark.parametrize("where, seed_box, start, error", [
    ("/?delay=0", "#ng-seed", "#ng-start", "#error"),
    ("/play/red_planet", "#seed", "#newgame button[type=submit]", "#status")])
def test_the_pages_send_a_seed_in_exponent_form_as_typed(server, page, where, seed_box, start, error):
    """A seed the number box takes but that is not plain digits (exponent form) goes to the
    server as typed, which refuses it by name: the pages sent Number(typed), so
    12345678901234567891e0 dealt the game of another seed, 12345678901234567000."""
    app, url = server
    pg, errors = page
    pg.goto(f"{url}{where}")
    pg.wait_for_selector("body[data-ready='1']")
    pg.fill(seed_box, "12345678901234567891e0")
    before = set(app.state.store._games)
    pg.click(start)
    pg.wait_for_function(f"document.querySelector('{error}').innerText.includes('seed must be an integer')")
    assert set(app.state.store._games) == before and not errors, errors


def test_undo_resign_and_an_upload_from_the_page(server, page, tmp_path):
    """The page's undo and resign (empty bodies) and its file upload (JSON lines) are taken:
    the server refuses a POST without a JSON type (415), so the page sends one with each."""
    app, url = server
    pg, errors = page
    pg.goto(f"{url}/?delay=0")
    pg.wait_for_selector("body[data-ready='1']")
    pg.fill("#ng-seed", "5")
    pg.click("#ng-start")
    pg.locator("#moves .move:enabled").first.click()
    pg.wait_for_selector("#undo:enabled")
    ((_, live),) = app.state.store._games.items()
    pg.click("#undo")
    # the buttons are disabled while the request is out too: wait for the answer's, not busy's
    pg.wait_for_function("!BUSY && document.getElementById('undo').disabled")
    assert [q for q, _, _ in live.table.actions].count(live.table.seat) == 0
    pg.once("dialog", lambda dialog: dialog.accept())
    pg.click("#resign")
    pg.wait_for_selector("#final:not([hidden])")
    assert live.table.over and pg.is_hidden("#error")
    record = tmp_path / "mine.jsonl"
    record.write_text((tmp_path / "games.jsonl").read_text())
    pg.click("#tab-replay")
    pg.set_input_files("#upload-file", str(record))
    pg.wait_for_function("document.getElementById('replay-source').innerText.startsWith('mine.jsonl')")
    assert pg.locator(".replay-game").count() == 1 and pg.is_hidden("#error") and not errors, errors


def test_a_game_too_long_for_the_page_is_listed_as_such(server, page, monkeypatch):
    """Before: the Replays list said "does not replay (...)" of a game the page only will not
    step through (over replays.MAX_PAGE_STEPS moves, lowered here to the recorded game's)."""
    from spacemission_cli.web import replays

    app, url = server
    pg, errors = page
    monkeypatch.setattr(replays, "MAX_PAGE_STEPS", 3)
    pg.goto(f"{url}/")
    pg.wait_for_selector("body[data-ready='1']")
    pg.click("#tab-replay")
    record = app.state.library._files[replays.FILE_ID][1][0]["record"]
    pg.set_input_files("#upload-file", files=[{"name": "long.jsonl", "mimeType": "application/x-ndjson",
                                               "buffer": (__import__("json").dumps(record) + "\n").encode()}])
    pg.wait_for_function("document.getElementById('replay-source').innerText.startsWith('long.jsonl')")
    text = pg.inner_text("#replay-list")
    assert "too long to step through here: " in text and "spacemission replay FILE" in text, text
    assert "does not replay" not in text and pg.locator(".replay-game").count() == 0 and not errors, errors
