"""The commands' help texts and configuration errors are true for every game of the protocol:
a refused game configuration names its option and lists the allowed values plainly in
every command (``GameConfigError.field``; before, ``train`` named no option and play, demo
and train showed a Python tuple), and the help texts list each registered game's agents,
player counts and seat colours from the registry (a third game's too)."""
from __future__ import annotations

import pickle

import pytest

from spacemission_cli.main import main
from spacemission_env import games
from spacemission_env.games import GameConfig


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


@pytest.mark.parametrize("command", ["play", "demo", "train"])
def test_a_bad_configuration_names_its_option_in_every_command(capsys, tmp_path, command):
    extra = ["--run-dir", tmp_path / "run"] if command == "train" else []
    err = _refused(capsys, command, "--game", "red_planet", "--rules", "yucata", *extra)
    assert "argument --rules: unknown rules 'yucata' for Mission: Red Planet; expected one of first_edition\n" in err
    assert "('first_edition',)" not in err
    err = _refused(capsys, command, "--game", "red_planet", "--players", 2, *extra)
    assert "argument --players: num_players must be an integer in 3..5 for Mission: Red Planet, got 2" in err
    err = _refused(capsys, command, "--game", "red_planet", "--max-rounds", 5, *extra)
    assert "argument --max-rounds: max_rounds must be 10 for Mission: Red Planet, got 5" in err


def test_train_names_the_config_files_option(capsys, tmp_path):
    path = tmp_path / "run.toml"
    path.write_text('game = "red_planet"\nrules = "yucata"\n')
    err = _refused(capsys, "train", "--config", path, "--run-dir", tmp_path / "run")
    assert (f"config file {str(path)!r}: option rules: unknown rules 'yucata' for Mission: Red Planet; "
            f"expected one of first_edition") in err
    # a flag overrides the file's value: the flag is named
    err = _refused(capsys, "train", "--config", path, "--rules", "schmidt", "--run-dir", tmp_path / "run")
    assert "argument --rules: unknown rules 'schmidt' for Mission: Red Planet" in err


def test_rllib_config_names_the_option(capsys):
    from spacemission_training.rllib_config import parse_args

    with pytest.raises(SystemExit):
        parse_args(["--game", "red_planet", "--rules", "yucata"])
    assert "argument --rules: bad RLlib training configuration: unknown rules 'yucata' for Mission: Red Planet; " \
           "expected one of first_edition" in capsys.readouterr().err
