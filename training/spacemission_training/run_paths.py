"""The checks of a run's folder and the files a training run reads or writes (rather than of
its configuration's values): a path that cannot be the file or directory an option names, a
bc_cache that is not teacher data of the run's game, a run_dir that already holds a run or
cannot be written, a ``--resume`` RUN_DIR that is no run's folder. Both trainers and their
configurations (config.TrainConfig, rllib_config.RLlibConfig) use them."""
from __future__ import annotations

import json
import os
from pathlib import Path

from spacemission_env.checks import cut, shown, shown_path

__all__ = ["RUN_FILES", "check_cache_file", "check_path_kind", "check_path_name", "check_resume_dir",
           "check_run_dir_writable", "file_above", "folder_write_problem", "has_checkpoint", "path_lookup_problem",
           "refuse_existing_run"]


def path_lookup_problem(path) -> str | None:
    """Why the system refuses to look ``path`` up at all (a name past its length limit: every
    lookup raises OSError, "File name too long"), or None."""
    try:
        Path(path).exists()
    except OSError as exc:
        return exc.strerror or str(exc)
    return None


def file_above(path) -> Path | None:
    """The nearest folder of ``path`` that exists as a file (so that ``path`` cannot be made),
    or None."""
    return next((q for q in Path(path).parents if q.exists() and not q.is_dir()), None)


def check_path_name(option: str, text: str) -> None:
    """ValueError naming ``option`` when the system refuses to look ``text`` up at all (a name
    past its length limit): Path.exists raised OSError ("File name too long") instead."""
    problem = path_lookup_problem(text)
    if problem:
        raise ValueError(f"option {option}: {shown_path(text)} is not a usable path ({problem})")


def check_path_kind(option: str, text: str, directory: bool) -> None:
    """ValueError naming ``option`` when its path ("": unset) cannot be the directory
    (``directory``) or the file it names: it is the other kind, or lies under a file."""
    if not text:
        return
    p = Path(text)
    check_path_name(option, text)
    if directory and p.exists() and not p.is_dir():
        raise ValueError(f"option {option}: {shown_path(text)} is a file, not a directory")
    if not directory and p.is_dir():
        raise ValueError(f"option {option}: {shown_path(text)} is a directory, not a file")
    parent = file_above(p)
    if parent is not None:
        raise ValueError(f"option {option}: {shown_path(text)} lies under {shown_path(parent)}, which is a file")


def check_cache_file(path: str, game: str = "spacemission") -> None:
    """ValueError naming option bc_cache when ``path`` ("": unset) is a file but not one of
    teacher data (an .npz with its "settings"): a cut or foreign file would otherwise fail
    after the run's folder was written, and a file given by mistake (a model) be overwritten.
    Also when it holds another game's teacher data (settings without a game are Space
    Mission's): the run would not use it and would overwrite it with its own."""
    if not path or not Path(path).is_file():
        return
    import numpy as np

    try:
        with np.load(path, allow_pickle=False) as z:
            settings = z["settings"] if hasattr(z, "files") and "settings" in z.files else None
    except Exception as exc:  # noqa: BLE001 - numpy and zipfile raise anything on a cut or foreign file
        raise ValueError(f"option bc_cache: {shown_path(path)} is not a readable .npz of teacher data "
                         f"({type(exc).__name__}: {cut(str(exc))}); delete it or give another path") from None
    if settings is None or settings.ndim != 0 or settings.dtype.kind != "U":
        raise ValueError(f"option bc_cache: {shown_path(path)} is not a file of teacher data (it has no settings, as the "
                         f"caches that --bc-cache writes have); delete it or give another path")
    try:
        have = json.loads(str(settings)).get("game", "spacemission")
    except (ValueError, AttributeError):  # settings that are not a JSON object: not the game's to judge here
        return
    if have != game:
        from spacemission_env.games import get_game

        try:
            title = get_game(have).description.title
        except (ValueError, TypeError):
            title = "another game"
        raise ValueError(f"option bc_cache: {shown_path(path)} holds teacher data of {title} ({shown(have)}), not of "
                         f"{get_game(game).description.title} ({game!r}), this run's game: a run would overwrite "
                         f"it with its own; give another path")


RUN_FILES = ("config.json", "metrics.csv", "checkpoints", "summary.json", "final.npz", "tb")  # what a run writes


def has_checkpoint(run_dir) -> bool:
    """Whether ``run_dir`` holds a checkpoint of either trainer (the SB3 trainer's
    ``checkpoints/last.pt``, the RLlib trainer's ``checkpoints/rllib`` with its loop.json):
    what ``--resume`` continues from."""
    from .rllib_checkpoint import find_checkpoint  # no Ray: plain files

    return (Path(run_dir) / "checkpoints" / "last.pt").is_file() or find_checkpoint(run_dir) is not None


def refuse_existing_run(run_dir) -> None:
    """ValueError when ``run_dir`` already holds a run (its config.json, or any other file a
    run writes, e.g. the logs of one whose config.json was deleted): a fresh run there would
    overwrite its checkpoints and model, or append to its logs. Both trainers check it before
    a fresh run starts; ``--resume`` continues such a run, where it has a checkpoint. One
    stopped (killed, crashed) before its first checkpoint has nothing to resume: the message
    says so and names the way out, deleting the folder (its config.json says how it was
    configured), instead of sending the user to a ``--resume`` that is refused in turn."""
    where = f"run_dir {shown_path(run_dir)}"
    if (Path(run_dir) / "config.json").exists():
        if not has_checkpoint(run_dir):
            raise ValueError(f"{where} holds a run that stopped before its first checkpoint (config.json, no "
                             f"checkpoint): it cannot be resumed; to start it afresh, delete that directory (its "
                             f"configuration is in its config.json) or give another --run-dir")
        raise ValueError(f"{where} already holds a run (config.json): continue it with --resume "
                         f"{shown_path(run_dir)}, or give another --run-dir (or delete that directory); a new run "
                         f"would overwrite its checkpoints, logs and model")
    found = [name for name in RUN_FILES if (Path(run_dir) / name).exists()]
    if found:
        raise ValueError(f"{where} holds a run's files ({', '.join(found)}) but no config.json, "
                         f"so it cannot be resumed; give another --run-dir (or delete that directory): a new run "
                         f"would append to its logs and overwrite the rest")


def folder_write_problem(folder) -> str | None:
    """Why this process cannot make the directory ``folder`` or write a file in it (the
    system's reason: no permission, a read-only file system, a place such as /proc where no
    directory can be made, naming the path at fault where it is another), or None. Checked
    by making the missing directories and a file in the last, then removing what it made:
    nothing is left behind."""
    import tempfile

    path = Path(folder)
    made = []
    try:
        for parent in [q for q in (path, *path.parents) if not q.exists()][::-1]:  # the outermost first
            parent.mkdir()
            made.append(parent)
        fd, probe = tempfile.mkstemp(dir=path, prefix=".write-check-")
        os.close(fd)
        os.unlink(probe)
    except OSError as exc:
        at = Path(exc.filename) if exc.filename else path  # the folder, one above it, or the probe (in it)
        where = f": {shown_path(at)}" if at != path and at.parent != path else ""
        return f"{exc.strerror or type(exc).__name__}{where}"
    finally:
        for parent in reversed(made):
            try:
                parent.rmdir()
            except OSError:  # something else wrote there meanwhile: leave it
                pass
    return None


def check_run_dir_writable(run_dir) -> None:
    """ValueError naming option run_dir when this process cannot make the directory
    ``run_dir`` or write a file in it (folder_write_problem): found before a run starts, not
    as a traceback from its first write."""
    problem = folder_write_problem(run_dir)
    if problem:
        raise ValueError(f"option run_dir: cannot write the run's files in {shown_path(run_dir)} ({problem})")


def check_resume_dir(ap, run_dir: str) -> None:
    """A usage error (``ap.error``) for a ``--resume`` RUN_DIR that the system cannot look up
    (a name past its length limit: OSError from every lookup after) or that is a file, not
    a run's folder (it read "no such directory"). Both trainers' resume_config call it first."""
    problem = path_lookup_problem(run_dir)
    if problem:
        ap.error(f"--resume: {shown_path(run_dir)} is not a usable path ({problem})")
    if Path(run_dir).is_file():
        ap.error(f"--resume: {shown_path(run_dir)} is a file, not a run's folder")
