"""Every Python example in README.md runs as written (so the README stays true), and the
README documents the import names (tests/test_packaging.py checks what the wheel installs)."""
import re

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


def test_readme_documents_the_import_names():
    text = README.read_text()
    for name in IMPORT_NAMES:
        assert f"`{name}`" in text
