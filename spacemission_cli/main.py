"""``spacemission``: one command for the project, one module per subcommand.

Each entry of :data:`COMMANDS` names a module whose ``main(argv) -> int | None`` gets the
arguments after the subcommand (its own argparse parser, its own ``--help``). A new
subcommand (play, train, replay, bench) is one module plus one line here.
"""
from __future__ import annotations

import argparse
import importlib
import os
import sys

# name -> (module with main(argv), one-line help)
COMMANDS: dict[str, tuple[str, str]] = {
    "arena": ("spacemission_cli.arena", "rate agents against each other: duplicate-format round robin"),
    "bench": ("spacemission_cli.bench", "speed of the engine, an environment and the bots"),
    "demo": ("spacemission_cli.demo", "play a seeded game between random players (Space Mission, or --game red_planet)"),
    "play": ("spacemission_cli.play", "play a game against the bots in the terminal"),
    "serve": ("spacemission_cli.serve", "a web page where people play the bots and watch recorded games"),
    "replay": ("spacemission_cli.replay", "step through a recorded game (arena or play), optionally as one seat saw it"),
    "warmup": ("spacemission_cli.warmup", "compile the numba kernels now (environments and bots) into numba's cache"),
    "train": ("spacemission_cli.train", "train a PPO agent (heuristic prior, behaviour-cloning warm start, opponent pool, resume)"),
}


# the exit status of a command whose output's reader went away: 1, as Python's docs advise and as
# rich (which prints most commands' tables) exits then
BROKEN_PIPE = 1


def _parser() -> argparse.ArgumentParser:
    from ._args import UsageParser  # here: running a command needs only its own module's imports

    ap = UsageParser(
        prog="spacemission",
        description="Play, rate and train agents for Space Mission and Mission: Red Planet (--game red_planet).",
        epilog="Run 'spacemission COMMAND --help' for a command's options, e.g. spacemission arena --help",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--version", action="version", version=f"%(prog)s {_version()}")
    sub = ap.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for name, (_, text) in COMMANDS.items():
        sub.add_parser(name, help=text, add_help=False)
    return ap


def _version() -> str:
    from spacemission_env import __version__

    return __version__


def _cwd_importable() -> None:
    """Agent specs name modules (``--agents mybots:MyBot``): make the current directory
    importable, as ``python -m`` does; the ``spacemission`` script alone puts only its own
    directory on sys.path. Appended, so it never shadows an installed package."""
    cwd = os.getcwd()
    if "" not in sys.path and cwd not in sys.path and os.path.abspath(".") not in map(os.path.abspath, sys.path):
        sys.path.append(cwd)


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    try:
        try:
            code = _run(argv)
        finally:  # here, not at the interpreter's exit (after --help's SystemExit too), so that a
            sys.stdout.flush()  # closed reader is caught below
    except BrokenPipeError:
        # the reader went away (`spacemission demo | head -1`, Python 3.10's argparse writing --help):
        # stop quietly, as other command-line tools do, not with a traceback; stdout goes to devnull
        # so that the final flush cannot fail again
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return BROKEN_PIPE
    return int(code or 0)


def _run(argv: list[str]) -> int | None:
    """The command's exit status: its module's ``main``, or the top-level parser's (help, errors)."""
    if not argv or argv[0] not in COMMANDS:
        ap = _parser()
        if argv and not argv[0].startswith("-"):
            ap.error(f"argument COMMAND: unknown command {argv[0]!r}; expected one of {', '.join(COMMANDS)}")
        ap.parse_args(argv)  # --help, or the error for a missing command
        return 2
    _cwd_importable()
    return importlib.import_module(COMMANDS[argv[0]][0]).main(argv[1:])


if __name__ == "__main__":
    sys.exit(main())
