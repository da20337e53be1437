"""Argument types shared by the subcommands' parsers."""
from __future__ import annotations

import argparse


def int_arg(text: str) -> int:
    """An integer option value; argparse reports anything else as 'expected an integer'."""
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected an integer, got {text!r}") from None
