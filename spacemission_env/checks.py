"""Argument checks shared by the package and the layers above it (agents, the CLI)."""
from __future__ import annotations

import numpy as np

__all__ = ["is_int"]


def is_int(x) -> bool:
    """A Python or numpy integer, not a bool: what counts, seats, seeds and ids must be."""
    return isinstance(x, (int, np.integer)) and not isinstance(x, (bool, np.bool_))
