"""``spacemission serve``: a web page where people play the bots and watch recorded games."""
from __future__ import annotations

import argparse
import math
import re
import sys

from ._args import UsageParser, int_arg

# a lower bound of one live game's memory (its state, bots and undo history): 11 KiB were measured
# for a new two-player game against random, more with other bots and as the game goes on
LIVE_GAME_BYTES = 8 * 1024
# --host values that listen on this machine only: the server then answers requests addressed to it
# by one of its own names only (web.intake.LoopbackOnly: a page of another site using DNS rebinding)
LOOPBACK_HOSTS = ("127.0.0.1", "localhost", "::1")
# what uvicorn is told (docs/play.md, "Connections"): past LIMIT_CONCURRENCY connections or requests
# at once a new request gets 503 at once; an idle kept-alive connection is closed after
# TIMEOUT_KEEP_ALIVE s; Ctrl-C waits at most TIMEOUT_GRACEFUL_SHUTDOWN s for requests in flight
# (a search bot thinking), then cuts them off (503; web.app.ThreadWork stops their bots before the
# next decision and waits as long again for a decision under way, then ends without it: its
# thread is a daemon); a request's headers may be at most MAX_HEADER_BYTES (h11, uvicorn's
# parser without httptools; httptools has its own limit). A request's body must arrive within
# --body-timeout s of its headers (web.intake.BodyDeadline, 408); nothing here bounds a client that
# sends its headers slowly (they never reach the app): a proxy in front does (docs/play.md).
LIMIT_CONCURRENCY = 1000
TIMEOUT_KEEP_ALIVE = 5
TIMEOUT_GRACEFUL_SHUTDOWN = 10
MAX_HEADER_BYTES = 16 * 1024
# the seconds a request's body may take to arrive after its headers (--body-timeout; web.intake.BodyDeadline):
# an 8 MiB recorded file needs about 2.2 Mbit/s, a move or a new game is a few dozen bytes
BODY_TIMEOUT = 30.0

EXAMPLE = """examples:
  spacemission serve                                  http://127.0.0.1:8000/ , bots heuristic, greedy, random
  spacemission serve --opponents heuristic,ppo,search --players 3
  spacemission serve --replay results/games.jsonl     the recorded games on the page as well
  spacemission serve --game red_planet                Mission: Red Planet at /, Space Mission at /play/spacemission
  spacemission serve --host 0.0.0.0 --port 8080       reachable from other machines (put a proxy in front)

The page offers a new game (players, opponents, rule set, your seat, seed), the board as your
seat sees it, your legal moves as buttons, undo, resign and, at the end, every card and tile
with the score breakdown. The JSON API behind it is in docs/play.md."""


def build_parser() -> argparse.ArgumentParser:
    ap = UsageParser(prog="spacemission serve",
                     description="Serve a web page where people play the bots and replay recorded games.",
                     epilog=EXAMPLE, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--host", default="127.0.0.1",
                    help="address to listen on (default 127.0.0.1: this machine only; 0.0.0.0: every interface)")
    from spacemission_env.games import GAMES

    ap.add_argument("--allow-host", action="append", default=[], metavar="NAME",
                    help="listening on this machine only (the default --host), the server answers requests "
                         "addressed to 127.0.0.1, localhost or [::1] only (a page of another site could reach it "
                         "under its own name: DNS rebinding); also answer NAME, the public name a reverse proxy "
                         "passes in Host (repeatable)")
    ap.add_argument("--game", choices=sorted(GAMES), default="spacemission",
                    help="the game of the page at / (default spacemission); every game is at /play/NAME as well, "
                         "Red Planet as its text board, picture and moves")
    ap.add_argument("--port", type=int_arg, default=8000, help="port (default 8000)")
    from . import _help

    low, high = _help.player_range()
    ap.add_argument("--players", type=int_arg, default=high, metavar="N",
                    help=f"the most players a visitor may choose, {low}-{high} (default {high}): each game's page "
                         f"offers its own range up to N ({_help.player_ranges()})")
    ap.add_argument("--opponents", default="heuristic,greedy,random", metavar="SPEC[,SPEC...]",
                    help="the agent specs a visitor may choose (default heuristic,greedy,random); the first is the default")
    ap.add_argument("--max-games", type=int_arg, default=200, metavar="N",
                    help="live games held at once (default 200); when full, a finished game or one idle for "
                         "--idle-minutes makes room (the longest idle first), else a new game is refused (503)")
    ap.add_argument("--idle-minutes", type=float, default=30.0, metavar="M",
                    help="a game idle this long may be dropped to make room (default 30)")
    ap.add_argument("--body-timeout", type=float, default=BODY_TIMEOUT, metavar="S",
                    help=f"a request's body must arrive within S seconds of its headers, else 408 and the connection "
                         f"is closed (default {BODY_TIMEOUT:g}: an 8 MiB recorded file at about 2.2 Mbit/s)")
    ap.add_argument("--allow-seer", action="store_true",
                    help="let an opponent ask for the 'seer' observation, the whole state: it sees the visitor's hand "
                         "and every hidden card (refused by default, as in the arena)")
    ap.add_argument("--replay", metavar="FILE", help="recorded games (arena games.jsonl, play --record, or a play save) to show")
    return ap


def check_opponents(text: str, allow_seer: bool = False) -> list[str]:
    """The offered specs, each built once for a game it could join (ValueError naming the spec,
    or one that asks for the whole state unless ``allow_seer``; one that asks for it only once
    bound to a game is refused by each new game with it, 400)."""
    from ._bots import check_not_seer, make_bot

    specs = [s.strip() for s in text.split(",")]
    if not all(specs):
        raise ValueError(f"an empty spec in {text!r}")
    for spec in specs:
        agent = make_bot(spec, 0)
        if not allow_seer:
            check_not_seer(spec, getattr(agent, "observation_type", None), "--allow-seer lets the server offer it")
    return specs


def other_games_opponents(specs: list[str]) -> dict[str, list[str]]:
    """Per game other than Space Mission: the offered specs that name one of its agents
    and whose ``bind`` accepts the game at some player count (random for any game where
    none does)."""
    from spacemission_env.games import GAMES

    return {name: [s for s in specs if _fits(s, name)] or ["random"] for name in GAMES if name != "spacemission"}


def _fits(spec: str, game: str) -> bool:
    """Whether ``spec`` builds for ``game`` and its ``bind`` (if any) accepts one of the
    game's player counts. Only ValueError/TypeError mean "not this game" (the protocol's
    refusal); a bind failing otherwise keeps the spec offered, and a new game names it."""
    from spacemission_env.games import GameConfig, get_game

    from ._bots import make_bot

    try:
        agent = make_bot(spec, 0, game)
    except (ValueError, TypeError, ImportError):
        return False
    bind = getattr(agent, "bind", None)
    if not callable(bind):
        return True
    d = get_game(game).description
    for n in range(d.min_players, d.max_players + 1):
        try:
            bind(GameConfig(n, game=game))
            return True
        except (ValueError, TypeError):
            continue
        except Exception:  # noqa: BLE001 - not a refusal: the game's start reports it
            return True
    return False


def main(argv: list[str] | None = None) -> int:
    ap = build_parser()
    args = ap.parse_args(argv)
    from . import _help

    low, high = _help.player_range()
    if not low <= args.players <= high:
        ap.error(f"argument --players: must be {low}-{high}, got {args.players}")
    if not 0 <= args.port <= 65535:
        ap.error(f"argument --port: must be 0-65535, got {args.port}")
    if args.max_games < 1:
        ap.error(f"argument --max-games: must be >= 1, got {args.max_games}")
    from spacemission_env.games import get_game

    d = get_game(args.game).description
    if args.players < d.min_players:  # the page at / could start no game: every one would be refused
        ap.error(f"argument --players: the page at / plays {d.title}, which needs {d.min_players}-{d.max_players} "
                 f"players; this server would offer at most {args.players}")
    from spacemission_env.checks import check_memory

    try:  # the cap is what keeps visitors' games within memory: one that cannot is no cap
        check_memory(f"{args.max_games:,} live games need", args.max_games * LIVE_GAME_BYTES, "use a smaller --max-games",
                     f" ({LIVE_GAME_BYTES // 1024} KiB each at the least)")
    except ValueError as exc:
        ap.error(f"argument --max-games: {exc}")
    if args.allow_host and args.host not in LOOPBACK_HOSTS:
        ap.error(f"argument --allow-host: only with a --host of this machine ({', '.join(LOOPBACK_HOSTS)}): "
                 f"listening on {args.host} the server answers every name")
    for name in args.allow_host:  # a Host header's name: no port, no spaces
        if not re.fullmatch(r"[A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\]", name):
            ap.error(f"argument --allow-host: a host name or address as a browser sends it in Host (no port, "
                     f"IPv6 in brackets), got {name!r}")
    if not args.idle_minutes > 0:
        ap.error(f"argument --idle-minutes: must be > 0, got {args.idle_minutes}")
    if not 0 < args.body_timeout < math.inf:
        ap.error(f"argument --body-timeout: must be a number of seconds > 0, got {args.body_timeout}")
    try:
        import uvicorn

        from .web.app import create_app
    except ImportError as exc:
        ap.error(f"serve needs the web extra: pip install 'spacemission_env[web]' ({exc})")
    from ._bots import bot_interrupts

    try:
        with bot_interrupts():  # a bot's KeyboardInterrupt as it is built is its failure, not Ctrl-C
            opponents = check_opponents(args.opponents, args.allow_seer)
            game_opponents = other_games_opponents(opponents)
    except ValueError as exc:
        ap.error(f"argument --opponents: {exc}")
    except KeyboardInterrupt:  # the user's Ctrl-C while the offered bots were built
        print("\ninterrupted: the server was not started", file=sys.stderr, flush=True)
        return 130
    from ._games import ReplayError

    notes = []
    for name, offered in game_opponents.items():  # say which specs a game's page leaves out
        dropped = [spec for spec in opponents if spec not in offered]
        if not dropped:
            continue
        if name == args.game and len(dropped) == len(opponents):
            ap.error(f"argument --opponents: none of {', '.join(opponents)} plays {d.title}, the page at / "
                     f"(--game {args.game})")
        notes.append(f"{get_game(name).description.title} offers {', '.join(offered)}: {', '.join(dropped)} "
                     f"{'does' if len(dropped) == 1 else 'do'} not play it")
    try:
        app = create_app(opponents, max_players=args.players, max_games=args.max_games,
                         idle_seconds=args.idle_minutes * 60, replay_file=args.replay,
                         game_opponents=game_opponents, start_page=args.game, allow_seer=args.allow_seer,
                         loopback_only=args.host in LOOPBACK_HOSTS, allowed_hosts=tuple(args.allow_host),
                         body_timeout=args.body_timeout)
    except ReplayError as exc:
        ap.error(f"argument --replay: {exc}")
    if args.host not in LOOPBACK_HOSTS:
        print(f"Listening on {args.host}: reachable from other machines, as you chose (--host). "
              "docs/play.md shows how to put a reverse proxy with TLS in front.", flush=True)
    import socket

    try:  # bound here: a port in use is a usage error, and --port 0 announces the port the system chose
        sock = listening_socket(args.host, args.port)
    except socket.gaierror as exc:
        ap.error(f"argument --host: cannot listen on {args.host!r}: {exc.strerror or exc}")
    except OSError as exc:
        ap.error(f"argument --port: cannot listen on {args.host} port {args.port}: {exc.strerror or exc}")
    port = sock.getsockname()[1]
    shown = {"0.0.0.0": "127.0.0.1", "::": "[::1]"}.get(args.host, f"[{args.host}]" if ":" in args.host else args.host)
    offered = game_opponents.get(args.game, opponents)
    print(f"{d.title} at http://{shown}:{port}/ (opponents {', '.join(offered)}; Ctrl-C stops)", flush=True)
    for note in notes:
        print(f"note: {note}", flush=True)
    config = uvicorn.Config(app, host=args.host, port=port, log_level="warning", limit_concurrency=LIMIT_CONCURRENCY,
                            timeout_keep_alive=TIMEOUT_KEEP_ALIVE, timeout_graceful_shutdown=TIMEOUT_GRACEFUL_SHUTDOWN,
                            h11_max_incomplete_event_size=MAX_HEADER_BYTES)
    try:
        uvicorn.Server(config).run(sockets=[sock])
    except KeyboardInterrupt:  # Ctrl-C: uvicorn stopped gracefully, then raised SIGINT again (a traceback)
        return 130
    return 0


def listening_socket(host: str, port: int):
    """A TCP socket bound to ``host``:``port`` (0: a free port the system picks), for uvicorn
    to listen on; OSError when it cannot be bound (a port in use, an unknown host)."""
    import socket

    family, kind, proto, _, address = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0]
    sock = socket.socket(family, kind, proto)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as uvicorn sets it
        sock.bind(address)
    except OSError:
        sock.close()
        raise
    return sock


if __name__ == "__main__":
    sys.exit(main())
