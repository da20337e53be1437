"""Every Python example in README.md runs as written (so the README stays true), and the
import names the README documents are what the wheel installs."""
import re
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from tests.helpers.paths import ROOT

README = ROOT / "README.md"
BLOCKS = re.findall(r"```python\n(.*?)```", README.read_text(), flags=re.S)
IMPORT_NAMES = ("spacemission_env", "spacemission_agents", "spacemission_training", "spacemission_cli")


def test_readme_has_examples():
    assert len(BLOCKS) >= 6


@pytest.fixture
def one_torch_thread():
    """The MaskablePPO example's tiny network: one thread is many times faster than
    contending for a loaded machine's cores (minutes otherwise)."""
    torch = pytest.importorskip("torch")
    before = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(before)


@pytest.mark.parametrize("index", range(len(BLOCKS)))
def test_readme_example_runs(index, capsys, one_torch_thread):
    exec(compile(BLOCKS[index], f"README.md python block {index}", "exec"), {"__name__": "readme_example"})


def test_wheel_installs_only_prefixed_top_level_modules(tmp_path):
    """No generic top-level ``agents`` / ``training`` / ``cli`` in site-packages (they
    collide with other distributions): the wheel holds exactly the prefixed packages."""
    pytest.importorskip("setuptools")
    result = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q",
                             "-w", str(tmp_path), str(ROOT)], capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    (wheel,) = tmp_path.glob("spacemission_env-*.whl")
    with zipfile.ZipFile(wheel) as z:
        top = {name.split("/")[0] for name in z.namelist()}
    packages = {t for t in top if not t.endswith(".dist-info")}
    assert packages == set(IMPORT_NAMES)
    assert not packages & {"agents", "training", "cli"}


def test_readme_documents_the_import_names():
    text = README.read_text()
    for name in IMPORT_NAMES:
        assert f"`{name}`" in text
