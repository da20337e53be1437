"""Findings of fuzzing the HTTP API of ``spacemission serve`` with hostile requests, kept as
regression tests: each refused request gets a 4xx JSON error naming the problem, and no
response describes a game other than the one the server holds."""
from __future__ import annotations

import threading

from tests.helpers.web import refused, web_client


class _UndoFirstLock:
    """A game's lock whose holder is preceded by an undo: the interleaving in which an undo
    lands between a request's checks outside the lock and its work inside it."""

    def __init__(self, table):
        self.table, self._lock, self.armed = table, threading.Lock(), True

    def acquire(self, blocking=True):
        if self.armed:
            self.armed = False
            self.table.undo()
        return self._lock.acquire(blocking)

    def release(self):
        self._lock.release()

    def locked(self):
        return self._lock.locked()


def _undoable_game(client, app):
    """A Space Mission game whose person has just made a move that can be taken back."""
    for seed in range(40):
        g = client.post("/api/games", json={"seed": seed}).json()
        game = app.state.store._games[g["id"]]
        for m in g["moves"]:
            r = client.post(f"/api/games/{g['id']}/move", json={"action": m["action"], "version": g["version"]})
            if r.status_code == 200 and r.json()["can_undo"]:
                return r.json(), game
            break
    raise AssertionError("no undoable first move in 40 seeds")


def test_since_is_checked_against_the_log_as_it_is_when_the_view_is_built():
    """GET ?since=N checked N against the log outside the game's lock: an undo between the
    check and the view shrank the log, and the 200 said log_from N past its log_size."""
    client = web_client()
    app = client.app
    g, game = _undoable_game(client, app)
    size = g["log_size"]
    game.lock = _UndoFirstLock(game.table)
    r = client.get(f"/api/games/{g['id']}?since={size}")
    refused(r, 400, f"since must be in 0..{size - 1}, got {size}")
    assert client.get(f"/api/games/{g['id']}?since={size - 1}").json()["log_from"] == size - 1
    assert not game.lock.locked()
