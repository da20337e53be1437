"""Recorded games for the page: the file given to ``serve --replay`` and files uploaded on the
page (at most ``max_uploads`` kept, and at most ``memory_budget`` bytes of them as parsed
objects, the oldest dropped first). Every game is checked with the reference engine when it
arrives, one upload at a time; a game that does not replay is listed with the reason."""
from __future__ import annotations

import secrets
import sys
import threading
from collections import OrderedDict

from spacemission_env.json_input import json_shown

from .. import _view as V
from .._games import Replayer, ReplayError, own_label, parse_records, public_label, read_records
from .._protocol_games import record_game
from .games import ApiError
from .payload import view_json

FILE_ID = "file"  # the library id of the --replay file
# the most moves of a game the page steps through: its first step there is rebuilt from the start
# and every answer holds every move so far in words (a game of 113,000 moves fits an 8 MiB
# upload: 1.4 s of CPU and 11 MB for such a step); a 5-player game of 100 rounds has a few thousand
MAX_PAGE_STEPS = 20_000
MARK_EVERY = 256  # a step back is rebuilt from the state kept every this many moves
# a listed game's error_kind: how the page and a 422 lead its error (the first two replay in the terminal)
ERROR_LEADS = {"other_game": "is not shown on this page", "too_long": "is too long to step through here",
               "replay": "does not replay"}


def _checked(records: list[tuple[int, dict]], where: str) -> list[dict]:
    games = []
    for line, rec in records:
        entry = {"line": line, "record": rec, "error": None, "error_kind": None}
        if record_game(rec) != "spacemission":  # the page shows Space Mission's boards only
            entry["error"] = (f"a game of {json_shown(record_game(rec))}: the page replays Space Mission games only; "
                              "use spacemission replay FILE in the terminal")
            entry["error_kind"] = "other_game"
            games.append(entry)
            continue
        if len(rec["actions"]) > MAX_PAGE_STEPS:
            entry["error"] = (f"{len(rec['actions'])} moves: the page steps through games of at most {MAX_PAGE_STEPS} "
                              "(each step rebuilds the game); use spacemission replay FILE in the terminal")
            entry["error_kind"] = "too_long"
            games.append(entry)
            continue
        try:
            check = Replayer(rec, f"{where} line {line}")
            while not check.done:
                check.step()
            check.finish()
        except ReplayError as exc:
            entry["error"], entry["error_kind"] = str(exc), "replay"
        games.append(entry)
    return games


def _summary(k: int, entry: dict) -> dict:
    rec = entry["record"]
    return {"index": k, "game": rec.get("game"), "line": entry["line"], "players": rec["config"]["num_players"],
            "rules": rec["config"].get("rules"), "agents": rec.get("agents"), "steps": len(rec["actions"]),
            "totals": [sc.get("total") if isinstance(sc, dict) else None for sc in rec["scores"]]
            if isinstance(rec["scores"], list) else None,
            "unfinished": bool(rec.get("unfinished")), "forfeited": rec.get("forfeit") is not None,
            "error": entry["error"], "error_kind": entry["error_kind"]}


def held_bytes(value) -> int:
    """The memory held by a parsed JSON value (dicts, lists, strings, numbers): the sum of
    ``sys.getsizeof`` over its objects, the containers' own tables included. Far more than
    its text: ``[]`` is 2 bytes of text and 56 in memory."""
    total, todo = 0, [value]
    while todo:
        v = todo.pop()
        if type(v) is int and -5 <= v <= 256:  # CPython's small integers: one shared object each
            continue
        total += sys.getsizeof(v)
        if isinstance(v, dict):
            todo.extend(v.keys())
            todo.extend(v.values())
        elif isinstance(v, (list, tuple)):
            todo.extend(v)
    return total


MIB = 1024 * 1024
# the uploads' games as parsed objects: an 8 MiB file of recorded games holds about 25 to 50 MiB
MAX_UPLOAD_HELD = 64 * MIB  # one upload
UPLOADS_HELD = 256 * MIB  # all uploads together (the --replay file aside): the oldest dropped to make room


class ReplayLibrary:
    def __init__(self, max_uploads: int = 20, max_upload_held: int = MAX_UPLOAD_HELD,
                 memory_budget: int = UPLOADS_HELD):
        self.max_uploads, self.max_upload_held, self.memory_budget = max_uploads, max_upload_held, memory_budget
        self._files: OrderedDict[str, tuple[str, list[dict]]] = OrderedDict()
        self._held: dict[str, int] = {}  # an upload's parsed size (held_bytes)
        # the last frames asked for (rid, game, seat): the game rebuilt up to it and its moves in
        # words, so that the next step forward plays one move, not the game from its start
        # (at a game of MAX_PAGE_STEPS moves: about 7 MB a cursor, measured with tracemalloc)
        self._cursors: OrderedDict[tuple, tuple] = OrderedDict()
        self.max_cursors = 8
        self._lock = threading.Lock()
        # one upload parsed and checked at a time: a parse may briefly hold several times its
        # text (the limits above are checked once it is parsed), and a check replays every game
        self._checking = threading.Lock()

    def load_file(self, path) -> int:
        """The ``--replay`` file; ReplayError when it cannot be read. Returns its game count."""
        games = _checked(read_records(path), str(path))
        self._files[FILE_ID] = (str(path), games)
        return len(games)

    def held(self) -> int:
        """The bytes held by the uploads' parsed games (held_bytes of each)."""
        with self._lock:
            return sum(self._held.values())

    def upload(self, text: str, name: str) -> str:
        """Parse and check an uploaded file, keep it and return its id: ApiError 400 when it is
        not a recorded file, 413 when its games as parsed objects would hold more than
        ``max_upload_held`` bytes, 503 while another upload is being checked. The oldest
        uploads are dropped to keep ``max_uploads`` and ``memory_budget``."""
        # not waiting for the lock: a request waiting here would hold one of the threads that
        # the games' requests run in (Starlette's pool), so a burst of uploads would stall them
        if not self._checking.acquire(blocking=False):
            raise ApiError(503, f"{name}: another recorded file is being checked (one at a time); "
                                "send it again in a few seconds")
        try:
            try:
                records = parse_records(text, name)
            except ReplayError as exc:
                raise ApiError(400, str(exc)) from None
            size = held_bytes([rec for _, rec in records])
            if size > self.max_upload_held:
                raise ApiError(413, f"{name}: its games would hold {size / MIB:.0f} MiB in memory as parsed objects, "
                                    f"over the limit of {self.max_upload_held / MIB:.0f} MiB for one file "
                                    f"(recorded games hold 3 to 6 times their text; upload fewer games at once)")
            games = _checked(records, name)  # after the size: a refused file is not replayed
        finally:
            self._checking.release()
        rid = secrets.token_urlsafe(12)
        with self._lock:
            uploads = [k for k in self._files if k != FILE_ID]
            while uploads and (len(uploads) >= self.max_uploads
                               or sum(self._held.values()) + size > self.memory_budget):
                gone = uploads.pop(0)
                del self._files[gone], self._held[gone]
                for key in [k for k in self._cursors if k[0] == gone]:
                    del self._cursors[key]
            self._files[rid], self._held[rid] = (name, games), size
        return rid

    def listing(self, rid: str) -> dict:
        name, games = self._get(rid)
        return {"id": rid, "name": name, "games": [_summary(k, g) for k, g in enumerate(games)]}

    def size(self, rid: str) -> int:
        """How many games the file ``rid`` holds (ApiError 404 when there is no such file)."""
        return len(self._get(rid)[1])

    def _get(self, rid: str):
        if rid not in self._files:
            raise ApiError(404, "no recorded games with this id" + (" (the server was started without --replay)"
                                                                     if rid == FILE_ID else ""))
        return self._files[rid]

    def frame(self, rid: str, index: int, step: int, seat: int | None) -> dict:
        """The board after ``step`` actions of game ``index``, as everyone (``seat`` None) or
        one seat saw it, with every move so far in words. Rebuilt from the last frame asked for
        of this game and seat when that is not ahead (stepping forward), else from the state
        kept at the last multiple of MARK_EVERY moves (stepping back)."""
        _, games = self._get(rid)
        if not 0 <= index < len(games):
            raise ApiError(404, f"no game {index} here; the file holds games 0..{len(games) - 1}")
        entry = games[index]
        if entry["error"]:
            raise ApiError(422, f"this game {ERROR_LEADS[entry['error_kind']]}: {entry['error']}")
        rec = entry["record"]
        n = rec["config"]["num_players"]
        steps = len(rec["actions"])
        if not 0 <= step <= steps:
            raise ApiError(400, f"step must be in 0..{steps}, got {step}")
        if seat is not None and not 0 <= seat < n:
            raise ApiError(400, f"seat must be in 0..{n - 1} for this {n}-player game, got {seat}")
        key = (rid, index, seat)
        with self._lock:  # a cursor is used by one request at a time: taken out, put back
            replay, log, marks = self._cursors.pop(key, (None, None, None))
        if replay is None:
            replay, log = Replayer(rec, "replay"), []
            marks = {0: replay.state.copy()}
        elif replay.index > step:  # stepping back: from the last mark at or before it
            replay.index = max(k for k in marks if k <= step)
            replay.state = marks[replay.index].copy()
            del log[replay.index:]
        s = replay.state
        while replay.index < step:
            q, action, _ = replay.peek()
            text = own_label(action, s) if seat is None or q == seat else public_label(action, s)
            log.append({"seat": q, "text": text, "round": s.round})
            replay.step()
            if replay.index % MARK_EVERY == 0:
                marks.setdefault(replay.index, s.copy())
        view = V.state_view(s, seat)  # a finished game face up, as a game on the page ends
        moves = list(log)  # the cursor goes on from here once put back: nothing of it read after
        with self._lock:
            if rid in self._files:  # not for an upload dropped meanwhile
                self._cursors[key] = (replay, log, marks)
            while len(self._cursors) > self.max_cursors:
                self._cursors.popitem(last=False)
        result = None
        if step == steps:
            result = {"scores": rec["scores"], "winners": rec.get("winners")}
            # a game stopped before its final scoring (saved, or forfeited in the arena): the
            # others' totals count their tiles, hidden from the seat (R-I2, R-I4)
            if seat is not None and (rec.get("unfinished") or rec.get("forfeit") is not None):
                result["scores"] = [sc if q == seat else None for q, sc in enumerate(rec["scores"])]
        return {"step": step, "steps": steps, "seat": seat, "names": rec.get("agents") or [f"seat {q}" for q in range(n)],
                "view": view_json(view), "log": moves, "unfinished": bool(rec.get("unfinished")),
                "forfeited": rec.get("forfeit") is not None, "result": result}

