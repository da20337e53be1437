"""What ``spacemission serve`` does to a request before its route's work: the ASGI middleware
(LoopbackOnly: the Host check, 403; BodyDeadline: a body must arrive within the body timeout,
else BodyTimeout, 408, and an answer sent before the body was read whole closes the
connection), the reading of a body (read_body: its Content-Type, 415, and its size, 413, with
what is drained first) and the answer to a client that closed its connection before its whole
body came (client_gone). Each refusal is a JSON ``{"error": message}`` naming the problem, as
the routes' are (app.py)."""
from __future__ import annotations

import asyncio
import re

from starlette.requests import ClientDisconnect, Request
from starlette.responses import JSONResponse

from ..serve import BODY_TIMEOUT, LOOPBACK_HOSTS
from .games import ApiError

MAX_BODY = 16 * 1024  # a move or a new game is a few dozen bytes
JSON_TYPE = "application/json"
DRAIN_FACTOR = 4  # an oversized body up to this many times the limit is read and dropped before the 413


def check_content_type(request: Request, accepted: tuple[str, ...]) -> None:
    """ApiError 415 unless the request says its body is one of the ``accepted`` media types
    (parameters such as charset aside), an empty body included. A page of another site may
    POST text/plain, a form or no type at all to this server without the browser asking it
    first (a CORS "simple request"), so such a request could start games or play in one; a
    JSON type makes the browser ask, and this server, giving no CORS headers, refuses."""
    given = request.headers.get("content-type")
    media = given.split(";", 1)[0].strip().lower() if given is not None else None
    if media not in accepted:
        got = "no Content-Type" if given is None else f"Content-Type {given[:80]!r}"
        raise ApiError(415, f"POST {request.url.path} takes a body sent with Content-Type: "
                            f"{' or '.join(accepted)} (an empty body too), got {got}")


async def read_body(request: Request, limit: int, types: tuple[str, ...] = (JSON_TYPE,)) -> bytes:
    """The request's body, at most ``limit`` bytes. ApiError 415 when its Content-Type is not
    one of ``types`` (check_content_type), decided before the body is read: of such a body at
    most DRAIN_FACTOR times MAX_BODY is read and dropped. Then ApiError 413 past ``limit``. A
    body up to DRAIN_FACTOR times the limit (or, refused for its type, the drained amount) is
    read to its end first: a client that sends its whole body before reading the answer
    (Python's urllib) gets the 413 or 415, not a reset connection."""
    try:
        check_content_type(request, types)
    except ApiError:
        await _drain(request, DRAIN_FACTOR * MAX_BODY)
        raise
    declared = request.headers.get("content-length")
    if declared is not None and declared.isdecimal() and (len(declared) > 18 or int(declared) > limit):
        if int(declared) <= DRAIN_FACTOR * limit:
            await _drain(request, DRAIN_FACTOR * limit)
        raise ApiError(413, f"request body of {declared} bytes is over the limit of {limit} bytes")
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > DRAIN_FACTOR * limit:
            break
        if size <= limit:
            chunks.append(chunk)
    if size > limit:
        raise ApiError(413, f"request body is over the limit of {limit} bytes")
    return b"".join(chunks)


async def _drain(request: Request, most: int) -> None:
    """Read and drop the request's body, up to about ``most`` bytes (it stops at the chunk past them)."""
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > most:
            break

# the names of this machine in a request's Host: serve's --host values of it, IPv6 in brackets
LOOPBACK_NAMES = tuple(f"[{h}]" if ":" in h else h for h in LOOPBACK_HOSTS)
_HOST = re.compile(r"(\[[^\]]*\]|[^:\[\]]*)(?::[0-9]*)?")


class LoopbackOnly:
    """ASGI middleware of a server listening on this machine only (``serve --host 127.0.0.1``,
    the default): a request whose Host header names another machine gets 403. A page of
    another site can make its own name resolve to 127.0.0.1 (DNS rebinding) and then send the
    server same-origin requests, JSON ones included, under its own name in Host."""

    def __init__(self, app, names=()):
        self.app, self.names = app, LOOPBACK_NAMES + tuple(n.lower() for n in names)

    async def __call__(self, scope, receive, send):
        if scope["type"] == "http":
            host = next((v.decode("latin-1") for k, v in scope["headers"] if k == b"host"), "")
            match = _HOST.fullmatch(host.strip())
            if match is None or match.group(1).lower() not in self.names:
                message = (f"this server answers only requests addressed to this machine (Host 127.0.0.1, localhost "
                           f"or [::1]) or to a name given with serve --allow-host, got Host {host[:80]!r}: a page of "
                           f"another site can reach a local server under its own name (DNS rebinding). A reverse "
                           f"proxy that passes its public name: serve --allow-host NAME")
                await JSONResponse({"error": message}, status_code=403)(scope, receive, send)
                return
        await self.app(scope, receive, send)


class BodyTimeout(ApiError):
    """A request body that did not arrive within the body timeout (BodyDeadline): 408, and the
    connection is closed (``Connection: close``), the rest of the body never read."""

    def __init__(self, seconds: float, received: int):
        super().__init__(408, f"the request body did not arrive within {seconds:g} s of its headers ({received} bytes "
                              "came); the connection is closed: send the whole body at once")


class BodyDeadline:
    """ASGI middleware: a request's body must arrive within ``seconds`` of its headers (uvicorn
    has no such timeout: a client sending its body slowly, or stalling, held its connection
    for ever). Each ``receive`` of the app waits at most until the deadline, then raises
    BodyTimeout, which the app answers with 408 and ``Connection: close``; once the body is
    complete, ``receive`` is passed through as it is (an app waiting for the disconnect). An
    answer sent before a request's body was read whole (a GET with a body, a 403, 404, 415, a
    413 past what is drained) says ``Connection: close``: else uvicorn went on reading and
    dropping the rest of the body, slowly if the client liked, with no timeout at all.
    Slow *headers* never reach an ASGI app: a reverse proxy bounds those (docs/play.md)."""

    def __init__(self, app, seconds: float = BODY_TIMEOUT):
        self.app, self.seconds = app, seconds

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        loop = asyncio.get_running_loop()
        deadline, received = loop.time() + self.seconds, 0
        headers = dict(scope["headers"])  # a body announced: a length other than 0, or chunks
        complete = b"transfer-encoding" not in headers and headers.get(b"content-length", b"0").strip() in (b"0", b"")

        async def bounded_receive():
            nonlocal complete, received
            if complete:
                return await receive()
            try:
                message = await asyncio.wait_for(receive(), max(deadline - loop.time(), 0))
            except asyncio.TimeoutError:
                raise BodyTimeout(self.seconds, received) from None
            if message["type"] != "http.request" or not message.get("more_body", False):
                complete = True
            received += len(message.get("body", b""))
            return message

        async def closing_send(message):
            if message["type"] == "http.response.start" and not complete:
                given = message.get("headers", [])
                if not any(k.lower() == b"connection" and v.lower() == b"close" for k, v in given):
                    message = dict(message, headers=[*given, (b"connection", b"close")])
            await send(message)

        await self.app(scope, bounded_receive, closing_send)


async def client_gone(request, exc: ClientDisconnect):
    # the client closed its connection before its whole body came: nobody reads this answer,
    # but without it the disconnect was a server error with a traceback in the log
    return JSONResponse({"error": "the client closed the connection before sending its whole body"},
                        status_code=400)
