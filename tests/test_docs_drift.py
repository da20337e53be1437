"""The docs say what the code does: every check here parses README.md and docs/**/*.md,
so a doc that drifts from the code (or code that drifts from its doc) fails a test.

tests/test_docs_commands.py checks the command lines and tests/test_docs_examples.py /
tests/test_readme.py run the Python blocks; this file checks the rest:

* **signatures** written in backticks (`` `SearchAgent(budget=0.1, ..., drop_z=1.0)` ``,
  `` `step(st, actions, select=None)` ``): the function or class they name (looked up in
  the modules ``NAMESPACES`` gives for the file) has every documented parameter, in that
  order, with the documented default and kind (after ``*``: keyword-only), and no
  parameter the doc leaves out (unless the doc writes ``...`` or ``**kwargs``). A span
  that passes arguments rather than declaring them (a literal or a variable passed:
  `` `new_game(3, seed=7)` ``) is a *call*: its keywords must exist. A span whose name
  cannot be looked up is listed in ``UNCHECKED`` with its reason;
* **parameter tables** (``| parameter |`` / ``| argument |`` headers): each row names real
  parameters of the signature written above the table, every parameter has a row, and a
  ``default`` column holds the real defaults (the class's ``DEFAULTS`` for ``**params``);
* **agent specs** in backticks (`` `search:budget=0.03` ``, `` `make_agent("...")` ``):
  they build (``ppo:PATH`` ones: the keywords exist; no model is loaded);
* **the registries**: the tables and lists of agent names name every registered agent of
  their game; the README's table of games has the registered ids, players, action and
  observation sizes;
* **CLI options**: each option of ``spacemission SUB`` appears in the doc that documents
  SUB (``CLI_HOME``), and a ``(default X)`` in an option table is the parser's default
  (or, where the command decides after parsing, the one its ``--help`` names);
* **cross-references**: relative links and ``#anchors`` resolve, every picture in
  docs/images is linked from a doc, repository paths and ``spacemission_*`` dotted names
  written in backticks exist.

Known drift in files this change could not edit is listed in ``REPORTED`` and marked
xfail(strict): fixing the doc makes the test pass, and then the entry must go.
"""
from __future__ import annotations

import ast
import importlib
import inspect
import re
import types
from functools import lru_cache

import pytest
from tests.helpers.paths import ROOT

DOC_FILES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
FENCE = re.compile(r"^([ \t]*)```[^\n]*\n.*?^\1```[ \t]*$", flags=re.S | re.M)
SPAN = re.compile(r"(?<!`)`([^`]+?)`(?!`)", flags=re.S)


def rel(path) -> str:
    return str(path.relative_to(ROOT))


@lru_cache(maxsize=None)
def prose(path) -> str:
    """The file without its fenced blocks (replaced by blank lines: line numbers hold)."""
    text = path.read_text()
    return FENCE.sub(lambda m: "\n" * m.group(0).count("\n"), text)


def spans(path):
    """(line, text of the span with its whitespace folded) of every inline code span."""
    text = prose(path)
    for m in SPAN.finditer(text):
        yield text.count("\n", 0, m.start()) + 1, " ".join(m.group(1).split())


# Drift found in docs this change did not edit (other work was under way there):
# test id -> what is wrong. Marked xfail(strict=True): fix the doc, then drop the entry.
REPORTED: dict[str, str] = {}


_PARAM_IDS: set[str] = set()


def _param(id_: str, *values):
    _PARAM_IDS.add(id_)
    marks = [pytest.mark.xfail(reason=REPORTED[id_], strict=True)] if id_ in REPORTED else []
    return pytest.param(*values, id=id_.split("[", 1)[1][:-1], marks=marks)


# ---------------------------------------------------------------- cross-references

def _slug(heading: str) -> str:
    """GitHub's anchor of a heading."""
    h = re.sub(r"<[^>]+>", "", heading.strip().lower()).replace("`", "")
    return re.sub(r"[^\w\- ]", "", h).replace(" ", "-")


@lru_cache(maxsize=None)
def anchors(path) -> frozenset[str]:
    out, seen = set(), {}
    for m in re.finditer(r"^#{1,6}\s+(.*?)\s*#*\s*$", prose(path), flags=re.M):
        slug = _slug(m.group(1))
        n = seen.get(slug, 0)
        seen[slug] = n + 1
        out.add(slug if n == 0 else f"{slug}-{n}")
    return frozenset(out)


def links():
    out = []
    for path in DOC_FILES:
        text = prose(path)
        for m in re.finditer(r"\]\(([^)\s]+)\)", text):
            target = m.group(1)
            if not re.match(r"^[a-z]+:", target):
                out.append((rel(path), text.count("\n", 0, m.start()) + 1, target))
    return out


def test_anchor_slugs():
    assert _slug("Why 0.1 s is not enough against `ppo`: the simulations are too noisy") == (
        "why-01-s-is-not-enough-against-ppo-the-simulations-are-too-noisy")
    assert _slug("The 4- and 5-player agents (`ppo` in 4- and 5-player games)") == (
        "the-4--and-5-player-agents-ppo-in-4--and-5-player-games")


def test_links_and_anchors_resolve():
    found = links()
    assert len(found) >= 40 and any("#" in t for _, _, t in found), "no links found: did the pattern break?"
    problems = []
    for file, line, target in found:
        path, _, fragment = target.partition("#")
        doc = (ROOT / file).parent / path if path else ROOT / file
        if not doc.exists():
            problems.append(f"{file}:{line}: {target}: no file {path}")
        elif fragment and doc.suffix == ".md" and fragment not in anchors(doc.resolve()):
            problems.append(f"{file}:{line}: {target}: no heading with anchor #{fragment} in {rel(doc.resolve())}")
    assert not problems, "\n".join(problems)


def test_every_image_is_shown():
    """Each picture in docs/images is the target of some doc's link (a picture no doc shows
    is a leftover, or a doc lost its link); the links themselves resolve (above)."""
    images = sorted((ROOT / "docs" / "images").iterdir())
    assert len(images) >= 10, "docs/images is (nearly) empty: did it move?"
    shown = {((ROOT / file).parent / target.partition("#")[0]).resolve() for file, _, target in links()}
    unshown = [rel(p) for p in images if p.resolve() not in shown]
    assert not unshown, f"no doc links to: {unshown}"


REPO_PATH = re.compile(r"^(?:\./)?((?:spacemission_env|spacemission_cli|agents|training|benchmarks|tools|tests|docs|notebooks)"
                       r"/[\w./-]*)(?:::\w+)?$")
BARE_PATH = re.compile(r"(?<![\w/.`:-])((?:benchmarks|tools|tests|training|agents)/[\w/.-]+\.(?:py|json|npz|md|ipynb))")


def repo_paths():
    """(file, path) of every repository path in a span (`agents/x.py`) or bare in the prose."""
    out = set()
    for path in DOC_FILES:
        for _, span in spans(path):
            m = REPO_PATH.match(span)
            if m:
                out.add((rel(path), m.group(1)))
        for m in BARE_PATH.finditer(prose(path)):
            out.add((rel(path), m.group(1)))
    return sorted(out)


@pytest.mark.parametrize("file,path", [_param(f"paths[{f}:{p}]", f, p) for f, p in repo_paths()])
def test_named_paths_exist(file, path):
    if path.rstrip("/").endswith("__pycache__"):  # written at run time, beside the sources it caches
        assert any((ROOT / path).parent.glob("*.py")), f"{file} names {path}, but no Python source lies beside it"
        return
    assert (ROOT / path).exists(), f"{file} names {path}, which does not exist"


def test_paths_are_found():
    assert len(repo_paths()) >= 100


DOTTED = re.compile(r"(?<![\w.])((?:spacemission_env|spacemission_agents|spacemission_training|spacemission_cli)(?:\.\w+)+)")
# the change log names modules as they were called then
HISTORICAL = {"docs/changelog.md"}


def _resolve_dotted(name: str):
    parts = name.split(".")
    for i in range(len(parts), 0, -1):
        try:
            obj = importlib.import_module(".".join(parts[:i]))
        except ImportError:
            continue
        for p in parts[i:]:
            if not hasattr(obj, p):
                return f"{'.'.join(parts[:i])} has no attribute {'.'.join(parts[i:])!r}"
            owner, obj = obj, getattr(obj, p)
            home = getattr(obj, "__module__", None)
            if (isinstance(owner, types.ModuleType) and p not in vars(owner) and p not in getattr(owner, "__all__", ())
                    and isinstance(home, str) and home != owner.__name__):
                # a name that moved, still served by the old module's __getattr__ for old code
                return f"{owner.__name__}.{p} is a compatibility name (its module's __getattr__): name its home {home}.{p}"
        return None
    return "no such module"


def test_dotted_names_resolve():
    problems, seen = [], 0
    for path in DOC_FILES:
        if rel(path) in HISTORICAL:
            continue
        for line, span in spans(path):
            for name in DOTTED.findall(span):
                seen += 1
                error = _resolve_dotted(name.rstrip("."))
                if error:
                    problems.append(f"{rel(path)}:{line}: `{name}`: {error}")
    assert not problems, "\n".join(problems)
    assert seen >= 60, f"only {seen} dotted names found: did the pattern break?"


# ---------------------------------------------------------------- signatures

# file -> where its short names are looked up, in order ("module" or "module:attr.path")
NAMESPACES = {
    "README.md": ["spacemission_env"],
    "docs/actions.md": ["spacemission_env.space_mission.rules"],
    "docs/agents_bots.md": ["spacemission_agents.heuristic", "spacemission_agents.greedy"],
    "docs/agents_netsearch.md": ["spacemission_agents.netsearch"],
    "docs/agents_search.md": ["spacemission_agents.search"],
    "docs/arena.md": ["spacemission_agents.arena", "spacemission_agents.registry", "spacemission_env.space_mission"],
    "docs/engine.md": ["spacemission_env.space_mission.engine", "spacemission_env.space_mission"],
    "docs/games.md": ["spacemission_env.space_mission.protocol:GAME.engine", "spacemission_env.space_mission.protocol:GAME",
                      "spacemission_env.red_planet.render"],
    "docs/interfaces.md": ["spacemission_env.pettingzoo_env", "spacemission_env.policies", "spacemission_env.space_mission",
                           "gymnasium.spaces"],
    "docs/play.md": ["spacemission_env.space_mission.render"],
    "docs/state_json.md": ["spacemission_env.space_mission.rules"],
    "docs/training.md": ["spacemission_training", "spacemission_env"],
    "docs/red_planet/agents.md": ["spacemission_agents.registry"],
    "docs/red_planet/engine.md": ["spacemission_env.red_planet.engine", "spacemission_env.red_planet"],
    "docs/red_planet/observation.md": ["spacemission_env.red_planet"],
    "docs/red_planet/play.md": ["spacemission_env.red_planet.render", "spacemission_agents.registry"],
    "docs/red_planet/render.md": ["spacemission_env.red_planet.render"],
    "docs/red_planet/state_json.md": ["spacemission_env.red_planet.rules", "spacemission_env.red_planet.engine"],
}
SKIP_FILES = HISTORICAL
# (file, span) -> why it is not checked
UNCHECKED = {
    ("docs/interfaces.md", "reset(seed=s)"): "the reset of whichever env the sentence is about",
    ("docs/interfaces.md", "reset(seed=...)"): "the reset of whichever env the sentence is about",
    ("docs/interfaces.md", "reset(options=...)"): "the reset of whichever env the sentence is about",
    ("docs/interfaces.md", 'reset(options={"seat": s})'): "the reset of whichever env the sentence is about",
    ("docs/interfaces.md", 'render(index=0, mode="ansi")'): "VectorEnv.render, named by its method alone",
    ("docs/interfaces.md", 'env.action_space.sample(mask=info["action_mask"].astype(np.int8))'): "an expression",
    ("docs/red_planet/agents.md", "Bot(seed=s)"): "any of the three bot classes",
}
# (file, span) -> a call that reads like a signature: only its keywords are checked
CALLS = {
    ("docs/red_planet/render.md", "render_ansi(state, viewer=0)"): "seat 0's view of the picture above",
    ("docs/red_planet/play.md", 'make_agent(spec, game="red_planet")'): "how play builds a Red Planet opponent",
    ("docs/interfaces.md", 'raw_env(illegal_action="lose", **kwargs)'): "what env(**kwargs) calls",
}
SIGNATURE = re.compile(r"^([A-Za-z_][\w.]*)\((.*)\)(?:\s*->\s*[\w\[\], .|]+)?$", flags=re.S)


def _attribute_or_submodule(obj, part: str):
    """``obj.part``, importing it where ``obj`` is a package and ``part`` a submodule not
    imported yet: whether another test had imported it (``bc`` in ``bc.pretrain(...)``) decided
    the lookup, so the test passed in the whole suite and failed alone or on another xdist worker."""
    found = getattr(obj, part, None)
    if found is None and inspect.ismodule(obj) and hasattr(obj, "__path__"):
        try:
            found = importlib.import_module(f"{obj.__name__}.{part}")
        except ImportError:
            return None
    return found


def _lookup(file: str, name: str):
    for where in NAMESPACES.get(file, []):
        module_name, _, attrs = where.partition(":")
        obj = importlib.import_module(module_name)
        for part in [p for p in attrs.split(".") if p] + name.split("."):
            obj = _attribute_or_submodule(obj, part)
            if obj is None:
                break
        if obj is not None and callable(obj):
            return obj
    if name.startswith(("spacemission_env.", "spacemission_agents.", "spacemission_training.")):
        module_name, _, attr = name.rpartition(".")
        try:
            return getattr(importlib.import_module(module_name), attr, None)
        except ImportError:
            return None
    return None


def signature_spans():
    out = []
    for path in DOC_FILES:
        if rel(path) in SKIP_FILES:
            continue
        for line, span in spans(path):
            m = SIGNATURE.match(span)
            if m and "=" in m.group(2) and not m.group(2).lstrip().startswith(('"', "'")):
                out.append((rel(path), line, span))
    return out


def _real_parameters(obj) -> list[inspect.Parameter]:
    params = list(inspect.signature(obj).parameters.values())
    if params and params[0].name in ("self", "cls") and not inspect.isclass(obj):
        params = params[1:]  # a method named through its class
    return params


def _literal(node):
    if isinstance(node, ast.Constant) and node.value is Ellipsis:
        return Ellipsis
    try:
        return ast.literal_eval(node)
    except ValueError:
        return _NOT_LITERAL


_NOT_LITERAL = object()


def check_signature(file: str, span: str) -> str | None:
    m = SIGNATURE.match(span)
    name, args = m.group(1), m.group(2)
    obj = _lookup(file, name)
    if obj is None:
        return f"cannot look up {name!r} (NAMESPACES[{file!r}] = {NAMESPACES.get(file)})"
    real = _real_parameters(obj)
    by_name = {p.name: p for p in real}
    var_kw = any(p.kind is p.VAR_KEYWORD for p in real)
    open_ended = bool(re.search(r"(?:^|,)\s*\.\.\.\s*(?:,|$)", args))  # `f(a, ...)`: and the rest
    args = re.sub(r"(?:^|,)\s*\.\.\.\s*(?=,|$)", "", args).lstrip(", ")
    try:
        fn = ast.parse(f"def f({args}): pass").body[0].args
    except SyntaxError:
        fn = None
    defaults = [] if fn is None else [*([None] * (len(fn.posonlyargs + fn.args) - len(fn.defaults))), *fn.defaults]
    # a declaration: literal defaults (no `seed=...` placeholder), every required parameter named
    declared = fn is not None and all(d is None or _literal(d) not in (_NOT_LITERAL, Ellipsis)
                                      for d in [*defaults, *fn.kw_defaults])
    required = [p.name for p in real if p.default is p.empty and p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    declared = declared and set(required) <= {a.arg for a in fn.posonlyargs + fn.args + fn.kwonlyargs}
    if not declared or (file, span) in CALLS:
        call = ast.parse(f"f({args})").body[0].value
        unknown = [k.arg for k in call.keywords if k.arg and k.arg not in by_name and not var_kw]
        return f"{name} has no parameters {unknown} (it has {list(by_name)})" if unknown else None
    problems = []
    documented = [(a, d, "positional") for a, d in zip(fn.posonlyargs + fn.args, defaults)]
    documented += [(a, d, "keyword") for a, d in zip(fn.kwonlyargs, fn.kw_defaults)]
    order = []
    for arg, default, kind in documented:
        p = by_name.get(arg.arg)
        if p is None:
            if not var_kw:
                problems.append(f"no parameter {arg.arg!r}")
            continue
        order.append(list(by_name).index(arg.arg))
        if default is not None:
            value = _literal(default)
            if (p.default is p.empty or p.default != value or type(p.default) is not type(value)):
                problems.append(f"{arg.arg}: the doc says default {value!r}, the code {p.default!r}"
                                if p.default is not p.empty else f"{arg.arg}: the doc gives a default, the code none")
        if (kind == "keyword") != (p.kind is p.KEYWORD_ONLY):
            problems.append(f"{arg.arg}: the doc says {kind}, the code {p.kind.description}")
    if order != sorted(order):
        problems.append(f"the order differs from the code's {[p.name for p in real]}")
    open_ended = open_ended or fn.kwarg is not None or fn.vararg is not None
    if fn.kwarg is not None and not var_kw:
        problems.append(f"the doc has **{fn.kwarg.arg}, the code no **kwargs")
    if not open_ended:
        names = {a.arg for a, _, _ in documented}
        missing = [p.name for p in real if p.name not in names and p.kind not in (p.VAR_KEYWORD, p.VAR_POSITIONAL)]
        if missing:
            problems.append(f"parameters not in the doc: {missing}")
    return f"{name}: " + "; ".join(problems) if problems else None


def test_signatures_are_found():
    found = signature_spans()
    assert len(found) >= 50, found
    assert any(s.startswith("NetSearchAgent(") for _, _, s in found), "the multi-line signatures are not found"


def test_unchecked_and_calls_are_current():
    found = {(f, s) for f, _, s in signature_spans()}
    stale = sorted((set(UNCHECKED) | set(CALLS)) - found)
    assert not stale, f"UNCHECKED/CALLS entries that match no span in the docs any more: {stale}"


@pytest.mark.parametrize("file,line,span", [_param(f"signature[{f}:{s[:30]}]", f, n, s) for f, n, s in signature_spans()])
def test_signature_matches_code(file, line, span):
    if (file, span) in UNCHECKED:
        pytest.skip(UNCHECKED[(file, span)])
    error = check_signature(file, span)
    assert error is None, f"{file}:{line}: `{span}`: {error}"


# ---------------------------------------------------------------- parameter tables

def parameter_tables():
    """(file, line, the signature span above the table, rows) of every table whose first
    header cell is `parameter` or `argument`; rows: (names of the first cell, cells)."""
    out = []
    for path in DOC_FILES:
        lines = prose(path).split("\n")
        for i, line in enumerate(lines):
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            if not line.startswith("|") or cells[0] not in ("parameter", "argument"):
                continue
            above = [s for n, s in spans(path) if n <= i + 1 and SIGNATURE.match(s) and "=" in s]
            rows = []
            for row in lines[i + 2:]:
                if not row.startswith("|"):
                    break
                rcells = [c.strip() for c in row.strip().strip("|").split("|")]
                rows.append((re.findall(r"`(\w+)`", rcells[0]), dict(zip(cells, rcells))))
            out.append((rel(path), i + 1, above[-1] if above else None, rows))
    return out


def _defaults_of(obj) -> dict:
    """name -> default: the signature's, and for **params the module's DEFAULTS."""
    out = {p.name: p.default for p in _real_parameters(obj) if p.kind not in (p.VAR_KEYWORD, p.VAR_POSITIONAL)}
    if any(p.kind is p.VAR_KEYWORD for p in _real_parameters(obj)):
        out.update(getattr(importlib.import_module(obj.__module__), "DEFAULTS", {}))
    return out


def test_parameter_tables_are_found():
    assert len(parameter_tables()) >= 4


@pytest.mark.parametrize("file,line,span,rows", parameter_tables(), ids=[f"{f}:{n}" for f, n, _, _ in parameter_tables()])
def test_parameter_table_matches_code(file, line, span, rows):
    assert span is not None, f"{file}:{line}: no signature above the table to check it against"
    obj = _lookup(file, SIGNATURE.match(span).group(1))
    real = _defaults_of(obj)
    if any(p.kind is p.VAR_KEYWORD for p in _real_parameters(obj)):  # a table of the **params, after the signature's own
        real = {k: v for k, v in real.items() if k not in SIGNATURE.match(span).group(2)}
    named = [n for names, _ in rows for n in names]
    unknown = [n for n in named if n not in real]
    assert not unknown, f"{file}:{line}: the table names {unknown}, which {span.split('(')[0]} does not take"
    missing = [n for n in real if n not in named]
    assert not missing, f"{file}:{line}: {span.split('(')[0]} takes {missing}, which the table leaves out"
    for names, cells in rows:
        if "default" in cells:
            value = _literal(ast.parse(cells["default"].strip("`"), mode="eval").body)
            assert real[names[0]] == value, (f"{file}:{line}: `{names[0]}`: the table says default {cells['default']}, "
                                             f"the code {real[names[0]]!r}")


# ---------------------------------------------------------------- agent specs in the prose

def _game_of(file: str) -> str:
    return "red_planet" if file.startswith("docs/red_planet/") else "spacemission"


def prose_specs():
    """(file, line, spec) of spans that are one agent spec with parameters or a make_agent call."""
    from spacemission_agents.registry import AGENTS_BY_GAME

    out = []
    for path in DOC_FILES:
        game = _game_of(rel(path))
        for line, span in spans(path):
            call = re.fullmatch(r"make_agent\((['\"])([^'\"]+)\1(?:, game=(['\"])(\w+)\3)?\)", span)
            if call:
                out.append((rel(path), line, call.group(2), call.group(4) or "spacemission"))
            elif re.fullmatch(r"[\w-]+(?::[^\s:,]+)+", span) and span.split(":")[0] in AGENTS_BY_GAME[game] and (
                    "=" in span or span.split(":")[0] == "ppo"):
                out.append((rel(path), line, span, game))
    return out


def test_prose_specs_are_found():
    assert len(prose_specs()) >= 10


@pytest.mark.parametrize("file,line,spec,game", prose_specs(), ids=[f"{f}:{n}:{s}" for f, n, s, _ in prose_specs()])
def test_prose_spec_builds(file, line, spec, game):
    from spacemission_agents.registry import _check_kwargs, _resolve, make_agent, parse_spec

    target, path, kwargs = parse_spec(spec, game)
    if target == "ppo":  # the keywords of load / load_shipped; no model is read
        ppo = _resolve(target, spec, game)
        try:
            _check_kwargs(ppo.load if path is not None else ppo.load_shipped, kwargs, spec)
        except ValueError as exc:
            pytest.fail(f"{file}:{line}: `{spec}`: {exc}")
        return
    try:
        make_agent(spec, game=game)
    except ValueError as exc:
        pytest.fail(f"{file}:{line}: `{spec}` does not build: {exc}")


# ---------------------------------------------------------------- registries

def _section(file: str, start: str, end: str | None = "\n\n") -> str:
    text = (ROOT / file).read_text()
    assert start in text, f"{file}: the passage starting {start!r} is gone (update this test)"
    rest = text[text.index(start):]
    return rest[:rest.index(end, len(start))] if end and end in rest[len(start):] else rest


# (file, the passage's start, its end, game, exact: the passage names exactly the registered agents)
AGENT_LISTS = [
    ("docs/agents.md", "| spec | agent |", "\n\n", "spacemission", True),
    ("docs/arena.md", "| spec | agent |", "\n\n", "spacemission", False),
    ("README.md", "Bots in `spacemission_agents`", "\n\n", "spacemission", False),
    ("docs/play.md", "| `--opponents SPEC[,SPEC]` |", "\n", "spacemission", False),
    ("docs/red_planet/agents.md", "## Registry", "\n## ", "red_planet", False),
    ("docs/red_planet/play.md", "| `--opponents SPEC[,SPEC]` |", "\n", "red_planet", False),
]


@pytest.mark.parametrize("file,start,end,game,exact", AGENT_LISTS, ids=[f"{f}:{g}" for f, _, _, g, _ in AGENT_LISTS])
def test_agent_lists_name_every_registered_agent(file, start, end, game, exact):
    from spacemission_agents.registry import AGENTS_BY_GAME

    text = _section(file, start, end)
    named = {w for w in re.findall(r"`([\w-]+)(?:\[[^`]*\])?`", text)}
    registered = set(AGENTS_BY_GAME[game])
    assert registered <= named, f"{file}: {sorted(registered - named)} registered for {game} but not listed"
    if exact:
        spec_column = {re.sub(r"`", "", row.split("|")[1]).strip() for row in text.split("\n")[2:] if row.startswith("|")}
        assert spec_column == registered, f"{file}: the table lists {sorted(spec_column)}, the registry {sorted(registered)}"


def test_readme_games_table():
    import gymnasium

    import spacemission_env  # noqa: F401 - registers the ids
    from spacemission_env.games import get_game

    rows = [r for r in _section("README.md", "| game | package |").split("\n")[2:] if r.startswith("|")]
    assert len(rows) >= 2
    for row in rows:
        cells = [c.strip() for c in row.strip("|").split("|")]
        package = cells[1].strip("`")
        game = {"spacemission_env.space_mission": "spacemission", "spacemission_env.red_planet": "red_planet"}[package]
        desc = get_game(game).description
        assert cells[3].strip("`") == desc.env_id and desc.env_id in gymnasium.registry, row
        assert cells[2] == f"{desc.min_players}-{desc.max_players}", row
        assert cells[4] == f"Discrete({desc.num_actions})", row
        encoding = importlib.import_module(f"{package}.encoding")
        header = _section("README.md", "| game | package |").split("\n")[0]
        types = re.search(r"observations \(([^)]*)\)", header).group(1).split(" / ")
        assert types == list(encoding.OBSERVATION_TYPES), header
        assert [int(x) for x in cells[5].split("/")] == [encoding.observation_size(t) for t in types], row


# ---------------------------------------------------------------- CLI options

# subcommand -> the doc that documents its options (train: docs/training.md; demo: the
# README's lines on it, whose commands tests/test_docs_commands.py runs)
CLI_HOME = {"arena": "docs/arena.md", "play": "docs/play.md", "serve": "docs/play.md", "replay": "docs/play.md",
            "bench": "docs/play.md", "warmup": "docs/engine.md", "demo": "README.md"}


def _parser(sub: str):
    from spacemission_cli.main import COMMANDS

    return importlib.import_module(COMMANDS[sub][0]).build_parser()


def _options(parser) -> list[str]:
    return [o for a in parser._actions for o in a.option_strings if o.startswith("--") and o != "--help"]


def test_cli_home_covers_the_commands():
    from spacemission_cli.main import COMMANDS

    assert set(CLI_HOME) | {"train"} == set(COMMANDS)


@pytest.mark.parametrize("sub", sorted(CLI_HOME))
def test_every_cli_option_is_documented(sub):
    text = (ROOT / CLI_HOME[sub]).read_text()
    missing = [o for o in _options(_parser(sub)) if not re.search(re.escape(o) + r"(?![\w-])", text)]
    assert not missing, f"spacemission {sub}: {missing} not in {CLI_HOME[sub]}"


OPTION_ROW = re.compile(r"^\|\s*`(--[\w-]+)[^`]*`(?:,\s*`(--[\w-]+)[^`]*`)*\s*\|(.*)\|\s*$")
DEFAULT = re.compile(r"\(default (?:`([^`]+)`|([\w.]+))")


def option_defaults():
    """(file, line, subcommand, option, documented default) of option tables: the subcommand
    is the last `spacemission SUB` written above the table."""
    from spacemission_cli.main import COMMANDS

    out = []
    for path in DOC_FILES:
        sub = None
        for n, line in enumerate(path.read_text().split("\n"), 1):
            m = OPTION_ROW.match(line)
            if m:
                d = DEFAULT.search(m.group(3))
                if d and sub:
                    out.append((rel(path), n, sub, m.group(1), d.group(1) or d.group(2)))
                continue
            subs = [s for s in re.findall(r"spacemission (\w+)", line) if s in COMMANDS]
            if subs:
                sub = subs[-1]
    return out


def test_option_defaults_are_found():
    assert len(option_defaults()) >= 12


@pytest.mark.parametrize("file,line,sub,option,default", option_defaults(),
                         ids=[f"{f}:{n}:{s}:{o}" for f, n, s, o, _ in option_defaults()])
def test_option_default_matches_parser(file, line, sub, option, default):
    action = _parser(sub)._option_string_actions[option]
    if action.default is not None:
        value = action.default
        assert str(value) == default or (isinstance(value, float) and value == float(default)), (
            f"{file}:{line}: spacemission {sub} {option}: the doc says default {default}, the parser {value!r}")
    else:  # decided after parsing (it depends on the game): the --help text names it
        assert re.search(r"default[^()]*?\b" + re.escape(default) + r"\b", action.help or ""), (
            f"{file}:{line}: spacemission {sub} {option}: the doc says default {default}, --help says {action.help!r}")


# ---------------------------------------------------------------- indented Python blocks

def indented_python_blocks():
    """(file, line, code) of indented code blocks that are Python (tests/test_docs_examples.py
    runs the fenced ones)."""
    out = []
    for path in DOC_FILES:
        lines = prose(path).split("\n")
        i = 0
        while i < len(lines):
            if re.match(r"^ {4,}\S", lines[i]) and (i == 0 or not lines[i - 1].strip()) and "`" not in lines[i]:
                j = i
                while j < len(lines) and (lines[j].startswith("    ") or not lines[j].strip()):
                    j += 1
                code = "\n".join(ln[4:] for ln in lines[i:j]).strip("\n")
                if re.search(r"^(import |from [\w.]+ import |def |class )", code, flags=re.M):
                    out.append((rel(path), i + 1, code))
                i = j
            else:
                i += 1
    return out


def test_indented_python_blocks_are_found():
    assert indented_python_blocks(), "the agent example of docs/arena.md is gone: did the pattern break?"


@pytest.mark.parametrize("file,line,code", indented_python_blocks(), ids=[f"{f}:{n}" for f, n, _ in indented_python_blocks()])
def test_indented_python_block_runs(file, line, code):
    """It runs; an agent class it defines passes the protocol check and plays legal moves."""
    import numpy as np

    from spacemission_agents.registry import protocol_problem
    from spacemission_env.space_mission import engine

    namespace = {"__name__": "docs_indented_example"}
    exec(compile(code, f"{file} indented block (line {line})", "exec", dont_inherit=True), namespace)
    agents = [v for k, v in namespace.items() if inspect.isclass(v) and v.__module__ == "docs_indented_example"]
    for cls in agents:
        agent = cls()
        assert protocol_problem(agent) is None, f"{file}:{line}: {cls.__name__}: {protocol_problem(agent)}"
        st = engine.init(8, 2, seeds=0)
        mask = engine.legal_action_mask(st)
        actions = np.asarray(agent.act_batch(engine.observe(st), mask))
        assert actions.shape == (8,) and mask[np.arange(8), actions].all(), f"{file}:{line}: {cls.__name__} plays illegally"
        assert mask[0, agent.act(engine.observe(st)[0], mask[0])]


def test_reported_entries_are_current():
    """Every REPORTED entry names a test of this file (its doc text may have changed)."""
    stale = sorted(set(REPORTED) - _PARAM_IDS)
    assert not stale, f"REPORTED entries that match no test any more: {stale}"


# ---------------------------------------------------------------- the file table of docs/games.md

@pytest.mark.parametrize("folder", ["rules", "engine"])
def test_games_md_names_every_module_of_each_game(folder):
    """docs/games.md's "One shape per game" table lists the modules of each game's rules/ and
    engine/ (all of them but __init__.py)."""
    row = next(r for r in _section("docs/games.md", "| file | Space Mission").split("\n")
               if r.startswith(f"| `{folder}/`"))
    cells = [c.strip() for c in row.strip().strip("|").split("|")]
    for package, cell in (("space_mission", cells[1]), ("red_planet", cells[2])):
        named = set(re.findall(r"`(\w+\.py)`", cell))
        real = {p.name for p in (ROOT / "spacemission_env" / package / folder).glob("*.py")} - {"__init__.py"}
        assert named == real, (f"docs/games.md, {folder}/ of {package}: missing {sorted(real - named)}, "
                               f"not there {sorted(named - real)}")
