"""Training reaches into SB3's loop state (train_ppo.py, checkpoint.py), which SB3 does not
promise to keep: pyproject.toml's ``sb3`` extra bounds the versions from above, the installed
versions must lie within that bound, and the members used must exist in them."""
from importlib.metadata import version

import pytest
from packaging.requirements import Requirement

from tests.helpers.paths import pyproject


pytest.importorskip("sb3_contrib")

PACKAGES = ("stable-baselines3", "sb3-contrib")


def sb3_extra() -> dict[str, Requirement]:
    project = pyproject()["project"]
    reqs = [Requirement(r) for r in project["optional-dependencies"]["sb3"]]
    return {r.name: r for r in reqs}


@pytest.mark.parametrize("package", PACKAGES)
def test_the_sb3_extra_bounds_the_version_and_the_installed_one_is_inside(package):
    req = sb3_extra()[package]
    assert any(s.operator in ("<", "<=", "~=", "==") for s in req.specifier), f"{package} has no upper bound"
    installed = version(package)
    assert req.specifier.contains(installed, prereleases=True), f"{package} {installed} is outside {req.specifier}"


def test_the_private_members_training_uses_exist():
    from sb3_contrib import MaskablePPO

    from spacemission_env.sb3 import SpaceMissionVecEnv
    from spacemission_training.checkpoint import SB3_FIELDS

    model = MaskablePPO("MlpPolicy", SpaceMissionVecEnv(2, seed=0), n_steps=8, batch_size=16, device="cpu")
    for name in SB3_FIELDS + ("_last_episode_starts",):
        assert hasattr(model, name), f"MaskablePPO has no {name}"
    model._update_current_progress_remaining(0, 100)
    assert model._current_progress_remaining == 1.0
