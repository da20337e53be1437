"""The trainer's seed (docs/training.md: one seed gives the same weights on one machine):
the seed options' values, and a tiny Red Planet run repeated in another process, with
another PYTHONHASHSEED and numpy / ``random`` / torch global generators seeded otherwise,
giving the same weights and the same logged statistics (timings aside). Space Mission's
same-seed run in one process: tests/training/test_training.py::test_same_seed_same_weights."""
import csv
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("sb3_contrib")

from spacemission_training.config import MAX_EVAL_SEED, MAX_SEED, TrainConfig  # noqa: E402
from spacemission_training.rllib import RLlibConfig  # noqa: E402
from tests.helpers.paths import ROOT  # noqa: E402

pytestmark = pytest.mark.usefixtures("keep_torch_threads")  # tests/training/conftest.py

TINY_RP = dict(num_envs=8, n_steps=32, batch_size=128, epochs=1, trunk="32", pi="16", vf="16", bc_teacher="random",
               bc_samples=200, bc_epochs=1, opponents="random=0.7,self=0.3", snapshot_every=256, eval_every=0,
               final_eval_games=0, checkpoint_every=10_000, steps=512, threads=1, progress="lines",
               tensorboard=False, seed=3)

_RUN = """
perturb = {perturb!r}
if perturb:
    import random, numpy as np, torch
    np.random.seed(777); random.seed(778); torch.manual_seed(779)
    from spacemission_env.gym_env import GameEnv
    for _ in range(2): GameEnv(num_players=4, game="red_planet").reset()
from spacemission_training.config import for_game
from spacemission_training.train_ppo import train
train(for_game("red_planet", run_dir={run_dir!r}, **{cfg!r}), argv=[])
"""


@pytest.mark.parametrize("config", [TrainConfig, RLlibConfig])
def test_numpy_integer_seeds_are_accepted_as_ints(config):
    """Regression: a numpy integer seed was refused ("option seed must be an integer, got
    np.int64(3)") while a numpy float passed."""
    cfg = config(seed=np.int64(3), eval_seed=np.uint32(4))
    assert (cfg.seed, cfg.eval_seed) == (3, 4) and type(cfg.seed) is int and type(cfg.eval_seed) is int


@pytest.mark.parametrize("config", [TrainConfig, RLlibConfig])
@pytest.mark.parametrize("option, value", [("seed", -1), ("seed", MAX_SEED + 1), ("eval_seed", 2**40),
                                           ("eval_seed", MAX_EVAL_SEED + 1), ("eval_seed", -1)])
def test_a_seed_out_of_range_is_named_with_its_value(config, option, value):
    """Regression: the message named the range only ("seed and eval_seed must be in 0..4294967294")."""
    assert MAX_EVAL_SEED == MAX_SEED  # one range for both since the arena takes seeds below 2**32
    with pytest.raises(ValueError, match=rf"seed and eval_seed must be in 0\.\.{MAX_SEED} "
                                         rf"\(.*\), got {option}={value}$"):
        config(**{option: value})


def test_every_accepted_eval_seed_is_an_arena_seed_with_the_final_evaluations():
    """Regression: eval_seed took 0..4294967294 like seed, but it is the evaluations' arena
    seed (0..2**31-1 then, 0..2**32-1 since 2026-11-27) and the final evaluation plays
    eval_seed + 1, so a run with eval_seed 2147483647 or more trained and then died at its
    first evaluation."""
    from spacemission_agents.arena import SEED_LIMIT, run_arena

    assert MAX_EVAL_SEED + 1 == SEED_LIMIT - 1  # the arena takes up to 2**32 - 1 since 2026-11-27: all of it
    assert TrainConfig(seed=MAX_SEED, eval_seed=MAX_EVAL_SEED).eval_seed == MAX_EVAL_SEED
    for seed in (MAX_EVAL_SEED, MAX_EVAL_SEED + 1):  # what an evaluation and the final one play
        run_arena(["random", "kind-random"], num_players=2, games=2, seed=seed, max_rounds=2, progress=False,
                  record=False, log=lambda msg: None)


def _metrics(run_dir: Path) -> list:
    """The logged statistics without the timings."""
    with open(run_dir / "metrics.csv") as f:
        return [(r["step"], r["key"], r["value"]) for r in csv.DictReader(f)
                if not (r["key"].startswith("time/") or r["key"].endswith("_s"))]


def _weights(run_dir: Path) -> dict:
    with np.load(run_dir / "final.npz") as z:
        return {k: z[k] for k in z.files if k != "metadata"}


@pytest.mark.slow  # two tiny runs in subprocesses: about 15-40 s on the shared machine
def test_a_red_planet_run_is_reproduced_in_another_process_state(tmp_path):
    runs = {}
    for name, perturb, hashseed in (("a", False, "0"), ("b", True, "4242")):
        run_dir = tmp_path / name
        code = _RUN.format(perturb=perturb, run_dir=str(run_dir), cfg=TINY_RP)
        done = subprocess.run([sys.executable, "-c", code], env={**os.environ, "PYTHONHASHSEED": hashseed}, cwd=ROOT,
                              capture_output=True, text=True, timeout=300)
        assert done.returncode == 0, done.stderr[-3000:]
        runs[name] = run_dir
    a, b = _metrics(runs["a"]), _metrics(runs["b"])
    assert any(k.startswith("train/") for _, k, _ in a)  # a PPO iteration was logged
    assert a == b
    wa, wb = _weights(runs["a"]), _weights(runs["b"])
    assert wa.keys() == wb.keys() and all(np.array_equal(wa[k], wb[k]) for k in wa)
