"""The docs' Python examples type-check as a user's code would against the typed packages
(``py.typed``, tests/test_typing.py): each runnable unit of docs/**/*.md (the blocks and
units tests/test_docs_examples.py runs, its "not run" ones left out) and each of README.md's
blocks (tests/test_readme.py's) is written to a file,
and one mypy run with pyproject's ``[tool.mypy]`` checks them all. An example that misuses
the API's types, or an annotation too narrow for a documented use, fails here."""
from __future__ import annotations

import subprocess

import pytest

from tests.test_docs_examples import BLOCKS, examples
from tests.test_readme import BLOCKS as README_BLOCKS
from tests.test_typing import require_mypy, run_mypy_as_user

pytestmark = pytest.mark.integration  # mypy runs (make test-integration; CI runs it)

# errors that are the checker's, not the example's: (doc file, words of the error) -> why
KNOWN = {
    ("interfaces.md", '"Env[Any, Any]" has no attribute "action_masks"'):
        "gymnasium.make can only return Env[Any, Any] (it cannot know which class an id makes); "
        "the attribute exists on the env it makes (GameEnv), as the example runs",
}


def _write_units(folder) -> dict[str, str]:
    """{file name: doc file} of the runnable units written to ``folder``."""
    written = {}
    for k, param in enumerate(examples(BLOCKS)):
        if any(m.name == "skip" for m in param.marks):
            continue
        unit = param.values[0]
        name = f"docs_example_{k}.py"
        (folder / name).write_text("\n".join(b.code for b in unit))
        written[name] = unit[0].file
    for k, code in enumerate(README_BLOCKS):
        (folder / f"readme_example_{k}.py").write_text(code)
        written[f"readme_example_{k}.py"] = "../README.md"
    return written


def _unexplained(out: subprocess.CompletedProcess, written: dict[str, str]) -> list[str]:
    errors = [line for line in out.stdout.splitlines() if ": error:" in line]
    return [e for e in errors
            if not any(written.get(e.split(":", 1)[0]) == doc and words in e for doc, words in KNOWN)]


def test_the_docs_examples_type_check(tmp_path, mypy_cache):
    require_mypy()
    written = _write_units(tmp_path)
    assert len(written) >= 10, written  # the units tests/test_docs_examples.py finds (fewer: a changed finder)
    out = run_mypy_as_user(tmp_path, sorted(written), mypy_cache)
    errors = _unexplained(out, written)
    assert not errors, "\n".join(f"{e}   (docs/{written.get(e.split(':', 1)[0])})" for e in errors)
    assert out.returncode in (0, 1), out.stderr[-3000:]  # 1: the known errors only; 2 would be mypy's own failure


def test_the_check_sees_an_example_that_misuses_the_api(tmp_path, mypy_cache):
    """The check can fail: an example passing a str where the env takes an int is reported."""
    require_mypy()
    (tmp_path / "wrong.py").write_text("from spacemission_env import GameConfig\n"
                                       "GameConfig(num_players='two')\n")
    out = run_mypy_as_user(tmp_path, ["wrong.py"], mypy_cache)
    assert _unexplained(out, {"wrong.py": "none.md"}), out.stdout + out.stderr
