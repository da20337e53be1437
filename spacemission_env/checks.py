"""Argument checks shared by the package and the layers above it (agents, the CLI)."""
from __future__ import annotations

import argparse
import math
import os
import re
from typing import NoReturn

import numpy as np

__all__ = ["INDEX_LIMIT", "PATH_CHARS", "SHOWN_CHARS", "SettingTypeError", "UsageParser", "check_batch_memory",
           "check_choice", "check_memory", "count_text", "cut", "cut_long_words", "is_int", "physical_memory", "shown",
           "shown_path", "wrong_type_text"]

INDEX_LIMIT = 2**63 - 1  # the largest count an int64 index or counter holds (numpy's sizes are int64 too)


def is_int(x) -> bool:
    """A Python or numpy integer, not a bool: what counts, seats, seeds and ids must be."""
    return isinstance(x, (int, np.integer)) and not isinstance(x, (bool, np.bool_))


SHOWN_CHARS = 80  # a value echoed in an error message is cut to this many characters
# ... and a path to this many: a path is the user's own and its end (the file's name) is what
# they need to see; 80 cut ordinary paths (a macOS temporary folder's, a deep project's) before
# their file name, while a path past this (a system takes up to 4,096) is still cut
PATH_CHARS = 512


def cut(text: str, limit: int = SHOWN_CHARS) -> str:
    """``text``, cut to ``limit`` characters with "..." when longer."""
    return text if len(text) <= limit else text[:limit - 3] + "..."


def shown(value, limit: int = SHOWN_CHARS) -> str:
    """``repr(value)``, cut to ``limit`` characters: a message naming a rejected value (a
    16 KiB request body, a 5000-digit seed) does not repeat all of it. An integer past
    Python's digit limit for ``str`` (4300 digits by default), whose ``repr`` raises
    ValueError, is described instead (the message would otherwise be that ValueError), and
    so is an object whose own ``__repr__`` raises (by its type and the error's): the
    message meant to name it is not replaced by that error."""
    try:
        text = repr(value)
    except Exception as exc:  # noqa: BLE001 - any error of a foreign __repr__; KeyboardInterrupt still passes
        # an int past sys.get_int_max_str_digits(), alone or inside a container
        too_long = isinstance(exc, ValueError) and "integer string conversion" in str(exc)
        if too_long and isinstance(value, int):
            digits = int(abs(value).bit_length() * 0.30103) + 1  # log10(2): the count, to within one
            text = f"{'-' if value < 0 else ''}<an integer of about {digits:,} digits>"
        elif too_long:
            text = f"<a {type(value).__name__} holding an integer too long to show>"
        else:
            text = f"<a {type(value).__name__} object whose repr failed: {type(exc).__name__}>"
    return cut(text, limit)


def shown_path(path, limit: int = PATH_CHARS) -> str:
    """A path (a str or an ``os.PathLike``) for a message: the repr of its text, cut only past
    ``limit`` characters (:data:`PATH_CHARS`), so that a message names the file whole. Anything
    else is shown as :func:`shown` shows it, to the same limit."""
    if isinstance(path, os.PathLike):
        try:
            path = os.fspath(path)
        except Exception:  # noqa: BLE001 - a foreign __fspath__ that raises: shown by its repr instead
            pass
    return shown(path, limit)


class SettingTypeError(ValueError, TypeError):
    """A setting of the wrong type (an env constructor's or an engine's: ``observation_type=3``,
    ``shaping="yes"``, ``num_players=2.0``): a TypeError, Python's and Gymnasium's convention
    for a wrong type, and still the ValueError these settings raised for every bad value
    before, so that code catching ValueError catches it as it did. A value of the right type
    that is not allowed (``observation_type="pixels"``, ``num_players=9``) raises a plain
    ValueError. ``games.GameConfigTypeError`` is the same for a game configuration's fields
    (also a ``GameConfigError``); the message comes from :func:`wrong_type_text`."""


def wrong_type_text(name: str, expected: str, value) -> str:
    """The message of a setting of the wrong type: "``name`` must be ``expected``, got
    <its type>: <its value, cut (:func:`shown`)>"; ``expected`` names the allowed values
    and their type, e.g. "one of ('raise', 'lose') (a str)"."""
    return f"{name} must be {expected}, got {type(value).__name__}: {shown(value)}"


def check_choice(value, name: str, choices: tuple[str, ...]) -> str:
    """``value``, one of the str ``choices`` of the setting ``name`` (an observation type, a
    reward scheme, ``illegal_action``): SettingTypeError (a ValueError and a TypeError) for
    what is not a str, ValueError naming an unknown one. The one check of such a setting,
    for the envs, the game descriptions and both engines alike."""
    if not isinstance(value, str):  # before `in`: an array's `in` is numpy's error, a list's "unhashable"
        raise SettingTypeError(wrong_type_text(name, f"one of {choices} (a str)", value))
    if value not in choices:
        raise ValueError(f"unknown {name} {shown(value)}; expected one of {choices}")
    return value


def cut_long_words(message: str, limit: int = SHOWN_CHARS, path_limit: int = PATH_CHARS) -> str:
    """``message`` with each run of more than ``limit`` characters without a space (an
    echoed value) cut to ``limit``, or to ``path_limit`` where it holds a "/" or the system's
    separator (a path, as :func:`shown_path` cuts one): for messages that echo values they do
    not cut."""
    def cut_word(m: re.Match) -> str:
        word = m.group()
        return cut(word, path_limit if "/" in word or os.sep in word else limit)

    return re.sub(rf"\S{{{limit + 1},}}", cut_word, message)


class UsageParser(argparse.ArgumentParser):
    """argparse's parser, whose usage errors cut the values they echo (``--seed`` with
    5000 digits, argparse's own "invalid choice: ...") with :func:`cut_long_words`, as
    ``spacemission serve`` does: every command's parser, the trainers' included."""

    def error(self, message: str) -> NoReturn:
        super().error(cut_long_words(message))


def physical_memory() -> int | None:
    """This machine's memory in bytes, or None where the system does not say."""
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (AttributeError, ValueError, OSError):  # no sysconf (Windows), or no such name
        return None


def count_text(n) -> str:
    """A count (or amount) for a message: thousands separators, or three digits and an
    exponent past 10**21, where the digits would only fill the line (also for an integer
    past float's range, 10**400: its exponent from its logarithm, not its digits)."""
    if abs(n) >= 10**21:
        try:
            return f"{float(n):.3g}"
        except OverflowError:  # an int past float's range (about 1.8e308)
            exponent = math.floor(math.log10(abs(n)))  # math.log10 takes any int
            digits = f"{10 ** (math.log10(abs(n)) - exponent):.3g}"
            if digits == "10":  # 9.996e400 rounds up, as float's .3g would
                digits, exponent = "1", exponent + 1
            return f"{'-' if n < 0 else ''}{digits}e+{exponent}"
    return f"{n:,}" if isinstance(n, (int, np.integer)) else f"{n:,.1f}"


def check_memory(subject: str, need: int, advice: str, detail: str = "") -> None:
    """ValueError, before anything is allocated, when ``need`` bytes (a lower bound of what
    ``subject`` would hold at once) are more than this machine's memory: such a request
    would be filled page by page until the system killed the process, or end in a bare
    MemoryError deep inside numpy. ``subject`` ends with its verb; the message reads
    "``subject`` at least N GiB``detail``, more than this machine's M GiB of memory;
    ``advice``". Nothing is refused where the system does not say how much memory it has,
    and a machine with more memory takes more."""
    have = physical_memory()
    if have is not None and need > have:
        try:
            gib = need / 2**30
        except OverflowError:  # a need past float's range: whole GiB (count_text shows its exponent)
            gib = need // 2**30
        raise ValueError(f"{subject} at least {count_text(gib)} GiB{detail}, more than this machine's "
                         f"{have / 2**30:,.1f} GiB of memory; {advice}")


def check_batch_memory(games: int, bytes_per_game: int, what: str) -> None:
    """ValueError, before anything is allocated, when ``games`` games of ``bytes_per_game``
    bytes each (their states alone: a lower bound) need more memory than the machine has
    (:func:`check_memory`). ``what`` names the argument (``num_envs``, ``batch_size``)."""
    need, have = int(games) * int(bytes_per_game), physical_memory()  # Python ints: a numpy product would wrap
    if have is not None and need > have:  # the message is built only then: this runs at every batch's init
        check_memory(f"{what}={count_text(games)}: that many games need", need, "play fewer at once",
                     " for their states alone")
