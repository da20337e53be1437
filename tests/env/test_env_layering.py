"""One home for what the interfaces share (env_base.py, env_common.py, policies.py): no
interface module imports another, the shared modules sit below them, and the env package
imports nothing from the agents / training / CLI packages."""
import ast
from pathlib import Path

import pytest
from tests.helpers.paths import ROOT

PACKAGE = ROOT / "spacemission_env"
INTERFACES = ("pettingzoo_env", "vector", "gym_env", "sb3")
ABOVE = ("spacemission_agents", "spacemission_training", "spacemission_cli", "agents", "training", "cli")


def imported_modules(path: Path) -> set[str]:
    """Absolute names of the modules a file of spacemission_env imports (anywhere in it)."""
    package = ["spacemission_env", *path.relative_to(PACKAGE).parent.parts]  # the file's package
    names = set()
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.Import):
            names.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:  # relative: level 1 = the file's package, 2 = its parent, ...
                base = ".".join(package[: len(package) - node.level + 1])
                mod = f"{base}.{node.module}" if node.module else base
                names.add(mod)
                names.update(f"{mod}.{a.name}" for a in node.names)  # from . import gym_env
            else:
                names.add(node.module)
                names.update(f"{node.module}.{a.name}" for a in node.names)
    return names


@pytest.mark.parametrize("module", INTERFACES)
def test_no_interface_imports_another(module):
    imports = imported_modules(PACKAGE / f"{module}.py")
    others = {f"spacemission_env.{m}" for m in INTERFACES if m != module}
    assert not imports & others, f"{module}.py imports {sorted(imports & others)}; move shared code to env_common.py"


SHARED = ("env_base", "env_common", "policies", "rewards", "game_description", "games")
GAME_PACKAGES = ("spacemission_env.space_mission", "spacemission_env.red_planet")


@pytest.mark.parametrize("module", INTERFACES)
def test_interfaces_reach_games_only_through_the_protocol(module):
    """The interfaces are written once over games.Game: none imports a game's package, so
    a third game needs no change to them."""
    imports = imported_modules(PACKAGE / f"{module}.py")
    direct = sorted(n for n in imports if n.startswith(GAME_PACKAGES))
    assert not direct, f"{module}.py imports {direct}; reach the game through games.get_game"


@pytest.mark.parametrize("module", SHARED)
def test_shared_code_sits_below_every_interface(module):
    imports = imported_modules(PACKAGE / f"{module}.py")
    assert not imports & {f"spacemission_env.{m}" for m in INTERFACES}, f"{module}.py imports an interface"


@pytest.mark.parametrize("module", INTERFACES)
def test_every_interface_derives_from_the_shared_base(module):
    assert "spacemission_env.env_base.EnvBase" in imported_modules(PACKAGE / f"{module}.py")


def test_the_game_description_imports_no_game():
    """game_description.py is the game-agnostic dataclass: it imports nothing of the package
    but checks.py (its messages cut the values they name; its wrong-type error), which imports nothing of it either."""
    ours = {n for n in imported_modules(PACKAGE / "game_description.py") if n.startswith("spacemission_env")}
    assert ours and all(n == "spacemission_env.checks" or n.startswith("spacemission_env.checks.") for n in ours), ours
    assert not {n for n in imported_modules(PACKAGE / "checks.py") if n.startswith("spacemission_env")}


def test_the_parser_sees_relative_imports():
    # guard against a parser that would find nothing and pass everything
    assert "spacemission_env.env_common" in imported_modules(PACKAGE / "gym_env.py")
    assert "spacemission_env.games.get_game" in imported_modules(PACKAGE / "gym_env.py")
    assert "spacemission_env.space_mission.config" in imported_modules(
        PACKAGE / "space_mission" / "engine" / "state.py")  # from ..config


def test_env_package_imports_nothing_from_above():
    for path in PACKAGE.rglob("*.py"):
        for name in imported_modules(path):
            assert name.split(".")[0] not in ABOVE, f"{path.relative_to(PACKAGE)} imports {name}"
