"""benchmarks/search_budget.py and netsearch_budget.py both save their duels as duel_*.json:
each refuses the other's file in its --dir by name (it read it to a KeyError traceback)."""
import json

import pytest

from tests.helpers.paths import load_tool

# the keys each script writes (a run of each, cut to what the readers look at)
SEARCH_DUEL = {"kind": "duel", "budget": 0.1, "seed": 9, "games": 2, "deal": [0, 0], "outcome": [1, 0],
               "stats": {"searched": 1, "seconds": 0.1, "rollouts": 5}, "cpu_s": 1.0}
NETSEARCH_DUEL = {"kind": "duel", "opponent": "ppo", "budget": 0.1, "params": {}, "seed": 51, "games": 2,
                  "deal": [0, 0], "outcome": [1, 0], "stats": {"searched": 1, "seconds": 0.1, "simulations": 6},
                  "cpu_s": 1.0}


def _folder(tmp_path, name, run):
    folder = tmp_path / name
    folder.mkdir()
    (folder / "duel_b0.1_s9.json").write_text(json.dumps(run))
    return folder


def test_netsearch_budget_refuses_a_search_budget_run(tmp_path):
    tool = load_tool("netsearch_budget", folder="benchmarks")
    search, mine = _folder(tmp_path, "search", SEARCH_DUEL), _folder(tmp_path, "mine", NETSEARCH_DUEL)
    for argv in (["--dir", str(search), "report"], ["--dir", str(mine), "compare", "--other", str(search)]):
        with pytest.raises(SystemExit, match=r"duel_b0\.1_s9\.json is not a run of netsearch_budget\.py"):
            tool.main(argv)


def test_search_budget_refuses_a_netsearch_budget_run(tmp_path):
    tool = load_tool("search_budget", folder="benchmarks")
    with pytest.raises(SystemExit, match=r"duel_b0\.1_s9\.json is not a run of search_budget\.py"):
        tool.main(["--dir", str(_folder(tmp_path, "netsearch", NETSEARCH_DUEL)), "report"])
