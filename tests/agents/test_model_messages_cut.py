"""The messages of agents/ that name a path or a value the user gave cut it (checks.shown,
cut_long_words: ~80 characters; a path, checks.shown_path: 512), as the rest of the project does. Before, ppo.py and
value.py printed a model's path whole with ``{str(p)!r}`` (twice for a file whose arrays
did not fit: "model PATH: ..."), netsearch.py its policy, value and seer_value paths, and
the bots' argument checks any bad value: a path of ~3,800 characters (the system takes at
most 4,095) gave a message of thousands."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from spacemission_agents.netsearch import NetSearchAgent
from spacemission_agents.model_files import save_npz_file
from spacemission_agents.ppo import PPOAgent
from spacemission_agents.search import SearchAgent
from spacemission_agents.value import ValueNet
from spacemission_env.checks import PATH_CHARS, shown_path
from spacemission_env.games import GameConfig

# the longest of these messages names two paths (cut to PATH_CHARS each) in about 400 characters
MOST = 2 * PATH_CHARS + 500
LONG = "x" * 5000


def deep_dir(root: Path) -> Path:
    """A folder whose path is about 3,800 characters: ``root`` then "d/.." 750 times over
    (pathlib keeps each "..", where it drops "."), a real folder."""
    (root / "d").mkdir()
    path = Path(str(root) + "/d/.." * 750)
    assert len(str(path)) > 3750 and path.is_dir()
    return path


@pytest.fixture(scope="module")
def shipped():
    return PPOAgent.load_shipped(2)


def _message(call) -> str:
    with pytest.raises(ValueError) as info:
        call()
    text = str(info.value)
    assert len(text) < MOST, text[:300]
    return text


def _files(folder: Path, shipped: PPOAgent) -> dict[str, tuple[Path, str]]:
    """name -> (a file at a long path that does not load, what its message says)."""
    garbage = folder / "garbage.npz"
    garbage.write_bytes(b"PK\x03\x04 a cut zip")
    bare = folder / "bare.npz"
    np.savez(bare, w0=np.zeros(3))
    other_layout = save_npz_file(folder / "layout.npz", {**shipped.metadata, "observation_layout_hash": "f" * 16},
                                 shipped.params)
    bad_arrays = save_npz_file(folder / "arrays.npz", shipped.metadata, {**shipped.params, "w0": np.zeros((2, 2))})
    return {
        "missing": (folder / "none.npz", "no PPO model file at '"),
        "a directory": (folder, "is a directory, not a PPO model file"),
        "not a model file": (garbage, "is not a readable .npz model file"),
        "no metadata": (bare, "has no metadata; not a Space Mission PPO policy"),
        "another layout": (other_layout, "was trained on a different 'recall' observation layout"),
        "arrays that do not fit": (bad_arrays, "model layer 0: weight (2, 2)"),
    }


@pytest.mark.parametrize("case", ["missing", "a directory", "not a model file", "no metadata", "another layout",
                                  "arrays that do not fit"])
def test_a_model_at_a_long_path_that_does_not_load_is_named_cut(shipped, tmp_path, case):
    path, needle = _files(deep_dir(tmp_path), shipped)[case]
    text = _message(lambda: PPOAgent.load(path))
    assert needle in text and shown_path(path) in text


def test_a_value_net_at_a_long_path_is_named_cut(tmp_path):
    folder = deep_dir(tmp_path)
    assert _message(lambda: ValueNet.load(folder / "v.npz")).startswith("no value net file at '")
    shipped_value = ValueNet.load_shipped(2)
    path = save_npz_file(folder / "v.npz", {**shipped_value.metadata, "policy_sha256": LONG}, shipped_value.params)
    text = _message(lambda: ValueNet.load(path))
    assert "policy_sha256 (the policy it was fitted for) must be 64" in text and "got 'xxx" in text
    other = folder / "policy.npz"
    other.write_bytes(PPOAgent.shipped_path(2).read_bytes() + b"!")  # not the policy it was fitted for
    text = _message(lambda: shipped_value.check_policy(other))
    assert "value net was fitted for the policy with sha256" in text and shown_path(other) in text


def test_a_long_agent_name_is_cut_when_bind_refuses_a_game(shipped):
    agent = PPOAgent.load(PPOAgent.shipped_path(2), name=LONG)
    text = _message(lambda: agent.bind(GameConfig(2, "yucata", 20)))
    assert "PPO model 'xxx" in text and "was trained for 2 players" in text


def test_netsearch_names_its_files_cut(tmp_path):
    folder = deep_dir(tmp_path)
    text = _message(lambda: NetSearchAgent(policy=str(folder / "p.npz")))
    assert text.startswith("NetSearchAgent: policy '") and text.endswith("is no file")
    garbage = folder / "p.npz"
    garbage.write_bytes(b"not a model")
    agent = NetSearchAgent(policy=str(garbage), value=None)
    text = _message(lambda: agent.bind(GameConfig(2, "yucata", 100)))
    assert "NetSearchAgent: no policy for 2 players" in text and "is not a readable .npz model file" in text
    agent = NetSearchAgent(seer_value=str(garbage))
    text = _message(lambda: agent.bind(GameConfig(2, "yucata", 100)))
    assert text.startswith("NetSearchAgent: seer_value '") and "is not a readable .npz value net" in text


@pytest.mark.parametrize("make", [
    lambda: SearchAgent(prior=LONG), lambda: SearchAgent(clock=LONG), lambda: SearchAgent(select=LONG),
    lambda: SearchAgent(rollout=LONG), lambda: SearchAgent(budget=10**5000), lambda: NetSearchAgent(until=LONG),
    lambda: NetSearchAgent(clock=LONG), lambda: NetSearchAgent(c_puct=10**5000), lambda: NetSearchAgent(worlds=10**5000),
    lambda: PPOAgent.load(PPOAgent.shipped_path(2), temperature=10**5000),
], ids=["search prior", "search clock", "search select", "search rollout", "search budget", "netsearch until",
        "netsearch clock", "netsearch c_puct", "netsearch worlds", "ppo temperature"])
def test_a_bad_bot_argument_is_named_cut(make):
    text = _message(make)
    assert "got 'xxx" in text or "an integer of about 5,001 digits" in text or "rollout 'xxx" in text
