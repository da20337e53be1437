"""The page in a headless browser, for the end-to-end test and the screenshot tool: Debian's
``chromium`` driven by Playwright for Python (dev extra). Playwright's own browser download
is not used; ``make browser`` installs the Debian package when it is missing."""
from __future__ import annotations

from pathlib import Path

CHROMIUM = Path("/usr/bin/chromium")
FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync")


def launch(playwright):
    """A headless Chromium browser (``playwright.chromium.launch`` on Debian's binary)."""
    return playwright.chromium.launch(executable_path=str(CHROMIUM), args=list(FLAGS))
