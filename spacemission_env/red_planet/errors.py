"""The error for an argument of the wrong type.

``WrongTypeError`` is a TypeError (the project's rule: a wrong type raises TypeError) and
also a ValueError, so code written when every bad action id, seed or document raised
ValueError still catches it: one of ``checks.SettingTypeError``, the package's error of a
setting of the wrong type.
"""
from __future__ import annotations

import operator

from ..checks import SettingTypeError, shown


class WrongTypeError(SettingTypeError):
    """An argument of the wrong type (both a TypeError and a ValueError)."""


def require_int(value, what: str) -> int:
    """``value`` as a Python int (ints and numpy integers; not bools); WrongTypeError naming ``what``."""
    if isinstance(value, bool) or type(value).__name__ in ("bool_", "bool"):  # numpy 1.x / 2.x names;
        # numpy < 2.3 (all of Python 3.10's) would index np.True_ as 1
        raise WrongTypeError(f"{what} must be an integer, got bool {shown(value)}")
    try:
        return operator.index(value)
    except TypeError:
        raise WrongTypeError(f"{what} must be an integer, got {type(value).__name__} {shown(value)}") from None
