"""docs/red_planet/rules.md lists every rule id of RED_PLANET.md (when the spec lies beside
the checkout) once, in the spec's order, names only code that exists, and every id is named
by a test function of tests/env/red_planet (``test_M_O7_...`` names M-O7) and cited in the
game's source (spacemission_env/red_planet)."""
import importlib
import re
from pathlib import Path

import pytest

from tests.helpers.citations import cited_ids
from tests.helpers.paths import ROOT, SPEC

DOC = ROOT / "docs" / "red_planet" / "rules.md"
SPEC_FILE = SPEC / "RED_PLANET.md"
HERE = Path(__file__).resolve().parent
RULE_ID = r"M-[A-Z]\d+"
MODULES = {"components": "components", "actions": "actions", "game": "rules.game", "scoring": "rules.scoring",
           "state": "rules.state", "state_json": "rules.state_json"}


def doc_ids(text: str) -> list[str]:
    return re.findall(rf"^### ({RULE_ID})\b", text, re.MULTILINE)


def spec_ids(text: str) -> list[str]:
    """Ids the spec defines: at the start of a heading or list item, in order, once each."""
    found = re.findall(rf"^(?:#+ |- )(?:\*\*)?({RULE_ID})\b", text, re.MULTILINE)
    return list(dict.fromkeys(found))


DOC_IDS = doc_ids(DOC.read_text(encoding="utf-8"))


def test_doc_defines_each_id_once():
    assert len(DOC_IDS) == len(set(DOC_IDS)) == 68


def test_doc_lists_every_id_of_the_spec_in_its_order():
    if not SPEC_FILE.exists():
        pytest.skip(f"the rule spec {SPEC_FILE} is not beside this checkout (the doc's own ids are checked)")
    ids = spec_ids(SPEC_FILE.read_text(encoding="utf-8"))
    assert DOC_IDS == ids


def test_doc_names_only_code_that_exists():
    names = re.findall(r"`((?:" + "|".join(MODULES) + r")\.[\w.]+)`", DOC.read_text(encoding="utf-8"))
    assert len(names) > 60
    for name in names:
        module, *attrs = name.split(".")
        obj = importlib.import_module(f"spacemission_env.red_planet.{MODULES[module]}")
        for attr in attrs:
            assert hasattr(obj, attr), f"docs/red_planet/rules.md names {name}, which does not exist"
            obj = getattr(obj, attr)


def named_ids() -> set[str]:
    text = "\n".join(p.read_text(encoding="utf-8") for p in HERE.glob("test_*.py"))
    names = re.findall(r"^def (test_\w+)", text, re.MULTILINE)
    return {m.replace("_", "-") for n in names for m in re.findall(r"M_[A-Z]\d+(?=_|$)", n)}


@pytest.mark.parametrize("rule", DOC_IDS)
def test_rule_id_is_named_by_a_test(rule):
    assert rule in named_ids()


@pytest.mark.parametrize("rule", DOC_IDS)
def test_rule_id_is_cited_in_the_source(rule):
    assert rule in cited_ids(ROOT / "spacemission_env" / "red_planet", RULE_ID), (
        f"{rule} is cited in no .py file of spacemission_env/red_planet")


def test_the_checks_would_notice_a_missing_id():
    spec = "### M-C1 Inventory\n- M-S1 Seats ... (M-C2)\n- **M-S2** x\n"
    assert spec_ids(spec) == ["M-C1", "M-S1", "M-S2"]
    assert doc_ids("### M-C1 Inventory\n#### M-S1\n") == ["M-C1"]
