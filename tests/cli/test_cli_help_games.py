"""The commands' help texts and configuration errors are true for every game of the protocol:
a refused game configuration names its option and lists the allowed values plainly in
every command (``GameConfigError.field``; before, ``train`` named no option and play, demo
and train showed a Python tuple), and the help texts list each registered game's agents,
player counts and seat colours from the registry (a third game's too)."""
from __future__ import annotations

import importlib.util
import pickle

import pytest

from spacemission_cli.main import main
from spacemission_env import games
from spacemission_env.games import GameConfig


# train and its configuration need the training extras (torch): make test-python runs this file without them
HAS_TORCH = importlib.util.find_spec("torch") is not None
needs_torch = pytest.mark.skipif(not HAS_TORCH, reason="spacemission train needs torch (the train extra)")


@pytest.fixture
def third_game(monkeypatch):
    monkeypatch.setitem(games.GAMES, "last_token", "tests.helpers.toy_game")
    yield
    games._LOADED.pop("last_token", None)


def _refused(capsys, *argv) -> str:
    with pytest.raises(SystemExit) as exc:
        main([str(a) for a in argv])
    err = capsys.readouterr().err
    assert exc.value.code == 2 and "Traceback" not in err
    return err


def test_game_config_error_names_its_field_and_lists_values_plainly():
    from spacemission_env.games import GameConfigError

    for kwargs, field in ((dict(num_players=2), "num_players"), (dict(num_players=3, rules="yucata"), "rules"),
                          (dict(num_players=3, max_rounds=5), "max_rounds")):
        with pytest.raises(GameConfigError) as exc:
            GameConfig(**kwargs, game="red_planet")
        assert exc.value.field == field and isinstance(exc.value, ValueError)
        again = pickle.loads(pickle.dumps(exc.value))  # an arena worker's error reaches the parent whole
        assert (again.field, str(again)) == (field, str(exc.value))
    with pytest.raises(GameConfigError, match=r"expected one of yucata, schmidt$"):
        GameConfig(2, "first_edition")



def test_game_config_rules_of_another_type_are_its_error():
    """rules that are not a str are refused as rules (an array of names raised numpy's 'truth
    value of an array is ambiguous'); numpy's str_ of a rule set is kept as a plain str."""
    import numpy as np
    from spacemission_env.games import GameConfigError

    for rules in (np.array(["yucata", "schmidt"]), np.array(["yucata"]), ["yucata"], b"yucata", 5):
        with pytest.raises(GameConfigError, match=r"^rules must be one of yucata, schmidt for Space Mission \(a str\), "
                                                  r"got (ndarray|list|bytes|int): ") as exc:
            GameConfig(2, rules)
        assert exc.value.field == "rules" and isinstance(exc.value, TypeError)  # a wrong type: GameConfigTypeError
    assert type(GameConfig(2, np.str_("schmidt")).rules) is str

@pytest.mark.parametrize("command", ["play", "demo", pytest.param("train", marks=needs_torch)])
def test_a_bad_configuration_names_its_option_in_every_command(capsys, tmp_path, command):
    extra = ["--run-dir", tmp_path / "run"] if command == "train" else []
    err = _refused(capsys, command, "--game", "red_planet", "--rules", "yucata", *extra)
    assert "argument --rules: unknown rules 'yucata' for Mission: Red Planet; expected one of first_edition\n" in err
    assert "('first_edition',)" not in err
    err = _refused(capsys, command, "--game", "red_planet", "--players", 2, *extra)
    assert "argument --players: num_players must be an integer in 3..5 for Mission: Red Planet, got 2" in err
    err = _refused(capsys, command, "--game", "red_planet", "--max-rounds", 5, *extra)
    assert "argument --max-rounds: max_rounds must be 10 for Mission: Red Planet, got 5" in err


@needs_torch
def test_train_names_the_config_files_option(capsys, tmp_path):
    path = tmp_path / "run.toml"
    path.write_text('game = "red_planet"\nrules = "yucata"\n')
    err = _refused(capsys, "train", "--config", path, "--run-dir", tmp_path / "run")
    assert (f"config file {str(path)!r}: option rules: unknown rules 'yucata' for Mission: Red Planet; "
            f"expected one of first_edition") in err
    # a flag overrides the file's value: the flag is named
    err = _refused(capsys, "train", "--config", path, "--rules", "schmidt", "--run-dir", tmp_path / "run")
    assert "argument --rules: unknown rules 'schmidt' for Mission: Red Planet" in err



@pytest.mark.parametrize("value, shown", [("[1]", "option game must be a string, got [1]"),
                                          ("true", "option game must be a string, got True"),
                                          ('"chess"', "option game: unknown game 'chess'")])
@needs_torch
def test_train_names_the_config_files_game_option(capsys, tmp_path, value, shown):
    """A config file's ``game`` that is not a game's name is named with the file and the
    option (before: 'unhashable type: 'list'', or the bare message without the file)."""
    path = tmp_path / "run.toml"
    path.write_text(f"game = {value}\n")
    err = _refused(capsys, "train", "--config", path, "--run-dir", tmp_path / "run")
    assert f"config file {str(path)!r}: {shown}" in err

@needs_torch
def test_rllib_config_names_the_option(capsys):
    from spacemission_training.rllib_config import parse_args

    with pytest.raises(SystemExit):
        parse_args(["--game", "red_planet", "--rules", "yucata"])
    assert "argument --rules: bad RLlib training configuration: unknown rules 'yucata' for Mission: Red Planet; " \
           "expected one of first_edition" in capsys.readouterr().err


def _help(capsys, command: str) -> str:
    with pytest.raises(SystemExit) as exc:
        main([command, "--help"])
    assert exc.value.code == 0
    return " ".join(capsys.readouterr().out.split())  # argparse's wrapping aside


WANT = {  # what every help text of a command that takes --game says of each game
    "spacemission": {"agents": "Space Mission: random, kind-random, greedy, heuristic, search, ppo, netsearch",
                     "players": "Space Mission 2-5", "rules": "Space Mission: yucata, schmidt"},
    "red_planet": {"agents": "Mission: Red Planet: random, greedy, heuristic, ppo",
                   "players": "Mission: Red Planet 3-5", "rules": "Mission: Red Planet: first_edition"},
    "last_token": {"agents": "Last Token: random, ppo", "players": "Last Token 2-4", "rules": "Last Token: standard"},
}


@pytest.mark.parametrize("registered", [False, True])
@pytest.mark.parametrize("command", ["play", "arena"])
def test_help_lists_each_games_agents_players_and_rules(capsys, request, command, registered):
    if registered:
        request.getfixturevalue("third_game")
    text = _help(capsys, command)
    for name, want in WANT.items():
        assert all((v in text) == (registered or name != "last_token") for v in want.values()), name
    if command == "play":  # and the seat colours
        assert "kind-random, greedy, heuristic, search, ppo, netsearch, ppo:PATH" not in text  # Space Mission's only
        assert "(default 0; seat 0 is red in Space Mission and Mission: Red Planet)" in text


def test_serve_help_says_what_players_means_for_each_game(capsys, third_game):
    text = _help(capsys, "serve")
    assert "the most players a visitor may choose, 2-5 (default 5): each game's page offers its own range up to N " \
           "(Space Mission 2-5, Mission: Red Planet 3-5, Last Token 2-4)" in text


def test_bench_help_names_each_games_engines(capsys, third_game):
    text = _help(capsys, "bench")
    for want in WANT.values():
        assert want["players"] in text and want["rules"] in text
    assert "Space Mission: batched spacemission_env.space_mission.engine, reference spacemission_env.space_mission." \
           "rules" in text
    assert "Mission: Red Planet: batched spacemission_env.red_planet.engine, reference spacemission_env.red_planet." \
           "rules" in text
    assert "Last Token: the engines of tests.helpers.toy_game" in text


def test_bench_players_take_the_games_range(capsys, monkeypatch, third_game):
    """A game of six players is benched (before: refused by bench's own 2-5 before the game's
    check); Space Mission's and Red Planet's refusals are as before."""
    import dataclasses
    import json

    from tests.helpers import toy_game

    six = dataclasses.replace(toy_game.GAME, description=dataclasses.replace(toy_game.DESCRIPTION, max_players=6))
    monkeypatch.setitem(games._LOADED, "last_token", six)
    assert main(["bench", "--game", "last_token", "--players", "6", "--only", "engine", "--batch", "8",
                 "--seconds", "0.05", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["players"] == 6
    assert "argument --players: invalid choice: 7 (choose from 2, 3, 4, 5, 6)" in _refused(
        capsys, "bench", "--game", "last_token", "--players", 7)
    monkeypatch.delitem(games._LOADED, "last_token")
    monkeypatch.delitem(games.GAMES, "last_token")
    assert "argument --players: invalid choice: 6 (choose from 2, 3, 4, 5)" in _refused(capsys, "bench", "--players", 6)
    assert "argument --players: num_players must be an integer in 3..5 for Mission: Red Planet, got 2" in _refused(
        capsys, "bench", "--game", "red_planet", "--players", 2, "--only", "engine")


def test_every_command_with_a_game_option_shows_a_red_planet_example(capsys):
    """Each command that takes a game (`--game NAME`; replay's `--game K` is a game number)
    ends its help with an example for Mission: Red Planet too (arena and serve showed Space
    Mission's form only)."""
    from spacemission_cli.main import COMMANDS

    checked = []
    for sub in COMMANDS:
        if sub == "train" and not HAS_TORCH:  # its help is the trainer's parser, which needs torch
            continue
        with pytest.raises(SystemExit):
            main([sub, "--help"])
        text = capsys.readouterr().out
        if "--game {" not in text and "--game STR" not in text:
            continue
        examples = text[text.index("examples:"):] if "examples:" in text else ""
        assert "--game red_planet" in examples, f"spacemission {sub} --help: no Red Planet example"
        checked.append(sub)
    assert {"play", "arena", "bench", "serve", "demo", "warmup"} | ({"train"} if HAS_TORCH else set()) <= set(checked), \
        checked
