"""Run tests/env, tests/agents and tests/cli against the oldest releases pyproject.toml allows.

    python tools/test_mindeps.py                  # virtualenv build/venv-mindeps, then pytest
    python tools/test_mindeps.py -- -x -k render  # what follows -- goes to pytest
    python tools/test_mindeps.py --list           # print the pins only

Every lower bound ``name>=X.Y`` of the core and of the extras render, agents, cli, web and sb3
becomes the pin ``name==X.Y.*`` (the oldest minor release, its newest patch), installed into a
virtualenv of its own (default ``build/venv-mindeps``, numba's cache beside it) with the tree
itself (editable); then ``tests/env tests/agents tests/cli`` run there (about 8 minutes on 2
cores, most of it numba compiling). torch is not tested at its bound: SB3 needs it, and the
CPU build that ``make install`` uses (``TORCH``, default ``torch==2.13.0``) is installed first.
docs/dependencies.md lists the bounds and what passed; tests/test_min_versions.py keeps that
list and pyproject.toml in step.
"""
from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
from pathlib import Path

try:
    import tomllib  # novermin (guarded)
except ImportError:  # Python 3.10: pip's and pytest's own dependency
    import tomli as tomllib

ROOT = Path(__file__).resolve().parent.parent
EXTRAS = ("render", "agents", "cli", "web", "sb3")
TESTS = ("tests/env", "tests/agents", "tests/cli")
# the test tools, at the oldest release the dev extra allows; Starlette's TestClient takes
# httpx2 from Starlette 1.2 on, httpx before (the web extra allows 1.0)
TOOLS = ("pytest==7.*", "httpx2", "httpx")
_BOUND = re.compile(r"^([A-Za-z0-9_.\-]+)(\[[^\]]*\])?\s*>=\s*([0-9]+(?:\.[0-9]+)*)\s*(?:,.*)?$")


def lower_bounds(extras=EXTRAS) -> dict[str, str]:
    """{package: lower bound} of the core and ``extras`` as pyproject.toml writes them
    (``{"numpy": "1.24", ...}``); references to the project itself are skipped."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    reqs = list(project["dependencies"])
    for extra in extras:
        reqs += project["optional-dependencies"][extra]
    bounds = {}
    for req in reqs:
        m = _BOUND.match(req.strip())
        if m and m.group(1) != project["name"]:
            bounds[m.group(1)] = m.group(3)
    return bounds


def pins(extras=EXTRAS) -> list[str]:
    """``name==X.Y.*`` for each lower bound ``name>=X.Y`` (``name==9.*`` for ``>=9``)."""
    return [f"{name}=={bound}.*" for name, bound in lower_bounds(extras).items()]


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--venv", default=str(ROOT / "build" / "venv-mindeps"))
    parser.add_argument("--python", default=sys.executable, help="the Python that makes the virtualenv")
    parser.add_argument("--list", action="store_true", help="print the pins and stop")
    argv = list(sys.argv[1:] if argv is None else argv)
    cut = argv.index("--") if "--" in argv else len(argv)
    args, pytest_args = parser.parse_args(argv[:cut]), argv[cut + 1:]
    if args.list:
        print("\n".join(pins()))
        return 0
    venv = Path(args.venv)
    py = venv / "bin" / "python"
    run = lambda *cmd, **kw: subprocess.run([str(c) for c in cmd], check=True, **kw)  # noqa: E731
    if not py.exists():
        run(args.python, "-m", "venv", venv)
    run(py, "-m", "pip", "install", "-q", "--upgrade", "pip")
    # torch first (pinned), so that stable-baselines3 does not pull a CUDA build
    run(py, "-m", "pip", "install", "-q", os.environ.get("TORCH", "torch==2.13.0"))
    run(py, "-m", "pip", "install", "-q", "-e", f".[{','.join(EXTRAS)}]", *pins(), *TOOLS, cwd=ROOT)
    names = [p.split("==")[0] for p in pins()]
    listing = subprocess.run([py, "-m", "pip", "list", "--format=freeze"], capture_output=True, text=True,
                             check=True).stdout.splitlines()
    print("installed:", " ".join(line for line in listing
                                 if line.split("==")[0].lower().replace("_", "-") in
                                 {n.lower().replace("_", "-") for n in names}), flush=True)
    env = dict(os.environ, NUMBA_CACHE_DIR=str(venv / "numba-cache"))
    return subprocess.run([py, "-m", "pytest", "-q", "-p", "no:cacheprovider", *TESTS, *pytest_args],
                          cwd=ROOT, env=env).returncode


if __name__ == "__main__":
    sys.exit(main())
