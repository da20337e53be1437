"""Every rule id of docs/rules.md (the package's own rules page) is named by at least one
test (in its function name) of the rule-test files, which build explicit positions
(tests/helpers/positions.py), and cited in the game's source (spacemission_env/space_mission);
and, when the project's rule spec lies beside the checkout
(../shared/spec/RULES.md), docs/rules.md lists every id of it."""
import re
from pathlib import Path

import pytest

from tests.helpers.citations import cited_ids
from tests.helpers.paths import ROOT
from tests.helpers.paths import SPEC as SPEC_DIR

HERE = Path(__file__).resolve().parent
RULES_DOC = ROOT / "docs" / "rules.md"
SPEC = SPEC_DIR / "RULES.md"  # beside the repository, as in the workspace and CI
RULE_ID = r"R-[A-Z]\d[a-c]?"
RULE_TEST_FILES = ["test_rules_setup.py", "test_rules_actions.py", "test_rules_end.py", "test_scoring.py"]


def doc_ids(text: str) -> list[str]:
    """Ids of docs/rules.md: one heading per rule (``### R-A4 Scan``, ``#### R-A4b ...``)."""
    return re.findall(rf"^#{{3,4}} ({RULE_ID})\b", text, re.M)


def spec_ids(text: str) -> set[str]:
    """Ids the spec defines: at the start of a heading or list item."""
    return set(re.findall(rf"^[-#\s]*({RULE_ID})\b", text, re.M))


RULE_IDS = doc_ids(RULES_DOC.read_text())


def named_ids() -> set[str]:
    """Rule ids named in test function names (``test_R_A4b_...`` names R-A4b)."""
    text = "\n".join((HERE / f).read_text() for f in RULE_TEST_FILES)
    names = re.findall(r"^def (test_\w+)", text, re.M)
    return {m.replace("_", "-") for n in names for m in re.findall(r"R_[A-Z]\d[a-c]?(?=_|$)", n)}


def test_rules_doc_defines_each_id_once():
    assert len(RULE_IDS) == len(set(RULE_IDS)) >= 38
    for family in ("R-C1", "R-S1", "R-T1", "R-A1", "R-V1", "R-I1", "R-E1", "R-P1"):
        assert family in RULE_IDS


@pytest.mark.parametrize("rule", RULE_IDS)
def test_rule_id_is_named_by_a_test(rule):
    assert rule in named_ids()


@pytest.mark.parametrize("rule", RULE_IDS)
def test_rule_id_is_cited_in_the_source(rule):
    assert rule in cited_ids(ROOT / "spacemission_env" / "space_mission", RULE_ID), (
        f"{rule} is cited in no .py file of spacemission_env/space_mission")


def test_rules_doc_lists_every_id_of_the_spec():
    """Runs where ../shared/spec/RULES.md exists (the project's workspace); a fresh clone
    has only docs/rules.md, and the check above covers it there."""
    if not SPEC.exists():
        pytest.skip(f"the rule spec {SPEC} is not beside this checkout (docs/rules.md is checked above)")
    missing = spec_ids(SPEC.read_text()) - set(RULE_IDS)
    assert not missing, f"rule ids of {SPEC} missing from docs/rules.md: {sorted(missing)}"


def test_spec_id_check_would_notice_a_missing_id():
    spec = "### R-A4 Scan\n- R-A4b A pile ...\n- R-S1 Shuffle\n"
    assert spec_ids(spec) == {"R-A4", "R-A4b", "R-S1"}
    assert spec_ids(spec) - set(doc_ids("### R-A4 Scan\n#### R-A4b Scanning\n")) == {"R-S1"}


def test_citation_check_reads_whole_ids(tmp_path):
    (tmp_path / "m.py").write_text("x = 1  # R-A4b; R-A1..R-A3, not XR-C1 nor R-C2x\n")
    assert cited_ids(tmp_path, RULE_ID) == {"R-A4b", "R-A1", "R-A3"}
