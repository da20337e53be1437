"""The notebooks (notebooks/quickstart.ipynb: Space Mission; notebooks/red_planet.ipynb: Mission:
Red Planet) are what tools/make_notebook.py writes, and run top to bottom in a real kernel
(nbclient) with no cell error, printing what their cells promise."""
import json
import re
import time

import pytest
from tests.helpers.paths import ROOT, load_tool

# what each notebook prints (the patterns are searched in every code cell's printed text)
PRINTS = {
    "quickstart": [
        # every seat's score (the cell printed one number, the last seat's, as "scores")
        r"steps; scores \{'player_0': \d+, 'player_1': \d+, 'player_2': \d+\}",
        r"totals \[\d+, \d+, \d+\] winners \[[\d, ]+\]",
        r"blocks, e.g\.",
    ],
    "red_planet": [
        r"observation \(957,\) int8, actions Discrete\(243\)",
        r"\d+ steps; scores \{'player_0': \d+, 'player_1': \d+, 'player_2': \d+, 'player_3': \d+\}",
        r"seat \d \(\d+ legal\): ",  # moves by label
        r"\d+ characters of JSON",
        r"Mission: Red Planet, 4 players, round 3/10, .*player_0's view",  # the text board, seat 0's view
        r"totals \[\d+, \d+, \d+, \d+\] winners \[[\d, ]+\]",  # after the save/load round trip's asserts
        r"100 games \(25 deals x 4 seatings x 1 lineup\)|300 games \(25 deals x 4 seatings x 3 lineups\)",
        r"heuristic vs \w+",  # the arena's pairs table
        r"\(957,\) int8 47 blocks, e\.g\. \['phase'",
        r"astronauts on Mars \[zone, relative seat\]: \[\[",
        r"heuristic plays: \S",
    ],
}


@pytest.mark.parametrize("name", sorted(PRINTS))
def test_notebook_is_generated_by_the_tool(name):
    tool = load_tool("make_notebook")
    assert sorted(tool.NOTEBOOKS) == sorted(PRINTS)
    nb = json.loads((ROOT / "notebooks" / f"{name}.ipynb").read_text())
    assert ["".join(c["source"]) for c in nb["cells"]] == [src for _, src in tool.NOTEBOOKS[name]], \
        f"run tools/make_notebook.py --notebook {name} after editing its cells"


@pytest.mark.integration
@pytest.mark.parametrize("name", sorted(PRINTS))
def test_notebook_executes(name):
    nbformat = pytest.importorskip("nbformat")
    nbclient = pytest.importorskip("nbclient")
    path = ROOT / "notebooks" / f"{name}.ipynb"
    nb = nbformat.read(path, as_version=4)
    start = time.perf_counter()
    # a failing cell raises CellExecutionError naming the cell and the exception
    nbclient.NotebookClient(nb, timeout=240, kernel_name="python3", resources={"metadata": {"path": str(ROOT)}}).execute()
    elapsed = time.perf_counter() - start
    text = "".join(_printed(c) for c in nb.cells if c.cell_type == "code")
    for pattern in PRINTS[name]:
        assert re.search(pattern, text), f"{name}: nothing matches {pattern!r} in:\n{text[:2000]}"
    images = [o for c in nb.cells if c.cell_type == "code" for o in c.outputs if "image/png" in o.get("data", {})]
    assert len(images) == 2, "the board picture and the arena plot"
    # the committed outputs (shown where notebooks are read without a kernel, tools/make_notebook.py
    # --execute) are what the cells print now: the arena table's confidence intervals had changed
    # since the notebook was last executed, and the committed table showed the old ones
    stored = nbformat.read(path, as_version=4)
    for i, (old, new) in enumerate(zip(stored.cells, nb.cells)):
        if old.cell_type != "code":
            continue
        was, now = _printed(old), _printed(new)
        if "ppo" in was and "ppo" not in now:
            continue  # the shipped PPO agent is not installed here: the cell plays without it
        assert was == now, f"{name}, cell {i}: run tools/make_notebook.py --execute (the committed output is stale)"
    print(f"{name} executed in {elapsed:.1f} s")


def _printed(cell) -> str:
    """A code cell's printed text (streams and plain-text displays), without the one-off compile notice."""
    parts = [o.get("text", "") or o.get("data", {}).get("text/plain", "") for o in cell.outputs]
    return "".join(line for line in "".join(parts).splitlines(keepends=True)
                   if not line.startswith("spacemission_env: compiling"))
