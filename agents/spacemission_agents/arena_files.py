"""The arena's argument error and its out directory: which earlier run's files it holds, and
whether this process can write there (run_arena and ArenaResult.save check it the same way)."""
from __future__ import annotations

import os
from pathlib import Path

from spacemission_env.checks import cut_long_words, shown, shown_path

OUT_FILES = ("results.json", "pairs.csv", "agents.csv", "arena.png", "games.jsonl")  # what a run writes to out


class ArenaStopped(KeyboardInterrupt):
    """The user's stop during an arena: Ctrl-C, as run_arena's own SIGINT handler raises it
    while the arena plays (arena_workers.agent_interrupts), or SIGTERM, as ``spacemission
    arena``'s handler raises it. A plain KeyboardInterrupt raised meanwhile is an agent's."""


class ArenaArgumentError(ValueError):
    """A bad argument of :func:`run_arena`, found before any game; ``argument`` names it."""

    def __init__(self, argument: str, message: str):
        super().__init__(message)
        self.argument = argument


def check_out(out, files=OUT_FILES) -> list[str]:
    """Which of ``files`` the directory ``out`` holds already; ArenaArgumentError("out")
    when ``out`` is no directory path this process can write those files into."""
    def bad(message: str):
        raise ArenaArgumentError("out", message)

    if not isinstance(out, (str, os.PathLike)):
        bad(f"out must be a directory path, got {shown(out)}")
    if not str(out).strip():
        bad(f"out must be a directory path, got an empty one ({shown(out)})")
    if "\0" in str(out):  # pathlib's exists() says False for it, and mkdir raised a bare ValueError
        bad(f"out must be a directory path, got one with a NUL character ({shown_path(out)})")
    p = Path(out)
    try:  # a name too long, a NUL, a folder this user may not look into: the system's error, named
        exists, above = p.exists(), next((a for a in p.absolute().parents if a.exists()), None)
        found = [name for name in files if (p / name).exists()] if p.is_dir() else []
        folders = [name for name in found if (p / name).is_dir()]
    except (OSError, ValueError) as exc:
        bad(f"out {shown_path(out)} is not a directory path this process can use: "
            f"{cut_long_words(getattr(exc, 'strerror', None) or str(exc))}")
    if exists and not p.is_dir():
        bad(f"out must be a directory; {shown_path(p)} exists and is a file")
    if folders:  # unlink failed on it (overwrite), or writing the file, after every agent was built
        bad(f"out {shown_path(p)} holds a folder named {folders[0]}, where the arena writes that file; "
            f"give another out directory or move the folder")
    if above is not None and not exists and not above.is_dir():
        bad(f"out must be a directory; {shown_path(p)} cannot be created: {shown_path(above)} is a file")
    return found


def earlier_run_message(out, found: list[str], what: str) -> str:
    """Why ``out``, holding ``found`` (an earlier run's files), is refused without overwrite."""
    return (f"out {shown_path(out)} already holds an earlier arena run's files ({', '.join(found)}): {what} "
            f"would replace them; give another out directory, or overwrite=True (the command's --overwrite) "
            f"to replace them")
