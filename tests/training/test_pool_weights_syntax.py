"""``--opponents`` weights (pool.parse_weights): a ``ppo:PATH`` whose path holds ',' (a ','
ends an item only right after ``=NUMBER``), and finite weights whose sum is past float's
range. Before: every ',' split, so ``ppo:runs/a,b/final.npz=1.0`` was "opponent weight
'ppo:runs/a' is not NAME=WEIGHT"; ``heuristic=1e308,greedy=1e308`` was taken, and the pool
drew from probabilities [0, 0] (numpy's "Probabilities do not sum to 1" at the first reset)."""
from __future__ import annotations

import shutil

import numpy as np
import pytest

pytest.importorskip("torch")

from spacemission_agents.ppo import PPOAgent  # noqa: E402
from spacemission_training.config import TrainConfig, parse_args  # noqa: E402
from spacemission_training.pool import OpponentPool, parse_weights  # noqa: E402

SHIPPED = PPOAgent.shipped_path(2)
NOT_NAME_WEIGHT = "is not NAME=WEIGHT (e.g. heuristic=0.3,self=0.5)"


@pytest.mark.parametrize("text, expected", [
    ("ppo:runs/a,b/final.npz=1.0,heuristic=0.5", {"ppo:runs/a,b/final.npz": 1.0, "heuristic": 0.5}),
    ("heuristic=0.5, ppo:runs/a,b/final.npz=1.0", {"heuristic": 0.5, "ppo:runs/a,b/final.npz": 1.0}),
    ("ppo:runs/x=a,b,,c/final.npz=2", {"ppo:runs/x=a,b,,c/final.npz": 2.0}),  # '=' and ',' in one path
    ("ppo:runs/a,b.npz=1,ppo:runs/c,d.npz=1e-3,self=0", {"ppo:runs/a,b.npz": 1.0, "ppo:runs/c,d.npz": 1e-3,
                                                         "self": 0.0}),
    # a ',' right after =NUMBER ends an item, also inside what was meant as a path
    ("ppo:runs/lr=3e-4,b/final.npz=1", {"ppo:runs/lr": 3e-4, "b/final.npz": 1.0}),
])
def test_a_ppo_path_may_hold_commas(text, expected):
    assert parse_weights(text) == expected


def test_a_ppo_path_with_a_comma_is_a_pool_opponent(tmp_path):
    folder = tmp_path / "a,b"
    folder.mkdir()
    model = folder / "final.npz"
    shutil.copy(SHIPPED, model)
    opponents = f"ppo:{model}=1.0,self=0.5"
    cfg = TrainConfig(players=2, opponents=opponents)  # makes each agent: ValueError if not
    assert [path for option, path in cfg.start_files() if option == "opponents"] == [str(model)]
    cfg, _ = parse_args(["--players", "2", "--opponents", opponents, "--steps", "1000"])
    assert cfg.opponents == opponents
    pool = OpponentPool(opponents, num_players=2)
    assert pool.names == [f"ppo:{model}"] and np.allclose(pool.probabilities, [1.0])


@pytest.mark.parametrize("text, message", [
    ("heuristic", f"opponent weight 'heuristic' {NOT_NAME_WEIGHT}"),
    ("heuristic,greedy=1", f"opponent weight 'heuristic' {NOT_NAME_WEIGHT}"),
    ("heuristic=1, greedy", f"opponent weight ' greedy' {NOT_NAME_WEIGHT}"),
    ("heuristic=x,greedy=1", "opponent weight for 'heuristic' must be a number, got 'x'"),
    ("heuristic=x,greedy", f"opponent weight 'greedy' {NOT_NAME_WEIGHT}"),  # the form of every item first
    ("=1,greedy=1", f"opponent weight '=1' {NOT_NAME_WEIGHT}"),
    ("mod:Cls,x=1", f"opponent weight 'mod:Cls' {NOT_NAME_WEIGHT}"),
    ("heuristic=1,heuristic=2", "opponent 'heuristic' weighted twice"),
    # a ppo item that never ends (no weight): named whole, with its ','
    ("heuristic=1,ppo:runs/a,b/final.npz", f"opponent weight 'ppo:runs/a,b/final.npz' {NOT_NAME_WEIGHT}"),
])
def test_other_groups_split_at_every_comma_as_before(text, message):
    with pytest.raises(ValueError) as info:
        parse_weights(text)
    assert str(info.value) == message


def test_blank_items_are_left_out_as_before():
    assert parse_weights(",heuristic=1,, greedy=2 ,") == {"heuristic": 1.0, "greedy": 2.0}


@pytest.mark.parametrize("weights", ["heuristic=1e308,greedy=1e308", {"heuristic": 1e308, "greedy": 1e308},
                                     "random=1.7e308,kind-random=1.7e308,self=1"])
def test_weights_whose_sum_overflows_are_refused(weights):
    with pytest.raises(ValueError, match=r"^opponent weights sum past the largest float \(they are relative: divide "
                                         r"them all by the same number\), got "):
        parse_weights(weights)
    with pytest.raises(ValueError, match="sum past the largest float"):
        OpponentPool(weights, num_players=2)


def test_large_weights_whose_sum_is_finite_are_taken():
    pool = OpponentPool("random=1e308,kind-random=7e307", num_players=2)
    assert np.allclose(pool.probabilities, [1 / 1.7, 0.7 / 1.7])
    assert pool.sample(np.random.default_rng(0), 4).shape == (4, 1)


def test_the_command_line_names_the_overflow(capsys):
    with pytest.raises(SystemExit):
        parse_args(["--opponents", "heuristic=1e308,greedy=1e308"])
    assert "error: option opponents: opponent weights sum past the largest float" in capsys.readouterr().err
