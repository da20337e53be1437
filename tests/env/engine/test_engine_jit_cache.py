"""The project's numba cache policy (spacemission_env/jit.py): a kernel's cache entry
is keyed on the sources of every project module it imports, so helpers and constants may
live in one module and be imported by compiled code elsewhere."""
from __future__ import annotations

import importlib
import inspect
import os
import pathlib
import subprocess
import sys

import pytest
from numba import config as numba_config

import spacemission_agents._heuristic_kernel as HK
import spacemission_agents.greedy as G
from spacemission_env import compile_notice, jit
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


def test_digest_is_the_same_through_a_symlinked_package_folder(tmp_path):
    """Before: the digest hashed the dependencies' paths as reached, so a kernel of a symlinked
    checkout (benchmarks/engine_profile.py --tree) stamped the cache index beside the real
    sources differently from the direct one: each use reset the other's index (warmup's 24
    kernels compiled again after the profile test)."""
    package = pathlib.Path(inspect.getfile(K)).parents[2]  # spacemission_env/
    (tmp_path / package.name).symlink_to(package, target_is_directory=True)
    for kernel in (K, O):
        real = inspect.getfile(kernel)
        linked = str(tmp_path / package.name / pathlib.Path(real).relative_to(package))
        assert any(f.startswith(str(tmp_path)) for f in jit.dependency_files(linked))  # reached through the link
        assert jit.dependency_digest.__wrapped__(linked) == jit.dependency_digest.__wrapped__(real), real


def test_cache_option_is_refused():
    with pytest.raises(TypeError, match="cache"):
        jit.njit(cache=False)


def _run(code: str, cache_dir: str | None = None) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
    env.update({"NUMBA_CACHE_DIR": cache_dir} if cache_dir else {}, PYTHONWARNINGS="default")
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300, env=env)


@pytest.mark.skipif(numba_config.DISABLE_JIT, reason="NUMBA_DISABLE_JIT: no dispatchers, no cache")
def test_without_a_writable_cache_folder_the_kernels_compile_uncached():
    """A read-only install run with an unwritable home (numba finds no cache folder: made here by
    giving numba no locator, as root can write anywhere): the kernels import and run, with one
    warning in all, where plain ``cache=True`` raised "no locator available" at import."""
    code = ("from numba.core.caching import FunctionCache\nFunctionCache._impl_class._locator_classes = []\n"
            "import numpy as np\nfrom spacemission_env import engine_common, jit\n"
            "import spacemission_env.space_mission.engine\n"
            "rng = np.array([7], dtype=np.uint64)\nprint(engine_common.below(rng, 0, 6) < 6, jit.cache_folders())")
    out = _run(code)
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.split(None, 1) == ["True", "['none (compiled in every process)']\n"]
    assert out.stderr.count(jit.NO_CACHE_MESSAGE) == 1 and out.stderr.count("Warning") == 1, out.stderr
    # the first-compile notice does not promise a cache that is not kept
    assert compile_notice.MESSAGE_UNCACHED in out.stderr and compile_notice.MESSAGE not in out.stderr, out.stderr


@pytest.mark.skipif(numba_config.DISABLE_JIT, reason="NUMBA_DISABLE_JIT: no dispatchers, no cache")
def test_cache_folders_names_where_numba_caches(tmp_path):
    """What ``spacemission warmup``'s last line says: NUMBA_CACHE_DIR when set, else the
    __pycache__ folders beside the sources (this checkout is writable)."""
    code = "import spacemission_env.space_mission.engine, spacemission_agents.greedy\nfrom spacemission_env import jit\nprint(jit.cache_folders())"
    assert _run(code, str(tmp_path)).stdout.strip() == repr([str(tmp_path)])
    in_tree = _run(code)
    assert in_tree.stdout.strip() == "['__pycache__ beside the sources']", in_tree.stderr[-2000:]
