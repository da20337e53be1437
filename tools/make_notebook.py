"""Writes the notebooks (notebooks/quickstart.ipynb: Space Mission; notebooks/red_planet.ipynb:
Mission: Red Planet) from their cells in tools/notebook_cells.py, and with ``--execute`` runs
them (nbclient) and keeps the outputs, so that the committed notebooks show their results where
notebooks are read without a kernel. The cells' sources stay the diff-able part.

Run: .venv/bin/python tools/make_notebook.py --execute [--notebook NAME] ; tests/test_notebook.py
checks that the sources match these cells and executes each notebook with nbclient.
"""
import importlib.util
import json
import time
from pathlib import Path

from spacemission_env.checks import UsageParser  # every command's parser: echoed values cut

# the cells, in tools/notebook_cells.py beside this script (loaded by path: this script is run as
# a script or loaded by path itself, tools/ is not a package)
_spec = importlib.util.spec_from_file_location("notebook_cells", Path(__file__).with_name("notebook_cells.py"))
_cells = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_cells)
NOTEBOOKS = {"quickstart": _cells.QUICKSTART, "red_planet": _cells.RED_PLANET}  # notebooks/NAME.ipynb


def write(name: str, execute: bool) -> Path:
    """notebooks/NAME.ipynb from NOTEBOOKS[name]; ``execute``: run it and keep the outputs."""
    nb = {
        "cells": [
            {"cell_type": kind, "metadata": {}, "source": src.splitlines(keepends=True),
             **({"outputs": [], "execution_count": None} if kind == "code" else {})}
            for kind, src in NOTEBOOKS[name]
        ],
        "metadata": {"kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"},
                     "language_info": {"name": "python"}},
        "nbformat": 4,
        "nbformat_minor": 5,
    }
    for i, cell in enumerate(nb["cells"]):
        cell["id"] = f"cell-{i}"  # nbformat 4.5 cell ids, fixed so the file is stable
    path = Path(__file__).resolve().parent.parent / "notebooks" / f"{name}.ipynb"
    path.write_text(json.dumps(nb, indent=1) + "\n")
    if execute:
        import nbclient
        import nbformat

        executed = nbformat.read(path, as_version=4)
        nbclient.NotebookClient(executed, timeout=300, kernel_name="python3",
                                resources={"metadata": {"path": str(path.parent.parent)}}).execute()
        for cell in executed.cells:
            cell.metadata.pop("execution", None)  # timestamps: they would change on every run
        nbformat.write(executed, path)
    return path


def main() -> None:
    ap = UsageParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--execute", action="store_true", help="run the notebooks and keep their outputs")
    ap.add_argument("--notebook", choices=sorted(NOTEBOOKS), help="write only this one (default: all)")
    args = ap.parse_args()
    for name in [args.notebook] if args.notebook else NOTEBOOKS:
        start = time.perf_counter()
        path = write(name, args.execute)
        print("wrote", path, f"(executed in {time.perf_counter() - start:.1f} s)" if args.execute else "(no outputs)")


if __name__ == "__main__":
    main()
