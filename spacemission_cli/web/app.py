"""The ASGI app of ``spacemission serve`` (Starlette): the page, its static files and the JSON
API (table in docs/play.md). Every refused request gets a 4xx (or 503) JSON ``{"error": message}``
naming the problem and leaves the game as it was. Game work (the person's move, the bots'
moves, building a view) runs on daemon threads (ThreadWork), so a slow bot does not hold up
other games; a game's lock keeps its requests in order."""
from __future__ import annotations

import asyncio
import contextlib
import re
import sys
import threading
import time
from importlib import resources
from typing import Callable

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import ClientDisconnect, Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from spacemission_env.checks import cut, shown
from spacemission_env.games import GAMES, get_game
from spacemission_env.json_input import LongNumber, json_shown, parse_json

from .._protocol_games import SeatWords
from ..serve import BODY_TIMEOUT, TIMEOUT_GRACEFUL_SHUTDOWN
from .games import ApiError, GameStore, game_options, make_table, refuse_null
from .intake import JSON_TYPE, MAX_BODY, BodyDeadline, BodyTimeout, LoopbackOnly, client_gone, read_body
from .payload import game_json, meta
from .protocol_games import (ProtocolTable, make_protocol_table, picture_png, picture_snapshot, protocol_game_json,
                             protocol_options)
from .replays import FILE_ID, ReplayLibrary

MAX_UPLOAD = 8 * 1024 * 1024  # a recorded file: ~2 KB a game


MOVE_FIELDS = {"action", "seat", "version"}
# a recorded file is JSON lines (or a play save, JSON): sent as JSON or as one of the JSON-lines types
UPLOAD_TYPES = (JSON_TYPE, "application/x-ndjson", "application/jsonl")


def _request_int(text: str):
    # an integer of a request body with more digits than any id, seat or seed has: kept as its
    # length (LongNumber), so the field's check names it, not Python's limit on converting digits
    digits = len(text.lstrip("-"))
    return int(text) if digits <= 100 else LongNumber(digits)


async def read_json(request: Request, limit: int = MAX_BODY):
    body = await read_body(request, limit)
    if not body.strip():
        return {}
    try:
        return parse_json(body, parse_int=_request_int)
    except ValueError as exc:
        raise ApiError(400, f"the request body is {exc}") from None


_PLAIN_INT = re.compile(r"-?[0-9]{1,18}")  # int() would also take " 1", "+0", "0_0", "٣" and 5000 digits


def _query(request: Request, key: str) -> str | None:
    """Query parameter ``key`` (None when absent); ApiError 400 when it is given more than once
    (which one was meant? Starlette would take the last one silently)."""
    values = request.query_params.getlist(key)
    if len(values) > 1:
        raise ApiError(400, f"query parameter {key} is given {len(values)} times; give it once")
    return values[0] if values else None


def _query_int(request: Request, key: str, default: int | None) -> int | None:
    text = _query(request, key)
    if text is None or text == "":
        return default
    if not _PLAIN_INT.fullmatch(text):
        if re.fullmatch(r"-?[0-9]+", text):  # digits, too many of them: no count or seat is that large
            raise ApiError(400, f"query parameter {key} is out of range: {len(text.lstrip('-'))} digits, at most 18")
        raise ApiError(400, f"query parameter {key} must be an integer (decimal digits), got {text[:40]!r}")
    return int(text)


class ThreadWork:
    """The app's work off the event loop (the bots' moves, views, an upload's check), each
    piece on a daemon thread of its own (at most as many at once as Starlette's thread pool
    runs, anyio's default thread limiter) with a stop signal (a threading.Event). A request
    cancelled while its work runs (uvicorn cancels those still running when its graceful
    shutdown, 10 s, is over) sets the signal, so the bots stop before their next decision
    (``bots_until_person(stop)``), and is answered 503 rather than with a traceback; its
    piece keeps its slot of the limiter until its thread ends (a bot's decision under way
    counts against the limit whether or not a request still waits for it); at the
    app's shutdown ``stop_all`` signals every piece and waits a while for them to end: a thread
    does not play on after the server has stopped. A bot that never returns from a decision
    cannot be stopped; its thread, a daemon (Starlette's pool threads are not: the process
    waited for them for ever), is left behind and the process ends without it."""

    def __init__(self):
        # key -> (stop, done, the piece's table or None: the bot it waits for)
        self._running: dict[int, tuple[threading.Event, threading.Event, Callable[[], object] | None]] = {}
        self._lock = threading.Lock()
        self._next = 0

    def __len__(self) -> int:
        return len(self._running)

    async def run(self, stop: threading.Event | None, fn, *args, table: Callable[[], object] | None = None):
        """``fn(*args)`` on a daemon thread; ``stop`` (made here when None) is set if the request
        is cancelled meanwhile (then ApiError 503, the work left to stop at its next check).
        ``table``: a callable giving the game the piece plays (None before it is made), whose
        ``deciding`` names the bot it waits for at shutdown."""
        from anyio.to_thread import current_default_thread_limiter

        stop, done = stop or threading.Event(), threading.Event()
        loop = asyncio.get_running_loop()
        answer = loop.create_future()

        limiter, slot = current_default_thread_limiter(), object()  # slot: the piece's borrowing of the limiter

        def settle(ok: bool, value) -> None:  # on the event loop, once the thread has ended
            limiter.release_on_behalf_of(slot)
            if not answer.done():  # not when the request was cancelled meanwhile
                answer.set_result(value) if ok else answer.set_exception(value)

        def call(key: int) -> None:
            try:
                ok, value = True, fn(*args)
            except BaseException as exc:  # noqa: BLE001 - handed to the request, as the thread pool did
                ok, value = False, exc
            finally:
                with self._lock:
                    del self._running[key]
                done.set()
            try:
                loop.call_soon_threadsafe(settle, ok, value)
            except RuntimeError:  # the event loop has closed: the server stopped, no one waits for it
                pass

        try:
            # the slot is given back by settle, when the thread ends, not when the request does:
            # a request cut off while its bot decides leaves that decision counted until it ends
            await limiter.acquire_on_behalf_of(slot)
            with self._lock:
                key, self._next = self._next, self._next + 1
                self._running[key] = (stop, done, table)
            try:
                threading.Thread(target=call, args=(key,), name=f"spacemission serve work {key}", daemon=True).start()
            except BaseException:  # no thread to give the slot back (RuntimeError: can't start new thread)
                with self._lock:
                    del self._running[key]
                limiter.release_on_behalf_of(slot)
                raise
            return await answer
        except asyncio.CancelledError:  # uvicorn cancels a request only when the server stops
            stop.set()  # the thread goes on until its next check
            raise ApiError(503, "the server is stopping: this request was cut off (the bots stop before their next "
                                "move; games live in memory and end with the server)") from None

    async def stop_all(self, seconds: float) -> list[str | None]:
        """Signal every piece of work to stop and wait up to ``seconds`` for them to end (a bot's
        decision under way ends first); for each piece still running then, the bot it waits
        for ("'SPEC' (seat Q)", a table's ``deciding``), or None when not known."""
        with self._lock:
            pieces = list(self._running.values())
        for stop, _, _ in pieces:
            stop.set()
        deadline = time.monotonic() + seconds
        while any(not done.is_set() for _, done, _ in pieces) and time.monotonic() < deadline:
            await asyncio.sleep(0.02)
        return [getattr(table() if table is not None else None, "deciding", None)
                for _, done, table in pieces if not done.is_set()]


def _version_of(body: dict):
    """A request's optional ``version`` (a move's, undo's, resign's): the game's version the page
    showed, None when absent or null (no check); ApiError 400 when it is no version at all."""
    version = body.get("version")
    if version is not None and (isinstance(version, bool) or not isinstance(version, int) or version < 0):
        raise ApiError(400, f"version must be an integer >= 0 (the game's version, from its JSON), got {json_shown(version)}")
    return version


def _check_version(game, version, nothing: str) -> None:
    """Under the game's lock: refuse a request made from a view of another version of the game
    (400 for one it never had, 409 for an older one: a page's stale view); ``nothing`` says
    what was not done ("nothing was played")."""
    if version is None or version == game.version:  # no check asked, or the view is the game's
        return
    if version > game.version:  # never given: not a page's older view
        raise ApiError(400, f"version {version} is not one this game has had: it is at version {game.version} "
                            f"(the game's version, from its JSON); {nothing}")
    raise ApiError(409, f"the game changed since your page's view of it (version {version} there, "
                        f"{game.version} now); {nothing}: look at the game again")


def _locked(game, work):
    """Run ``work()`` holding the game's lock; 409 when another request holds it."""
    if not game.lock.acquire(blocking=False):
        raise ApiError(409, "this game is busy with another request (the bots are still moving); try again")
    try:
        return work()
    finally:
        game.lock.release()


def _json_of(game_id: str, game, since: int) -> dict:
    """The game's JSON: Space Mission's view model, or a protocol game's text board and moves;
    its seed only when the visitor chose it or the game is over."""
    table, known = game.table, game.seed_chosen
    if isinstance(table, ProtocolTable):
        return protocol_game_json(game_id, table, since, seed_known=known, version=game.version)
    return game_json(game_id, table, since, seed_known=known, version=game.version)


def _game_meta(name: str, opponents: list[str], max_players: int) -> dict:
    """What a game's page needs before a game (``/api/meta``'s ``games``): its title, the
    offered opponents, the player counts this server offers (the game's own range, up to
    ``serve --players``: the page offers no count the API refuses) and each seat's name (its
    colour, as the game's ``names`` and the board say it: the form's seat list)."""
    game = get_game(name)
    d, words = game.description, SeatWords(game)
    return {"title": d.title, "opponents": opponents,
            "players": {"min": d.min_players, "max": min(max_players, d.max_players)},
            "seat_names": [words.colour(q) for q in range(d.max_players)]}  # as its games' names say them


def create_app(opponents: list[str] | None = None, max_players: int = 5, max_games: int = 200,
               idle_seconds: float = 1800.0, replay_file=None, game_opponents: dict | None = None,
               start_page: str = "spacemission", allow_seer: bool = False, loopback_only: bool = False,
               allowed_hosts: tuple[str, ...] = (), body_timeout: float = BODY_TIMEOUT) -> Starlette:
    """The app. ``opponents``: the agent specs a visitor may choose (default heuristic, greedy,
    random); ``game_opponents``: per other game of the protocol, its specs a visitor may
    choose (a new game with ``"game": NAME``; default random for every game of GAMES); ``start_page``:
    the game of the page at ``/``; ``replay_file``: recorded games offered on the page
    (ReplayError when unreadable); ``allow_seer``: let a bot play on the whole state (the
    "seer" observation, every hidden card), refused by default (400 naming it); ``loopback_only``:
    refuse (403) a request whose Host is not this machine's name or one of ``allowed_hosts``
    (LoopbackOnly), for a server that listens on this machine only; ``body_timeout``: the seconds
    a request's body may take to arrive after its headers (BodyDeadline: 408 past them)."""
    offered = list(opponents or ["heuristic", "greedy", "random"])
    offered_by_game = dict(game_opponents if game_opponents is not None else
                           {name: ["random"] for name in GAMES if name != "spacemission"})
    store = GameStore(max_games=max_games, idle_seconds=idle_seconds)
    work = ThreadWork()
    library = ReplayLibrary()
    if replay_file is not None:
        library.load_file(replay_file)
    static = resources.files("spacemission_cli.web") / "static"
    info = meta(offered, max_players)
    info["replay"] = FILE_ID if replay_file is not None else None

    async def page(request):
        return FileResponse(str(static / ("index.html" if start_page == "spacemission" else "protocol.html")))

    async def protocol_page(request):
        name = request.path_params["game_name"]
        if name == "spacemission":  # its own page, also at / unless serve --game put another game there
            return FileResponse(str(static / "index.html"))
        if name not in offered_by_game:  # the page would offer a game the API refuses
            raise ApiError(404, f"no page for game {shown(name)}; the pages are "
                                + ", ".join([f"/ ({start_page})", *(f"/play/{g}" for g in ["spacemission", *offered_by_game])]))
        return FileResponse(str(static / "protocol.html"))

    async def no_icon(request):
        return Response(status_code=204)

    async def get_meta(request):
        return JSONResponse(dict(info, games={name: _game_meta(name, specs, max_players)
                                              for name, specs in offered_by_game.items()},
                                 start_page=start_page))

    async def new_game(request):
        body = await read_json(request)
        if isinstance(body, dict):
            refuse_null(body, "game", "spacemission")
        other = isinstance(body, dict) and body.get("game", "spacemission") != "spacemission"
        if other:
            name = body["game"]
            if not isinstance(name, str) or name not in offered_by_game:
                raise ApiError(400, f"game must be one of {', '.join(['spacemission', *offered_by_game])}, got {json_shown(name)}")
            options = protocol_options(body, offered_by_game[name], max_players)
        else:
            if isinstance(body, dict):
                body = {k: v for k, v in body.items() if k != "game"}
            options = game_options(body, offered, max_players)
        options["allow_seer"] = allow_seer

        stop, made = threading.Event(), {}

        def start():
            store.reserve()  # 503 when full, before the bots are built and play their opening moves
            try:
                table = made["table"] = make_protocol_table(options) if other else make_table(options)
                table.bots_until_person(stop)
                if stop.is_set():  # cut off at shutdown: no game half started is kept
                    raise ApiError(503, "the server is stopping")
            except BaseException:
                store.release()
                raise
            return store.add(table, seed_chosen=options["seed_chosen"])

        game_id, game = await work.run(stop, start, table=lambda: made.get("table"))
        return JSONResponse(await work.run(None, _locked, game, lambda: _json_of(game_id, game, 0)), status_code=201)

    async def get_game(request):
        game_id = request.path_params["game_id"]
        game = store.get(game_id)
        since = _query_int(request, "since", None)

        def view():  # since checked under the lock: an undo may shorten the log until then
            log = game.table.log
            if since is not None and not 0 <= since <= len(log):
                raise ApiError(400, f"since must be in 0..{len(log)}, got {since}")
            return _json_of(game_id, game, len(log) if since is None else since)

        return JSONResponse(await work.run(None, _locked, game, view))

    async def picture(request):
        game = store.get(request.path_params["game_id"])
        if not isinstance(game.table, ProtocolTable):
            raise ApiError(404, "this game's page draws its own board; no picture here")
        snapshot = await work.run(None, _locked, game, lambda: picture_snapshot(game.table))
        png = await work.run(None, picture_png, snapshot)
        return Response(png, media_type="image/png", headers={"Cache-Control": "no-store"})

    async def play(request):
        game_id = request.path_params["game_id"]
        body = await read_json(request)
        game = store.get(game_id)
        if not isinstance(body, dict) or "action" not in body:
            raise ApiError(400, 'a move is a JSON object {"action": id}, with "seat" and "version" optional')
        if set(body) - MOVE_FIELDS:
            raise ApiError(400, f"unknown field {json_shown(sorted(set(body) - MOVE_FIELDS)[0])}; a move takes action, seat "
                                "and version")
        # seat and version are numbers: null takes the default, as if left out (your seat; no
        # version check), as a new game's number fields do (docs/play.md)
        action, seat, version = body["action"], body.get("seat"), _version_of(body)
        if seat is None:
            seat = game.table.seat
        if isinstance(action, bool) or not isinstance(action, int):
            raise ApiError(400, f"action must be an integer action id, got {json_shown(action)}")
        if isinstance(seat, bool) or not isinstance(seat, int):
            raise ApiError(400, f"seat must be an integer, got {json_shown(seat)}")
        players = len(game.table.specs)
        if not 0 <= seat < players:  # no seat of this game (403 is for another player's seat)
            raise ApiError(400, f"seat must be in 0..{players - 1}, got {json_shown(seat)}")
        if seat != game.table.seat:
            raise ApiError(403, f"you play seat {game.table.seat} in this game, not {seat}")

        stop = threading.Event()

        def move():
            table = game.table
            _check_version(game, version, "nothing was played")  # an action id means a hand slot: of which game?
            since = len(table.log)
            try:
                table.play(action)
            except (TypeError, ValueError) as exc:
                raise ApiError(409 if table.over or not table.person_to_act else 400, str(exc)) from None
            game.version += 1
            table.bots_until_person(stop)
            return _json_of(game_id, game, since)

        return JSONResponse(await work.run(stop, _locked, game, move, table=lambda: game.table))

    def _simple(name, change, nothing):
        async def endpoint(request):
            game_id = request.path_params["game_id"]
            body = await read_json(request)  # refuses oversized or malformed bodies like every POST
            # an empty body, {} or {"version": V}: nothing in a request is silently left unread
            if not isinstance(body, dict) or set(body) - {"version"}:
                raise ApiError(400, f"{name} takes no fields but an optional version: send an empty body, {{}} or "
                                    f'{{"version": V}}, got {json_shown(body)}')
            version = _version_of(body)
            game = store.get(game_id)

            def change_it():
                table = game.table
                since = len(table.log)
                if isinstance(table, ProtocolTable):
                    raise ApiError(409, f"undo and resign are not offered for {table.game.description.title}")
                # a page's undo means the last move it shows: another tab's since would be taken back
                _check_version(game, version, nothing)
                try:
                    change(table)
                except ValueError as exc:
                    raise ApiError(409, str(exc)) from None
                game.version += 1
                return _json_of(game_id, game, min(since, len(table.log)))

            return JSONResponse(await work.run(None, _locked, game, change_it))
        return endpoint

    async def upload_replay(request):
        name = " ".join((_query(request, "name") or "").split())[:100] or "upload"  # its messages start with it
        body = await read_body(request, MAX_UPLOAD, UPLOAD_TYPES)
        try:
            text = body.decode("utf-8")
        except UnicodeDecodeError:
            raise ApiError(400, "a recorded file is UTF-8 text (JSON lines)") from None
        rid = await work.run(None, library.upload, text, name)
        return JSONResponse(library.listing(rid), status_code=201)

    async def list_replay(request):
        return JSONResponse(library.listing(request.path_params["rid"]))

    async def replay_frame(request):
        rid, text = request.path_params["rid"], request.path_params["index"]
        if not re.fullmatch(r"[0-9]+", text):  # as Starlette's {index:int}, which int() past 4300 digits failed in
            raise HTTPException(404)
        if len(text) > 18:  # no file holds that many games
            raise ApiError(404, f"no game {cut(text)} here; the file holds games 0..{library.size(rid) - 1}")
        index = int(text)
        step = _query_int(request, "step", 0)
        seat = _query_int(request, "seat", None)
        return JSONResponse(await work.run(None, library.frame, rid, index, step, seat))

    async def api_error(request, exc: ApiError):
        close = {"Connection": "close"} if isinstance(exc, BodyTimeout) else None  # the rest of the body unread
        return JSONResponse({"error": exc.message}, status_code=exc.status, headers=close)

    async def http_error(request, exc: HTTPException):
        path, method = cut(request.url.path), cut(request.method)  # a path may be 16 KiB long
        message = {404: f"no such page or endpoint: {path}",
                   405: f"{method} is not allowed on {path}"}.get(exc.status_code, exc.detail)
        return JSONResponse({"error": message}, status_code=exc.status_code, headers=getattr(exc, "headers", None))

    routes = [
        Route("/", page),
        Route("/favicon.ico", no_icon),
        Route("/play/{game_name}", protocol_page),
        Route("/api/meta", get_meta),
        Route("/api/games", new_game, methods=["POST"]),
        Route("/api/games/{game_id}", get_game),
        Route("/api/games/{game_id}/move", play, methods=["POST"]),
        Route("/api/games/{game_id}/picture.png", picture),
        Route("/api/games/{game_id}/undo", _simple("undo", lambda t: t.undo(), "nothing was taken back"),
              methods=["POST"]),
        Route("/api/games/{game_id}/resign", _simple("resign", lambda t: t.resign(), "you have not resigned"),
              methods=["POST"]),
        Route("/api/replays", upload_replay, methods=["POST"]),
        Route("/api/replays/{rid}", list_replay),
        Route("/api/replays/{rid}/{index}", replay_frame),
        Mount("/static", StaticFiles(directory=str(static)), name="static"),
    ]
    middleware = [Middleware(BodyDeadline, seconds=body_timeout)]
    if loopback_only:
        middleware.append(Middleware(LoopbackOnly, names=allowed_hosts))
    @contextlib.asynccontextmanager
    async def lifespan(app):
        yield
        # uvicorn has cancelled the requests still running after its graceful shutdown: their
        # threads stop before the bots' next decision; wait for the decisions under way
        left = await work.stop_all(TIMEOUT_GRACEFUL_SHUTDOWN)
        if left:  # their threads are daemons: the process does not wait for them
            bots = [b for b in left if b]
            print(f"spacemission serve: {len(left)} request{'s' if len(left) > 1 else ''} still running after "
                  f"{TIMEOUT_GRACEFUL_SHUTDOWN} s more{', in a decision of ' + ', '.join(bots) if bots else ''}; "
                  f"the process ends without waiting for {'them' if len(left) > 1 else 'it'}", file=sys.stderr,
                  flush=True)

    # (Starlette types every handler as taking any Exception; each is called only with its own class)
    app = Starlette(routes=routes, exception_handlers={ApiError: api_error, HTTPException: http_error,  # type: ignore[dict-item]
                                                           ClientDisconnect: client_gone},  # type: ignore[dict-item]
                    middleware=middleware, lifespan=lifespan)
    app.state.store, app.state.library, app.state.work = store, library, work
    return app
