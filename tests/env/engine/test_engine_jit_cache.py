"""The project's numba cache policy (spacemission_env/jit.py): a kernel's cache entry
is keyed on the sources of every project module it imports, so helpers and constants may
live in one module and be imported by compiled code elsewhere."""
from __future__ import annotations

import importlib
import inspect
import pathlib

import pytest
from numba import config as numba_config

import spacemission_agents._heuristic_kernel as HK
import spacemission_agents.greedy as G
from spacemission_env import jit
from spacemission_env.space_mission.engine import kernels as K

O = importlib.import_module("spacemission_env.space_mission.engine.observe")  # the package exports a function of that name


def _names(files):
    """folder/file of each path."""
    return {"/".join(pathlib.Path(f).parts[-2:]) for f in files}


def test_bot_kernels_depend_on_the_engine_rules_and_the_feature_offsets():
    deps = _names(jit.dependency_files(inspect.getfile(G)))
    assert {"engine/kernels.py", "spacemission_agents/_bot_features.py", "data/components.json",
            "space_mission/components.py"} <= deps
    deps = _names(jit.dependency_files(inspect.getfile(HK)))
    assert {"engine/kernels.py", "spacemission_agents/_bot_features.py"} <= deps


def test_engine_kernels_do_not_depend_on_the_interfaces():
    deps = _names(jit.dependency_files(inspect.getfile(O)))
    assert "space_mission/encoding.py" in deps
    assert not any(name.endswith(("gym_env.py", "pettingzoo_env.py", "vector.py")) for name in deps)


@pytest.mark.skipif(numba_config.DISABLE_JIT, reason="NUMBA_DISABLE_JIT: no dispatchers, no cache")
def test_every_compiled_function_uses_the_dependency_cache():
    for mod in (K, O, G, HK):
        dispatchers = [v for v in vars(mod).values() if hasattr(v, "py_func") and v.py_func.__module__ == mod.__name__]
        assert dispatchers
        for d in dispatchers:
            assert isinstance(d._cache, jit._DependencyCache), d


def test_no_plain_numba_cache_in_the_project():
    root = pathlib.Path(inspect.getfile(K)).parents[2]
    for folder in ("spacemission_env", "agents", "training"):
        for path in (root / folder).rglob("*.py"):
            assert "cache=True" not in path.read_text() or path.name == "jit.py", path


def test_digest_follows_a_dependency_change(tmp_path, monkeypatch):
    digest = jit.dependency_digest.__wrapped__(inspect.getfile(G))  # uncached
    real = jit.dependency_files(inspect.getfile(G))
    changed = tmp_path / "components.json"
    data = [f for f in real if f.endswith("components.json")][0]
    changed.write_bytes(pathlib.Path(data).read_bytes() + b" ")
    monkeypatch.setattr(jit, "dependency_files", lambda path: [str(changed) if f == data else f for f in real])
    assert jit.dependency_digest.__wrapped__(inspect.getfile(G)) != digest


def test_cache_option_is_refused():
    with pytest.raises(TypeError, match="cache"):
        jit.njit(cache=False)
