"""notebooks/quickstart.ipynb runs top to bottom in a real kernel (nbclient), with no cell error."""
import json
import time

import pytest
from tests.helpers.paths import ROOT, load_tool

NOTEBOOK = ROOT / "notebooks" / "quickstart.ipynb"


def test_notebook_is_generated_by_the_tool():
    tool = load_tool("make_notebook")
    nb = json.loads(NOTEBOOK.read_text())
    assert ["".join(c["source"]) for c in nb["cells"]] == [src for _, src in tool.CELLS], \
        "run tools/make_notebook.py after editing its cells"


def test_quickstart_notebook_executes():
    nbformat = pytest.importorskip("nbformat")
    nbclient = pytest.importorskip("nbclient")
    nb = nbformat.read(NOTEBOOK, as_version=4)
    start = time.perf_counter()
    # a failing cell raises CellExecutionError naming the cell and the exception
    nbclient.NotebookClient(nb, timeout=240, kernel_name="python3", resources={"metadata": {"path": str(ROOT)}}).execute()
    elapsed = time.perf_counter() - start
    text = "".join(o.get("text", "") for c in nb.cells if c.cell_type == "code" for o in c.outputs)
    assert "steps; scores" in text and "winners" in text and "blocks, e.g." in text
    images = [o for c in nb.cells if c.cell_type == "code" for o in c.outputs if "image/png" in o.get("data", {})]
    assert len(images) == 2, "the board picture and the arena plot"
    print(f"notebook executed in {elapsed:.1f} s")
