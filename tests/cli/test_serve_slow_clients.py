"""serve against clients that send a request body slowly or not at all: the body must arrive
within serve --body-timeout of its headers (web.intake.BodyDeadline), else 408 with the usual
JSON error and the connection closed; before, uvicorn waited for the body for ever."""
from __future__ import annotations

import json
import select
import socket
import threading

import pytest

from tests.helpers.web import served

pytest.importorskip("uvicorn", reason="uvicorn is not installed (web extra)")
pytest.importorskip("starlette", reason="the web extra is not installed")

from spacemission_cli.web.app import create_app  # noqa: E402

HEAD = ("POST /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        "Content-Length: 100\r\n\r\n").encode()


def _answer(sock) -> bytes:
    """Everything the server sends until it closes the connection (a generous bound: the test
    fails, not hangs, where the server never answers)."""
    sock.settimeout(30)
    data = b""
    while True:
        try:
            chunk = sock.recv(65536)
        except (TimeoutError, socket.timeout):
            raise AssertionError(f"no answer, or the connection left open, after 30 s: {data[:300]!r}") from None
        except ConnectionResetError:
            break
        if not chunk:
            break
        data += chunk
    return data


def _checked_408(data: bytes) -> str:
    head, _, body = data.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 408 "), data[:300]
    assert b"connection: close" in head.lower(), head
    message = json.loads(body)["error"]
    assert "did not arrive within 0.5 s of its headers" in message and "send the whole body at once" in message
    return message


@pytest.fixture(scope="module")
def server():
    app = create_app(["random"], body_timeout=0.5)
    with served(app) as url:
        yield app, int(url.rsplit(":", 1)[1])


def test_a_stalled_body_is_answered_408_and_the_connection_closed(server):
    app, port = server
    with socket.create_connection(("127.0.0.1", port)) as sock:
        sock.sendall(HEAD + b'{"players": ')  # 12 of the 100 bytes announced, then nothing
        message = _checked_408(_answer(sock))
    assert "(12 bytes came)" in message
    assert len(app.state.store) == 0


def test_a_trickling_body_is_answered_408_too(server):
    """One byte every 50 ms (100 would complete the body) never lets an idle timer fire: the
    deadline is for the whole body."""
    app, port = server
    done = threading.Event()
    with socket.create_connection(("127.0.0.1", port)) as sock:
        sock.sendall(HEAD)

        def trickle():  # until the answer comes (the connection readable), at most 30 s
            for _ in range(600):
                if done.is_set() or select.select([sock], [], [], 0.05)[0]:
                    return
                try:
                    sock.sendall(b" ")
                except OSError:  # the server closed the connection
                    return

        sender = threading.Thread(target=trickle)
        sender.start()
        try:
            _checked_408(_answer(sock))
        finally:
            done.set()
            sender.join(30)
    assert len(app.state.store) == 0


def test_a_whole_body_in_time_and_a_get_are_answered_as_before(server):
    """The deadline bounds the body only: a page served after it, and a body sent at once, are answered."""
    _, port = server
    body = b"{}"
    with socket.create_connection(("127.0.0.1", port)) as sock:
        sock.sendall(HEAD.replace(b"Content-Length: 100", b"Content-Length: 2") + body)
        sock.settimeout(30)
        assert sock.recv(65536).startswith(b"HTTP/1.1 201 ")
    with socket.create_connection(("127.0.0.1", port)) as sock:
        sock.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        data = _answer(sock)
    assert data.startswith(b"HTTP/1.1 200 ") and b"<html" in data.lower()


def test_serve_passes_body_timeout(monkeypatch):
    import uvicorn

    from spacemission_cli import serve
    from spacemission_cli.web import app as web_app

    made = []
    monkeypatch.setattr(web_app, "create_app", lambda *a, **kw: made.append(kw) or create_app(*a, **kw))
    monkeypatch.setattr(uvicorn.Server, "run", lambda self, sockets=None: [s.close() for s in sockets])
    assert serve.main(["--port", "0"]) == 0
    assert serve.main(["--port", "0", "--body-timeout", "2.5"]) == 0
    assert [kw["body_timeout"] for kw in made] == [serve.BODY_TIMEOUT, 2.5]


@pytest.mark.parametrize("value", ["0", "-1", "nan", "inf"])
def test_serve_refuses_a_body_timeout_that_bounds_nothing(value, capsys):
    from spacemission_cli import serve

    with pytest.raises(SystemExit) as exc:
        serve.main(["--body-timeout", value])
    err = capsys.readouterr().err
    assert exc.value.code == 2 and f"argument --body-timeout: must be a number of seconds > 0, got {value}" in err


@pytest.mark.parametrize("request_line", [b"GET /api/meta", b"GET /nowhere"])
def test_an_answer_before_the_body_was_read_closes_the_connection(server, request_line):
    """A request answered without its body read (a GET with a body, a 404): before, uvicorn
    kept the connection open and went on dropping the body's bytes however slowly they came,
    with no timeout (the answer's keep-alive timer restarts with every byte)."""
    _, port = server
    with socket.create_connection(("127.0.0.1", port)) as sock:
        sock.sendall(request_line + HEAD[HEAD.index(b" HTTP/1.1"):] + b"{")  # 1 of 100 bytes, then nothing
        data = _answer(sock)
    head = data.partition(b"\r\n\r\n")[0]
    assert head.startswith(b"HTTP/1.1 "), data[:300]
    assert b"connection: close" in head.lower(), head
