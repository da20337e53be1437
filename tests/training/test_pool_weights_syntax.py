"""``--opponents`` weights (pool.parse_weights): a ``ppo:PATH`` whose path holds ',' (a ','
ends an item only right after ``=NUMBER``), and finite weights whose sum is past float's
range. Before: every ',' split, so ``ppo:runs/a,b/final.npz=1.0`` was "opponent weight
'ppo:runs/a' is not NAME=WEIGHT"; ``heuristic=1e308,greedy=1e308`` was taken, and the pool
drew from probabilities [0, 0] (numpy's "Probabilities do not sum to 1" at the first reset).
A path with a ',' right after '=NUMBER' (``ppo:runs/lr=3e-4,b/final.npz=1``) split there into
'ppo:runs/lr' and 'b/final.npz' (an unknown agent): text that cannot begin an item (its name
holds '/', '\\' or '=') now goes on with the path; where an item in between makes that path
read as several items, the weights are refused, naming the way out."""
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
    # a ',' right after =NUMBER ends an item, unless what follows cannot begin one (its name holds '/', '\\' or
    # '=': only a path does): then it goes on with the ppo:PATH before it (before: two items, the second
    # 'b/final.npz', an unknown agent)
    ("ppo:runs/lr=3e-4,b/final.npz=1", {"ppo:runs/lr=3e-4,b/final.npz": 1.0}),
    ("ppo:/tmp/a=2,b/x.npz=1,self=0.5", {"ppo:/tmp/a=2,b/x.npz": 1.0, "self": 0.5}),
    ("ppo:runs/lr=3e-4,bs=64/final.npz=1", {"ppo:runs/lr=3e-4,bs=64/final.npz": 1.0}),
    ("ppo:runs/a=1,,b\\final.npz=2", {"ppo:runs/a=1,,b\\final.npz": 2.0}),
    # what can begin an item still ends the path's: a name, a module, a spec with parameters, self
    ("ppo:runs/a.npz=2,greedy=1", {"ppo:runs/a.npz": 2.0, "greedy": 1.0}),
    ("ppo:runs/a.npz=2,mod.sub:Cls=1", {"ppo:runs/a.npz": 2.0, "mod.sub:Cls": 1.0}),
    ("ppo:runs/a.npz=2,heuristic:seed=3=1,self=1", {"ppo:runs/a.npz": 2.0, "heuristic:seed=3": 1.0, "self": 1.0}),
    ("ppo:runs/a.npz=2,ppo:runs/b.npz=1", {"ppo:runs/a.npz": 2.0, "ppo:runs/b.npz": 1.0}),
])
def test_a_ppo_path_may_hold_commas(text, expected):
    assert parse_weights(text) == expected


# "lr=3e-4,b": a ',' right after '=NUMBER' inside the path, joined back to it
@pytest.mark.parametrize("name", ["a,b", "lr=3e-4,b"])
def test_a_ppo_path_with_a_comma_is_a_pool_opponent(tmp_path, name):
    folder = tmp_path / name
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
    # text that would go on with a ppo:PATH but never reaches a weight: the items as they were, named
    ("ppo:runs/a=2,b/x", f"opponent weight 'b/x' {NOT_NAME_WEIGHT}"),
    ("ppo:runs/a=2,,b/x,c", f"opponent weight 'b/x' {NOT_NAME_WEIGHT}"),
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


@pytest.mark.parametrize("text, part, before", [
    # the path 'runs/lr=3e-4,bs=64,c/final.npz': after 'bs=64' (an item of its own), 'c/final.npz' cannot begin one
    ("ppo:runs/lr=3e-4,bs=64,c/final.npz=1", "'c/final.npz=1'", "'bs=64'"),
    ("ppo:a.npz=1,heuristic=1,b/x.npz=1", "'b/x.npz=1'", "'heuristic=1'"),
])
def test_a_path_that_reads_as_several_items_is_refused_naming_the_way_out(text, part, before):
    with pytest.raises(ValueError) as info:
        parse_weights(text)
    message = str(info.value)
    assert message.startswith(f"opponent weights: {part} cannot begin an item (only a path holds")
    assert f"ended before {before}" in message and "rename or link that folder" in message
    with pytest.raises(SystemExit):  # and on the command line, as an option's usage error
        parse_args(["--opponents", text])


def test_without_a_ppo_path_before_such_text_is_an_unknown_agent_as_before():
    assert parse_weights("heuristic=1,b/x.npz=1") == {"heuristic": 1.0, "b/x.npz": 1.0}
