"""Agents by name: ``make_agent("search:budget=0.1")``, ``make_agent("heuristic",
game="red_planet")`` (docs/arena.md, "Agent specs"). Each game has its own names
(:data:`AGENTS_BY_GAME`); an import path works for every game.

Spec syntax (one agent; the command line separates agents with commas, so a spec
never contains one)::

    NAME[:KEY=VALUE]...              a registered name, e.g. heuristic:set_potential=1.0
    ppo[:PATH][:KEY=VALUE]...        the shipped PPO model, or the one saved at PATH
    MODULE:ATTR[:KEY=VALUE]...       any importable class or factory, e.g. mypkg.bots:MyBot

A PATH holding ':' or '=' is read whole where it names an existing file (the longest
run of ':'-separated items that does; see :func:`split_model_path`).

Values are Python literals where they parse as one (``0.1``, ``2``, ``True``,
``None``, ``'text'``), else plain strings (``rollout=greedy``). The keyword
arguments go to the class (or factory); a ``seed`` given to :func:`make_agent`
goes to the constructor's ``seed`` parameter when it has one, else to the agent's
``seed()`` method. Every failure (unknown name, module not importable, unknown or
bad parameter, a constructor that rejects its arguments) is a ValueError that
names the spec and lists what is allowed, raised before any game is played.
"""
from __future__ import annotations

import ast
import functools
import importlib
import importlib.util
import inspect
import os
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal, overload

from spacemission_env.checks import cut, cut_long_words, shown  # echoed values: cut to SHOWN_CHARS

if TYPE_CHECKING:  # the bots' modules are imported on demand at run time (a missing one fails only when asked for)
    from .greedy import GreedyAgent
    from .heuristic import HeuristicAgent
    from .netsearch import NetSearchAgent
    from .ppo import PPOAgent
    from .random_agents import KindRandomAgent, RandomAgent
    from .red_planet.greedy import GreedyBot
    from .red_planet.heuristic import HeuristicBot
    from .red_planet.random_bot import RandomBot
    from .search import SearchAgent
    from spacemission_env.policies import Policy

__all__ = ["AGENTS", "AGENTS_BY_GAME", "SPEC_SYNTAX", "agent_display_name", "available_agents", "make_agent",
           "model_free_agents", "parse_spec", "protocol_problem"]


@dataclass(frozen=True)
class _Entry:
    module: str
    attr: str
    doc: str
    needs_model: bool = False  # plays only with a model file (a shipped one, or ppo:PATH)


# name -> where the class lives; imported on demand so a missing bot only fails when asked for
AGENTS: dict[str, _Entry] = {
    "random": _Entry("spacemission_agents.random_agents", "RandomAgent", "uniform over legal action ids"),
    "kind-random": _Entry("spacemission_agents.random_agents", "KindRandomAgent", "uniform over legal action kinds, then ids"),
    "greedy": _Entry("spacemission_agents.greedy", "GreedyAgent", "one ply: best immediate gain in own score"),
    "heuristic": _Entry("spacemission_agents.heuristic", "HeuristicAgent", "planning heuristic with parameters"),
    "search": _Entry("spacemission_agents.search", "SearchAgent", "determinized Monte Carlo search (budget per decision)"),
    "ppo": _Entry("spacemission_agents.ppo", "PPOAgent", "shipped PPO model; ppo:PATH loads a saved one", True),
    "netsearch": _Entry("spacemission_agents.netsearch", "NetSearchAgent",
                        "PUCT over determinized worlds: PPO prior, the policy's games to the end (budget per decision)",
                        True),
}
RED_PLANET_AGENTS: dict[str, _Entry] = {
    "random": _Entry("spacemission_agents.red_planet.random_bot", "RandomBot", "uniform over legal action ids"),
    "greedy": _Entry("spacemission_agents.red_planet.greedy", "GreedyBot", "one ply: best immediate gain"),
    "heuristic": _Entry("spacemission_agents.red_planet.heuristic", "HeuristicBot",
                        "majorities, roles and bonus cards"),
    "ppo": _Entry("spacemission_agents.ppo", "PPOAgent", "shipped PPO model; ppo:PATH loads a saved one", True),
}
AGENTS_BY_GAME: dict[str, dict[str, _Entry]] = {"spacemission": AGENTS, "red_planet": RED_PLANET_AGENTS}
# a game of the protocol without its own names (docs/games.md, "Adding a game"): the agents that play any game
GAME_NEUTRAL_AGENTS: dict[str, _Entry] = {name: AGENTS[name] for name in ("random", "ppo")}
# a ppo:PATH spec whose path holds ':' or '=' and names no file reads as parameters: said where one fails
MODEL_PATH_HINT = ("a model path holding ':' or '=' is read whole only where it names an existing file (a relative "
                   "one from the current directory): check the path, or link the file under a name without them (ln -s)")
SPEC_SYNTAX = "NAME[:KEY=VALUE]..., ppo[:PATH][:KEY=VALUE]... or MODULE:CLASS[:KEY=VALUE]..."


def _agents(game: str) -> dict[str, _Entry]:
    if not isinstance(game, str) or game not in AGENTS_BY_GAME:  # a list: "unhashable type" before
        from spacemission_env.games import GAMES

        if isinstance(game, str) and game in GAMES:
            return GAME_NEUTRAL_AGENTS
        raise ValueError(f"unknown game {shown(game)}; expected one of {sorted({*AGENTS_BY_GAME, *GAMES})}")
    return AGENTS_BY_GAME[game]


def _allowed(game: str = "spacemission") -> str:
    return ", ".join(_agents(game)) + ", ppo:PATH, or an import path MODULE:CLASS"


def _parse_value(text: str):
    try:
        return ast.literal_eval(text)
    except (ValueError, SyntaxError, MemoryError, RecursionError):
        return text


def split_model_path(items: list[str]) -> tuple[str | None, list[str]]:
    """(model path, KEY=VALUE items) of what follows ``ppo:`` (split at ':'). The path is
    the longest run of leading items that, joined with ':' again, names an existing file,
    so a path holding ':' or '=' can be given (``ppo:runs/lr=3e-4/final.npz``); where none
    does, the first item if it holds no '=' (a missing file, named when it is loaded), else none."""
    for k in range(len(items), 0, -1):
        candidate = ":".join(items[:k]).strip()
        try:
            found = bool(candidate) and os.path.isfile(candidate)  # as PPOAgent.load opens it
        except (OSError, ValueError):  # a NUL, a name too long
            found = False
        if found:
            return candidate, [p.strip() for p in items[k:]]
    rest = [p.strip() for p in items]
    if "=" not in rest[0]:
        return rest[0], rest[1:]
    return None, rest


def parse_spec(spec: str, game: str = "spacemission") -> tuple[str, str | None, dict]:
    """(target, path, kwargs) of a spec: target is a registered name of ``game`` or
    "MODULE:ATTR"; path is the PPO model path (``ppo:PATH``) or None. ValueError on a
    malformed spec."""
    names = _agents(game)
    if not isinstance(spec, str) or not spec.strip():
        raise ValueError(f"agent spec must be a non-empty string ({SPEC_SYNTAX}); got {shown(spec)}")
    parts = spec.strip().split(":")
    head, rest = parts[0].strip(), [p.strip() for p in parts[1:]]
    path = None
    if head in names:
        target = head
        if head == "ppo" and rest:
            path, rest = split_model_path(parts[1:])
    else:
        if not rest or "=" in rest[0] or not rest[0]:
            raise ValueError(f"unknown agent {shown(head)} in spec {shown(spec)}; expected one of {_allowed(game)}")
        target, rest = f"{head}:{rest[0]}", rest[1:]
    kwargs = {}
    for item in rest:
        key, eq, value = item.partition("=")
        key = key.strip()
        if not eq or not key.isidentifier():
            hint = f"; {MODEL_PATH_HINT}" if target == "ppo" else ""
            raise ValueError(f"agent spec {shown(spec)}: parameter {shown(item)} is not KEY=VALUE "
                             f"(syntax: {SPEC_SYNTAX}){hint}")
        if key in kwargs:
            raise ValueError(f"agent spec {shown(spec)}: parameter {shown(key)} given twice")
        kwargs[key] = _parse_value(value.strip())
    return target, path, kwargs


def _resolve(target: str, spec: str, game: str = "spacemission"):
    """The class or factory a target names (imported now)."""
    names = _agents(game)
    if target in names:
        module_name, attr = names[target].module, names[target].attr
    else:
        module_name, _, attr = target.partition(":")
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        hint = ""
        if isinstance(exc, ModuleNotFoundError) and exc.name == module_name.split(".")[0]:
            hint = f"; is the directory that holds {shown(exc.name)} the current one or on PYTHONPATH?"
        raise ValueError(f"agent {shown(spec)} is not available: cannot import module {shown(module_name)} "
                         f"({cut_long_words(str(exc))}){hint}; "
                         f"available: {', '.join(available_agents(game))}") from exc
    except Exception as exc:  # noqa: BLE001 - a module that fails as it loads (SyntaxError, its own errors)
        raise ValueError(f"agent {shown(spec)}: importing module {shown(module_name)} failed: "
                         f"{type(exc).__name__}: {cut_long_words(str(exc))}") from exc
    obj = module
    for part in attr.split("."):
        if not hasattr(obj, part):
            raise ValueError(f"agent {shown(spec)}: module {shown(module_name)} has no attribute {shown(attr)}")
        obj = getattr(obj, part)
    return obj


def _accepts(fn, name: str) -> bool:
    try:
        params = inspect.signature(fn).parameters.values()
    except (TypeError, ValueError):
        return False
    return any(p.name == name or p.kind is p.VAR_KEYWORD for p in params)


def _check_kwargs(fn, kwargs: dict, spec: str) -> None:
    try:
        sig = inspect.signature(fn)
    except (TypeError, ValueError):
        return  # builtins without a signature: let the call decide
    try:
        sig.bind_partial(**kwargs)
    except TypeError as exc:
        names = [p.name for p in sig.parameters.values() if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)]
        raise ValueError(f"agent spec {shown(spec)}: {cut_long_words(str(exc))}; accepted parameters: "
                         f"{', '.join(names) or 'none'}") from exc


# The return type a checker sees: a registered name alone (no parameters, no path) is its class,
# with the bot's own attributes (``make_agent("heuristic").params``); any other spec is a
# Policy, the protocol that make_agent checks at run time (``act`` and ``act_batch``).
@overload
def make_agent(spec: Literal["random"], seed: int | None = None,
               game: Literal["spacemission"] = "spacemission") -> RandomAgent: ...
@overload
def make_agent(spec: Literal["kind-random"], seed: int | None = None,
               game: Literal["spacemission"] = "spacemission") -> KindRandomAgent: ...
@overload
def make_agent(spec: Literal["greedy"], seed: int | None = None,
               game: Literal["spacemission"] = "spacemission") -> GreedyAgent: ...
@overload
def make_agent(spec: Literal["heuristic"], seed: int | None = None,
               game: Literal["spacemission"] = "spacemission") -> HeuristicAgent: ...
@overload
def make_agent(spec: Literal["search"], seed: int | None = None,
               game: Literal["spacemission"] = "spacemission") -> SearchAgent: ...
@overload
def make_agent(spec: Literal["netsearch"], seed: int | None = None,
               game: Literal["spacemission"] = "spacemission") -> NetSearchAgent: ...
@overload
def make_agent(spec: Literal["ppo"], seed: int | None = None, game: str = "spacemission") -> PPOAgent: ...
@overload
def make_agent(spec: Literal["random"], seed: int | None = None, *, game: Literal["red_planet"]) -> RandomBot: ...
@overload
def make_agent(spec: Literal["greedy"], seed: int | None = None, *, game: Literal["red_planet"]) -> GreedyBot: ...
@overload
def make_agent(spec: Literal["heuristic"], seed: int | None = None, *, game: Literal["red_planet"]) -> HeuristicBot: ...
@overload
def make_agent(spec: str, seed: int | None = None, game: str = "spacemission") -> Policy: ...


def make_agent(spec: str, seed: int | None = None, game: str = "spacemission") -> Policy:
    """A new agent of ``game`` from its spec (see the module docstring). ValueError naming
    the spec on any failure; the agent implements ``act`` and ``act_batch``
    (:class:`spacemission_env.policies.Policy`; to a type checker a registered name alone,
    e.g. ``make_agent("heuristic")``, is its class)."""
    target, path, kwargs = parse_spec(spec, game)
    obj = _resolve(target, spec, game)
    if target == "ppo":
        factory = obj.load if path is not None else functools.partial(obj.load_shipped, game=game)
        args = (path,) if path is not None else ()
    elif inspect.isclass(obj) or callable(obj):
        factory, args = obj, ()
    else:  # an agent instance named by import path
        if kwargs:
            raise ValueError(f"agent spec {shown(spec)}: {cut(target)} is an object, not a class; it takes no parameters")
        factory = None
    if factory is not None:
        call_kwargs = dict(kwargs)
        if seed is not None and "seed" not in call_kwargs and _accepts(factory, "seed"):
            call_kwargs["seed"] = seed
        try:
            _check_kwargs(factory, call_kwargs, spec)
        except ValueError as exc:  # ppo:lr=3e-4/final.npz where no such file is: a parameter lr
            if target != "ppo" or not any(isinstance(v, str) and ("/" in v or "\\" in v or v.endswith(".npz"))
                                          for v in kwargs.values()):
                raise
            raise ValueError(f"{exc}; {MODEL_PATH_HINT}") from exc.__cause__
        try:
            agent = factory(*args, **call_kwargs)
        except Exception as exc:  # noqa: BLE001 - whatever the constructor raises, name the spec
            raise ValueError(f"agent spec {shown(spec)}: {type(exc).__name__}: {cut_long_words(str(exc))}") from exc
        seeded = "seed" in call_kwargs
    else:
        agent, seeded = obj, False
    problem = protocol_problem(agent)
    if problem:
        raise ValueError(f"agent spec {shown(spec)}: {problem}")
    if seed is not None and not seeded and callable(getattr(agent, "seed", None)):
        try:
            agent.seed(seed)
        except Exception as exc:  # noqa: BLE001 - the agent's seed() is its own: name the spec
            raise ValueError(f"agent spec {shown(spec)}: seed({shown(seed)}) failed: {type(exc).__name__}: "
                             f"{cut_long_words(str(exc))}") from exc
    return agent


def protocol_problem(agent) -> str | None:
    """Why ``agent`` is not an agent object of the protocol (docs/arena.md, "Writing an
    agent"), or None: a class instead of an instance, or ``act`` / ``act_batch`` missing."""
    if inspect.isclass(agent):
        return (f"{agent.__qualname__} is a class, not an agent object: pass an instance "
                f"({agent.__qualname__}()), or name the class in a spec (MODULE:CLASS), which builds one")
    has = [m for m in ("act", "act_batch") if callable(getattr(agent, m, None))]
    if len(has) == 2:
        return None
    what = f"has {has[0]} but no {'act_batch' if has[0] == 'act' else 'act'}" if has else "has neither act nor act_batch"
    return (f"{type(agent).__qualname__} object {what}: it does not implement the agent protocol, which needs both "
            f"(the arena calls act_batch, play and serve call act); derive it from "
            f"spacemission_env.policies.BasePolicy to get either method from the other")


def available_agents(game: str = "spacemission") -> list[str]:
    """The registered names of ``game`` whose module is installed."""
    out = []
    for name, entry in _agents(game).items():
        try:
            found = importlib.util.find_spec(entry.module) is not None
        except (ImportError, ValueError):
            found = False
        if found:
            out.append(name)
    return out


def model_free_agents(game: str = "spacemission") -> list[str]:
    """The registered names of ``game`` (installed) that play without a model file: every
    one but ``ppo`` and what plays with its model (``netsearch``); ``random`` at least for
    a game without names of its own (GAME_NEUTRAL_AGENTS)."""
    entries = _agents(game)
    return [name for name in available_agents(game) if not entries[name].needs_model]


def agent_display_name(agent) -> str:
    """A short name for an agent object: its ``name`` attribute, else its class name."""
    name = getattr(agent, "name", None)
    return name if isinstance(name, str) and name else type(agent).__name__
