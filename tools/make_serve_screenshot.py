"""Writes docs/images/serve.png: the page of ``spacemission serve`` at 1280x800 during a game
against the heuristic bot, played by clicking in headless Chromium (as the browser test does).

    .venv/bin/python tools/make_serve_screenshot.py [--players 3] [--seed 7] [--clicks 24]

Needs Debian's chromium (make browser) and Playwright for Python (dev extra)."""
from __future__ import annotations

from pathlib import Path

from playwright.sync_api import sync_playwright

from spacemission_cli.web.headless import launch
from spacemission_cli.web.load import local_server
from spacemission_env.checks import UsageParser  # every command's parser: echoed values cut

OUT = Path(__file__).resolve().parent.parent / "docs" / "images" / "serve.png"


def main(argv=None) -> None:
    ap = UsageParser(description=__doc__.splitlines()[0])
    ap.add_argument("--players", type=int, default=3, choices=range(2, 6))
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--clicks", type=int, default=24, help="moves played (the first listed) before the picture")
    ap.add_argument("--out", default=str(OUT))
    args = ap.parse_args(argv)
    if args.seed < 0 or args.clicks < 0:
        ap.error(f"--seed and --clicks must be >= 0, got --seed {args.seed}, --clicks {args.clicks}")
    if Path(args.out).is_dir():
        ap.error(f"--out {args.out!r} is a folder; give the picture's file name")
    with local_server("heuristic", 10) as url, sync_playwright() as p:
        browser = launch(p)
        page = browser.new_page(viewport={"width": 1280, "height": 800})
        page.goto(f"{url}/?delay=0")
        page.wait_for_selector("body[data-ready='1']")
        page.select_option("#ng-players", str(args.players))
        page.fill("#ng-seed", str(args.seed))
        page.click("#ng-start")
        for _ in range(args.clicks):
            page.wait_for_selector("#moves .move:enabled, #final:not([hidden])")
            if page.is_visible("#final"):
                break
            page.locator("#moves .move:enabled").first.click()
        page.wait_for_selector("#moves .move:enabled, #final:not([hidden])")
        page.screenshot(path=args.out)
        browser.close()
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
