"""The warm-up (spacemission_env/warmup.py, ``spacemission warmup``): it runs every
interface of a game through, and reports per step how many functions numba compiled."""
from __future__ import annotations

import os

import numba
import pytest
from numba import config as numba_config

from spacemission_cli.main import COMMANDS
from spacemission_env import warmup


needs_jit = pytest.mark.skipif(numba_config.DISABLE_JIT, reason="NUMBA_DISABLE_JIT: nothing compiles")


@needs_jit
def test_a_step_counts_the_project_functions_numba_compiled():
    def probe(x):
        return x * 2

    probe.__module__ = "spacemission_env.warmup_probe"  # counted as a project function
    f = numba.njit(probe)
    report = warmup.Report()
    with report.step("first call"):
        assert f(2) == 4
    with report.step("second call"):
        f(3)
    assert [(r[0], r[3]) for r in report.rows] == [("first call", 1), ("second call", 0)]
    assert report.compiled == 1 and "1 functions compiled" in report.summary()


@needs_jit
@pytest.mark.parametrize("game", ["spacemission", "red_planet"])
def test_warm_env_runs_every_interface_of_a_game(game):
    report = warmup.warm_env([game])
    labels = [r[0] for r in report.rows]
    assert len(labels) == 4 and all(label.startswith(game) for label in labels)
    again = warmup.warm_env([game])  # everything is compiled in this process now
    assert again.compiled == 0


def test_unknown_game_is_refused():
    with pytest.raises(SystemExit):
        warmup.main(["--game", "chess"])


def test_the_command_is_registered_and_warms_the_bots_of_each_game():
    from spacemission_cli import warmup as cli
    from spacemission_env.games import get_game

    assert COMMANDS["warmup"][0] == "spacemission_cli.warmup"
    assert "search:iterations=2" in cli._specs("spacemission")  # no time budget: a fixed amount of work
    assert "netsearch:iterations=2" in cli._specs("spacemission")
    assert cli._players(get_game("spacemission")) == 2 and cli._players(get_game("red_planet")) == 4  # shipped ppo


@needs_jit
def test_environments_only(capsys):
    assert warmup.main(["--game", "spacemission", "--quiet"]) == 0
    err = capsys.readouterr().err
    assert "warm-up: 4 steps" in err and "VectorEnv" not in err  # --quiet: the summary only
    # where the kernels went (jit.cache_folders; NUMBA_CACHE_DIR, else beside these writable sources)
    assert err.strip().endswith(f"; numba cache: {os.environ.get('NUMBA_CACHE_DIR') or '__pycache__ beside the sources'}")
    assert len(err.strip().splitlines()) == 1, err  # before: the "compiling the numba kernels..." line too


def test_nothing_to_do_without_the_jit(monkeypatch, capsys):
    monkeypatch.setattr(numba_config, "DISABLE_JIT", True)
    assert warmup.main([]) == 0
    assert "nothing to warm up" in capsys.readouterr().err


@needs_jit
def test_the_command_with_quiet_prints_one_line(capsys):
    """`spacemission warmup --quiet`: "print only the summary line" (its help)."""
    from spacemission_cli import warmup as cli

    assert cli.main(["--game", "red_planet", "--no-bots", "--quiet"]) == 0
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and err.startswith("warm-up: "), err
