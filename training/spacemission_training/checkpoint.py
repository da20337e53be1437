"""Checkpoints that resume a run exactly (``run_dir/checkpoints/last.pt``).

A checkpoint is written between two PPO iterations (after an update and whatever
evaluation or snapshot fell due) and holds everything the rest of the run depends on:

* the network and Adam's state (``policy.state_dict()``, ``optimizer.state_dict()``);
* SB3's loop state: ``num_timesteps``, ``_n_updates``, ``_last_obs`` (the learners'
  current observations), ``_last_episode_starts``, ``_current_progress_remaining``;
* the *world*, pickled as one object graph so that shared references survive: the
  SpaceMissionVecEnv (the engine's BatchState arrays of the games in progress, the
  learners' seats, the per-game opponent assignment, its numpy generator) and the
  opponent pool (every bot and snapshot with its generator, the per-opponent results
  that drive the prioritized weights), plus the trainer's own counters;
* every global random state: torch (and the GPU's, on ``--device cuda``), numpy's legacy
  global generator (SB3 shuffles the rollout minibatches with it) and Python's ``random``.

Restoring rebuilds the model from the saved configuration, loads the two state dicts,
puts back SB3's fields and the world, and sets the random states last, so that the run
continues as if never stopped (tests/training/test_training.py compares final weights with an
unbroken run). The file is written to a temporary name and renamed, so a run killed
while saving keeps its previous checkpoint.
"""
from __future__ import annotations

import io
import os
import pickle
import random
from pathlib import Path

import numpy as np
import torch

from spacemission_env.checks import shown, shown_path

__all__ = ["ResumeError", "check_run", "load", "restore_model", "save"]


class ResumeError(ValueError):
    """A run that cannot be resumed: no checkpoint, an unreadable one, or one of another
    run (``spacemission train`` prints it as an error, exit status 2; nothing is written)."""


BLOB_KEYS = ("policy", "optimizer", "sb3", "world", "loop", "rng")
SB3_FIELDS = ("num_timesteps", "_n_updates", "_last_obs", "_last_episode_starts", "_current_progress_remaining",
              "_num_timesteps_at_start")


def save(path, model, world: dict, loop: dict) -> Path:
    """Write a checkpoint of ``model`` (MaskablePPO), ``world`` (picklable objects: env,
    pool, trackers) and ``loop`` (plain counters)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    blob = {
        "policy": model.policy.state_dict(),
        "optimizer": model.policy.optimizer.state_dict(),
        "sb3": {k: getattr(model, k) for k in SB3_FIELDS},
        "world": pickle.dumps(world, protocol=pickle.HIGHEST_PROTOCOL),
        "loop": loop,
        "rng": {"torch": torch.get_rng_state(), "numpy": np.random.get_state(), "python": random.getstate()},
    }
    if model.device.type == "cuda":  # PPO samples its actions on the GPU, with that device's generator
        blob["rng"]["cuda"] = torch.cuda.get_rng_state(model.device)
    buf = io.BytesIO()
    torch.save(blob, buf)
    tmp = path.with_suffix(".tmp")
    with open(tmp, "wb") as f:
        f.write(buf.getvalue())
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)
    return path


def load(path) -> dict:
    """The checkpoint's contents, with the world unpickled (``blob["world"]``); ResumeError
    naming the file when there is none or it cannot be read (truncated, corrupted, not a
    checkpoint)."""
    path = Path(path)
    if not path.is_file():
        run_dir = path.parent.parent
        raise ResumeError(f"no checkpoint at {shown_path(path)}: nothing to resume (the run stopped before its first "
                          f"checkpoint, written every --checkpoint-every steps). Start it afresh with the same "
                          f"command after removing {shown_path(run_dir)} (its configuration is in "
                          f"{shown_path(run_dir / 'config.json')})")
    try:
        blob = torch.load(path, map_location="cpu", weights_only=False)  # our own file: it holds pickled objects
        if not isinstance(blob, dict) or not set(BLOB_KEYS) <= set(blob):
            raise ValueError(f"not a training checkpoint (expected a dict with {', '.join(BLOB_KEYS)})")
        blob["world"] = pickle.loads(blob["world"])
    except Exception as exc:  # torch/pickle raise anything on a cut or overwritten file
        raise ResumeError(f"checkpoint {shown_path(path)} cannot be read, it is truncated or corrupted "
                          f"({type(exc).__name__}: {str(exc)[:200]}); nothing was changed. A run keeps one "
                          f"checkpoint: resume needs a good copy of it, or start the run again") from None
    return blob


def check_run(blob: dict, path, config: dict, ignore=()) -> None:
    """ResumeError naming ``path`` when the checkpoint ``blob`` is not of the run whose
    configuration is ``config`` (its config.json): the configuration saved in the checkpoint
    differs beyond ``ignore`` (the options a resume may change), or, for checkpoints written
    before the configuration was saved in them, the env's game, players, rules, round limit,
    observation type or number of games differ."""
    saved = blob["loop"].get("config")
    if saved is not None:
        diff = sorted(k for k in set(saved) | set(config) if k not in ignore and saved.get(k) != config.get(k))
    else:
        env = blob["world"]["venv"]
        env = getattr(env, "venv", env)  # PriorVecEnv wraps the GameVecEnv
        have = {"game": getattr(getattr(env, "game", None), "name", None), "players": getattr(env, "num_players", None),
                "rules": getattr(env, "rules", None), "max_rounds": getattr(env, "max_rounds", None),
                "observation_type": getattr(env, "observation_type", None), "num_envs": getattr(env, "num_envs", None)}
        saved = {k: v for k, v in have.items() if v is not None}
        diff = sorted(k for k in saved if saved[k] != config.get(k))
    if diff:
        both = ", ".join(f"{k} {shown(saved.get(k))} in the checkpoint, {shown(config.get(k))} in config.json"
                         for k in diff)
        raise ResumeError(f"checkpoint {shown_path(path)} is not of the run configured in its folder's config.json "
                          f"({both}); nothing was changed")


def restore_model(model, blob: dict) -> None:
    """Network, optimizer and SB3 fields into a freshly built ``model``; then the random
    states (last: building the model consumed some)."""
    model.policy.load_state_dict(blob["policy"])
    model.policy.optimizer.load_state_dict(blob["optimizer"])
    for k, v in blob["sb3"].items():
        setattr(model, k, v)
    restore_rng(blob["rng"], model.device)


def restore_rng(rng: dict, device=None) -> None:
    """The saved random states; a GPU's too when the run was and is on one (a run moved to
    another device goes on with that device's generator: not the same actions)."""
    torch.set_rng_state(rng["torch"])
    if "cuda" in rng and device is not None and torch.device(device).type == "cuda":
        torch.cuda.set_rng_state(rng["cuda"], torch.device(device))
    np.random.set_state(rng["numpy"])
    random.setstate(rng["python"])
