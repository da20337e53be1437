"""``spacemission arena``: a duplicate-format round robin between agents (docs/arena.md)."""
from __future__ import annotations

import argparse
import signal
import sys
import threading
from pathlib import Path

from spacemission_agents.arena_files import ArenaStopped

from ._args import UsageParser, int_arg as _int

EXAMPLE = """examples:
  spacemission arena --agents random,greedy,heuristic,search --players 2 --games 1000 \\
      --rules yucata --workers 2 --out results/
  spacemission arena --game red_planet --agents random,greedy,heuristic,ppo --players 4 \\
      --games 1000 --out rp/

agent specs (comma-separated in --agents):
  NAME                                                  a registered agent of the game (below)
  NAME:KEY=VALUE[:KEY=VALUE]                            with parameters, e.g. search:budget=0.1
  ppo:PATH                                              a saved PPO model
  MODULE:CLASS[:KEY=VALUE]                              any importable agent class

Every deal (game seed) is played once per seat rotation of each lineup, so seat and
deal luck cancel; --games is rounded up to whole deals. Results are identical for any
--workers at a given --seed (except for agents with a time budget per decision).

registered agents, by game (--game):
{agents}"""

# run_arena parameter -> the option that sets it (errors name the option)
OPTIONS = {"game": "--game", "agents": "--agents", "num_players": "--players", "games": "--games", "rules": "--rules",
           "max_rounds": "--max-rounds", "seed": "--seed", "workers": "--workers", "out": "--out",
           "chunk_size": "--chunk-size", "seatings": "--seatings", "start_method": "--start-method", "ray": "--ray",
           "allow_seer": "--allow-seer", "overwrite": "--overwrite"}


def _agents_text() -> str:
    from . import _help

    return "\n".join(f"  {line}" for line in _help.agents_by_game(sep="\n").splitlines())


class _Terminated(ArenaStopped):
    """SIGTERM (``kill``, a scheduler's stop) during the arena: stops it as Ctrl-C does (the
    user's stop, which the arena never takes for an agent's KeyboardInterrupt)."""


def _stop_on_sigterm(signum, frame):
    raise _Terminated


def build_parser() -> argparse.ArgumentParser:
    from spacemission_agents.arena import DEFAULT_CHUNK_SIZE, SEATINGS
    from spacemission_env.games import GAMES, get_game

    ap = UsageParser(prog="spacemission arena", description="A duplicate-format round robin between agents.",
                     epilog=EXAMPLE.format(agents=_agents_text()),
                     formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--agents", required=True, metavar="SPEC,SPEC[,...]",
                    help="at least 2 agent specs, comma-separated (see below)")
    from . import _help

    ap.add_argument("--game", default="spacemission", choices=sorted(GAMES),
                    help="the game (default spacemission)")
    ap.add_argument("--players", type=_int, default=None, metavar="N",
                    help=f"players per game (default: the game's fewest), the game's own range: "
                         f"{_help.player_ranges()}")
    ap.add_argument("--games", type=_int, default=1000, metavar="N",
                    help="games per pair (2 players) or per lineup (3 or more), rounded up to whole deals (default 1000)")
    rule_sets = sorted({r for name in GAMES for r in get_game(name).rule_sets})
    ap.add_argument("--rules", default=None, choices=rule_sets,
                    help=f"rule set (default: the game's first; {_help.rule_sets_by_game()})")
    ap.add_argument("--max-rounds", type=_int, default=None, metavar="N",
                    help="round limit, R-E3 (default 100; Red Planet always plays its ten rounds)")
    ap.add_argument("--seed", type=_int, default=0, metavar="S",
                    help="arena seed, 0..4294967295: deals and agent seeds (default 0)")
    ap.add_argument("--workers", type=_int, default=1, metavar="N", help="worker processes (default 1)")
    ap.add_argument("--out", metavar="DIR", help="write results.json, pairs.csv, agents.csv, arena.png, games.jsonl here")
    ap.add_argument("--overwrite", action="store_true",
                    help="replace an earlier run's result files in --out (refused by default, before any game)")
    ap.add_argument("--no-record", action="store_true", help="with --out: do not write games.jsonl")
    ap.add_argument("--seatings", default="rotations", choices=SEATINGS,
                    help="seat orders per deal: the P rotations (default) or all distinct permutations")
    ap.add_argument("--chunk-size", type=_int, default=None, metavar="N",
                    help=f"games played together in one batch (default: about 1/16 of the games, 16 to {DEFAULT_CHUNK_SIZE}); "
                         "part of what --seed reproduces")
    ap.add_argument("--start-method", choices=("fork", "spawn", "forkserver"), default=None,
                    help="how worker processes start (default: fork where available)")
    ap.add_argument("--ray", nargs="?", const="", default=None, metavar="ADDRESS",
                    help="play the chunks as Ray tasks instead of --workers processes: on a local Ray (no ADDRESS), or "
                         "the cluster at ADDRESS (auto, HOST:PORT); same results as without (needs the ray extra)")
    ap.add_argument("--no-progress", action="store_true", help="no progress bar")
    ap.add_argument("--allow-seer", action="store_true",
                    help="let an agent ask for the 'seer' observation (the whole state: a teacher's view; its ratings "
                         "are not a seat's); refused by default")
    return ap


def main(argv: list[str] | None = None) -> int:
    ap = build_parser()
    args = ap.parse_args(argv)
    from rich.console import Console

    from spacemission_agents.arena import ArenaArgumentError, run_arena
    from spacemission_agents.arena_output import games_per_s

    if args.no_record and not args.out:  # without --out no games.jsonl is written: the flag would mean nothing
        ap.error("argument --no-record: only with --out (without --out no games.jsonl is written)")
    if args.ray is not None:
        try:
            import ray  # noqa: F401
        except ImportError:
            ap.error("argument --ray: Ray is not installed; pip install -e '.[ray]' (or make install-ray)")

    err = Console(stderr=True)
    # SIGTERM killed the process without a word, and its pool's workers played their chunks on and
    # then printed BrokenPipeError tracebacks; now it stops as Ctrl-C does (where it has the default)
    terminate_default = (threading.current_thread() is threading.main_thread()
                         and signal.getsignal(signal.SIGTERM) is signal.SIG_DFL)
    if terminate_default:
        signal.signal(signal.SIGTERM, _stop_on_sigterm)
    # a crash in native code (an agent's, in this process with --workers 1; forked workers inherit
    # it): the Python traceback on stderr, the agent's code in it (before: 'Segmentation fault' alone)
    from spacemission_agents.arena_workers import enable_faulthandler

    faults_on = enable_faulthandler()
    try:
        result = run_arena(
            [a for a in args.agents.split(",")], num_players=args.players, games=args.games, rules=args.rules, game=args.game,
            max_rounds=args.max_rounds, seed=args.seed, workers=args.workers, out=args.out,
            record=not args.no_record, progress=not args.no_progress, seatings=args.seatings,
            chunk_size=args.chunk_size, start_method=args.start_method, ray=args.ray, allow_seer=args.allow_seer,
            overwrite=args.overwrite,
            log=lambda msg: err.print(f"[yellow]forfeit:[/yellow] {msg}", highlight=False, markup=True))
    except ArenaArgumentError as exc:
        ap.error(f"argument {OPTIONS.get(exc.argument, exc.argument)}: {exc}")
    except RuntimeError as exc:  # a chunk that failed as a whole (an agent's seed(), a worker process that
        # ended): the message says what happened; its traceback showed the pool's internals only
        print(f"{ap.prog}: error: the arena stopped: {exc}", file=sys.stderr, flush=True)
        return 1
    except KeyboardInterrupt as exc:  # Ctrl-C or SIGTERM: as train stops, with 130 / 143 and what is left
        kept = ""
        if args.out and not args.no_record and (Path(args.out) / "games.jsonl").is_file():
            kept = (f"; {Path(args.out) / 'games.jsonl'} keeps the games of the chunks that finished (another run "
                    f"into {args.out} needs --overwrite)")
        print(f"\ninterrupted: the arena was not finished and no results were written{kept}", file=sys.stderr,
              flush=True)
        return 128 + (signal.SIGTERM if isinstance(exc, _Terminated) else signal.SIGINT)
    finally:
        if terminate_default:
            signal.signal(signal.SIGTERM, signal.SIG_DFL)
        if faults_on:
            import faulthandler

            faulthandler.disable()
    console = Console()
    if not console.is_terminal:  # a file or pipe: wide enough that the tables do not wrap
        console = Console(width=160)
    for table in result.table():
        console.print(table)
    t = result.timing
    where = (f"Ray at {args.ray}" if args.ray else "local Ray") if args.ray is not None else \
        f"{t['workers']} worker{'s' if t['workers'] > 1 else ''}"
    console.print(f"{result.num_games} games in {t['elapsed_s']:.1f} s ({games_per_s(t['games_per_s'])}, {where})",
                  highlight=False, soft_wrap=True)
    if result.forfeits:
        console.print(f"[yellow]{len(result.forfeits)} forfeited games[/yellow] (listed in results.json)")
    if args.out:
        files = "results.json, pairs.csv, agents.csv, arena.png" + ("" if args.no_record else ", games.jsonl")
        # markup=False: "[x]" in a path is no markup
        console.print(f"written to {args.out}: {files}", markup=False, highlight=False, soft_wrap=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
