"""Where the tests find the repository's files (docs, data, the spec beside the checkout)."""
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]  # the repository root
SPEC = ROOT.parent / "shared" / "spec"  # the rule specs, beside the repository (as in CI)


def load_tool(name: str, folder: str = "tools"):
    """The module of a script in tools/ or benchmarks/ (scripts, not an installed package)."""
    import importlib.util

    spec = importlib.util.spec_from_file_location(name, ROOT / folder / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def pyproject() -> dict:
    """pyproject.toml, parsed (tomllib; on Python 3.10 tomli, pytest's own dependency there)."""
    try:
        import tomllib  # novermin (guarded)
    except ImportError:
        import tomli as tomllib
    return tomllib.loads((ROOT / "pyproject.toml").read_text())
