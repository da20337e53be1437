"""Recorded games for the page: the file given to ``serve --replay`` and files uploaded on the
page (at most ``max_uploads`` kept, the oldest dropped first). Every game is checked with
the reference engine when it arrives; a game that does not replay is listed with the reason."""
from __future__ import annotations

import secrets
import threading
from collections import OrderedDict

from spacemission_env.space_mission import encoding

from .. import _view as V
from .._games import Replayer, ReplayError, own_label, parse_records, public_label, read_records
from .._protocol_games import record_game
from .games import ApiError
from .payload import view_json

FILE_ID = "file"  # the library id of the --replay file


def _checked(records: list[tuple[int, dict]], where: str) -> list[dict]:
    games = []
    for line, rec in records:
        entry = {"line": line, "record": rec, "error": None}
        if record_game(rec) != "spacemission":  # the page shows Space Mission's boards only
            entry["error"] = (f"a game of {record_game(rec)!r}: the page replays Space Mission games only; "
                              "use spacemission replay FILE in the terminal")
            games.append(entry)
            continue
        try:
            check = Replayer(rec, f"{where} line {line}")
            while not check.done:
                check.step()
            check.finish()
        except ReplayError as exc:
            entry["error"] = str(exc)
        games.append(entry)
    return games


def _summary(k: int, entry: dict) -> dict:
    rec = entry["record"]
    return {"index": k, "game": rec.get("game"), "line": entry["line"], "players": rec["config"]["num_players"],
            "rules": rec["config"].get("rules"), "agents": rec.get("agents"), "steps": len(rec["actions"]),
            "totals": [sc.get("total") if isinstance(sc, dict) else None for sc in rec["scores"]]
            if isinstance(rec["scores"], list) else None,
            "unfinished": bool(rec.get("unfinished")), "forfeited": rec.get("forfeit") is not None,
            "error": entry["error"]}


class ReplayLibrary:
    def __init__(self, max_uploads: int = 20):
        self.max_uploads = max_uploads
        self._files: OrderedDict[str, tuple[str, list[dict]]] = OrderedDict()
        self._lock = threading.Lock()

    def load_file(self, path) -> int:
        """The ``--replay`` file; ReplayError when it cannot be read. Returns its game count."""
        games = _checked(read_records(path), str(path))
        self._files[FILE_ID] = (str(path), games)
        return len(games)

    def upload(self, text: str, name: str) -> str:
        try:
            games = _checked(parse_records(text, name), name)
        except ReplayError as exc:
            raise ApiError(400, str(exc)) from None
        rid = secrets.token_urlsafe(12)
        with self._lock:
            uploads = [k for k in self._files if k != FILE_ID]
            if len(uploads) >= self.max_uploads:
                del self._files[uploads[0]]
            self._files[rid] = (name, games)
        return rid

    def listing(self, rid: str) -> dict:
        name, games = self._get(rid)
        return {"id": rid, "name": name, "games": [_summary(k, g) for k, g in enumerate(games)]}

    def _get(self, rid: str):
        if rid not in self._files:
            raise ApiError(404, "no recorded games with this id" + (" (the server was started without --replay)"
                                                                     if rid == FILE_ID else ""))
        return self._files[rid]

    def frame(self, rid: str, index: int, step: int, seat: int | None) -> dict:
        """The board after ``step`` actions of game ``index``, as everyone (``seat`` None) or
        one seat saw it, with every move so far in words."""
        _, games = self._get(rid)
        if not 0 <= index < len(games):
            raise ApiError(404, f"no game {index} here; the file holds games 0..{len(games) - 1}")
        entry = games[index]
        if entry["error"]:
            raise ApiError(422, f"this game does not replay: {entry['error']}")
        rec = entry["record"]
        n = rec["config"]["num_players"]
        steps = len(rec["actions"])
        if not 0 <= step <= steps:
            raise ApiError(400, f"step must be in 0..{steps}, got {step}")
        if seat is not None and not 0 <= seat < n:
            raise ApiError(400, f"seat must be in 0..{n - 1} for this {n}-player game, got {seat}")
        replay = Replayer(rec, "replay")
        s = replay.state
        log = []
        for _ in range(step):
            q, action, _ = replay.peek()
            text = own_label(action, s) if seat is None or q == seat else public_label(action, s)
            log.append({"seat": q, "text": text, "round": s.round})
            replay.step()
        if seat is None:
            view = V.view_from_observation(encoding.observe(s, 0, "seer"), "seer", 0, n, s.rules, s.max_rounds)
        else:
            view = V.view_from_observation(encoding.observe(s, seat, "info"), "info", seat, n, s.rules, s.max_rounds)
        result = None
        if step == steps:
            result = {"scores": rec["scores"], "winners": rec.get("winners")}
            # a game stopped before its final scoring (saved, or forfeited in the arena): the
            # others' totals count their tiles, hidden from the seat (R-I2, R-I4)
            if seat is not None and (rec.get("unfinished") or rec.get("forfeit") is not None):
                result["scores"] = [sc if q == seat else None for q, sc in enumerate(rec["scores"])]
        return {"step": step, "steps": steps, "seat": seat, "names": rec.get("agents") or [f"seat {q}" for q in range(n)],
                "view": view_json(view), "log": log, "unfinished": bool(rec.get("unfinished")),
                "forfeited": rec.get("forfeit") is not None, "result": result}

