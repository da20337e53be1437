"""Argument types shared by the subcommands' parsers."""
from __future__ import annotations

import argparse


def int_arg(text: str) -> int:
    """An integer option value; argparse reports anything else as 'expected an integer'."""
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected an integer, got {text!r}") from None


# GameConfigError.field -> the option that sets it, in every command that takes them
CONFIG_OPTIONS = {"num_players": "--players", "rules": "--rules", "max_rounds": "--max-rounds"}


def config_error(ap: argparse.ArgumentParser, exc: ValueError):
    """The usage error of a refused game configuration (``GameConfig``'s error, whose
    ``field`` names the bad value): ``argument --OPTION: MESSAGE``."""
    option = CONFIG_OPTIONS.get(getattr(exc, "field", None))
    ap.error(f"argument {option}: {exc}" if option else str(exc))
