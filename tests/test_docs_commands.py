"""Every shell command in README.md and docs/**/*.md parses with the real CLI, so the docs
stay true (tests/test_readme.py and tests/test_docs_examples.py do this for the Python
blocks).

Where commands are found:

* fenced blocks that are not Python/JSON/nginx (```bash, ```sh, ```console, ```shell,
  ```text and unlabeled ones), a line at a time: a line counts when it starts with a
  command (below); lines ending in ``\\`` are joined with the next, a ``$ `` prompt is
  dropped, ``#`` starts a comment;
* indented code blocks (lines indented 4+ spaces outside fences, no backticks);
* inline code spans in the prose (`` `spacemission arena --agents ...` ``, also when the
  span breaks over two lines; `` `benchmarks/engine_speed.py --seconds 3` `` without the
  python in front);
* a ``spacemission SUB ...`` the CLI prints, shown in a text block ("continue with:
  spacemission play --load saved.json").

A line is cut into statements at ``;``, ``&&``, ``||`` and ``|`` (only the first command of
a pipe is kept), like the shell. ``NAME="value"`` assignments (``B=".venv/bin/python
benchmarks/search_budget.py"``) are kept per file and ``$NAME`` expanded; a ``for X in a b
c; do ... done`` loop sets ``$X`` to its first value. Leading ``VAR=value``, ``nice -n N``
and ``time`` are dropped. A ``$NAME`` that is never assigned fails the test (no silent
drop).

Which commands are checked, and how (none is run):

* ``spacemission SUB ...`` (also ``.venv/bin/spacemission``, ``.venv-ray/bin/spacemission``):
  SUB is in ``spacemission_cli.main.COMMANDS``, and the arguments parse with SUB's own
  parser: ``build_parser()`` of its module, for ``train`` the one of the backend
  ``--backend`` picks (``spacemission_training.config`` / ``.rllib``, neither needs torch or
  Ray), for the others ``main(argv)`` with ``ArgumentParser.parse_args`` intercepted right
  after it parsed; then the agent specs of ``--agents`` / ``--opponents`` /
  ``--eval-opponents`` name agents of the game with parameters their classes take (as
  the commands check after parsing; no model is loaded);
* ``python -m MODULE ...`` (the project's modules and pytest; ``python -m venv`` and the
  like are not the project's) and ``python benchmarks/X.py`` / ``tools/X.py`` (any python:
  ``python``, ``.venv/bin/python``, ``.venv-ray/bin/python``): the module's or script's
  ``main`` is called with ``parse_args`` intercepted (scripts are loaded with
  ``tests.helpers.paths.load_tool``, which does not run them); ``python -m pytest PATHS``:
  the paths exist;
* ``make TARGET [VAR=value ...]``: TARGET is a Makefile target and each VAR is a Makefile
  variable; ``make train ARGS="..."`` parses ARGS with the train parser.

A span that is only ``spacemission SUB`` or ``benchmarks/X.py [SUB]`` (naming the command,
not running it) checks that SUB / the script (and its subcommand) exists. Synopsis lines (``spacemission replay FILE [--game K] [--boards turn|round]``)
are checked with every optional part present and the first of each ``a|b`` choice.
Placeholders (``FILE``, ``PATH`` in ``ppo:PATH``, ``N``, ...) are replaced by plausible
values from ``PLACEHOLDERS``. Commands that cannot be parsed as written are listed in
``PARTIAL`` (a fragment of a command in prose: its options must exist in the parser) or
``SKIP`` (not checked at all), each with its reason; an entry that no longer matches a
command in the docs fails ``test_lists_are_current``.
"""
from __future__ import annotations

import argparse
import contextlib
import importlib
import importlib.util
import inspect
import io
import re
import shlex
import sys
from dataclasses import dataclass
from functools import lru_cache
from unittest import mock

import pytest
from tests.helpers.paths import ROOT, load_tool

DOC_FILES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
NOT_SHELL = {"python", "py", "json", "nginx", "toml", "yaml", "yml", "html", "js", "javascript"}
FENCE = re.compile(r"^([ \t]*)```([\w+-]*)[^\n]*\n(.*?)^\1```[ \t]*$", flags=re.S | re.M)
SPAN = re.compile(r"(?<!`)`([^`]+?)`(?!`)", flags=re.S)
PYTHONS = re.compile(r"^(?:\S*/)?python(?:3(?:\.\d+)?)?$")
SPACEMISSIONS = re.compile(r"^(?:\S*/)?spacemission$")
SCRIPT = re.compile(r"^(benchmarks|tools)/\w+\.py$")
# a command the CLI prints in its output (shown in a text block): "continue with: spacemission play --load saved.json"
IN_OUTPUT = re.compile(r"(?<![\w/.-])(spacemission (?:play|arena|train|bench|replay|serve|warmup|demo)\b[^()\n]*)")

# Found when this file was written: fewer means the docs or the patterns changed, and the
# parametrised tests below could silently check nothing.
# (272 commands in 21 files: 132 spacemission, 104 python, 36 make).
MIN_COMMANDS = 272
MIN_BY_KIND = {"spacemission": 132, "python": 104, "make": 36}
MIN_FILES = 21

# exact argument -> a plausible value (documented placeholders of synopsis lines and prose)
PLACEHOLDERS = {
    "FILE": "results/games.jsonl", "DIR": "results/", "PATH": "runs/a/final.npz", "RUN_DIR": "runs/a",
    "K": "0", "S": "0", "N": "3", "R": "yucata", "B": "64", "T": "1", "O": "ppo", "ADDRESS": "auto", "GAME": "spacemission",
    "SPEC,...": "random,greedy", "SPEC,SPEC": "random,greedy",
}
# inside an argument (agent specs such as ppo:PATH)
PLACEHOLDER_PARTS = {":PATH": ":runs/a/final.npz"}

# command as extracted (one line, placeholders not yet replaced) -> why only its options
# are checked: fragments of a command quoted in prose, not a full command line
PARTIAL = {
    "spacemission arena --out DIR": "prose names the option: the full command needs --agents",
    "spacemission arena --ray ...": "prose names the option; '...' stands for the rest of the command",
    "spacemission train --steps ...": "'...' stands for any number of steps",
    "spacemission train --backend rllib --address ... --num-env-runners 2":
        "'...' stands for the cluster's address (auto or HOST:PORT)",
}
# command as extracted -> why it is not checked at all
SKIP = {
    "python -m tests.env.rules.test_state_json":
        "no argparse parser: a test module whose __main__ block prints an example",
    "python -m tests.env.red_planet.test_state_json_doc":
        "no argparse parser: a test module whose __main__ block prints an example",
}


@dataclass(frozen=True)
class Command:
    file: str  # relative to the repository root
    line: int
    where: str  # "block", "indented", "span", "output" (printed by a command) or "name" (`spacemission SUB`)
    text: str  # the statement as written (one line, variables expanded)
    argv: tuple[str, ...]  # tokens, variables expanded, prefixes (env, nice, time) dropped

    @property
    def id(self) -> str:
        return f"{self.file}:{self.line}:{self.text[:70]}"

    @property
    def kind(self) -> str:
        head = self.argv[0]
        if SPACEMISSIONS.match(head):
            return "spacemission"
        if head == "make":
            return "make"
        return "python"


# ---------------------------------------------------------------- extraction

def _lex(text: str) -> list[str]:
    lex = shlex.shlex(text, posix=True, punctuation_chars=";&")
    lex.whitespace_split = True
    lex.commenters = "#"
    return list(lex)


def _statements(tokens: list[str]) -> list[list[str]]:
    """Split at ; && || and keep the first command of each pipe; drop redirections."""
    out, cur, in_pipe, redirect = [], [], False, False
    for t in tokens:
        if redirect:
            redirect = False
        elif t in REDIRECTS:
            redirect = True
        elif t in (";", "&&", "||", "&"):
            if cur:
                out.append(cur)
            cur, in_pipe = [], False
        elif t == "|":
            if cur:
                out.append(cur)
            cur, in_pipe = [], True
        elif not in_pipe:
            cur.append(t)
    if cur and not in_pipe:
        out.append(cur)
    return out


REDIRECTS = {"<", ">", ">>", "2>", "&>"}
VAR = re.compile(r"\$\{?(\w+)\}?")
ASSIGN = re.compile(r"^[A-Za-z_]\w*=")


def _strip_prefix(tokens: list[str]) -> list[str]:
    """Drop VAR=value, nice -n N, time, do, in front of a command."""
    while tokens:
        if ASSIGN.match(tokens[0]) and len(tokens) > 1:
            tokens = tokens[1:]
        elif tokens[0] == "nice":
            tokens = tokens[3:] if len(tokens) > 2 and tokens[1] == "-n" else tokens[1:]
        elif tokens[0] in ("time", "do", "then", "else", "exec"):
            tokens = tokens[1:]
        else:
            break
    return tokens


def _is_command(tokens: list[str]) -> bool:
    if not tokens:
        return False
    head = tokens[0]
    if SPACEMISSIONS.match(head):
        return True
    if head == "make":
        return True
    if SCRIPT.match(head):  # `benchmarks/engine_speed.py --seconds 3` in prose: run by python
        return True
    if PYTHONS.match(head) and len(tokens) > 1:
        if tokens[1] == "-m":  # the project's modules and pytest (not venv, pip, ...)
            return len(tokens) > 2 and tokens[2].split(".")[0] in ("spacemission_env", "spacemission_cli",
                                                                   "spacemission_agents", "spacemission_training",
                                                                   "tests", "pytest")
        return bool(SCRIPT.match(tokens[1]))
    return False


def _starts_like_command(line: str) -> bool:
    first = line.split(None, 1)[0] if line.split() else ""
    return bool(SPACEMISSIONS.match(first) or PYTHONS.match(first) or SCRIPT.match(first) or first in ("make", "for", "nice", "time", "do")
                or ASSIGN.match(first) or first.startswith("$"))


class _Shell:
    """The little of a shell the docs use: variables, for loops, statements."""

    def __init__(self, file: str):
        self.file = file
        self.vars: dict[str, str] = {}
        self.commands: list[Command] = []
        self.unresolved: list[tuple[str, int, str]] = []

    def line(self, text: str, lineno: int, where: str) -> None:
        text = text.strip()
        if text.startswith("$ "):
            text = text[2:]
        if not text or text.startswith("#") or not _starts_like_command(text) or VAR.fullmatch(text):
            return  # (a lone `$T` in prose names a variable)
        for m in re.finditer(r"\bfor\s+(\w+)\s+in\s+([^;\n]+?)\s*(?:;|$)", text):
            self.vars[m.group(1)] = m.group(2).split()[0]
        try:
            tokens = _lex(text)
        except ValueError:  # unbalanced quotes: not a command line
            return
        for st in _statements(tokens):
            if st[0] == "for" or st == ["done"]:
                continue
            if all(ASSIGN.match(t) for t in st):
                for t in st:
                    name, value = t.split("=", 1)
                    self.vars[name] = value
                continue
            st = self._expand(st, lineno)
            if st is None:
                continue
            st = _strip_prefix(st)
            if _is_command(st):
                self.commands.append(Command(self.file, lineno, where, shlex.join(st), tuple(st)))

    def _expand(self, tokens: list[str], lineno: int) -> list[str] | None:
        out = []
        for t in tokens:
            names = VAR.findall(t)
            missing = [n for n in names if n not in self.vars]
            if missing:
                self.unresolved.append((self.file, lineno, " ".join(tokens)))
                return None
            value = VAR.sub(lambda m: self.vars[m.group(1)], t)
            out.extend(value.split() if names else [value])  # word splitting, as unquoted $B does
        return out


def _join_synopsis(lines: list[tuple[int, str]]) -> list[tuple[int, str]]:
    """A synopsis goes on in an indented line of [--options] without a backslash."""
    out = []
    for n, text in lines:
        if out and text.strip().startswith("[-") and text[:1].isspace() and not out[-1][1].rstrip().endswith("\\"):
            out[-1] = (out[-1][0], out[-1][1].rstrip() + " " + text.strip())
        else:
            out.append((n, text))
    return out


def _join_continuations(lines: list[tuple[int, str]]) -> list[tuple[int, str]]:
    out, buf, start = [], "", None
    for n, text in lines:
        if start is None:
            start = n
        stripped = text.rstrip()
        if stripped.endswith("\\"):
            buf += stripped[:-1] + " "
            continue
        out.append((start, buf + text))
        buf, start = "", None
    if buf:
        out.append((start, buf))
    return out


@lru_cache(maxsize=None)
def extract() -> tuple[tuple[Command, ...], tuple[tuple[str, int, str], ...]]:
    commands, unresolved = [], []
    for path in DOC_FILES:
        rel = str(path.relative_to(ROOT))
        text = path.read_text()
        shell = _Shell(rel)
        prose = text
        for m in FENCE.finditer(text):
            first = text.count("\n", 0, m.start(3)) + 1
            blank = re.sub(r"[^\n]", " ", m.group(0))  # the prose without blocks, same line numbers
            prose = prose[:m.start()] + blank + prose[m.end():]
            if m.group(2).lower() in NOT_SHELL:
                continue
            body = _join_synopsis([(first + i, ln) for i, ln in enumerate(m.group(3).split("\n"))])
            for n, ln in _join_continuations(body):
                shell.line(ln, n, "block")
                if not _starts_like_command(ln.strip()):
                    for out in IN_OUTPUT.finditer(ln):
                        shell.line(out.group(1).strip(), n, "output")
        lines = prose.split("\n")
        indented, plain = [], []
        for i, ln in enumerate(lines):
            if re.match(r"^( {4,}|\t)\S", ln) and "`" not in ln:
                indented.append((i + 1, ln))
                plain.append("")
            else:
                plain.append(ln)
        for n, ln in _join_continuations(indented):
            shell.line(ln, n, "indented")
        plain_text = "\n".join(plain)
        for m in SPAN.finditer(plain_text):
            span = " ".join(m.group(1).split())
            n = plain_text.count("\n", 0, m.start()) + 1
            words = span.split()
            if ((SPACEMISSIONS.match(words[0]) and len(words) == 2 and not words[1].startswith("-"))
                    or (SCRIPT.match(words[0]) and len(words) <= 2 and not words[-1].startswith("-"))):
                # `spacemission arena`, `benchmarks/search_budget.py ranks`: names the command
                commands.append(Command(rel, n, "name", span, tuple(span.split())))
                continue
            shell.line(span, n, "span")
        commands.extend(shell.commands)
        unresolved.extend(shell.unresolved)
    return tuple(commands), tuple(unresolved)


COMMANDS_FOUND = extract()[0]


# ---------------------------------------------------------------- parsing

class _Parsed(Exception):
    def __init__(self, namespace):
        super().__init__("parsed")
        self.namespace = namespace


def _intercepted(call) -> argparse.Namespace:
    """Run ``call`` until its first ``ArgumentParser.parse_args`` returns; that result."""
    original = argparse.ArgumentParser.parse_args

    def parse_args(self, args=None, namespace=None):
        raise _Parsed(original(self, args, namespace))

    with mock.patch.object(argparse.ArgumentParser, "parse_args", parse_args):
        try:
            call()
        except _Parsed as done:
            return done.namespace
    raise AssertionError("the command returned without calling ArgumentParser.parse_args")


def _call_main(main, prog: str, args: list[str]) -> argparse.Namespace:
    if inspect.signature(main).parameters:
        return _intercepted(lambda: main(list(args)))
    with mock.patch.object(sys, "argv", [prog, *args]):
        return _intercepted(main)


@lru_cache(maxsize=None)
def _cli_parser(sub: str) -> argparse.ArgumentParser | None:
    from spacemission_cli.main import COMMANDS

    module = importlib.import_module(COMMANDS[sub][0])
    return module.build_parser() if hasattr(module, "build_parser") else None


@lru_cache(maxsize=None)
def _train_parser(backend: str) -> argparse.ArgumentParser:
    if backend == "rllib":
        from spacemission_training.rllib import build_parser
    else:
        from spacemission_training.config import build_parser
    return build_parser()


def _parser_of(sub: str, args: list[str]) -> tuple[argparse.ArgumentParser | None, list[str]]:
    """(the parser that reads ``args`` of ``spacemission SUB``, the arguments it reads)."""
    if sub == "train":
        from spacemission_cli.train import _split_backend

        backend, rest = _split_backend(args)
        return _train_parser(backend or "sb3"), rest
    return _cli_parser(sub), args


def _run_parser(parse) -> str | None:
    """None when ``parse()`` succeeds (or prints --help and exits 0), else the error text."""
    err, out = io.StringIO(), io.StringIO()
    try:
        with contextlib.redirect_stderr(err), contextlib.redirect_stdout(out):
            parse()
    except SystemExit as exc:
        if exc.code not in (0, None):
            return err.getvalue().strip() or f"exit status {exc.code}"
    return None


def _substitute(args: list[str]) -> list[str]:
    out = []
    synopsis = any(a.startswith("[") for a in args)
    for a in args:
        if synopsis:
            a = a.strip("[]")
            if "|" in a:
                a = a.split("|")[0]
            if not a:
                continue
        elif "|" in a and not a.startswith("-"):
            a = a.split("|")[0]  # `--rules yucata|schmidt`: one of them
        a = PLACEHOLDERS.get(a, a)
        for part, value in PLACEHOLDER_PARTS.items():
            a = a.replace(part, value)
        out.append(a)
    return out


def _module_of_python(argv: tuple[str, ...]) -> tuple[str, str, list[str]]:
    """("module", NAME, args) for python -m NAME, ("script", PATH, args) for python PATH."""
    if SCRIPT.match(argv[0]):
        return "script", argv[0], list(argv[1:])
    if argv[1] == "-m":
        return "module", argv[2], list(argv[3:])
    return "script", argv[1], list(argv[2:])


PYTEST_VALUED = {"-m", "-k", "-p", "-c", "-o", "--rootdir", "--ignore", "--deselect", "--maxfail", "--tb"}


def check_python(argv: tuple[str, ...]) -> str | None:
    kind, name, args = _module_of_python(argv)
    args = _substitute(args)
    if kind == "module" and name == "pytest":
        paths = [a for i, a in enumerate(args) if not a.startswith("-") and (i == 0 or args[i - 1] not in PYTEST_VALUED)]
        missing = [a.split("::")[0] for a in paths if not (ROOT / a.split("::")[0]).exists()]
        return f"pytest paths missing: {missing}" if missing else None
    if kind == "module":
        if importlib.util.find_spec(name) is None:
            return f"no module {name!r}"
        if name == "spacemission_cli":  # its __main__ is the spacemission command
            return check_spacemission(("spacemission", *args))
        if name == "spacemission_training.train_ppo":  # the train parser, without importing torch and sb3
            return _run_parser(lambda: _train_parser("sb3").parse_args(args))
        module = importlib.import_module(name)
        prog = f"python -m {name}"
    else:
        path = ROOT / name
        if not path.is_file():
            return f"no script {name}"
        module = load_tool(path.stem, path.parent.name)
        prog = name
    if not hasattr(module, "main"):
        return f"{name} has no main()"
    return _run_parser(lambda: _call_main(module.main, prog, args))


@lru_cache(maxsize=None)
def _makefile() -> tuple[set[str], set[str]]:
    text = (ROOT / "Makefile").read_text()
    targets = set(re.findall(r"^([A-Za-z0-9_-][A-Za-z0-9_.-]*)\s*:(?!=)", text, flags=re.M))  # not .PHONY
    variables = set(re.findall(r"^([A-Za-z_][A-Za-z0-9_]*)\s*[?:+]?=", text, flags=re.M))
    variables |= set(re.findall(r"\$\(([A-Za-z_][A-Za-z0-9_]*)\)", text))  # used, set on the command line
    return targets, variables


def check_make(argv: tuple[str, ...]) -> str | None:
    targets, variables = _makefile()
    problems = []
    for a in argv[1:]:
        if "=" in a:
            name, value = a.split("=", 1)
            if name not in variables:
                problems.append(f"variable {name} is not in the Makefile")
            if name == "ARGS" and "train" in argv:
                error = _run_parser(lambda: _train_parser("sb3").parse_args(shlex.split(value)))
                if error:
                    problems.append(f"make train ARGS: {error}")
        elif a.startswith("-"):
            problems.append(f"option {a} of make: not checked")
        elif a not in targets:
            problems.append(f"no target {a!r} in the Makefile (targets: {', '.join(sorted(targets))})")
    return "; ".join(problems) or None


def check_spacemission(argv: tuple[str, ...]) -> str | None:
    from spacemission_cli.main import COMMANDS

    if len(argv) < 2:
        return None  # the bare command
    sub = argv[1]
    if sub.startswith("-"):
        return _run_parser(lambda: __import__("spacemission_cli.main", fromlist=["_parser"])._parser().parse_args(argv[1:]))
    if sub not in COMMANDS:
        return f"no subcommand {sub!r} (expected one of {', '.join(COMMANDS)})"
    args = _substitute(list(argv[2:]))
    parser, rest = _parser_of(sub, args)
    if parser is not None:
        namespace = []
        error = _run_parser(lambda: namespace.append(parser.parse_args(rest)))
        return error or (check_agent_specs(sub, namespace[0]) if namespace else None)
    module = importlib.import_module(COMMANDS[sub][0])
    return _run_parser(lambda: _call_main(module.main, f"spacemission {sub}", rest))


def check_agent_specs(sub: str, ns: argparse.Namespace) -> str | None:
    """The agent specs of --agents (arena, bench), --opponents (play, serve; train's
    NAME=WEIGHT groups) and --eval-opponents (train) name a registered agent of the game, or MODULE:CLASS, with parameters its constructor takes
    (as the command checks them after parsing; ppo:PATH models are not loaded)."""
    from spacemission_agents.registry import _check_kwargs, _resolve, parse_spec

    game = getattr(ns, "game", None) or "spacemission"
    try:
        if sub == "train":  # --opponents NAME=WEIGHT,... (the pool's groups; self is the learner)
            from spacemission_training.pool import SELF, parse_weights

            specs = [g for g in parse_weights(ns.opponents) if g != SELF] if getattr(ns, "opponents", None) else []
            specs += [s for s in (getattr(ns, "eval_opponents", None) or "").split(",") if s]
        else:
            specs = [s for option in ("agents", "opponents") for s in (getattr(ns, option, None) or "").split(",") if s]
        for spec in specs:
            target, path, kwargs = parse_spec(spec, game)
            if target != "ppo":
                _check_kwargs(_resolve(target, spec, game), kwargs, spec)
    except ValueError as exc:
        return str(exc)
    return None


def check_options_only(argv: tuple[str, ...]) -> str | None:
    """For PARTIAL: every --option written exists in the parser."""
    assert SPACEMISSIONS.match(argv[0]), "PARTIAL holds spacemission commands only"
    parser, rest = _parser_of(argv[1], list(argv[2:]))
    known = set(parser._option_string_actions)
    unknown = [a.split("=")[0] for a in rest if a.startswith("-") and a.split("=")[0] not in known]
    return f"unknown options {unknown}" if unknown else None


def check(command: Command) -> str | None:
    if command.where == "name":
        if SCRIPT.match(command.argv[0]):  # the script exists; a word after it is one of its subcommands
            if not (ROOT / command.argv[0]).is_file():
                return f"no script {command.argv[0]}"
            return check_python(("python", *command.argv, "--help")) if len(command.argv) > 1 else None
        from spacemission_cli.main import COMMANDS

        return None if command.argv[1] in COMMANDS else f"no subcommand {command.argv[1]!r}"
    if command.text in PARTIAL:
        return check_options_only(command.argv)
    if command.kind == "spacemission":
        return check_spacemission(command.argv)
    if command.kind == "make":
        return check_make(command.argv)
    return check_python(command.argv)


# ---------------------------------------------------------------- tests

def test_commands_are_found():
    commands, _ = extract()
    files = {c.file for c in commands}
    assert len(commands) >= MIN_COMMANDS, f"only {len(commands)} commands found: did a pattern break?"
    for kind, least in MIN_BY_KIND.items():
        found = sum(c.kind == kind for c in commands)
        assert found >= least, f"only {found} {kind} commands found (at least {least} expected)"
    assert len(files) >= MIN_FILES, f"commands found in only {len(files)} files"
    for where in ("block", "indented", "span", "output", "name"):
        assert any(c.where == where for c in commands), f"no command found in a {where}"


def test_every_variable_is_assigned():
    """A $NAME the docs never assign cannot be checked: say so instead of dropping it."""
    assert not extract()[1], "commands with unassigned variables: " + "; ".join(
        f"{f}:{n}: {t}" for f, n, t in extract()[1])


def test_lists_are_current():
    texts = {c.text for c in COMMANDS_FOUND}
    stale = sorted((set(SKIP) | set(PARTIAL)) - texts)
    assert not stale, f"SKIP/PARTIAL entries that match no command in the docs any more: {stale}"


@pytest.mark.parametrize("command", COMMANDS_FOUND, ids=[c.id for c in COMMANDS_FOUND])
def test_command_parses(command: Command):
    if command.text in SKIP:
        pytest.skip(SKIP[command.text])
    error = check(command)
    assert error is None, f"{command.file}:{command.line}: `{command.text}` does not parse:\n{error}"
