"""The warm start's teacher data and its held-out games (training/spacemission_training/bc.py)."""
from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("sb3_contrib")
from spacemission_agents.registry import make_agent  # noqa: E402
from spacemission_training import bc  # noqa: E402
from spacemission_training.pool import OpponentPool  # noqa: E402


@pytest.fixture(scope="module")
def data():
    # shaping off: every reward is the game's end (R-P8's rank reward), so each return is
    # that reward discounted by the decisions left in the game
    pool = OpponentPool({"greedy": 1.0}, num_players=2, seed=3)
    return bc.collect(make_agent("greedy", seed=1), pool, num_envs=8, samples=3000, num_players=2, rules="yucata",
                      max_rounds=100, observation_type="recall", reward="win", shaping=False, gamma=0.9,
                      return_gamma=0.5, seed=11)


def test_each_decision_names_its_game_and_the_returns_use_the_critics_gamma(data):
    games = data["game"]
    assert len(games) == len(data["ret"]) == len(data["action"]) and len(np.unique(games)) >= 40
    for g in np.unique(games)[:40]:
        ret = data["ret"][games == g]  # one game's decisions, in order
        final = ret[-1]
        assert final in (-1.0, 0.0, 1.0)
        # discounted by return_gamma (0.5), not by the env's gamma (0.9)
        np.testing.assert_allclose(ret, final * 0.5 ** np.arange(len(ret) - 1, -1, -1), rtol=1e-6, atol=1e-7)


def test_the_held_out_slice_is_whole_games(data):
    rng = np.random.default_rng(0)
    test, train = bc.holdout_split(data, 0.1, rng)
    assert len(test) + len(train) == len(data["action"]) and not set(test) & set(train)
    held, trained = set(data["game"][test]), set(data["game"][train])
    assert held and not held & trained  # no game on both sides: its value would be learnt by heart
    assert 0.1 * len(data["action"]) <= len(test) <= 0.1 * len(data["action"]) + 200  # about the slice asked for
    test2, _ = bc.holdout_split({"action": data["action"]}, 0.1, np.random.default_rng(0))
    assert len(test2) == int(0.1 * len(data["action"]))  # data without games: decisions, as before
    one = {"action": data["action"][:50], "game": np.zeros(50, np.int64)}
    assert len(bc.holdout_split(one, 0.1, np.random.default_rng(0))[0]) == 5  # one game: nothing would train


def test_a_cache_without_games_is_collected_again(data, tmp_path):
    path = tmp_path / "bc.npz"
    settings = {"seed": 11}
    bc.save_cache(path, settings, data)
    np.testing.assert_array_equal(bc.load_cache(path, settings)["game"], data["game"])
    old = {k: v for k, v in data.items() if k != "game"}
    bc.save_cache(path, settings, old)  # what an earlier version wrote
    assert bc.load_cache(path, settings) is None


def _small_data():
    return {"obs": np.zeros((3, 4), np.int8), "mask": np.ones((3, 2), bool), "action": np.array([0, 1, 0]),
            "ret": np.array([1.0, -1.0, 0.0], np.float32), "game": np.array([0, 0, 1]), "games": 2, "seconds": 0.1}


def test_a_cache_is_kept_under_the_name_given(tmp_path):
    """Before: np.savez added .npz to any other name (teacher.cache -> teacher.cache.npz), so
    the next run never found the cache and collected the teacher data again, every time."""
    path = tmp_path / "teacher.cache"
    bc.save_cache(str(path), {"seed": 1}, _small_data())
    assert sorted(p.name for p in tmp_path.iterdir()) == ["teacher.cache"]
    np.testing.assert_array_equal(bc.load_cache(str(path), {"seed": 1})["action"], [0, 1, 0])


@pytest.mark.parametrize("content", [b"", b"PK\x03\x04 cut short", "model"])
def test_a_cut_or_foreign_cache_is_refused_naming_the_option(tmp_path, content):
    """Before: a cut cache (a run killed while writing it), an empty file or an .npz without
    settings (a model file given by mistake) raised EOFError, BadZipFile or KeyError from
    the warm start, after the run's folder and config.json were written."""
    from spacemission_training.config import TrainConfig

    path = tmp_path / "cache.npz"
    if content == "model":
        np.savez(path, metadata=np.array("{}"), w0=np.zeros((2, 2)))
    else:
        path.write_bytes(content)
    before = path.read_bytes()
    with pytest.raises(ValueError, match=rf"option bc_cache: {str(path)!r} is not a .*delete it or give another path"):
        TrainConfig(bc_cache=str(path))
    with pytest.raises(ValueError, match=rf"option bc_cache: {str(path)!r}"):
        bc.load_cache(str(path), {"seed": 1})
    assert path.read_bytes() == before
