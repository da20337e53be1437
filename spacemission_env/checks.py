"""Argument checks shared by the package and the layers above it (agents, the CLI)."""
from __future__ import annotations

import os

import numpy as np

__all__ = ["check_batch_memory", "is_int", "physical_memory"]


def is_int(x) -> bool:
    """A Python or numpy integer, not a bool: what counts, seats, seeds and ids must be."""
    return isinstance(x, (int, np.integer)) and not isinstance(x, (bool, np.bool_))


def physical_memory() -> int | None:
    """This machine's memory in bytes, or None where the system does not say."""
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (AttributeError, ValueError, OSError):  # no sysconf (Windows), or no such name
        return None


def check_batch_memory(games: int, bytes_per_game: int, what: str) -> None:
    """ValueError, before anything is allocated, when ``games`` games of ``bytes_per_game``
    bytes each (their states alone: a lower bound) need more memory than the machine has.
    numpy's zeroed arrays are only reserved, so such a batch would be filled page by page
    until the system killed the process, or fail with a bare MemoryError deep inside.
    ``what`` names the argument (``num_envs``, ``batch_size``)."""
    need, have = games * bytes_per_game, physical_memory()
    if have is not None and need > have:
        raise ValueError(f"{what}={games:,}: that many games need at least {need / 2**30:,.1f} GiB for their states "
                         f"alone, more than this machine's {have / 2**30:,.1f} GiB of memory; play fewer at once")
