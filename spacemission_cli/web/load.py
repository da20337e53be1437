"""A bounded load test of ``spacemission serve``, local only: the server on 127.0.0.1 (a free
port, its own process), ``games`` concurrent games, each making ``moves`` random
legal moves through the JSON API, then stopping. Reports requests per second and the slowest
response, and checks that nothing was lost or mixed between games: each game's own moves,
read back at the end, are exactly the ones its client sent, in order.

    python -m spacemission_cli.web.load --games 50 --moves 30 --opponents random

Needs the web extra and httpx2 (dev extra)."""
from __future__ import annotations

import argparse
import asyncio
import random
import socket
import subprocess
import sys
import time
from contextlib import contextmanager

from .._args import int_arg


@contextmanager
def local_server(opponent: str, max_games: int):
    """``spacemission serve`` on 127.0.0.1 at a free port, in its own process (so the clients'
    work does not share its interpreter), until the block ends; yields the base URL."""
    import httpx2

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server = subprocess.Popen([sys.executable, "-m", "spacemission_cli.main", "serve", "--host", "127.0.0.1",
                               "--port", str(port), "--opponents", opponent, "--max-games", str(max_games)],
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            if server.poll() is not None:
                assert server.stderr is not None  # stderr=PIPE
                raise RuntimeError(f"the server did not start: {server.stderr.read()}")
            try:
                if httpx2.get(f"{url}/api/meta", timeout=1).status_code == 200:
                    break
            except httpx2.HTTPError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError("the server did not answer within 60 s")
            time.sleep(0.1)
        yield url
    finally:
        server.terminate()
        try:
            server.wait(10)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()


async def _one_game(client, k: int, moves: int, opponent: str, times: list, problems: list) -> None:
    rng = random.Random(k)

    async def call(method, path, **kw):
        start = time.perf_counter()
        r = await client.request(method, path, **kw)
        times.append(time.perf_counter() - start)
        return r

    r = await call("POST", "/api/games", json={"opponents": opponent, "seed": k, "seat": k % 2})
    if r.status_code != 201:
        problems.append(f"game {k}: new game refused: {r.text}")
        return
    g = r.json()
    gid, sent = g["id"], []
    for _ in range(moves):
        if g["over"]:
            break
        move = rng.choice(g["moves"])
        r = await call("POST", f"/api/games/{gid}/move", json={"action": move["action"]})
        if r.status_code != 200:
            problems.append(f"game {k}: move refused: {r.text}")
            return
        g = r.json()
        sent.append(move["label"])
        if g["id"] != gid or g["log"][0]["text"] != move["label"] or g["log"][0]["seat"] != g["seat"]:
            problems.append(f"game {k}: the answer to a move is not that move in this game")
    r = await call("GET", f"/api/games/{gid}?since=0")
    mine = [e["text"] for e in r.json()["log"] if e["seat"] == g["seat"]]
    if mine != sent:
        problems.append(f"game {k}: {len(sent)} moves sent, the game holds {len(mine)} of its person's, "
                        f"{'in another order' if sorted(mine) == sorted(sent) else 'not the same'}")


async def _run(url: str, games: int, moves: int, opponent: str) -> dict:
    import httpx2

    times: list[float] = []
    problems: list[str] = []
    limits = httpx2.Limits(max_connections=games)
    async with httpx2.AsyncClient(base_url=url, limits=limits, timeout=120) as client:
        start = time.perf_counter()
        await asyncio.gather(*(_one_game(client, k, moves, opponent, times, problems) for k in range(games)))
        wall = time.perf_counter() - start
    times.sort()
    return {"games": games, "moves": moves, "requests": len(times), "seconds": wall,
            "requests_per_s": len(times) / wall, "median_ms": 1000 * times[len(times) // 2],
            "p99_ms": 1000 * times[min(len(times) - 1, int(0.99 * len(times)))], "slowest_ms": 1000 * times[-1],
            "problems": problems}


def load_test(games: int = 50, moves: int = 30, opponent: str = "random") -> dict:
    """Run the load test on a fresh app; the figures and the list of problems (empty: none)."""
    with local_server(opponent, games) as url:
        return asyncio.run(_run(url, games, moves, opponent))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m spacemission_cli.web.load",
                                 description="A bounded local load test of spacemission serve.")
    ap.add_argument("--games", type=int_arg, default=50, help="concurrent games (default 50)")
    ap.add_argument("--moves", type=int_arg, default=30, help="random moves per game (default 30)")
    ap.add_argument("--opponents", default="random", help="the bot in every game (default random)")
    args = ap.parse_args(argv)
    if args.games < 1 or args.moves < 1:
        ap.error("--games and --moves must be >= 1")
    r = load_test(args.games, args.moves, args.opponents)
    print(f"{r['games']} concurrent games x {r['moves']} moves against {args.opponents}: {r['requests']} requests in "
          f"{r['seconds']:.1f} s = {r['requests_per_s']:.0f} requests/s; median {r['median_ms']:.0f} ms, "
          f"p99 {r['p99_ms']:.0f} ms, slowest {r['slowest_ms']:.0f} ms; "
          f"{'nothing lost or mixed' if not r['problems'] else str(len(r['problems'])) + ' problems'}")
    for p in r["problems"]:
        print("  " + p)
    return 1 if r["problems"] else 0


if __name__ == "__main__":
    sys.exit(main())
