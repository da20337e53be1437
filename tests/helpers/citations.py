"""Rule ids cited in a game package's source (the guide: cite the id in the code that
implements a rule and in the test that checks it)."""
import functools
import re
from pathlib import Path


@functools.cache  # read once for all the parametrized tests
def cited_ids(package: Path, rule_id: str) -> set[str]:
    """Every id matching the regex ``rule_id`` written in a .py file under ``package``, as a
    whole word: ``R-A4b`` cites R-A4b, not R-A4; ``M-O3(a)`` cites M-O3."""
    pattern = re.compile(rf"(?<![\w-])({rule_id})(?!\w)")
    return {m for path in package.rglob("*.py") for m in pattern.findall(path.read_text(encoding="utf-8"))}
