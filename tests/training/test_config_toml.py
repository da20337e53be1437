"""A .toml config file on Python 3.10, which has no ``tomllib``: training reads it with the
backport ``tomli`` (same API), or says to install it; 3.11+ reads it with ``tomllib``. Python
3.10 is simulated here by hiding the modules (sys.modules[name] = None makes import fail)."""
import sys

import pytest

pytest.importorskip("sb3_contrib")

from spacemission_training.config import read_options_file  # noqa: E402


@pytest.fixture
def toml_file(tmp_path):
    path = tmp_path / "c.toml"
    path.write_text('seed = 5\nnum_envs = 32\n')
    return path


def test_without_tomllib_the_backport_reads_it(toml_file, monkeypatch):
    if sys.version_info >= (3, 11):  # the backport's stand-in: tomllib is tomli, adopted
        import tomllib  # novermin (3.11+ only)
        monkeypatch.setitem(sys.modules, "tomli", tomllib)
    else:
        pytest.importorskip("tomli")
    monkeypatch.setitem(sys.modules, "tomllib", None)
    assert read_options_file(str(toml_file)) == {"seed": 5, "num_envs": 32}


def test_without_either_the_error_names_the_file_and_tomli(toml_file, monkeypatch):
    monkeypatch.setitem(sys.modules, "tomllib", None)
    monkeypatch.setitem(sys.modules, "tomli", None)
    with pytest.raises(ValueError, match=r"c\.toml'.*needs the package 'tomli'"):
        read_options_file(str(toml_file))


def test_help_shows_each_games_own_defaults():
    """`train --help` showed Space Mission's defaults only (players 2, rules yucata, recall),
    which --game red_planet replaces, and an empty '(default: )' after --run-dir."""
    from spacemission_training.config import GAME_DEFAULTS, build_parser

    text = " ".join(build_parser().format_help().split())
    assert "(default: 2; red_planet: 4)" in text
    assert "(default: recall; red_planet: info)" in text
    assert "(default: yucata; red_planet: first_edition)" in text
    assert "(default: )" not in text
    # before: "(2-5)" and only Space Mission's folder, runs/ppo-<P>p-s<seed>
    assert "Red Planet 3-5" in text and "another game's: runs/ppo-<game>-<P>p-s<seed>" in text
    assert set(GAME_DEFAULTS) == {"spacemission", "red_planet"}  # a new game: its defaults show the same way


def test_rllib_help_shows_each_games_own_defaults():
    """`train --backend rllib --help` said --game "changes the defaults shown for it below"
    but showed Space Mission's alone (players 2, rules yucata, recall), and an empty
    '(default: )' after --run-dir and --address."""
    from spacemission_training.rllib_config import build_parser, parse_args

    text = " ".join(build_parser().format_help().split())
    assert "(default: 2; red_planet: 4)" in text
    assert "(default: recall; red_planet: info)" in text
    assert "(default: yucata; red_planet: first_edition)" in text
    assert "(default: 100000; red_planet: 50000)" in text  # --snapshot-every
    assert "(default: )" not in text and "red_planet: 0)" not in text  # no game's default equal to the first
    cfg, _ = parse_args(["--game", "red_planet"])  # what the help says is what --game gives
    assert (cfg.players, cfg.observation_type, cfg.snapshot_every) == (4, "info", 50_000)
