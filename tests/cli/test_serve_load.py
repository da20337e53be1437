"""The bounded local load test of ``spacemission serve`` (spacemission_cli.web.load), small:
50 concurrent games of random moves, nothing lost or mixed between them."""
import pytest

pytest.importorskip("uvicorn", reason="the web extra is not installed")
pytest.importorskip("httpx2", reason="httpx2 (dev extra) is not installed")

from spacemission_cli.web.load import load_test  # noqa: E402


def test_fifty_concurrent_games_stay_apart():
    r = load_test(games=50, moves=4, opponent="random")
    assert r["problems"] == []
    assert r["requests"] == 50 * (1 + 4 + 1)  # new game, four moves, the read-back: none refused or lost
    assert 0 < r["slowest_ms"] < 60_000 and r["requests_per_s"] > 0
