"""``make test-python`` (docs/python_versions.md) runs tests/env, tests/agents and tests/cli under
another Python where torch, Stable-Baselines3 and Ray are not installed; the tests that need them
skip with the reason. A test module that imports one of them at its top instead stops the whole
run at collection: three did (``from spacemission_env.sb3 import ...``), found running it on
Python 3.10. Here those folders are collected with the optional packages hidden (``None`` in
``sys.modules``: ``import torch`` raises ModuleNotFoundError, ``importlib.util.find_spec`` says
None), as on such a machine."""
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
HIDDEN = ("torch", "stable_baselines3", "sb3_contrib", "ray", "tensorboard")
FOLDERS = ("tests/env", "tests/agents", "tests/cli", "tests/test_python_versions.py")

pytestmark = pytest.mark.integration  # a collection of those folders in a subprocess (make test-integration)


def _collect(folders, hidden=HIDDEN):
    code = (f"import sys; sys.modules.update(dict.fromkeys({list(hidden)!r}))\n"
            "import pytest\n"
            f"sys.exit(pytest.main(['--collect-only', '-q', '-p', 'no:cacheprovider', *{list(folders)!r}]))")
    return subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=600)


def test_the_torch_free_folders_collect_without_torch_sb3_or_ray():
    run = _collect(FOLDERS)
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-2000:]
    assert " tests collected" in run.stdout or " collected" in run.stdout


def test_the_check_sees_a_module_that_imports_sb3_at_its_top(tmp_path):
    """The check can fail: a module importing the SB3 VecEnv at its top is a collection error."""
    bad = tmp_path / "test_probe.py"
    bad.write_text("from spacemission_env.sb3 import GameVecEnv\n\n\ndef test_x():\n    assert GameVecEnv\n")
    run = _collect([str(bad)])
    assert run.returncode != 0 and "stable_baselines3" in run.stdout + run.stderr, run.stdout[-2000:]
