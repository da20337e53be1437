"""The packages' annotations are true: spacemission_env and spacemission_agents (the bots,
arena and PPO agent) ship ``py.typed`` (PEP 561), so a user's type checker reads them, and mypy
(pyproject's ``[tool.mypy]``: default settings, ``check_untyped_defs`` and
``warn_unreachable``) finds no error in
them, nor in the command line (spacemission_cli) and the trainer (training/spacemission_training),
programs that ship no ``py.typed``. Skipped, saying so, where mypy is not installed or older than
the ``dev`` extra's bound (``make install`` installs that extra). Also: a docstring on every exported name and public method of the interfaces."""
import inspect
import os
import re
import subprocess
import sys

import pytest

from tests.helpers.paths import ROOT, pyproject


# what mypy checks, as paths from the repository root (mypy finds the packages' names from them)
CHECKED = ("spacemission_env", "agents/spacemission_agents", "spacemission_cli", "training/spacemission_training")
# of those, the libraries users type-check against (py.typed); the command line and the trainer
# are programs, checked all the same
TYPED = ("spacemission_env", "agents/spacemission_agents")


def require_mypy() -> None:
    """Skip, saying why, without mypy or with one older than the dev extra's bound (2.0: 1.x
    reports errors 2.x does not, docs/dependencies.md)."""
    pytest.importorskip("mypy", reason="mypy is not installed (pip install -e '.[dev]' installs it)")
    from mypy.version import __version__

    if int(__version__.split(".")[0]) < 2:
        pytest.skip(f"mypy {__version__} is older than the dev extra's mypy>=2.0")


def _mypy(args, cache, **run) -> subprocess.CompletedProcess:
    """``python -m mypy ARGS`` with the ``mypy_cache`` fixture's cache, held while it runs."""
    with cache.held() as cache_dir:
        return subprocess.run([sys.executable, "-m", "mypy", "--cache-dir", cache_dir, "--no-error-summary",
                               "--hide-error-context", *args], capture_output=True, text=True, timeout=600, **run)


def run_mypy(paths, cache) -> subprocess.CompletedProcess:
    """mypy on ``paths`` of the checkout (pyproject's ``[tool.mypy]``)."""
    return _mypy(paths, cache, cwd=ROOT)


def run_mypy_as_user(folder, names, cache) -> subprocess.CompletedProcess:
    """mypy on a user's files ``names`` in ``folder``, with pyproject's ``[tool.mypy]`` and the
    checkout's packages found as a user's installed copy (agents/ and training/ are folders of
    packages; an editable install's import hook is invisible to mypy)."""
    env = dict(os.environ, MYPYPATH=os.pathsep.join(str(ROOT / p) for p in ("agents", "training", ".")))
    return _mypy(["--config-file", str(ROOT / "pyproject.toml"), *names], cache, cwd=folder, env=env)


def test_each_library_is_marked_typed():
    for path in TYPED:
        assert (ROOT / path / "py.typed").is_file(), path
    for path in set(CHECKED) - set(TYPED):
        assert not (ROOT / path / "py.typed").exists(), f"{path} is a program, not a typed library"


def test_mypy_targets_the_oldest_supported_python():
    """[tool.mypy] python_version is requires-python's floor: an annotation only a newer
    Python reads (``X | Y`` at run time, ``typing.Self``) is an error, not a user's surprise."""
    project = pyproject()
    floor = re.fullmatch(r">=(3\.\d+)", project["project"]["requires-python"]).group(1)
    assert project["tool"]["mypy"]["python_version"] == floor


@pytest.mark.integration
def test_mypy_finds_no_error(mypy_cache):
    """mypy on the packages in CHECKED, with the session's shared cache (tests/conftest.py's
    ``mypy_cache``, which says what it saves): every error is
    listed. Fix the annotation or the code; a ``# type: ignore[code]`` only with a
    reason, where the checker cannot follow (numba's run-time names, numpy's dtype overloads)."""
    require_mypy()
    out = run_mypy(CHECKED, mypy_cache)
    errors = [line for line in out.stdout.splitlines() if ": error:" in line]
    assert out.returncode == 0 and not errors, "\n".join(errors) or (out.stdout + out.stderr)[-3000:]


@pytest.mark.integration
def test_mypy_reports_a_wrong_annotation(tmp_path, mypy_cache):
    """The check above can fail: the same run on a module with a wrong return annotation
    reports it (a misconfigured run that checked nothing would pass silently)."""
    require_mypy()
    bad = tmp_path / "bad_annotation.py"
    bad.write_text("def f(x: int) -> str:\n    return x\n")
    out = run_mypy([str(bad)], mypy_cache)
    assert out.returncode == 1 and "bad_annotation.py:2: error: Incompatible return value type" in out.stdout


# The public API a user's IDE shows: every name spacemission_env exports and the interfaces'
# classes, with every public method and property (their own or inherited from our bases).
def _public_api():
    import spacemission_env as S
    from spacemission_env.sb3 import GameVecEnv
    from spacemission_env.vector import VectorEnv

    named = {n: getattr(S, n) for n in S.__all__}
    classes = [o for o in named.values() if inspect.isclass(o)] + [VectorEnv, GameVecEnv]
    return named, classes


def test_every_public_name_and_method_has_a_docstring():
    """help() on the package's names reads well: each exported function and class, and each
    public method or property our classes define (a library base's own docs, Gymnasium's or
    SB3's, are theirs and not checked), says what it takes and returns."""
    pytest.importorskip("stable_baselines3", reason="spacemission_env.sb3 needs the sb3 extra")
    named, classes = _public_api()
    missing = [n for n, o in named.items() if (inspect.isclass(o) or inspect.isfunction(o)) and not o.__doc__]
    for cls in classes:
        for klass in cls.__mro__:
            if not klass.__module__.startswith("spacemission_env"):
                continue
            for name, v in vars(klass).items():
                if name.startswith("_"):
                    continue
                f = v.fget if isinstance(v, property) else getattr(v, "__func__", v)
                if inspect.isfunction(f) and not (f.__doc__ or "").strip():
                    missing.append(f"{cls.__name__}.{name} (defined in {klass.__name__})")
    assert not missing, sorted(set(missing))


@pytest.mark.integration
def test_make_agent_names_each_registered_class_and_every_agent_is_a_policy(tmp_path, mypy_cache):
    """``make_agent`` with a registered name alone is, to a checker, the class that name
    builds at run time (the registry's entry, so a user reads the bot's own attributes),
    for each game; any other spec is a ``Policy`` (what make_agent checks at run time);
    and each registered class is a ``Policy`` structurally (an instance assigns to it)."""
    require_mypy()
    from spacemission_agents.registry import AGENTS_BY_GAME

    lines = ["from spacemission_agents.registry import make_agent",
             "from spacemission_env.policies import Policy"]
    expected = {}
    for game, entries in AGENTS_BY_GAME.items():
        for name, entry in entries.items():
            call = f"make_agent({name!r})" if game == "spacemission" else f"make_agent({name!r}, game={game!r})"
            lines.append(f"reveal_type({call})")
            expected[len(lines)] = f"{entry.module}.{entry.attr}"
            lines.append(f"from {entry.module} import {entry.attr} as {entry.attr}_{len(lines)}")
            lines.append(f"def as_policy_{len(lines)}(agent: {entry.attr}_{len(lines) - 1}) -> Policy:")
            lines.append("    return agent")
    lines.append("reveal_type(make_agent('search:budget=0.1'))")
    expected[len(lines)] = "spacemission_env.policies.Policy"
    lines.append("reveal_type(make_agent('mypkg.bots:MyBot', seed=1, game='red_planet'))")
    expected[len(lines)] = "spacemission_env.policies.Policy"
    src = tmp_path / "agent_types.py"
    src.write_text("\n".join(lines) + "\n")
    out = run_mypy_as_user(tmp_path, [src.name], mypy_cache)
    errors = [line for line in out.stdout.splitlines() if ": error:" in line]
    assert not errors, "\n".join(errors)
    revealed = {int(m.group(1)): m.group(2) for m in re.finditer(r"agent_types\.py:(\d+): note: Revealed type is \"(.+?)\"",
                                                                 out.stdout)}
    assert revealed == expected, out.stdout


def test_the_agents_public_methods_annotate_every_parameter():
    """A user's checker reads every parameter of the bots' and results' public methods
    (``bind(config)`` takes games.BindConfig, ``save(path)`` a path), not an implicit Any:
    each public method of each public class of spacemission_agents annotates its parameters
    (``*args`` / ``**kwargs`` aside). Modules whose optional imports are missing are skipped."""
    import importlib
    import pkgutil

    import spacemission_agents

    missing, classes = [], 0
    for info in pkgutil.walk_packages(spacemission_agents.__path__, "spacemission_agents."):
        try:
            module = importlib.import_module(info.name)
        except ImportError:
            continue
        for cname, cls in vars(module).items():
            if not inspect.isclass(cls) or cls.__module__ != module.__name__ or cname.startswith("_"):
                continue
            classes += 1
            for name, v in vars(cls).items():
                f = v.fget if isinstance(v, property) else getattr(v, "__func__", v)
                if name.startswith("_") or not inspect.isfunction(f):
                    continue
                for p in list(inspect.signature(f).parameters.values())[1:]:  # self / cls aside
                    if p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD) and p.annotation is inspect.Parameter.empty:
                        missing.append(f"{module.__name__}.{cname}.{name}({p.name})")
    assert classes > 20 and not missing, missing


@pytest.mark.integration
def test_bind_takes_a_config_and_refuses_what_is_none(tmp_path, mypy_cache):
    """What a bot's ``bind`` takes, to a checker: a GameConfig (what the envs pass), a mapping
    with its keys, or an object with ``num_players`` (games.BindConfig, as bind_config reads
    them at run time); a number is an error, for a bot of each game."""
    require_mypy()
    src = tmp_path / "bind_types.py"
    src.write_text(
        "from dataclasses import dataclass\n"
        "from spacemission_agents.greedy import GreedyAgent\n"
        "from spacemission_agents.red_planet.greedy import GreedyBot\n"
        "from spacemission_env import GameConfig\n"
        "@dataclass\n"
        "class Mine:\n"
        "    num_players: int\n"
        "def bind_all(bot: GreedyAgent | GreedyBot) -> None:\n"
        "    bot.bind(GameConfig(3, game='red_planet'))\n"
        "    bot.bind({'num_players': 3})\n"
        "    bot.bind(Mine(3))\n"
        "    bot.bind(3)\n")
    out = run_mypy_as_user(tmp_path, [src.name], mypy_cache)
    errors = [line for line in out.stdout.splitlines() if ": error:" in line]
    refused = 'bind_types.py:12: error: Argument 1 to "bind"'  # one error per bot class of the union
    assert len(errors) == 2 and all(e.startswith(refused) for e in errors), out.stdout


POLICY_USER_CODE = '''\
from typing import Protocol

import numpy as np

from spacemission_env.policies import BasePolicy, Policy


class MyAgent:  # a user's own agent, typed as policies.Policy is
    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        return int(np.flatnonzero(action_mask)[0])

    def act_batch(self, observations: np.ndarray, action_masks: np.ndarray) -> np.ndarray:
        return np.argmax(action_masks, axis=1)


class MyBase(BasePolicy):
    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        return int(np.flatnonzero(action_mask)[0])


def as_policy(agent: MyAgent, base: MyBase) -> list[Policy]:
    return [agent, base]


class WidePolicy(Protocol):  # Policy, were act to take None too
    def act(self, observation: np.ndarray | None, action_mask: np.ndarray) -> int: ...
    def act_batch(self, observations: np.ndarray | None, action_masks: np.ndarray) -> np.ndarray: ...


def as_wide(agent: MyAgent) -> WidePolicy:
    return agent  # WIDE-PROTOCOL


class WideBase:  # BasePolicy, were its act to take None too
    def act(self, observation: np.ndarray | None, action_mask: np.ndarray) -> int:
        return 0


class MyWideBase(WideBase):
    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:  # WIDE-BASE
        return 0
'''


@pytest.mark.integration
def test_a_users_agent_typed_ndarray_is_a_policy_and_none_stays_out_of_the_protocol(tmp_path, mypy_cache):
    """Why ``Policy.act`` and ``BasePolicy.act`` take ``observation: np.ndarray`` although
    BasePolicy (and the bots that read only the mask) also accept None at run time: a
    parameter type is contravariant, so a protocol taking ``np.ndarray | None`` would refuse
    every user's agent typed ``np.ndarray`` (WidePolicy below), and a BasePolicy taking it would
    make each such override of ``act`` an error (WideBase). As typed, both are accepted. The
    environments never pass None (a mask-only policy gets an empty array: policies.py)."""
    require_mypy()
    src = tmp_path / "policy_types.py"
    src.write_text(POLICY_USER_CODE)
    out = run_mypy_as_user(tmp_path, [src.name], mypy_cache)
    lines = POLICY_USER_CODE.splitlines()
    wide = {i + 1 for i, line in enumerate(lines) if "WIDE-" in line}
    errors = [line for line in out.stdout.splitlines() if ": error:" in line]
    assert {int(e.split(":")[1]) for e in errors} == wide and len(errors) == 2, out.stdout
    assert any("incompatible with supertype" in e for e in errors), out.stdout


# documented uses (docs/arena.md, docs/pettingzoo.md's env(), docs/state_json.md, docs/games.md,
# the module doc of spacemission_env.sb3) and what a user's checker reads of them: each line's
# revealed type must hold all its words (numpy spells its dtypes differently across versions),
# or be the one after "="
REVEALED = [
    ("from spacemission_agents.arena import run_arena", None),
    ("from spacemission_env import env, get_game, red_planet_v2, spacemission_v3", None),
    ("from spacemission_env.red_planet.rules import GameState", None),
    ("from spacemission_env.space_mission.rules import from_json", None),
    ("from spacemission_env.sb3 import GameVecEnv", None),
    ("result = run_arena(['random', 'kind-random'], num_players=2, games=10, seed=0)", None),
    ("reveal_type(result)", ["spacemission_agents.arena_result.ArenaResult"]),
    ("reveal_type(result.save('x'))", ["dict[str, pathlib.Path]"]),
    ("e = red_planet_v2.env()", None),
    ("reveal_type(e)", ["spacemission_env.pettingzoo_env.FastOrderEnforcingWrapper"]),
    ("reveal_type(spacemission_v3.env())", ["spacemission_env.pettingzoo_env.FastOrderEnforcingWrapper"]),
    ("reveal_type(env())", ["spacemission_env.pettingzoo_env.FastOrderEnforcingWrapper"]),
    ("reveal_type(e.last()[0]['action_mask'])", ["numpy.ndarray", "8Bit", "32Bit"]),
    ("reveal_type(e.last(observe=False)[0])", ["None"]),
    ("reveal_type(red_planet_v2.raw_env().last()[0])", ["dict[str, numpy.ndarray"]),
    ("reveal_type(get_game('red_planet'))", ["spacemission_env.games.Game"]),
    ("reveal_type(get_game('red_planet').action_label(0))", ["=str"]),
    ("reveal_type(GameState.from_json('{}'))", ["spacemission_env.red_planet.rules.state.GameState"]),
    ("reveal_type(from_json('{}'))", ["spacemission_env.space_mission.rules.state.GameState"]),
    ("venv = GameVecEnv(2)", None),
    ("reveal_type(venv.reset())", ["numpy.ndarray", "8Bit", "32Bit"]),
    ("reveal_type(venv.step_wait()[3])", ["=list[dict[str, Any]]"]),
    ("reveal_type(venv.action_masks())", ["numpy.ndarray", "numpy.bool"]),
]


@pytest.mark.integration
def test_documented_uses_reveal_their_types(tmp_path, mypy_cache):
    """The arena's result, the PettingZoo ``env()`` of each module (its ``last()`` has the
    observation unless ``observe=False``: raw_env.last's overloads), a game's labels, a JSON
    state loaded back and the SB3 VecEnv's returns are what a checker reads: none is Any."""
    require_mypy()
    pytest.importorskip("stable_baselines3", reason="spacemission_env.sb3 needs the sb3 extra")
    src = tmp_path / "documented_types.py"
    src.write_text("\n".join(code for code, _ in REVEALED) + "\n")
    out = run_mypy_as_user(tmp_path, [src.name], mypy_cache)
    errors = [line for line in out.stdout.splitlines() if ": error:" in line]
    assert not errors, "\n".join(errors)
    revealed = {int(m.group(1)): m.group(2) for m in re.finditer(
        r"documented_types\.py:(\d+): note: Revealed type is \"(.+?)\"$", out.stdout, re.M)}
    wrong = {REVEALED[n - 1][0]: t for n, t in revealed.items()
             if not all(t == w[1:] if w.startswith("=") else w in t for w in REVEALED[n - 1][1])}
    assert set(revealed) == {n + 1 for n, (_, words) in enumerate(REVEALED) if words} and not wrong, out.stdout
