"""The RLlib trainer's checkpoint and its life cycle (rllib.py): one checkpoint folder,
replaced atomically; the checks a resume makes before Ray starts; Ctrl-C.

``checkpoints/rllib`` is RLlib's checkpoint (``algo.save_to_path``) with the trainer's loop
state in it (``loop.json``, written last: a folder without it is incomplete);
``checkpoints/loop.json`` is a copy of that state. A checkpoint is written into
``rllib.new`` and then renamed into place, the previous one moved aside to ``rllib.old`` and
removed, so a run killed at any moment (a second Ctrl-C, SIGTERM, SIGKILL) keeps a whole
checkpoint: ``find_checkpoint`` takes ``rllib.new`` when it is complete, else ``rllib``.
docs/training.md, "Stopping and resuming an RLlib run".
"""
from __future__ import annotations

import json
import os
import shutil
from pathlib import Path
from typing import TYPE_CHECKING

from spacemission_env.checks import cut, shown, shown_path

from .lifecycle import Interrupt, finished_step

if TYPE_CHECKING:
    from .rllib_config import RLlibConfig

__all__ = ["CKPT", "Interrupt", "RESUME_OVERRIDES", "finished_step", "find_checkpoint", "read_checkpoint",
           "save_checkpoint_dir", "write_atomic"]

# the options a resume may change (any other must equal the saved value)
RESUME_OVERRIDES = ("steps", "progress", "address", "num_env_runners", "device")
CKPT, CKPT_NEW, CKPT_OLD, LOOP = "rllib", "rllib.new", "rllib.old", "loop.json"
# what RLlib's save_to_path writes for this trainer (learner and env runner states)
RLLIB_FILES = ("rllib_checkpoint.json", "algorithm_state.pkl", "class_and_ctor_args.pkl",
               "learner_group/state.pkl", "env_runner/state.pkl")


def write_atomic(path: Path, text: str) -> None:
    tmp = path.with_name(path.name + ".tmp")
    with open(tmp, "w") as f:
        f.write(text)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)


def find_checkpoint(run_dir) -> Path | None:
    """The folder of the run's newest whole checkpoint (``checkpoints/rllib.new`` when a kill
    came before it was moved into place, else ``checkpoints/rllib``), or None when there is
    none. A checkpoint of this trainer before its loop state moved into the folder has it
    in ``checkpoints/loop.json`` only."""
    root = Path(run_dir) / "checkpoints"
    for d in (root / CKPT_NEW, root / CKPT):
        if (d / LOOP).is_file():
            return d
    if (root / CKPT).is_dir() and (root / LOOP).is_file():  # the earlier layout
        return root / CKPT
    return None


def save_checkpoint_dir(algo, run_dir: Path, loop: dict) -> Path:
    root = Path(run_dir) / "checkpoints"
    root.mkdir(parents=True, exist_ok=True)
    new, cur, old = root / CKPT_NEW, root / CKPT, root / CKPT_OLD
    (new / LOOP).unlink(missing_ok=True)  # a leftover is incomplete before any other file goes
    shutil.rmtree(new, ignore_errors=True)
    algo.save_to_path(str(new.resolve()))
    write_atomic(new / LOOP, json.dumps(loop))  # the marker of a whole checkpoint
    if cur.exists():
        (old / LOOP).unlink(missing_ok=True)
        shutil.rmtree(old, ignore_errors=True)
        os.replace(cur, old)
    os.replace(new, cur)
    write_atomic(root / LOOP, json.dumps(loop))
    shutil.rmtree(old, ignore_errors=True)
    return cur


def read_checkpoint(run_dir, cfg: RLlibConfig) -> tuple[Path, dict]:
    """(checkpoint folder, loop state) of the run in ``run_dir``, checked before Ray starts;
    ResumeError naming the file when there is no checkpoint, one that cannot be read
    (truncated, corrupted, not this trainer's) or one of another run (its saved
    configuration differs from config.json beyond the options a resume may change)."""
    from .checkpoint import ResumeError

    run_dir = Path(run_dir)
    ckpt = find_checkpoint(run_dir)
    if ckpt is None:
        if (run_dir / "checkpoints" / "last.pt").is_file():
            raise ResumeError(f"{shown_path(run_dir)} is a run of the SB3 trainer (checkpoints/last.pt), not an RLlib "
                              f"run: resume it with spacemission train --resume {cut(str(run_dir))}")
        raise ResumeError(f"no RLlib checkpoint in {shown_path(run_dir)} (checkpoints/rllib with its loop.json): "
                          f"nothing to resume (the run stopped before its first checkpoint, written every "
                          f"--checkpoint-every steps). Start it afresh with the same command after removing "
                          f"{shown_path(run_dir)}")
    path = ckpt / LOOP if (ckpt / LOOP).is_file() else ckpt.parent / LOOP
    bad = path
    try:
        loop = json.loads(path.read_text())
        if not isinstance(loop, dict) or not {"arch", "step", "iteration", "evals"} <= set(loop):
            raise ValueError("not this trainer's loop state (expected a JSON object with arch, step, iteration, evals)")
        for name in RLLIB_FILES:
            bad = ckpt / name
            if not bad.is_file() or bad.stat().st_size == 0:
                raise ValueError("missing or empty")
        bad = ckpt / "rllib_checkpoint.json"
        json.loads(bad.read_text())
        for bad in sorted(ckpt.rglob("*")):  # no file RLlib writes is empty
            if bad.is_file() and bad.stat().st_size == 0:
                raise ValueError("empty")
        bad = path
    except (OSError, ValueError) as exc:
        # the file named inside the run (which of RLlib's files), so that cutting a long run folder keeps it
        raise ResumeError(f"checkpoint {shown_path(bad.relative_to(run_dir).as_posix())} in {shown_path(run_dir)} cannot "
                          f"be read, it is truncated or corrupted "
                          f"({type(exc).__name__}: {str(exc)[:200]}); nothing was changed. A run keeps one "
                          f"checkpoint: resume needs a good copy of it, or start the run again") from None
    saved, config = loop.get("config"), cfg.as_dict()
    if saved is not None:
        diff = sorted(k for k in set(saved) | set(config)
                      if k not in RESUME_OVERRIDES and saved.get(k) != config.get(k))
    else:  # a checkpoint from before the configuration was saved in it: its network
        saved = {k: ",".join(str(x) for x in loop["arch"].get(k, [])) for k in ("trunk", "pi", "vf")}
        diff = sorted(k for k in saved if cfg.layers(k) != loop["arch"].get(k))
    if diff:
        both = ", ".join(f"{k} {shown(saved.get(k))} in the checkpoint, {shown(config.get(k))} in config.json"
                         for k in diff)
        raise ResumeError(f"checkpoint {shown_path(path)} is not of the run configured in its folder's config.json "
                          f"({both}); nothing was changed")
    return ckpt, loop
