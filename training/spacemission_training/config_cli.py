"""The SB3 trainer's command line (``spacemission train``): its parser (one flag per field
of :class:`~.config.TrainConfig`), the ``--config`` options files (TOML or JSON) and
``--resume``'s configuration, mapped onto the configuration dataclass of config.py
(precedence: defaults < ``--config`` file < flags). ``add_options``, ``read_options_file``
and ``from_file`` serve the RLlib trainer's command line too (rllib_config.py). These names
are also importable from config, where they were before."""
from __future__ import annotations

import argparse
import re
import sys
from dataclasses import fields
from pathlib import Path
from typing import Any

from spacemission_env.checks import UsageParser, shown, shown_path
from spacemission_env.json_input import parse_json

from .config import GAME_DEFAULTS, TrainConfig, config_from_dict, game_defaults
from .lifecycle import ALLOW_VERSION_CHANGE, add_version_change_flag, check_resume_env_id
from .run_paths import check_resume_dir, path_lookup_problem

__all__ = ["EXAMPLES", "RESUME_OVERRIDES", "add_options", "build_parser", "field_help", "from_file", "options_named",
           "parse_args", "read_options_file", "resume_config"]


def _toml_module(path: str):
    """The standard library's ``tomllib`` (Python >= 3.11), else its backport ``tomli`` (the
    same API, ``pip install tomli``), else a ValueError naming the file and the remedy."""
    try:
        import tomllib  # type: ignore[import-not-found]  # novermin (guarded: tomli on 3.10, mypy's target)
    except ImportError:  # Python 3.10
        try:
            import tomli as tomllib
        except ImportError:
            raise ValueError(f"config file {shown_path(path)}: reading TOML on Python "
                             f"{sys.version_info[0]}.{sys.version_info[1]} needs the package 'tomli' (pip install "
                             f"tomli), or give the options as .json") from None
    return tomllib


def read_options_file(path: str, names: set[str] | None = None) -> dict:
    """The options of a .toml or .json file (a run's config.json: its "config" object),
    ValueError naming the file for anything but an object of known option names
    (``names``; default TrainConfig's)."""
    p = Path(path)
    problem = path_lookup_problem(p)
    if problem:
        raise ValueError(f"config file {shown_path(path)} is not a usable path ({problem})")
    if not p.is_file():
        what = ("is a directory, not a file" if p.is_dir() else
                "is not a regular file" if p.exists() else "does not exist")
        raise ValueError(f"config file {shown_path(path)} {what}")
    if p.suffix not in (".toml", ".json"):
        raise ValueError(f"config file {shown_path(path)}: expected .toml or .json")
    tomllib = _toml_module(path) if p.suffix == ".toml" else None
    try:
        text = p.read_bytes() if tomllib is None else p.read_text()
    except OSError as exc:  # no permission to read it
        raise ValueError(f"config file {shown_path(path)} cannot be read ({exc.strerror or exc})") from None
    except ValueError as exc:  # UnicodeDecodeError
        raise ValueError(f"config file {shown_path(path)}: not valid TOML: {exc}") from None
    if tomllib is None:
        try:
            data = parse_json(text)
        except ValueError as exc:  # "not valid JSON: ..."
            raise ValueError(f"config file {shown_path(path)}: {exc}") from None
    else:
        try:
            data = tomllib.loads(text)
        except RecursionError:
            raise ValueError(f"config file {shown_path(path)}: not valid TOML: nested too deeply") from None
        except ValueError as exc:  # TOMLDecodeError
            raise ValueError(f"config file {shown_path(path)}: not valid TOML: {exc}") from None
    if not isinstance(data, dict):
        raise ValueError(f"config file {shown_path(path)}: expected an object of options, got {type(data).__name__}")
    data = data.get("config", data)  # a run's config.json nests the values under "config"
    if not isinstance(data, dict):
        raise ValueError(f"config file {shown_path(path)}: \"config\" must be an object of options, got "
                         f"{type(data).__name__}")
    names = names if names is not None else {f.name for f in fields(TrainConfig)}
    unknown = sorted(set(data) - names)
    if unknown:
        raise ValueError(f"config file {shown_path(path)}: unknown keys {shown(unknown)}; known: {sorted(names)}")
    return data


def from_file(exc: Exception, path: str | None, values: dict, flags: dict) -> str:
    """The message of a configuration error, naming the config file ``path`` when the option
    the error is about (:func:`options_named`) came from it (and no flag overrode it). A refused game
    configuration (``GameConfigError``: players, rules, max_rounds) names its option as
    argparse does (``argument --rules: ...``), or the file's option it came from."""
    name = getattr(exc, "option", None)  # GameConfigError's
    if name is not None:
        if path and name in values and name not in flags:
            return f"config file {shown_path(path)}: option {name}: {exc}"
        return f"argument --{name.replace('_', '-')}: {exc}"
    if path and any(name in values and name not in flags for name in options_named(str(exc), values)):
        return f"config file {shown_path(path)}: {exc}"
    return str(exc)


def options_named(message: str, names) -> list[str]:
    """The options among ``names`` a configuration error is about: the words before its
    first "must", ":", "=" or "," after the "bad ... configuration:" or "option" it may
    start with ("steps must be >= 1", "seed and eval_seed must ...", "num_envs=10: ...",
    "option opponents: ..."); where those are not option names, every one of ``names``
    the message has as a word ("the heuristic prior reads ..., got observation_type 'x'")."""
    text = re.sub(r"^bad [\w ]*configuration: ", "", message)
    text = re.sub(r"^option ", "", text)
    head = re.split(r" must\b|[:=,]", text, maxsplit=1)[0]
    words = re.findall(r"\w+", head)
    if words and all(w in names or w == "and" for w in words):
        return [w for w in words if w in names]
    return [w for w in re.findall(r"\w+", text) if w in names]


def _bool(text: str) -> bool:
    if text.lower() in ("1", "true", "yes", "on"):
        return True
    if text.lower() in ("0", "false", "no", "off"):
        return False
    raise argparse.ArgumentTypeError(f"expected true or false, got {shown(text)}")


EXAMPLES = """examples:
  spacemission train --steps 400000 --run-dir runs/quick          # a few minutes on 2 cores
  spacemission train --players 3 --steps 3000000 --seed 1         # a 3-player agent
  spacemission train --game red_planet --players 4 --steps 300000  # Mission: Red Planet (its defaults)
  spacemission train --config my_run.toml                         # options from a file
  spacemission train --resume runs/quick --steps 1000000          # continue a killed run, or extend it
docs/training.md has the command that trained the shipped agent."""


def build_parser(prog: str = "spacemission train") -> argparse.ArgumentParser:
    ap = UsageParser(prog=prog, description="Train a PPO agent (MaskablePPO on the batched engine) with "
                     "the heuristic bot's plan values as a prior, behaviour-cloning warm start, an opponent pool, arena "
                     "evaluations and checkpoints.",
                     epilog=EXAMPLES, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--config", default=None, help="TOML or JSON file with any of the options below")
    ap.add_argument("--resume", default=None, metavar="RUN_DIR",
                    help="continue the run in RUN_DIR from its last checkpoint (its saved configuration; "
                         "--steps, --stop-after-steps, --progress and --device may be changed, any other option only "
                         "repeated with its saved value); a finished run is left as it is")
    add_version_change_flag(ap)
    add_options(ap, TrainConfig)
    return ap


def add_options(ap: argparse.ArgumentParser, config_class) -> None:
    """One ``--option`` per field of ``config_class`` (TrainConfig, RLlibConfig), default None
    (unset: the file's or the default value), its help with each game's values and defaults."""
    for f in fields(config_class):
        # (f.type: a str, the annotations being postponed, PEP 563)
        kind: Any = {"int": int, "float": float, "str": str, "bool": _bool}[f.type]  # type: ignore[index]
        ap.add_argument("--" + f.name.replace("_", "-"), type=kind, default=None, metavar=f.type.upper(),
                        help=field_help(f.name, f.metadata["help"]) + _default_text(f.name, f.default))


def field_help(name: str, text: str) -> str:
    """An option's help ``text``, with ``{games}``, ``{players}`` and ``{rules}`` (the help of
    game, players and rules) filled in with each registered game's names, player range and
    rule sets: read from GAMES when the parser is built, so a game registered at run time
    is listed too."""
    if name not in ("game", "players", "rules"):
        return text
    from spacemission_env.games import GAMES, player_ranges, rule_sets_by_game

    return text.format(games=", ".join(sorted(GAMES)), players=player_ranges(), rules=rule_sets_by_game())


def _default_text(name: str, default) -> str:
    """`` (default: X)``, with another game's own default where --game changes it; nothing
    for an empty default (the help says what it means)."""
    if default == "":
        return ""
    others = [f"{g}: {d[name]}" for g, d in GAME_DEFAULTS.items() if name in d and d[name] != default]
    return f" (default: {default}" + (f"; {', '.join(others)}" if others else "") + ")"


RESUME_OVERRIDES = ("steps", "stop_after_steps", "progress", "device")


def parse_args(argv: list[str] | None = None) -> tuple[TrainConfig, str | None]:
    """(config, resume run dir or None). Precedence: defaults < --config file < flags."""
    return parse_run_options(build_parser(), argv, TrainConfig, read_options_file, game_defaults, resume_config,
                             RESUME_OVERRIDES)


def parse_run_options(ap, argv, cls, read, defaults_of, resume, overrides):
    """A trainer's (config of class ``cls``, resume run dir or None) from its parser ``ap``:
    the game's defaults (``defaults_of(game)``, the game from the flags or the file) < the
    ``--config`` file (``read(path)``) < flags; with ``--resume``, ``resume(ap, run_dir, flags,
    config_file)`` (the file's options limited to ``overrides``), then the environment version
    the run recorded checked against this package's (lifecycle.check_resume_env_id; ``--allow-
    version-change``, a flag of ``--resume`` only). A bad option is a usage error naming the file
    for the options it gave (``from_file``)."""
    ns = ap.parse_args(argv)
    if ns.allow_version_change and not ns.resume:
        ap.error(f"{ALLOW_VERSION_CHANGE} goes with --resume RUN_DIR (a new run is made on this package's environment "
                 f"version)")
    flags = {f.name: getattr(ns, f.name) for f in fields(cls) if getattr(ns, f.name) is not None}
    values: dict = {}  # the config file's options, once read (an error names the file for them)
    try:
        values = read(ns.config) if ns.config else {}
        if ns.resume:  # an error names the file for the options a resume takes from it
            values = {k: v for k, v in values.items() if k in overrides}
            cfg = resume(ap, ns.resume, flags, ns.config)
            check_resume_env_id(ap, ns.resume, cfg.game, ns.allow_version_change)
            return cfg, ns.resume
        game = flags.get("game", values.get("game", "spacemission"))
        return cls(**{**defaults_of(game), **values, **flags}), None
    except (ValueError, TypeError) as exc:
        ap.error(from_file(exc, ns.config, values, flags))


def resume_config(ap, run_dir: str, flags: dict, config_file: str | None) -> TrainConfig:
    """The configuration of the run in ``run_dir`` (its config.json) with the options a resume
    may change (RESUME_OVERRIDES) from the ``--config`` file and ``flags`` (a flag wins over
    the file). Any other flag, or a ``--config`` file's
    option, that differs from the saved value is a usage error naming it and both values;
    one equal to it is accepted, so the command that started a run, with ``--resume`` added,
    continues it."""
    check_resume_dir(ap, run_dir)
    d = Path(run_dir)
    rllib_run = (f"--resume: {shown_path(run_dir)} is an RLlib run (checkpoints/loop.json): resume it with "
                 f"spacemission train --backend rllib --resume {run_dir}")
    if not (d / "config.json").is_file():
        if (d / "checkpoints" / "loop.json").is_file():
            ap.error(rllib_run)
        ap.error(f"--resume: no run in {shown_path(run_dir)} "
                 f"({'config.json missing' if d.is_dir() else 'no such directory'})")
    try:
        saved = read_options_file(str(d / "config.json"))
    except ValueError:
        if (d / "checkpoints" / "loop.json").is_file() and not (d / "checkpoints" / "last.pt").is_file():
            ap.error(rllib_run)
        raise
    saved = config_from_dict({**saved, "stop_after_steps": 0}, resuming=True).as_dict()
    given = {**(read_options_file(config_file) if config_file else {}), **flags}
    if "run_dir" in given and given["run_dir"] and Path(given["run_dir"]).resolve() == d.resolve():
        given["run_dir"] = saved["run_dir"]  # the run's own folder, however written
    bad = sorted(k for k, v in given.items() if k not in RESUME_OVERRIDES and v != saved.get(k))
    if bad:
        ap.error(f"--resume continues the saved configuration ({d / 'config.json'}); only "
                 f"{', '.join(RESUME_OVERRIDES)} may be changed, got "
                 + ", ".join(f"{k} {shown(given[k])} (saved: {shown(saved.get(k))})" for k in bad))
    # the options a resume may change, from the file and the flags (a flag wins), checked as
    # any configuration is (their types and ranges) by TrainConfig
    cfg = TrainConfig.resumed(**{**saved, **{k: v for k, v in given.items() if k in RESUME_OVERRIDES}})
    for option, path in cfg.start_files():  # read at the start only: the checkpoint holds what came of them
        if not Path(path).is_file():
            print(f"note: --resume: {option} {shown_path(path)} is no longer there; the run goes on from its checkpoint, "
                  f"which holds what was read from it at the start", file=sys.stderr)
    return cfg
