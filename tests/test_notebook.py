"""The quickstart notebook's code cells run top to bottom (no Jupyter needed)."""
import json
from pathlib import Path

NOTEBOOK = Path(__file__).resolve().parent.parent / "notebooks" / "quickstart.ipynb"


def test_quickstart_notebook_runs():
    nb = json.loads(NOTEBOOK.read_text())
    code = [("".join(c["source"])) for c in nb["cells"] if c["cell_type"] == "code"]
    assert code, "the notebook has no code cells"
    namespace: dict = {}
    for i, src in enumerate(code):
        exec(compile(src, f"quickstart.ipynb cell {i}", "exec"), namespace)
    assert namespace["state"].is_over
