"""What CI runs: ``.ci/run`` runs ``make test`` (the default suite) and then every opt-in set
but the slow one, so that a test moved out of the default suite for its time (the
integration set: installs, type checks, notebooks, training subprocesses) still gates a
submission. Checked from the files themselves: pyproject's ``addopts``, the Makefile's
recipes and ``.ci/run``'s commands."""
import re
import shlex

import pytest

from tests.helpers.paths import ROOT, pyproject


def _default_deselected() -> set[str]:
    """The markers pyproject's ``addopts`` keeps out of a plain ``pytest`` run."""
    addopts = pyproject()["tool"]["pytest"]["ini_options"]["addopts"]
    args = shlex.split(addopts)
    expr = args[args.index("-m") + 1]
    return set(re.findall(r"not (\w+)", expr))


def _recipes() -> dict[str, list[str]]:
    """{Makefile target: its recipe's lines}."""
    out: dict[str, list[str]] = {}
    target = None
    for line in (ROOT / "Makefile").read_text().splitlines():
        if line.startswith("\t") and target:
            out[target].append(line.strip())
        elif m := re.match(r"^([\w-]+):", line):
            target = m.group(1)
            out[target] = []
        else:
            target = None
    return out


def _ci_commands() -> list[str]:
    ci = ROOT / ".ci" / "run"
    if not ci.exists():
        pytest.skip("no .ci/run here (an sdist leaves the dot-folders out)")
    return [line.strip() for line in ci.read_text().splitlines() if line.strip() and not line.lstrip().startswith("#")]


def test_the_default_suite_leaves_out_the_integration_set():
    assert "integration" in _default_deselected()


@pytest.mark.parametrize("marker", sorted(_default_deselected() - {"slow"}))
def test_ci_runs_each_opt_in_set_but_the_slow_one(marker):
    """A Makefile target runs the set (its slow tests left to make test-slow), and .ci/run
    runs that target after make test, while .venv (which a CI run removes) is still there."""
    selecting = [t for t, lines in _recipes().items()
                 if any("pytest" in ln and f"-m '{marker} and not slow'" in ln for ln in lines)]
    assert selecting, f"no Makefile target runs pytest -m '{marker} and not slow'"
    commands = _ci_commands()
    assert "make test" in commands
    runs = [i for i, c in enumerate(commands) if c in {f"make {t}" for t in selecting}]
    assert runs, f".ci/run runs none of {selecting}"
    removes_venv = [i for i, c in enumerate(commands) if "rm -rf .venv" in c]
    assert commands.index("make test") < runs[0] and all(runs[0] < i for i in removes_venv)
