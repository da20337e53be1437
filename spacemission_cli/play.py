"""``spacemission play``: play Space Mission against the bots in the terminal (docs/play.md)."""
from __future__ import annotations

import argparse
import secrets
import sys
from typing import NamedTuple, NoReturn

from spacemission_env.checks import is_int, shown
from spacemission_env.json_input import json_shown, parse_json

from ._args import UsageParser, int_arg
from ._bots import SEER_HELP, bind_bot, bot_failures, bot_interrupts, make_bot, seed_for
from ._prompt import Prompt

EXAMPLE = """examples:
  spacemission play --players 3 --opponents heuristic,ppo --rules yucata --seed 7
  spacemission play --opponents greedy --seat 1 --record my_games.jsonl
  spacemission play --load saved.json
  spacemission play --game red_planet --players 4 --opponents heuristic,greedy,random --seed 3

During the game, type a move's number or its whole label (any case; the start of a label
asks you to confirm), in Space Mission "top up" with the cards to discard by face (top up J2/S1 S1), or a
command: undo, board, moves, save FILE, quit, help (which also sums up the rules).
Piped input works too (one answer per line; the end of the input leaves the game).
Opponents are agent specs as for 'spacemission arena', one spec for all or one per opponent:
each game's registered names, ppo:PATH or MODULE:CLASS.
{agents}"""

FIXED_BY_LOAD = ("players", "opponents", "rules", "seed", "seat", "max_rounds")  # the saved game fixes these


def build_parser() -> argparse.ArgumentParser:
    from . import _help

    agents = "\n".join(f"  {line}" for line in _help.agents_by_game(sep="\n").splitlines())
    ap = UsageParser(prog="spacemission play", description="Play Space Mission (or another game: --game NAME, e.g. red_planet) against the bots in "
                     "the terminal.",
                     epilog=EXAMPLE.format(agents=agents),
                     formatter_class=argparse.RawDescriptionHelpFormatter)
    from spacemission_env.games import GAMES, get_game

    ap.add_argument("--game", choices=sorted(GAMES), help="the game (default spacemission; each game's players and "
                    "bots are listed under --players and below)")
    low, high = _help.player_range()
    ap.add_argument("--players", type=int_arg, choices=range(low, high + 1), metavar="N",
                    help=f"players, the game's own range: {_help.player_ranges()} (default: the game's fewest, "
                         f"{_help.fewest_players()})")
    ap.add_argument("--opponents", metavar="SPEC[,SPEC...]",
                    help="the other seats' agents, one spec for all or one per opponent (default heuristic; "
                         "random for a game without a heuristic bot)")
    rule_sets = sorted({r for name in GAMES for r in get_game(name).rule_sets})  # checked per game
    ap.add_argument("--rules", choices=rule_sets, help=f"rule set (default: the game's first; "
                                                       f"{_help.rule_sets_by_game()})")
    ap.add_argument("--seed", type=int_arg, metavar="S", help="game seed, >= 0 (default: a random one, printed at the end)")
    ap.add_argument("--seat", type=int_arg, metavar="S", help="your seat, 0..players-1 (default 0" + (f"; {c}" if (c := _help.seat_colours()) else "") + ")")
    ap.add_argument("--max-rounds", type=int_arg, metavar="N", help="round limit, R-E3 (default 100; Red Planet: its ten rounds)")
    ap.add_argument("--load", metavar="FILE", help="continue a game saved with 'save FILE'")
    ap.add_argument("--trust-load", action="store_true",
                    help="with --load: also build opponents the file names by an import path MODULE:CLASS, which "
                         "imports and runs that code (refused by default; only for files you trust)")
    ap.add_argument("--allow-seer", action="store_true",
                    help="let an opponent ask for the 'seer' observation, the whole state: it sees your hand and "
                         "every hidden card (refused by default, as in the arena)")
    ap.add_argument("--record", metavar="FILE", help="append the finished game to FILE (JSON lines, as the arena's games.jsonl)")
    return ap



def _shipped_models(spec: str) -> str:
    """For the spec of a shipped PPO model (``ppo``, not ``ppo:PATH``: a file of one's own is
    refused naming what it plays): the games the shipped models were trained for (a refusal
    names them)."""
    try:
        from spacemission_agents.ppo import PPOAgent, SHIPPED
        from spacemission_agents.registry import parse_spec

        target, path, _ = parse_spec(spec)
    except (ImportError, ValueError):
        return ""
    if target != "ppo" or path is not None:
        return ""
    by_game: dict[tuple, list[int]] = {}  # (rules, max_rounds) -> player counts with a model
    for players in sorted(SHIPPED):
        try:
            m = PPOAgent.load_shipped(players).metadata
        except (ValueError, OSError):
            continue
        by_game.setdefault((m["rules"], m["max_rounds"]), []).append(m["num_players"])
    games = []
    for (rules, max_rounds), counts in by_game.items():
        names = ", ".join(map(str, counts[:-1])) + (" and " if len(counts) > 1 else "") + str(counts[-1])
        games.append(f"{names} players, rules {rules}, max_rounds {max_rounds}")
    return ("; the shipped PPO models play " + "; ".join(games) + " (ppo:PATH loads one of yours)") if games else ""


class Opponent:
    """An agent in one seat: it sees only its own observation (engine.observe's twin,
    encoding.observe on the reference state) of the type it asks for."""

    def __init__(self, spec: str, seat: int, seed: int, config, allow_seer: bool = False, seer_help: str = SEER_HELP):
        from spacemission_env.space_mission.encoding import OBSERVATION_TYPES

        self.spec, self.seat, self.seed = spec, seat, seed
        try:
            self.agent = make_bot(spec, seed_for(seed, seat))
        except ValueError as exc:
            raise ValueError(f"{exc}{_shipped_models(spec)}") from exc
        self.observation_type = bind_bot(self.agent, spec, config, OBSERVATION_TYPES, hint=_shipped_models(spec),
                                         allow_seer=allow_seer, seer_help=seer_help)
        self.reseed = callable(getattr(self.agent, "seed", None))

    def act(self, state, ply: int) -> int:
        import numpy as np

        from spacemission_env.space_mission import encoding
        from spacemission_env.space_mission.rules import legal_action_mask

        obs = encoding.observe(state, self.seat, self.observation_type)
        mask = legal_action_mask(state)
        try:
            if self.reseed:
                self.agent.seed(seed_for(self.seed, self.seat, ply))
            action = self.agent.act(obs, mask.copy())  # the legality check below reads ours
        except bot_failures() as exc:  # noqa: BLE001 - a bot's bug (a sys.exit too) ends the game with a message,
            # not a traceback (a KeyboardInterrupt too on a server's thread; in the terminal it is Ctrl-C)
            raise RuntimeError(f"opponent {shown(self.spec)} (seat {self.seat}) failed: {type(exc).__name__}: {exc}") from exc
        if not is_int(action) \
                or not 0 <= action < len(mask) or not mask[action]:
            raise RuntimeError(f"opponent {shown(self.spec)} (seat {self.seat}) returned {shown(action)}, "
                               f"not a legal action (legal: {np.flatnonzero(mask).tolist()})")
        return int(action)


def seats_seed_specs(args, ap, players: int, game: str = "spacemission") -> tuple[int, int, list]:
    """The person's seat, the game seed and the agent spec of every seat (None for the
    person) from the command line, for any game; argument errors through ``ap``. Without
    ``--opponents``: heuristic, or random for a game that has no heuristic bot."""
    seat = 0 if args.seat is None else args.seat
    if not 0 <= seat < players:
        ap.error(f"argument --seat: must be a seat in 0..{players - 1} for {players} players, got {seat}")
    seed = secrets.randbits(31) if args.seed is None else args.seed
    if seed < 0:
        ap.error(f"argument --seed: must be >= 0, got {seed}")
    if seed >= 2**64:  # the engines' seeds
        ap.error(f"argument --seed: must be < 2**64, got {seed}")
    opponents = args.opponents
    if opponents is None:
        from spacemission_agents.registry import available_agents

        opponents = "heuristic" if "heuristic" in available_agents(game) else "random"
    specs = [s.strip() for s in opponents.split(",")]
    if len(specs) == 1:
        specs = specs * (players - 1)
    if len(specs) != players - 1 or not all(specs):
        others = f"{players - 1} opponent{'s' if players > 2 else ''}"
        ap.error(f"argument --opponents: {players} players have {others}: give one spec for all of them or "
                 f"{players - 1} (one per opponent, in seat order), got {opponents!r}")
    return seat, seed, specs[:seat] + [None] + specs[seat:]


def _new_game(args, ap) -> dict:
    from spacemission_env.games import GameConfig
    from spacemission_env.space_mission.rules import new_game

    players = 2 if args.players is None else args.players
    seat, seed, by_seat = seats_seed_specs(args, ap, players)
    try:
        config = GameConfig(players, args.rules or "yucata", 100 if args.max_rounds is None else args.max_rounds)
    except ValueError as exc:
        from ._args import config_error

        config_error(ap, exc)
    state = new_game(players, seed=seed, rules=config.rules, max_rounds=config.max_rounds)  # type: ignore[arg-type]  # GameConfig's, never None once constructed
    return {"state": state, "seat": seat, "seed": seed, "specs": by_seat, "actions": []}


class Loaded(NamedTuple):
    """The ``--load`` file, read and parsed once for both games' loaders (a named pipe gives
    its text only once; a big save need not be parsed twice): its ``text``, or the ``error``
    reading it raised; the JSON document ``data`` it holds, or the ``parse_error`` (a
    protocol game's record is one JSON line, Space Mission's save one document)."""
    text: str | None
    error: Exception | None = None
    data: object = None
    parse_error: ValueError | None = None


def read_load(args, ap) -> Loaded:
    """The ``--load`` file, read and parsed (:class:`Loaded`). The options a saved game
    fixes are refused first."""
    from ._games import read_text

    given = [name for name in FIXED_BY_LOAD if getattr(args, name) is not None]
    if given:
        ap.error(f"argument --{given[0].replace('_', '-')}: not allowed with --load (the saved game fixes "
                 f"{', '.join('--' + n.replace('_', '-') for n in FIXED_BY_LOAD)})")
    try:
        text = read_text(args.load)
    except (OSError, ValueError) as exc:  # ValueError: not UTF-8, no text, or past this machine's memory
        return Loaded(None, exc)
    try:
        return Loaded(text, data=parse_json(text))
    except ValueError as exc:  # not one JSON document: the loaders name it
        return Loaded(text, parse_error=exc)


def _load_game(args, ap: argparse.ArgumentParser, loaded: Loaded) -> dict:
    from spacemission_env.space_mission.rules.state_json import SCHEMA_VERSION, state_from_dict, state_to_dict

    from ._bots import refuse_imported_bots
    from ._games import SAVE_FORMAT, SAVE_VERSION, Replayer, is_version, missing_save_field, record_from_save

    def bad(msg) -> NoReturn:
        ap.error(f"argument --load: {args.load}: {msg}")

    error, data = loaded.error, loaded.data
    if isinstance(error, (OSError, UnicodeDecodeError)):
        bad(f"cannot read it ({error})")
    elif error is not None:  # more than this machine's memory could hold once read, or no text
        bad(str(error))
    if loaded.parse_error is not None:
        bad(str(loaded.parse_error))
    if not isinstance(data, dict) or data.get("format") != SAVE_FORMAT or not is_version(data.get("version"), SAVE_VERSION):
        bad(f"not a saved game (expected Space Mission's format {SAVE_FORMAT!r} version {SAVE_VERSION}, written by 'save FILE')")
    if missing_save_field(data):
        bad(missing_save_field(data))
    try:
        state = state_from_dict(data["state"])
        seat, seed, specs, actions = data["seat"], data["seed"], data["specs"], data["actions"]
        if not (is_int(seat) and 0 <= seat < state.num_players and isinstance(specs, list)
                and len(specs) == state.num_players and specs[seat] is None
                and all(isinstance(s, str) for i, s in enumerate(specs) if i != seat)):
            raise ValueError("seat and specs do not fit the game")
        # the saved actions, each with its seat and label as replay checks them, must lead to the
        # saved state: then the finished game can be recorded and replayed
        check = Replayer(record_from_save(data, "the saved game"), "the saved game")
        while not check.done:
            check.step()
        saved, rebuilt = state_to_dict(state), state_to_dict(check.state)
        if data["state"]["version"] < SCHEMA_VERSION:
            # a state of schema 1 or 2 has no turn records (R-I1): compare the rest, and go on
            # from the rebuilt game, whose records the actions give in full
            for d in (saved, rebuilt):
                for pl in d["players"]:
                    del pl["last_turn"]
            state = check.state
        if rebuilt != saved:
            raise ValueError("its actions do not lead to its state (edited?)")
        refuse_imported_bots(specs, "spacemission", args.trust_load)
    except KeyError as exc:
        bad(f"missing field {json_shown(exc.args[0])}")  # one inside the saved state
    except (TypeError, ValueError) as exc:
        bad(f"{type(exc).__name__}: {exc}" if not isinstance(exc, ValueError) else str(exc))
    return {"state": state, "seat": seat, "seed": seed, "specs": specs, "actions": [list(a) for a in actions]}


def _is_space_mission_save(loaded: Loaded) -> bool:
    """A Space Mission ``save FILE`` (or a file that could not be read or parsed, or that
    names no game: its errors then come from Space Mission's loader); other games save a
    one-line record, which names its game (a JSON list of such records: the game of the
    first, whose loader then names its own format)."""
    from ._games import saved_game_name

    if loaded.text is None or loaded.parse_error is not None:
        return True
    return saved_game_name(loaded.data) in (None, "spacemission")


def main(argv: list[str] | None = None) -> int:
    ap = build_parser()
    args = ap.parse_args(argv)
    from spacemission_env.games import GameConfig

    if args.record:
        from pathlib import Path

        from ._games import ReplayError, check_record_file

        record = Path(args.record)
        if record.is_dir() or not record.parent.is_dir():
            ap.error(f"argument --record: {args.record} is a directory or its folder does not exist")
        try:
            check_record_file(record)
        except ReplayError as exc:
            ap.error(f"argument --record: {exc}; record into a new file or a file of recorded games (JSON lines)")
    if args.trust_load and not args.load:
        ap.error("argument --trust-load: only with --load")
    loaded = read_load(args, ap) if args.load else Loaded(None)
    if args.game not in (None, "spacemission") or (args.load and not _is_space_mission_save(loaded)):
        from . import _protocol_play  # every other game, over the game protocol

        return _protocol_play.main(args, ap, args.game, loaded)
    game = _load_game(args, ap, loaded) if args.load else _new_game(args, ap)
    state = game["state"]
    config = GameConfig(state.num_players, state.rules, state.max_rounds)
    opponents = {}
    try:
        with bot_interrupts():  # a bot's KeyboardInterrupt as it is built is its failure, not Ctrl-C
            for q, spec in enumerate(game["specs"]):
                if spec is None:
                    continue
                try:
                    opponents[q] = Opponent(spec, q, game["seed"], config, allow_seer=args.allow_seer)
                except ValueError as exc:  # from --opponents, or from the bots a loaded game names
                    ap.error(f"argument --load: {args.load}: {exc}" if args.load else f"argument --opponents: {exc}")
    except KeyboardInterrupt:  # the user's Ctrl-C while the bots were built
        print("\ninterrupted: the game was not started", file=sys.stderr, flush=True)
        return 130
    from ._session import Session
    from ._table import Table

    table = Table(state, game["seat"], game["seed"], game["specs"], opponents, game["actions"])
    session = Session(table, Prompt(sys.stdin), record=args.record, loaded=args.load,
                      seed_known=args.seed is not None or bool(args.load))
    try:
        return session.run()
    except KeyboardInterrupt:
        session.console.print("\ninterrupted: the game is left unsaved")
        return 130


if __name__ == "__main__":
    sys.exit(main())
