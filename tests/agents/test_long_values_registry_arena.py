"""Values echoed by the registry's and the arena's errors are cut as the commands cut theirs
(``spacemission_env.checks.shown`` / ``cut_long_words``, 80 characters; a path 512), and every bad ``out``
path is an ArenaArgumentError naming out (robustness review; each test failed before: a 1 MB
spec came back whole, a 2 MB message; out with a NUL or a name too long raised the system's
bare ValueError / OSError, a traceback from the command)."""
from __future__ import annotations

import pytest

from spacemission_agents.arena import ArenaArgumentError, run_arena
from spacemission_agents.registry import make_agent
from spacemission_cli.main import main
from spacemission_env.checks import PATH_CHARS, SHOWN_CHARS

BIG = "x" * 1_000_000


def _short(message: str, limit: int = SHOWN_CHARS) -> None:
    assert len(message) < 720 + limit, len(message)
    assert all(len(word) <= limit + 2 for word in message.split()), message[:300]  # + punctuation


@pytest.mark.parametrize("spec", [
    BIG, "random:" + BIG, "random:seed=" + "1" * 1_000_000, "random:" + BIG + "=1", "search:budget='" + BIG + "'",
    "ppo:" + BIG, "mod" + BIG + ":Cls", "spacemission_agents.random_agents:" + BIG, "random:seed=1:seed=2" + BIG,
    "random:seed=1:seed=" + BIG, "random:" + BIG[:5000] + "=1",
])
def test_make_agent_cuts_the_spec_it_echoes(spec):
    with pytest.raises(ValueError) as info:
        make_agent(spec)
    _short(str(info.value))


def test_make_agent_cuts_a_game_it_echoes():
    with pytest.raises(ValueError) as info:
        make_agent("random", game=BIG)
    _short(str(info.value))


@pytest.mark.parametrize("kwargs, argument", [
    (dict(rules=BIG), "rules"), (dict(num_players=BIG), "num_players"), (dict(agents=BIG), "agents"),
    (dict(agents=["random", BIG]), "agents"), (dict(agents=["random", "random:" + BIG]), "agents"),
    (dict(seatings=BIG), "seatings"), (dict(start_method=BIG), "start_method"), (dict(ray=BIG), "ray"),
    (dict(game=BIG), "game"), (dict(log=BIG), "log"), (dict(chunk_size=BIG), "chunk_size"),
    (dict(games=BIG), "games"), (dict(max_rounds=BIG), "max_rounds"), (dict(workers=BIG), "workers"),
    (dict(record=BIG), "record"), (dict(allow_seer=BIG), "allow_seer"), (dict(out=BIG), "out"),
    (dict(out="results\0"), "out"), (dict(seed=BIG), "seed"),
])
def test_run_arena_cuts_the_values_it_echoes(kwargs, argument, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    args = dict(agents=["random", "kind-random"], games=2, max_rounds=2, progress=False)
    args.update(kwargs)
    with pytest.raises(ArenaArgumentError) as info:
        run_arena(**args)
    assert info.value.argument == argument
    _short(str(info.value), PATH_CHARS if argument == "out" else SHOWN_CHARS)  # a path: checks.shown_path
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("out, message", [("x" * 5000, "File name too long"), ("results\0", "NUL character")])
def test_an_out_the_system_refuses_is_a_usage_error(out, message, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(SystemExit) as info:
        main(["arena", "--agents", "random,kind-random", "--games", "2", "--max-rounds", "2", "--no-progress",
              "--out", out])
    assert info.value.code == 2
    err = capsys.readouterr().err
    assert "argument --out: out" in err and message in err and len(err) < 2000
    assert list(tmp_path.iterdir()) == []
