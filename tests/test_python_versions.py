"""pyproject.toml's ``requires-python`` floor is honoured by the sources, whatever Python runs
the suite (only 3.11 runs it routinely): no syntax newer than the floor (``ast.parse`` with
``feature_version``), and no standard-library module or name added after it unless imported
inside ``try: ... except ImportError`` (a fallback, as for ``tomllib`` -> ``tomli``).

A static check of the constructs that broke or would break the floor, not a substitute for
running the suite on it: ``make test-python PYTHON=python3.10`` does that (docs/python_versions.md)."""
from __future__ import annotations

import ast
import re
import sys

import pytest

from tests.helpers.paths import ROOT

FOLDERS = ("spacemission_env", "spacemission_cli", "agents", "training", "tests", "benchmarks", "tools")

# standard-library additions since 3.10, as (module, name or None for the module): minor version
ADDED = {
    ("tomllib", None): 11, ("wsgiref.types", None): 11,
    ("typing", "Self"): 11, ("typing", "LiteralString"): 11, ("typing", "Never"): 11,
    ("typing", "assert_never"): 11, ("typing", "assert_type"): 11, ("typing", "reveal_type"): 11,
    ("typing", "Required"): 11, ("typing", "NotRequired"): 11, ("typing", "TypeVarTuple"): 11,
    ("typing", "Unpack"): 11, ("typing", "dataclass_transform"): 11, ("typing", "override"): 12,
    ("typing", "TypeAliasType"): 12, ("typing", "ReadOnly"): 13, ("typing", "TypeIs"): 13,
    ("enum", "StrEnum"): 11, ("enum", "verify"): 11, ("enum", "ReprEnum"): 11, ("enum", "EnumCheck"): 11,
    ("datetime", "UTC"): 11, ("asyncio", "TaskGroup"): 11, ("asyncio", "timeout"): 11, ("asyncio", "Runner"): 11,
    ("contextlib", "chdir"): 11, ("hashlib", "file_digest"): 11, ("operator", "call"): 11,
    ("itertools", "batched"): 12, ("math", "sumprod"): 12, ("warnings", "deprecated"): 13, ("copy", "replace"): 13,
}
BUILTINS = {"ExceptionGroup": 11, "BaseExceptionGroup": 11, "aiter": 10, "anext": 10}
# a file that names none of them needs only the syntax check (about 60% of them: it keeps the test fast)
WORDS = re.compile(r"\b(%s)\b" % "|".join(sorted(map(re.escape, {name or module for module, name in ADDED} | set(BUILTINS)))))


def floor() -> tuple[int, int]:
    text = (ROOT / "pyproject.toml").read_text()
    match = re.search(r'^requires-python\s*=\s*">=\s*3\.(\d+)', text, re.M)
    assert match, "pyproject.toml has no requires-python = \">=3.N\""
    return 3, int(match.group(1))


def sources():
    for folder in FOLDERS:
        yield from sorted((ROOT / folder).rglob("*.py"))


def _guarded(tree: ast.AST) -> set[int]:
    """ids of the nodes inside the body of a ``try`` that catches ImportError (or wider) or
    of an ``if sys.version_info >= ...``."""
    catches = {"ImportError", "ModuleNotFoundError", "Exception", "BaseException"}
    inside = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and any(isinstance(n, ast.Attribute) and n.attr == "version_info"
                                            for n in ast.walk(node.test)):
            inside.update(id(n) for stmt in node.body for n in ast.walk(stmt))
        if isinstance(node, ast.Try) and any(
                h.type is None or any(isinstance(n, ast.Name) and n.id in catches for n in ast.walk(h.type))
                for h in node.handlers):
            inside.update(id(n) for stmt in node.body for n in ast.walk(stmt))
    return inside


def newer_than(tree: ast.AST, minor: int) -> list[str]:
    """What ``tree`` uses of the standard library added after 3.``minor``, unguarded."""
    guarded, found = _guarded(tree), []
    aliases = {}  # local name -> module, for ``import enum`` / ``import datetime as dt``
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for a in node.names:
                aliases[a.asname or a.name.split(".")[0]] = a.name if a.asname else a.name.split(".")[0]
    for node in ast.walk(tree):
        hits = []
        if isinstance(node, ast.Import):
            hits = [(a.name, None) for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            hits = [(node.module, None)] + [(node.module, a.name) for a in node.names]
        elif isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in aliases:
            hits = [(aliases[node.value.id], node.attr)]
        elif isinstance(node, ast.Name) and node.id in BUILTINS and BUILTINS[node.id] > minor:
            found.append(f"line {node.lineno}: builtin {node.id} (3.{BUILTINS[node.id]})")
        for key in hits:
            added = ADDED.get(key)
            if added and added > minor and id(node) not in guarded:
                found.append(f"line {node.lineno}: {'.'.join(k for k in key if k)} (3.{added})")
    return found


def test_the_floor_is_read_from_pyproject():
    assert floor() >= (3, 10)


@pytest.mark.parametrize("minor", [10])
def test_the_check_catches_what_it_looks_for(minor):
    bad = ("import tomllib\nfrom typing import Self\nimport enum\nclass A(enum.StrEnum): pass\n"
           "import datetime as dt\nt = dt.UTC\nraise ExceptionGroup('x', [])\n")
    assert len(newer_than(ast.parse(bad), minor)) == 5
    good = ("try:\n    import tomllib\nexcept ImportError:\n    import tomli as tomllib\nfrom typing import Optional\n"
            "if sys.version_info >= (3, 11):\n    from typing import Self\n")
    assert newer_than(ast.parse(good), minor) == []
    if sys.version_info >= (3, 11):  # syntax the floor cannot parse
        with pytest.raises(SyntaxError):
            ast.parse("try:\n    pass\nexcept* ValueError:\n    pass\n", feature_version=(3, minor))


def test_the_sources_need_nothing_newer_than_requires_python():
    version = floor()
    problems = []
    for path in sources():
        rel = path.relative_to(ROOT)
        text = path.read_text(encoding="utf-8")
        try:
            tree = ast.parse(text, str(rel), feature_version=version)
        except SyntaxError as exc:
            problems.append(f"{rel}: syntax newer than {version[0]}.{version[1]}: {exc}")
            continue
        if WORDS.search(text):
            problems += [f"{rel} {p}" for p in newer_than(tree, version[1])]
    assert not problems, (f"requires-python is >={version[0]}.{version[1]}, but:\n  " + "\n  ".join(problems)
                          + "\n(guard the import with try/except ImportError and a fallback, or raise the floor)")
