"""The Red Planet package stands on its own: nothing of Space Mission's package, only the
game-neutral modules every game shares (the random generator, the action-id check, the
extras, the numba cache policy, the engines' argument checks, the game protocol, the JSON
input parser), and nothing from agents, training or the CLI."""
import ast
from pathlib import Path

import spacemission_env.red_planet as package

ROOT = Path(package.__file__).resolve().parent


def imported_modules(path: Path) -> list[str]:
    """Absolute names a file imports (``from m import x`` gives ``m.x``; relative imports resolved)."""
    parts = list(path.relative_to(ROOT.parent.parent).with_suffix("").parts)
    names = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names += [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = parts[:-node.level] if node.level else []
            module = ".".join(base + ([node.module] if node.module else []))
            names += [f"{module}.{a.name}" for a in node.names]  # the name itself may be a module
    return names


GAME_NEUTRAL = tuple(f"spacemission_env.{m}." for m in (  # shared by every game
    "rng", "checks", "action_ids", "extras", "jit", "compile_notice", "engine_common", "games", "game_description",
    "obs_layout", "json_input"))


def test_red_planet_imports_only_the_game_neutral_modules_of_space_mission():
    files = list(ROOT.rglob("*.py"))
    assert len(files) >= 10
    for path in files:
        for name in imported_modules(path):
            if name.startswith("spacemission_env.") and not name.startswith("spacemission_env.red_planet"):
                assert (name + ".").startswith(GAME_NEUTRAL), f"{path.name} imports {name}"
            assert not name.startswith(("spacemission_agents", "spacemission_training", "spacemission_cli"))


def test_the_import_check_resolves_relative_imports():
    names = imported_modules(ROOT / "rules" / "game.py")
    assert "spacemission_env.rng" in names and "spacemission_env.red_planet.actions" in names
    assert "spacemission_env.red_planet.components.EDGES" in names
