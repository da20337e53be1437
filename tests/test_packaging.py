"""What a user installs: each import package in a folder of its own name, nothing generic
(``agents``, ``training``, ``cli``) importable, a wheel of exactly the checkout's package files,
a light core whose README examples run in a fresh virtualenv without any extra, and a missing
extra named by the error."""
import importlib.util
import os
import re
import shutil
import subprocess
import sys
import sysconfig
import tarfile
import venv
import zipfile
from pathlib import Path

import pytest

from tests.helpers.paths import ROOT

IMPORT_NAMES = ("spacemission_env", "spacemission_agents", "spacemission_training", "spacemission_cli")
FOLDERS = {"spacemission_env": "spacemission_env", "spacemission_agents": "agents/spacemission_agents",
           "spacemission_training": "training/spacemission_training", "spacemission_cli": "spacemission_cli"}
CORE = {"numpy", "gymnasium", "pettingzoo", "numba"}
README_BLOCKS = re.findall(r"```python\n(.*?)```", (ROOT / "README.md").read_text(), flags=re.S)


def outside_env() -> dict:
    """This process's environment without PYTHONPATH: a script run outside the checkout (or a
    fresh virtualenv's python) sees what is installed, not the checkout a developer's
    PYTHONPATH names (with the repository root on it, `import agents` works)."""
    return {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}


def run(code: str, cwd, python=sys.executable, timeout=300) -> subprocess.CompletedProcess:
    return subprocess.run([str(python), "-c", code], cwd=cwd, capture_output=True, text=True, timeout=timeout,
                          env=outside_env())


@pytest.mark.parametrize("name", ["agents", "training", "cli"])
def test_generic_names_are_not_importable(name, tmp_path):
    """Outside the repository (as a user's script runs) the folder names import nothing."""
    out = run(f"import {name}", cwd=tmp_path)
    assert out.returncode != 0 and f"No module named '{name}'" in out.stderr


def test_each_import_name_is_the_folder_of_its_name(tmp_path):
    code = "; ".join(f"import {n}" for n in IMPORT_NAMES) + "; print(" + ", ".join(f"{n}.__file__" for n in IMPORT_NAMES) + ")"
    out = run(code, cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    for name, path in zip(IMPORT_NAMES, out.stdout.split()):
        assert path == str(ROOT / FOLDERS[name] / "__init__.py")


# file -> the one sys.path edit it may make, and why (not to find the project's own packages)
SYS_PATH_EDITS = {
    "spacemission_cli/main.py": ("sys.path.append(cwd)", "the user's agent modules (--agents mybots:MyBot) import "
                                 "from the current directory, as under python -m"),
}


def test_no_source_edits_sys_path():
    edit = re.compile(r"sys\.path\.(insert|append)\([^)]*\)")
    offenders = []
    for folder in ("spacemission_env", "agents", "training", "spacemission_cli", "benchmarks", "tools", "tests"):
        for p in (ROOT / folder).rglob("*.py"):
            name = str(p.relative_to(ROOT))
            if p.name == "test_packaging.py":
                continue
            edits = edit.findall(p.read_text()) and [m.group(0) for m in edit.finditer(p.read_text())]
            if edits and edits != [SYS_PATH_EDITS.get(name, ("",))[0]]:
                offenders.append((name, edits))
    assert not offenders


def checkout_files() -> list[str]:
    """The checkout's files as git sees them (tracked, and new ones not ignored): what a fresh
    clone holds, never the build/ or *.egg-info an earlier build left."""
    out = subprocess.run(["git", "-C", str(ROOT), "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
                         capture_output=True, text=True)
    if out.returncode != 0:
        pytest.skip(f"not a git checkout: {out.stderr.strip()}")
    return [f for f in out.stdout.split("\0") if f and (ROOT / f).is_file()]


def build_wheel(source: Path, out_dir: Path) -> Path:
    pytest.importorskip("setuptools")
    result = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q",
                             "-w", str(out_dir), str(source)], capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    (path,) = out_dir.glob("spacemission_env-*.whl")
    return path


def clean_copy(dest: Path) -> Path:
    """The checkout's files copied to ``dest``. A wheel is built from such a copy: setuptools packs
    whatever an earlier build left in build/lib (pypa/setuptools#1871), e.g. modules since removed."""
    for f in checkout_files():
        (dest / f).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / f, dest / f)
    return dest


@pytest.fixture(scope="module")
def wheel(tmp_path_factory):
    return build_wheel(clean_copy(tmp_path_factory.mktemp("source")), tmp_path_factory.mktemp("wheel"))


def build_sdist(source: Path, out_dir: Path) -> Path:
    """The sdist of ``source`` through the PEP 517 hook that ``python -m build --sdist`` calls."""
    pytest.importorskip("setuptools")
    out_dir.mkdir(parents=True, exist_ok=True)
    result = subprocess.run([sys.executable, "-c", "import sys; from setuptools import build_meta; "
                             "print(build_meta.build_sdist(sys.argv[1]))", str(out_dir)],
                            cwd=source, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr[-3000:]
    (path,) = out_dir.glob("spacemission_env-*.tar.gz")
    return path


def wheel_files(path: Path) -> set[str]:
    with zipfile.ZipFile(path) as z:
        return {n for n in z.namelist() if not n.split("/")[0].endswith(".dist-info")}


def sdist_files(path: Path) -> set[str]:
    """The sdist's files, less its top folder and what setuptools writes into every sdist
    (PKG-INFO, setup.cfg, the *.egg-info folder)."""
    with tarfile.open(path) as t:
        names = {m.name.split("/", 1)[1] for m in t.getmembers() if m.isfile()}
    return {n for n in names if n not in ("PKG-INFO", "setup.cfg") and not n.split("/")[0].endswith(".egg-info")}


@pytest.fixture(scope="module")
def sdist(tmp_path_factory):
    return build_sdist(clean_copy(tmp_path_factory.mktemp("sdist-source")), tmp_path_factory.mktemp("sdist"))


@pytest.mark.integration
def test_the_sdist_holds_the_checkout(sdist):
    """The sdist is the checkout less its dot-files (.gitignore, .ci/): besides the packages,
    every test with tests/helpers and conftest.py, and the docs, notebook, tools, benchmarks and
    Makefile the tests read, so that the tests run from it. Before: the packages and the top
    tests/test_*.py only (setuptools' default), which import tests.helpers and failed."""
    expected = {f for f in checkout_files() if not f.startswith(".")}
    packed = sdist_files(sdist)
    assert packed == expected, (sorted(packed - expected), sorted(expected - packed))


@pytest.mark.integration
def test_the_sdist_leaves_out_what_runs_write(tmp_path):
    """Files a checkout gathers as it is used (bytecode and numba's cache in __pycache__, run
    folders, notebook checkpoints) stay out of the sdist even where they sit in a folder it takes."""
    source = clean_copy(tmp_path / "source")
    planted = ["tests/__pycache__/conftest.cpython-311.pyc", "tests/env/__pycache__/x.nbi", "tests/env/x.nbc",
               "runs/ppo/final.npz", "results/table.csv", "tests/runs/x.txt", "notebooks/.ipynb_checkpoints/q.ipynb",
               "spacemission_env/__pycache__/rng.cpython-311.pyc"]
    for name in planted:
        (source / name).parent.mkdir(parents=True, exist_ok=True)
        (source / name).write_text("left by a run")
    packed = sdist_files(build_sdist(source, tmp_path / "sdist"))
    assert not packed & set(planted), sorted(packed & set(planted))


@pytest.mark.integration
def test_the_tests_run_from_the_sdist(sdist, tmp_path):
    """An unpacked sdist runs its tests (they import tests.helpers, and read the docs)."""
    with tarfile.open(sdist) as t:
        t.extractall(tmp_path, filter="data")
    (root,) = tmp_path.glob("spacemission_env-*")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(str(root / p) for p in ("agents", "training", "."))}
    tests = ["tests/test_packaging.py::test_no_source_edits_sys_path", "tests/test_min_versions.py",
             "tests/test_readme.py::test_readme_has_examples", "tests/test_readme.py::test_readme_documents_the_import_names"]
    ran = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *tests], cwd=root,
                         env=env, capture_output=True, text=True, timeout=300)
    assert ran.returncode == 0, ran.stdout[-3000:] + ran.stderr[-3000:]
    assert " passed" in ran.stdout and " error" not in ran.stdout, ran.stdout[-3000:]


@pytest.mark.integration
def test_a_wheel_built_from_the_sdist_is_the_checkouts(sdist, wheel, tmp_path):
    """``python -m build`` builds the wheel from the sdist: the same files as from the checkout."""
    with tarfile.open(sdist) as t:
        t.extractall(tmp_path, filter="data")
    (root,) = tmp_path.glob("spacemission_env-*")
    assert wheel_files(build_wheel(root, tmp_path / "wheel")) == wheel_files(wheel)


@pytest.mark.integration
def test_a_stale_build_folder_does_not_leak_into_the_wheel(tmp_path):
    """setuptools packs all of build/lib, which it reuses from an earlier build in the same checkout
    (pypa/setuptools#1871): a module deleted since went into the wheel (spacemission_env/ghost.py
    and a whole spacemission_gone package here, before). setup.py empties build/lib first."""
    source = clean_copy(tmp_path / "source")
    stale = ["build/lib/spacemission_env/ghost.py", "build/lib/spacemission_gone/__init__.py",
             "build/lib/spacemission_agents/data/ppo_9p.npz"]
    for name in stale:
        (source / name).parent.mkdir(parents=True, exist_ok=True)
        (source / name).write_text("# deleted from the sources after an earlier build\n")
    packed = wheel_files(build_wheel(source, tmp_path / "wheel"))
    assert not {n for n in packed if "ghost" in n or "gone" in n or "ppo_9p" in n}
    assert "spacemission_env/__init__.py" in packed


def installed_name(checkout_path: str) -> str | None:
    """Where a checkout file lands in site-packages (None: outside the packages)."""
    for name, folder in FOLDERS.items():
        if checkout_path.startswith(folder + "/"):
            return name + checkout_path[len(folder):]
    return None


@pytest.mark.integration
def test_the_wheel_holds_the_package_files_of_the_checkout_and_nothing_else(wheel):
    """Every module and data file the code reads at run time (each game's data/*.json, the
    shipped models, the web page's static/ files) is in the wheel, and no file that is not in the
    checkout (a module left in build/lib by an earlier build) is."""
    with zipfile.ZipFile(wheel) as z:
        packed = {n for n in z.namelist() if not n.split("/")[0].endswith(".dist-info")}
    expected = {installed_name(f) for f in checkout_files()} - {None}
    assert packed == expected, (sorted(packed - expected), sorted(expected - packed))


@pytest.mark.integration
def test_the_wheel_marks_the_checked_packages_typed(wheel):
    """PEP 561: py.typed in the wheel tells a user's type checker (mypy, pyright) to read a
    package's annotations; without it every name from the package is Any. The two packages
    tests/test_typing.py checks have it."""
    assert {"spacemission_env/py.typed", "spacemission_agents/py.typed"} <= wheel_files(wheel)


def wheel_metadata(path: Path) -> str:
    with zipfile.ZipFile(path) as z:
        return next(z.read(n).decode() for n in z.namelist() if n.endswith(".dist-info/METADATA"))


@pytest.mark.integration
def test_the_wheel_carries_the_licence_text(wheel):
    """pyproject says MIT, whose terms ask that the notice go with every copy: the wheel holds
    the checkout's LICENSE (setuptools takes LICENSE* by default)."""
    with zipfile.ZipFile(wheel) as z:
        texts = [z.read(n).decode() for n in z.namelist() if n.split("/")[-1] == "LICENSE" and ".dist-info/" in n]
    assert texts == [(ROOT / "LICENSE").read_text()] and "MIT License" in texts[0]


@pytest.mark.integration
def test_the_summary_names_every_game(wheel):
    """What ``pip show`` says of the distribution: not one game's environment."""
    from spacemission_env.games import GAMES, get_game

    summary = next(line for line in wheel_metadata(wheel).splitlines() if line.startswith("Summary: "))
    assert all(get_game(name).description.title in summary for name in GAMES), summary


@pytest.mark.integration
def test_the_version_is_spacemission_env_version(tmp_path):
    """One version: the package's ``__version__`` (``spacemission --version``, saved models) is
    the distribution's (``pip show``, importlib.metadata)."""
    import spacemission_env

    source = clean_copy(tmp_path / "source")
    init = source / "spacemission_env" / "__init__.py"
    old = f'__version__ = "{spacemission_env.__version__}"'
    assert init.read_text().count(old) == 1
    init.write_text(init.read_text().replace(old, '__version__ = "9.8.7"'))
    assert "\nVersion: 9.8.7\n" in wheel_metadata(build_wheel(source, tmp_path / "wheel"))


@pytest.mark.integration
def test_wheel_installs_only_prefixed_top_level_modules(wheel):
    """No generic top-level ``agents`` / ``training`` / ``cli`` in site-packages (they
    collide with other distributions): the wheel holds exactly the prefixed packages."""
    with zipfile.ZipFile(wheel) as z:
        top = {name.split("/")[0] for name in z.namelist()}
    metadata = wheel_metadata(wheel)
    assert {t for t in top if not t.endswith(".dist-info")} == set(IMPORT_NAMES)
    core = {re.split(r"[<>=!~\[; ]", line.split(":", 1)[1].strip())[0].lower()
            for line in metadata.splitlines() if line.startswith("Requires-Dist:") and "extra ==" not in line}
    assert core == CORE


INSTALLED_CHECK = """
import sys
from importlib import resources
from pathlib import Path

site = Path(sys.argv[1]).resolve()
import spacemission_env, spacemission_agents, spacemission_training, spacemission_cli
for module in (spacemission_env, spacemission_agents, spacemission_training, spacemission_cli):
    assert site in Path(module.__file__).resolve().parents, module.__file__
from spacemission_agents.ppo import PPOAgent, shipped_data_path
from spacemission_agents.registry import make_agent
for n in (2, 3, 4, 5):
    assert make_agent(f"ppo:num_players={n}")._shipped_players == n
    assert site in PPOAgent.shipped_path(n).resolve().parents
assert make_agent("ppo", game="red_planet").game == "red_planet"
assert site in PPOAgent.shipped_path(4, "red_planet").resolve().parents
assert site in shipped_data_path("value_2p.npz", "value").resolve().parents
static = resources.files("spacemission_cli.web") / "static"
print(sorted(p.name for p in static.iterdir()))
try:
    import httpx2  # noqa: F401 (Starlette's test client)
except ImportError:
    sys.exit(0)
from starlette.testclient import TestClient
from spacemission_cli.web.app import create_app
client = TestClient(create_app(["random"]))
for url in ("/", "/play/red_planet", "/static/app.js", "/static/style.css"):
    response = client.get(url)
    assert response.status_code == 200 and response.content, (url, response.status_code)
print("served")
"""


@pytest.mark.integration
def test_the_installed_wheel_runs_the_cli_models_and_page(wheel, tmp_path):
    """The wheel installed in a fresh virtualenv (its dependencies from the running interpreter's
    site-packages, added by a .pth file, so no download; the checkout neither on the path nor the
    current folder): ``spacemission --help`` and ``spacemission serve --help`` run, each shipped
    PPO model (2 to 5 players, Red Planet's) and the value model load from the installed package
    data, and the page and its static files are served."""
    env_dir = tmp_path / "venv"
    venv.EnvBuilder(with_pip=False).create(env_dir)
    python = env_dir / "bin" / "python"
    site = Path(run("import sysconfig; print(sysconfig.get_paths()['purelib'])", cwd=tmp_path, python=python).stdout.strip())
    (site / "running_interpreter_deps.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    env = outside_env()
    pip = subprocess.run([sys.executable, "-m", "pip", "--python", str(python), "install", "-q", "--no-deps",
                          "--no-index", "--disable-pip-version-check", str(wheel)],
                         capture_output=True, text=True, timeout=300, env=env)
    assert pip.returncode == 0, pip.stderr
    for args in (["--help"], ["serve", "--help"]):
        out = subprocess.run([str(env_dir / "bin" / "spacemission"), *args], cwd=tmp_path, env=env,
                             capture_output=True, text=True, timeout=300)
        assert out.returncode == 0 and out.stdout.startswith("usage: spacemission"), out.stderr[-3000:]
    out = subprocess.run([str(python), "-c", INSTALLED_CHECK, str(site)], cwd=tmp_path, env=env,
                         capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr[-3000:]
    static = sorted(Path(f).name for f in checkout_files() if f.startswith("spacemission_cli/web/static/"))
    assert out.stdout.splitlines()[0] == str(static)
    if importlib.util.find_spec("httpx2") is not None:  # the dev extra: the page was fetched
        assert out.stdout.splitlines()[-1] == "served", out.stdout


def env_examples() -> list[str]:
    """The README's examples that need only the core (no agents, training, SB3 or CLI)."""
    heavy = ("spacemission_agents", "spacemission_training", "spacemission_cli", "sb3", "torch")
    return [b for b in README_BLOCKS if not any(h in b for h in heavy)]


def test_the_readme_has_core_only_examples():
    assert len(env_examples()) >= 4  # rules engine, AEC, vector env, Gymnasium, fast engine


@pytest.mark.integration
def test_core_install_runs_the_readme_env_examples(wheel, tmp_path):
    """A fresh virtualenv with the wheel and its core dependencies only (from the package
    index, as a user installs it): the README's env examples run, no extra is present, and
    using an extra's feature says which extra to install."""
    env_dir = tmp_path / "venv"
    # pip of the running interpreter installs into the virtualenv (--python): the same install
    # from the package index, without the seconds of ensurepip putting a pip of its own there
    venv.EnvBuilder(with_pip=False).create(env_dir)
    python = env_dir / "bin" / "python"
    pip = subprocess.run([sys.executable, "-m", "pip", "--python", str(python), "install", "-q",
                          "--disable-pip-version-check", str(wheel)],
                         capture_output=True, text=True, timeout=600, env=outside_env())
    assert pip.returncode == 0, pip.stderr
    listed = run("import importlib.metadata as m; print(sorted(d.metadata['Name'].lower() for d in m.distributions()))",
                 cwd=tmp_path, python=python)
    for extra_package in ("pillow", "rich", "matplotlib", "openskill", "torch", "stable-baselines3"):
        assert f"'{extra_package}'" not in listed.stdout
    script = tmp_path / "examples.py"
    script.write_text("\n\n".join(env_examples()))
    ran = subprocess.run([str(python), str(script)], cwd=tmp_path, capture_output=True, text=True, timeout=600,
                         env=outside_env())
    assert ran.returncode == 0, ran.stderr[-3000:]
    missing = run("from spacemission_env.space_mission.rules import new_game\nfrom spacemission_env.space_mission.render import render_rgb\n"
                  "render_rgb(new_game(2, seed=0))", cwd=tmp_path, python=python)
    assert "pip install 'spacemission_env[render]'" in missing.stderr


@pytest.mark.parametrize("code, extra", [
    ("import spacemission_training", "train"),
    ("import spacemission_env.sb3", "sb3"),
    ("import spacemission_cli", "cli"),
    ("from spacemission_env.space_mission.rules import new_game\nfrom spacemission_env.space_mission.render import save_png\n"
     "save_png(new_game(2, seed=0), 'x.png')", "render"),
    ("from spacemission_agents.arena_stats import fit_ratings\nfit_ratings(None, 0)", "agents"),
])
def test_a_missing_extra_is_named(code, extra, tmp_path):
    """With the extra's packages hidden (``sys.modules[name] = None`` makes their import fail)."""
    hide = "import sys\nfor m in ('torch', 'rich', 'PIL', 'openskill', 'matplotlib', 'stable_baselines3'):\n    sys.modules[m] = None\n"
    out = run(hide + code, cwd=tmp_path)
    assert out.returncode != 0 and f"pip install 'spacemission_env[{extra}]'" in out.stderr, out.stderr[-2000:]


def test_what_the_code_reports_is_the_running_version(monkeypatch):
    """``spacemission --version``, a saved model's metadata and a training run's config.json
    report the running package's ``__version__`` (the metadata's, by the test above): before,
    the last two read the distribution's metadata, which a plain checkout lacks ("unknown")
    and an editable install keeps from its install."""
    import spacemission_env
    from spacemission_agents.ppo import package_version
    from spacemission_cli.main import _version

    monkeypatch.setattr(spacemission_env, "__version__", "9.8.7")
    assert _version() == package_version() == "9.8.7"
    pytest.importorskip("torch")
    from spacemission_training.config import versions

    assert versions()["spacemission_env"] == "9.8.7"
