"""Every rule id of the spec is named by at least one test (in its function name) of the
rule-test files, which build explicit positions (tests/positions.py)."""
import re
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
SPEC = HERE.parents[1] / "shared" / "spec" / "RULES.md"  # beside the repository, when present

RULE_IDS = (
    [f"R-C{i}" for i in range(1, 5)] + [f"R-S{i}" for i in range(1, 6)] + ["R-T1", "R-T2"]
    + ["R-A1", "R-A1a", "R-A2", "R-A3", "R-A4", "R-A4a", "R-A4b", "R-A4c", "R-A5", "R-A6", "R-V1"]
    + [f"R-I{i}" for i in range(1, 5)] + [f"R-E{i}" for i in range(1, 4)] + [f"R-P{i}" for i in range(1, 9)]
)
RULE_TEST_FILES = ["test_rules_setup.py", "test_rules_actions.py", "test_rules_end.py", "test_scoring.py"]


def named_ids() -> set[str]:
    """Rule ids named in test function names (``test_R_A4b_...`` names R-A4b)."""
    text = "\n".join((HERE / f).read_text() for f in RULE_TEST_FILES)
    names = re.findall(r"^def (test_\w+)", text, re.M)
    return {m.replace("_", "-") for n in names for m in re.findall(r"R_[A-Z]\d[a-c]?(?=_|$)", n)}


@pytest.mark.parametrize("rule", RULE_IDS)
def test_rule_id_is_named_by_a_test(rule):
    assert rule in named_ids()


@pytest.mark.skipif(not SPEC.exists(), reason="RULES.md is not beside this checkout")
def test_rule_id_list_matches_the_spec():
    ids = re.findall(r"^[-#\s]*(R-[A-Z]\d[a-c]?)\b", SPEC.read_text(), re.M)
    assert sorted(set(ids)) == sorted(RULE_IDS)
