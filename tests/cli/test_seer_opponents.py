"""A bot that asks for the ``seer`` observation (the whole state: every hand, pile and the deck
order, the arena's WHOLE_STATE_VIEWS) would see the person's cards in ``play`` and on the page
of ``serve``: both refuse it, naming the bot and the flag that allows it (--allow-seer, as
the arena's), and say so when it is allowed. Before, both let it play unannounced."""
from __future__ import annotations

import json
import re

import pytest

from spacemission_cli import serve
from tests.helpers.cli_play import run_play
from tests.helpers.web import refused, web_client

H = "tests.helpers.external_agents"
GAMES = [("spacemission", 2), ("red_planet", 3)]


def _play(argv, monkeypatch, capsys, text="quit\ny\n"):
    code, out, err = run_play(argv, monkeypatch, capsys, text)
    return code, " ".join(out.split()), " ".join(err.split())  # rich wraps long lines


@pytest.mark.parametrize("game, players", GAMES)
@pytest.mark.parametrize("spec", [f"{H}:Seer", f"{H}:Seer:at_bind=True"])
def test_play_refuses_a_seer_opponent_unless_allowed(game, players, spec, monkeypatch, capsys):
    opponents = spec if players == 2 else f"random,{spec}"  # the seer in the last seat
    argv = ["--game", game, "--players", str(players), "--opponents", opponents, "--seed", "1"]
    code, out, err = _play(argv, monkeypatch, capsys)
    assert code == 2 and "argument --opponents" in err and f"agent {spec!r}" in err, err
    assert "observation_type 'seer', the whole state" in err and "--allow-seer lets it play" in err, err
    code, out, err = _play(argv + ["--allow-seer"], monkeypatch, capsys)
    seat = players - 1
    assert code == 0 and f"Note: seat {seat} ({spec}) sees the whole state (--allow-seer)" in out, (out, err)


def test_play_without_a_seer_says_nothing_of_it(monkeypatch, capsys):
    code, out, err = _play(["--opponents", "random", "--seed", "1"], monkeypatch, capsys)
    assert code == 0 and "whole state" not in out, out


def test_play_load_refuses_a_saved_seer_opponent_unless_allowed(tmp_path, monkeypatch, capsys):
    save = tmp_path / "s.json"
    code, out, err = _play(["--opponents", f"{H}:Seer", "--seed", "2", "--allow-seer"], monkeypatch, capsys,
                           text=f"save {save}\nquit\ny\n")
    assert code == 0 and json.loads(save.read_text())["specs"] == [None, f"{H}:Seer"], err
    argv = ["--load", str(save), "--trust-load"]
    code, out, err = _play(argv, monkeypatch, capsys)
    assert code == 2 and f"argument --load: {save}" in err and "observation_type 'seer'" in err, err
    code, out, err = _play(argv + ["--allow-seer"], monkeypatch, capsys)
    assert code == 0 and "sees the whole state" in out, err


@pytest.mark.parametrize("body", [{}, {"game": "red_planet", "players": 3}])
@pytest.mark.parametrize("spec", [f"{H}:Seer", f"{H}:Seer:at_bind=True"])
def test_serve_refuses_a_game_with_a_seer_bot_unless_started_with_allow_seer(body, spec):
    body = {**body, "opponents": spec, "seed": 1}
    specs = {"red_planet": [spec]}
    client = web_client([spec], game_opponents=specs)
    message = refused(client.post("/api/games", json=body), 400, f"agent {spec!r}", "observation_type 'seer'",
                      "spacemission serve --allow-seer")
    assert len(client.app.state.store) == 0, message
    client = web_client([spec], game_opponents=specs, allow_seer=True)
    assert client.post("/api/games", json=body).status_code == 201


def test_serve_refuses_to_offer_a_seer_bot_unless_allowed(monkeypatch, capsys):
    monkeypatch.setattr(serve, "listening_socket", lambda *a: pytest.fail("it listened"))
    with pytest.raises(SystemExit) as exc:
        serve.main(["--opponents", f"random,{H}:Seer", "--port", "0"])
    err = " ".join(capsys.readouterr().err.split())
    assert exc.value.code == 2 and re.search(r"argument --opponents: agent '[^']*:Seer' asks for observation_type "
                                             r"'seer'.*--allow-seer lets the server offer it", err), err
    assert serve.check_opponents(f"random,{H}:Seer", allow_seer=True) == ["random", f"{H}:Seer"]
