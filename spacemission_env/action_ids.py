"""Checking an action id of a flat ``Discrete(n)`` space, for every game's action module."""
from __future__ import annotations

import operator


def action_index(action, num_actions: int) -> int:
    """``action`` as a Python int in ``[0, num_actions)``: ints and numpy integers are
    accepted; bools, floats, strings and out-of-range ids raise ValueError naming the value."""
    if isinstance(action, bool):
        raise ValueError(f"action must be an integer, got {action!r}")
    try:
        a = operator.index(action)
    except TypeError:
        raise ValueError(f"action must be an integer, got {action!r}") from None
    if not 0 <= a < num_actions:
        raise ValueError(f"action {a} out of range [0, {num_actions})")
    return a
