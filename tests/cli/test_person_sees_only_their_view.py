"""A person at seat s is shown only what seat s may see (R-I1..R-I5, M-I1..M-I5), by the pair
method of tests/agents/test_bots_see_only_their_observation.py: pairs of positions with the
same ``info`` and ``recall`` observation for seat s that differ in what s cannot see (other
hands, the draw pile's order, the generator state, piles under the table and rivals'
reservations in Space Mission; rivals' commits, bonus cards, setup hands and the piles'
orders in Red Planet). Each surface a person reads while the game runs must give the same
bytes for both positions of a pair (the game id made equal):

- the web API: ``GET /api/games/{id}`` (the view or text board, the moves and their labels,
  the log slices of ``since=``), Red Planet's ``picture.png``, the messages of refused moves
  and of undo;
- the terminal ``play``: a whole decision at the prompt (board, moves, help, refused
  inputs);
- the lines that tell one seat's move to a person (the log, ``play``'s bot lines,
  ``replay --seat``): for moves from either position after which the seat's observation is
  again the same, the same text.
"""
from __future__ import annotations

import functools
import hashlib
import io
import random

import numpy as np
import pytest

from spacemission_env.games import GameConfig, get_game
from spacemission_env.red_planet import determinize as RD
from spacemission_env.red_planet import encoding as RE
from spacemission_env.red_planet import rules as RR
from spacemission_env.space_mission import actions as SA
from spacemission_env.space_mission import determinize as SD
from spacemission_env.space_mission import encoding as SE
from spacemission_env.space_mission import rules as SR
from tests.helpers.positions import swap_hidden_cards
from tests.helpers.web import web_client

OTYPES = ("info", "recall")




def _seen(encoding, s, p) -> bytes:
    """Seat p's observations of ``s``, both types, as bytes."""
    return b"".join(encoding.observe(s, p, o).tobytes() for o in OTYPES)


def _sm_same(s, t, p) -> bool:
    return _seen(SE, s, p) == _seen(SE, t, p)


def _rp_same(s, t, p) -> bool:
    return _seen(RE, s, p) == _seen(RE, t, p)


@functools.lru_cache(maxsize=None)
def sm_pairs(every: int = 9, all_seats: bool = False):
    """[(state, other, seat)] along random games of several sizes and both rule sets."""
    out = []
    for n, rules, seed in ((2, "yucata", 1), (3, "schmidt", 2), (4, "yucata", 3), (5, "yucata", 4)):
        s, rnd, k = SR.new_game(n, seed=seed, rules=rules, max_rounds=100), random.Random(seed), 0
        while not s.is_over:
            if k % every == 0:
                for p in (range(n) if all_seats else [s.current_player]):
                    for t in (SD.sample_world(s, p, np.random.default_rng(k)), swap_hidden_cards(s, p)):
                        assert _sm_same(s, t, p) and t.to_json() != s.to_json()
                        out.append((s.copy(), t, p))
            SR.apply(s, rnd.choice(SR.legal_actions(s)))
            k += 1
    return out


@functools.lru_cache(maxsize=None)
def rp_pairs(every: int = 3, all_seats: bool = False):
    """[(state, world, seat)] along random games of 3, 4 and 5 players, every phase."""
    out = []
    for n in (3, 4, 5):
        s, rnd, k = RR.new_game(n, seed=n), random.Random(n), 0
        while not RR.is_over(s):
            if k % every == 0:
                for p in (range(n) if all_seats else [RR.current_player(s)]):
                    w = RD.sample_world(s, p, np.random.default_rng(100 * n + k))
                    assert _rp_same(s, w, p)
                    out.append((s.copy(), w, p))
            RR.apply(s, rnd.choice(RR.legal_actions(s)))
            k += 1
    return out


def test_the_pairs_differ_in_what_the_seat_cannot_see():
    sm, rp = sm_pairs(), rp_pairs()
    assert len(sm) > 150 and len(rp) > 100
    assert any(s.draw_pile != t.draw_pile for s, t, _ in sm)
    assert any(s.players[q].hand != t.players[q].hand for s, t, p in sm for q in range(s.num_players) if q != p)
    assert any(s.piles != t.piles for s, t, _ in sm)
    assert any(s.event_pile != w.event_pile for s, w, _ in rp)
    assert {s.phase for s, _, _ in rp} >= {"keep", "commit", "place", "ability", "destination"}
    assert any(s.players[q].commit != w.players[q].commit for s, w, p in rp for q in range(s.num_players) if q != p)


# --- the web API -----------------------------------------------------------------------------------
def _sm_table(state, p):
    from spacemission_cli._table import Table
    from spacemission_cli.play import Opponent

    n = state.num_players
    config = GameConfig(n, state.rules, state.max_rounds)
    return Table(state, p, 99, ["random" if q != p else None for q in range(n)],
                 {q: Opponent("random", q, 99, config) for q in range(n) if q != p})


def _rp_table(state, p):
    from spacemission_cli._protocol_play import ProtocolTable

    n = state.num_players
    table = ProtocolTable(get_game("red_planet"), GameConfig(n, game="red_planet"), p, 99,
                          ["random" if q != p else None for q in range(n)])
    table.state = state
    return table


def _web_outputs(client, table, num_actions, legal) -> list:
    """Everything the API gives the person about a game in ``table``'s position, its id made
    equal: the game at three log slices, the picture (Red Planet), refused moves, undo."""
    store = client.app.state.store
    table.log = [{"seat": q % table.state.num_players, "text": f"move {q}", "round": 1} for q in range(3)]
    store.reserve()
    gid, _ = store.add(table)
    out = [client.get(f"/api/games/{gid}{q}") for q in ("", "?since=1", "?since=3")]
    if hasattr(table, "game"):
        out.append(client.get(f"/api/games/{gid}/picture.png"))
    refused = [a for a in range(num_actions) if a not in legal]
    out += [client.post(f"/api/games/{gid}/move", json={"action": a}) for a in [*refused[::len(refused) // 4], -1]]
    out.append(client.post(f"/api/games/{gid}/undo", json={}))
    texts = [(r.status_code, hashlib.sha256(r.content.replace(gid.encode(), b"ID")).hexdigest()) for r in out]
    store._games.pop(gid)
    return texts


# every how many moves a pair is taken: the default suite checks every other pair of the slow
# set's (make test-slow): 108 pairs in Space Mission and 32 in Red Planet (214 and 63)
@pytest.mark.parametrize("game, every", [
    ("spacemission", 54), ("red_planet", 12),
    pytest.param("spacemission", 27, marks=pytest.mark.slow), pytest.param("red_planet", 6, marks=pytest.mark.slow)])
def test_the_web_api_gives_the_same_bytes_in_positions_the_seat_cannot_tell_apart(game, every):
    if game == "spacemission":
        pairs, table, n_act, legal = sm_pairs(every=every), _sm_table, SA.NUM_ACTIONS, SR.legal_actions
    else:
        pairs, table, n_act, legal = rp_pairs(every=every), _rp_table, get_game("red_planet").num_actions, RR.legal_actions
    assert len(pairs) >= 30
    # one event loop for all the requests (the client started by ``with``), not one each
    with web_client(("random",), game_opponents={"red_planet": ["random"]}) as client:
        for s, t, p in pairs:
            a, b = (_web_outputs(client, table(x.copy(), p), n_act, legal(x)) for x in (s, t))
            assert all(code in (200, 400, 409) for code, _ in a)
            assert a == b, f"{game}: seat {p} told apart two positions it cannot see apart (round {s.round})"


# --- the terminal ----------------------------------------------------------------------------------
SCRIPT = "help\nboard\nmoves\nzzz\ntop up ZZ\njump\nfly\n99\n0\nundo\nquit\nn\n"  # then the end of the input


def _terminal_decision(game, state, p) -> str:
    from rich.console import Console

    from spacemission_cli._prompt import Prompt

    prompt = Prompt(io.StringIO(SCRIPT))
    if game == "spacemission":
        from spacemission_cli._session import Session

        session = Session(_sm_table(state, p), prompt)
    else:
        from spacemission_cli._protocol_play import ProtocolSession

        n = state.num_players
        session = ProtocolSession(get_game(game), {"config": GameConfig(n, game=game), "seat": p, "seed": 99,
                                                   "specs": ["random" if q != p else None for q in range(n)],
                                                   "actions": [], "state": state}, prompt)
    out = io.StringIO()
    session.console = Console(file=out, width=110, highlight=False, color_system=None)
    assert session.person_decision() is False  # the script's inputs, then the end of the input
    return out.getvalue()


@pytest.mark.parametrize("game", ["spacemission", "red_planet"])
def test_play_shows_the_same_text_in_positions_the_seat_cannot_tell_apart(game):
    pairs = sm_pairs(every=81) if game == "spacemission" else rp_pairs(every=9)
    for s, t, p in pairs:
        a, b = (_terminal_decision(game, x.copy(), p) for x in (s, t))
        assert "Commands:" in a and "end of input" in a
        assert a == b, f"{game}: play showed seat {p} two positions it cannot see apart differently"


# --- the move lines ----------------------------------------------------------------------------------
def _lines(game, s, t, p):
    """[(text of a move from s, text of a move from t)] for every two moves after which
    seat p's observation is again the same: the texts p is shown of them (the log, play's
    lines and replay --seat: the actor's own label for p's moves, else what p sees)."""
    if game == "spacemission":
        from spacemission_cli._games import own_label, public_label
        from spacemission_cli._table import move_label

        legal, apply, encoding = SR.legal_actions, SR.apply, SE
        labels = ((lambda a, x: (move_label(a, x), own_label(a, x))) if s.current_player == p
                  else (lambda a, x: public_label(a, x)))
    else:
        g = get_game(game)
        legal, apply, encoding = RR.legal_actions, RR.apply, RE
        labels = lambda a, x: g.seat_label(a, x, p)  # noqa: E731
    after = {}  # seat p's observation after a move from s -> the texts of those moves
    for a in legal(s):
        x = s.copy()
        apply(x, a)
        after.setdefault(_seen(encoding, x, p), set()).add(labels(a, s))
    out = []
    for b in legal(t):
        y = t.copy()
        apply(y, b)
        out += [(a, labels(b, t)) for a in after.get(_seen(encoding, y, p), ())]
    return out


@pytest.mark.parametrize("game", ["spacemission", "red_planet"])
def test_a_move_reads_the_same_where_the_seat_cannot_tell_it_apart(game):
    pairs = sm_pairs(every=151, all_seats=True) if game == "spacemission" else rp_pairs(every=5, all_seats=True)
    checked = 0
    for s, t, p in pairs:
        for a, b in _lines(game, s, t, p):
            assert a == b, f"{game}: seat {p} is told {a!r} and {b!r} of moves it cannot tell apart"
            checked += 1
    assert checked > 300


# --- the seed in the terminal ----------------------------------------------------------------------
@pytest.mark.parametrize("game", ["spacemission", "red_planet"])
def test_play_shows_a_random_seed_only_at_the_end(game, monkeypatch, capsys):
    """The seed rebuilds every hidden card (the page gives it only at the end unless chosen):
    play printed a random one in its first line."""
    import sys

    from spacemission_cli import play

    def run(*argv, moves="1\n" * 4000):
        monkeypatch.setattr(sys, "stdin", io.StringIO(moves))
        code = play.main(["--game", game, "--opponents", "random", *argv])
        return code, capsys.readouterr().out

    monkeypatch.setattr("secrets.randbits", lambda bits: 123456789)  # the random seed
    code, out = run(*(["--max-rounds", "1"] if game == "spacemission" else []), moves="quit\ny\n")
    assert code == 0 and "left the game" in out and "123456789" not in out  # left before the end
    assert "seed shown at the end" in out.splitlines()[0]
    code, out = run(*(["--max-rounds", "1"] if game == "spacemission" else []))
    assert code == 0 and "123456789" not in out.split("The end")[0] and "The game's seed: 123456789" in out
    code, out = run("--seed", "7", "--max-rounds" if game == "spacemission" else "--seat", "1", moves="quit\ny\n")
    assert ", seed 7." in out.splitlines()[0]  # chosen: the person knows it already
