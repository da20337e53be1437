"""A value typed on the command line (or in a trainer's --config file) is echoed in a usage
error cut to 80 characters, as ``spacemission serve`` cuts a request's values, by one
shared helper (``spacemission_env.checks``: ``shown``, ``UsageParser``). Before, a 5000-digit
``--seed`` came back whole (and, past Python's 4300-digit limit, as "expected an integer")."""
from __future__ import annotations

import pytest

from spacemission_cli.main import main
from spacemission_env.checks import SHOWN_CHARS, cut_long_words, shown

DIGITS = "9" * 5000
VALID = "9" * 4000  # an integer Python reads: the command's own range check echoes it


@pytest.mark.parametrize("argv", [
    ["arena", "--agents", "random,random", "--seed", DIGITS],
    ["arena", "--agents", "random,random", "--seed", "-" + VALID],
    ["arena", "--agents", "random,random", "--games", VALID],
    ["arena", "--agents", "random,random", "--rules", "x" + DIGITS],
    ["play", "--seed", VALID],
    ["play", "--seat", DIGITS],
    ["demo", "--seed", VALID],
    ["serve", "--port", VALID],
    ["warmup", "--game", "x" + DIGITS],
    ["replay", "--game", DIGITS, "x.jsonl"],
    ["bench", "--seconds", "1e" + DIGITS],
    ["x" + DIGITS],
    ["train", "--backend", "x" + DIGITS],
    ["train", "--steps", DIGITS],
    ["train", "--seed", "-" + VALID],
    ["train", "--progress", "x" + DIGITS],
])
def test_a_long_value_is_cut_in_the_usage_error(argv, capsys):
    if argv[0] == "train" and "--backend" not in argv:
        pytest.importorskip("stable_baselines3")
    assert _exit_code(argv) == 2
    err = capsys.readouterr().err.strip().splitlines()[-1]
    assert "error:" in err and "..." in err and len(err) < 600, err
    assert all(len(word) <= SHOWN_CHARS for word in err.split()), err


def _exit_code(argv) -> int:
    try:
        return main(argv)
    except SystemExit as exc:  # a usage error
        return exc.code


def test_an_integer_past_pythons_digit_limit_is_out_of_range(capsys):
    assert _exit_code(["play", "--seed", DIGITS]) == 2
    assert "argument --seed: out of range: an integer of 5,000 characters" in capsys.readouterr().err


def test_the_helpers_cut_to_the_limit():
    assert shown("x" * 10) == repr("x" * 10)
    assert shown("x" * 500) == "'" + "x" * 76 + "..." and len(shown("x" * 500)) == SHOWN_CHARS
    assert cut_long_words("got " + "9" * 100 + " and 1") == "got " + "9" * 77 + "... and 1"


def test_an_integer_past_the_digits_repr_writes_is_shown_by_its_size():
    """Before: shown(10**5000) raised repr's ValueError ("Exceeds the limit (4300 digits)"), so
    run_arena(seed=10**5000) failed with that bare ValueError instead of its seed message."""
    from spacemission_agents.arena import ArenaArgumentError, run_arena

    assert shown(10**5000) == "<an integer of about 5,001 digits>" and shown(-(10**5000)).startswith("-<an integer")
    assert shown(10**4000) == cut_long_words("1" + "0" * 4000)
    with pytest.raises(ArenaArgumentError, match=r"seed must be .*, got <an integer of about 5,001 digits>$") as info:
        run_arena(["random", "random"], seed=10**5000, progress=False)
    assert info.value.argument == "seed"


@pytest.mark.parametrize("text", ["1__2", "12_", "_12"])
def test_a_short_malformed_integer_is_not_called_out_of_range(text, capsys):
    """int() takes "_" only between digits: these are not integers (before: "out of range:
    an integer of 4 characters" for "1__2")."""
    assert _exit_code(["play", "--seed", text]) == 2
    assert f"argument --seed: expected an integer, got {text!r}" in capsys.readouterr().err
