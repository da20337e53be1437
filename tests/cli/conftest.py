"""Fixtures of the command line's and web server's tests."""
from __future__ import annotations

import pytest

from tests.helpers.web import playwright_or_skip


@pytest.fixture(scope="module")
def browser():
    """One headless chromium for a test module (the browser tests of the web pages)."""
    api = playwright_or_skip()
    from spacemission_cli.web.headless import launch

    with api.sync_playwright() as p:
        b = launch(p)
        yield b
        b.close()
