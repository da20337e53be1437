"""benchmarks/netsearch_budget.py compare: two settings' runs paired on the same deals."""
import json

import numpy as np
import pytest

from tests.helpers.paths import load_tool


@pytest.fixture(scope="module")
def budget():
    return load_tool("netsearch_budget", folder="benchmarks")


def _run(outcome, seed=1, params=None, opponent="ppo", deal=None):
    n = len(outcome)
    return {"opponent": opponent, "budget": 0.1, "params": params or {}, "seed": seed,
            "deal": deal if deal is not None else [i // 2 for i in range(n)], "outcome": list(outcome)}


def test_identical_runs_differ_by_nothing(budget):
    out = budget.paired([_run([1, 0, 0.5, 1])], [_run([1, 0, 0.5, 1], params={"wave": 64})])
    assert len(out) == 1 and out[0]["diff"] == 0 and out[0]["half_width"] == 0
    assert out[0]["params"] == {"wave": 64} and out[0]["base_params"] == {} and out[0]["games"] == 4


def test_difference_and_its_interval_come_from_the_deals(budget):
    base = [_run([0, 0, 1, 1, 0, 1], seed=1), _run([1, 1], seed=2)]
    other = [_run([1, 0, 1, 1, 1, 1], seed=1, params={"wave": 64}), _run([1, 0], seed=2, params={"wave": 64})]
    (r,) = budget.paired(base, other)
    assert r["win"] == pytest.approx(6 / 8) and r["base_win"] == pytest.approx(5 / 8)
    assert r["diff"] == pytest.approx(1 / 8) and r["seeds"] == [1, 2]
    per = np.array([1, 0, 1, -1])  # per deal (seed 1: deals 0, 1, 2; seed 2: deal 0)
    assert r["half_width"] == pytest.approx(1.96 * per.std(ddof=1) * 2 / 8)


def test_unmatched_runs_are_skipped_and_other_deals_refused(budget):
    assert budget.paired([_run([1, 0], seed=1)], [_run([1, 0], seed=3)]) == []
    assert budget.paired([_run([1, 0], opponent="heuristic")], [_run([1, 0])]) == []
    with pytest.raises(SystemExit, match="other deals"):
        budget.paired([_run([1, 0], deal=[0, 0])], [_run([1, 0], deal=[5, 5])])


def test_compare_command_reads_two_folders(budget, tmp_path, capsys):
    a, b = tmp_path / "a", tmp_path / "b"
    a.mkdir(), b.mkdir()
    (a / "duel_ppo_s1.json").write_text(json.dumps(_run([0, 1, 0, 1])))
    (b / "duel_ppo_s1.json").write_text(json.dumps(_run([1, 1, 0, 1], params={"wave": 64})))
    budget.main(["--dir", str(a), "compare", "--other", str(b)])
    assert "+25.0" in capsys.readouterr().out
    with pytest.raises(SystemExit, match="no run"):
        budget.main(["--dir", str(a), "compare", "--other", str(tmp_path)])
