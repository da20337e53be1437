"""Argument types shared by the subcommands' parsers, and their parser class."""
from __future__ import annotations

import argparse
import re
from typing import NoReturn

from spacemission_env.checks import UsageParser, shown  # every command's parser; shown: for echoed values

__all__ = ["UsageParser", "config_error", "int_arg"]

_INTEGER = re.compile(r"\s*[+-]?\d+(?:_\d+)*\s*")  # what int() reads (a "_" only between digits), up to Python's limit on digits


def int_arg(text: str) -> int:
    """An integer option value; argparse reports anything else as 'expected an integer'."""
    try:
        return int(text)
    except ValueError:
        if _INTEGER.fullmatch(text):  # past Python's limit on the digits of a str -> int (4300)
            raise argparse.ArgumentTypeError(f"out of range: an integer of {len(text.strip()):,} characters, "
                                             f"got {shown(text)}") from None
        raise argparse.ArgumentTypeError(f"expected an integer, got {shown(text)}") from None


def config_error(ap: argparse.ArgumentParser, exc: ValueError) -> NoReturn:
    """The usage error of a refused game configuration (``GameConfigError``, whose
    ``option`` names the bad value's): ``argument --OPTION: MESSAGE``."""
    option = getattr(exc, "option", None)
    ap.error(f"argument --{option.replace('_', '-')}: {exc}" if option else str(exc))
