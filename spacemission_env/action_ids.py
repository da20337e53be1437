"""Checking an action id of a flat ``Discrete(n)`` space, for every game's action module."""
from __future__ import annotations

import operator

import numpy as np

from .checks import shown


def action_index(action, num_actions: int) -> int:
    """``action`` as a Python int in ``[0, num_actions)``: ints and numpy integers are
    accepted; bools, floats, strings and out-of-range ids raise ValueError naming the value."""
    if isinstance(action, (bool, np.bool_)):  # numpy < 2.3 (all of Python 3.10's) indexes np.True_ as 1
        raise ValueError(f"action must be an integer, got {shown(action)}")
    try:
        a = operator.index(action)
    except TypeError:
        raise ValueError(f"action must be an integer, got {shown(action)}") from None
    if not 0 <= a < num_actions:
        raise ValueError(f"action {shown(a)} out of range [0, {num_actions})")
    return a
