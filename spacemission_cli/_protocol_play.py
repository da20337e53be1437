"""``spacemission play --game NAME`` for every game of the protocol other than Space Mission
(which keeps its own table view, ``_session.py``): one person's seat against bots in the
terminal, through :func:`spacemission_env.games.get_game` only.

Each decision of the person shows the board as that seat may see it (the game's
``render_ansi(state, viewer=seat)``) and the legal moves numbered with their labels. The
bots' moves are shown one by one as the person saw them: a move whose content is hidden
from the other seats (Red Planet's role commit and bonus-card keep, M-R3, M-S6) is shown
as such, never its content, so the person commits without learning earlier commits
(M-I4). At the end: the whole table face up, the score breakdown by
``game.score_names``, ranks and winners, and the record (``--record``).
"""
from __future__ import annotations

import argparse
import json
from pathlib import Path

import numpy as np

from spacemission_env.checks import is_int, shown
from spacemission_env.games import GameConfig, get_game
from spacemission_env.json_input import json_shown

from ._bots import SEER_HELP, bind_bot, bot_failures, bot_interrupts, make_bot, seed_for, seer_note
from ._games import RECORD_FORMAT, parse_records, saved_game_name
from ._prompt import confirm_quit, may_write, move_number, next_command
from ._protocol_games import RecordError, Replayer, SeatWords, game_record

HELP = """Commands:
  NUMBER        the move with that number in the list, e.g. 3
  LABEL         a move's whole label (any case)
  board         show the board again      moves   list your moves again
  save FILE     save the game (one JSON line); continue with: spacemission play --load FILE
  quit          leave the game (asks first)        help    this text
The board shows what your seat may see; the other seats' hidden choices stay hidden."""
# per game: the rules in short, after HELP (play's --help promises that help sums them up)
RULES = {"red_planet": """
The rules in short (M-R1..M-R8, M-L1..M-L4, M-P1..M-P4): ten rounds. Each round every player
commits one role card face down (1 Recruiter .. 9 Pilot); the roles are then called in number
order, and each player who chose the called role places astronauts into ships on the launch
pad (a full ship launches) and may use the role's ability. A played card stays discarded
until you play the Recruiter, which takes them all back. Launched ships land at the end of
the round in their destination zone. After rounds 5 and 8, and at the end, the player with
the most astronauts in a zone takes that zone's mineral counters (ice 1, sylvanite 2,
celerium 3 points); most ice scores 9 more, and discovery and bonus cards score at the end.
Highest total wins; tied players share the win."""}



class Bot:
    """An agent in one seat: it sees only its own observation of the type it asks for and
    the legal mask of the reference state."""

    def __init__(self, game, spec: str, seat: int, seed: int, config: GameConfig, allow_seer: bool = False,
                 seer_help: str = SEER_HELP):
        self.game, self.spec, self.seat, self.seed = game, spec, seat, seed
        self.agent = make_bot(spec, seed_for(seed, seat), game.name)
        self.observation_type = bind_bot(self.agent, spec, config, game.observation_types, allow_seer=allow_seer,
                                         seer_help=seer_help)
        self.reseed = callable(getattr(self.agent, "seed", None))

    def act(self, state, ply: int) -> int:
        g = self.game
        obs = g.encoding.observe(state, self.seat, self.observation_type)
        mask = np.zeros(g.num_actions, dtype=bool)
        mask[g.rules.legal_actions(state)] = True
        try:
            if self.reseed:
                self.agent.seed(seed_for(self.seed, self.seat, ply))
            action = self.agent.act(obs, mask.copy())  # the legality check below reads ours
        except bot_failures() as exc:  # noqa: BLE001 - a bot's bug (a sys.exit too) ends the game with a message,
            # not a traceback (a KeyboardInterrupt too on a server's thread; in the terminal it is Ctrl-C)
            raise RuntimeError(f"opponent {shown(self.spec)} (seat {self.seat}) failed: {type(exc).__name__}: {exc}") from exc
        if not is_int(action) \
                or not 0 <= action < len(mask) or not mask[action]:
            raise RuntimeError(f"opponent {shown(self.spec)} (seat {self.seat}) returned {shown(action)}, not a legal action")
        return int(action)


class ProtocolTable:
    """One person's seat against bots in a protocol game, shared by the terminal and the web
    page: ``play`` the person's move, ``bot_step`` / ``bots_until_person`` the bots' moves,
    ``log`` every move as the person saw it (``Game.seat_label``), ``actions`` as recorded."""

    def __init__(self, game, config: GameConfig, seat: int, seed: int, specs: list, state=None, actions=None,
                 allow_seer: bool = False, seer_help: str = SEER_HELP):
        self.game, self.config, self.seat, self.seed, self.specs = game, config, seat, seed, specs
        self.state = state if state is not None else game.new_reference_game(config, seed)
        self.bots = {q: Bot(game, sp, q, seed, config, allow_seer, seer_help)  # ValueError
                     for q, sp in enumerate(specs) if sp is not None}
        self.actions: list[list] = [list(a) for a in actions or []]
        self.log: list[dict] = []
        self.failure: str | None = None  # a bot's error, which ends the game
        self.deciding: str | None = None  # the bot whose decision is under way, as Table.deciding

    @property
    def over(self) -> bool:
        return self.game.rules.is_over(self.state) or self.failure is not None

    def over_message(self) -> str:
        """Why no move can be played in a game that is ``over``: a bot's failure stopped it, or
        it ended by the rules (as ``Table.over_message``; undo and resign are not offered here)."""
        if self.failure is not None:
            return "the game is over: a bot's failure stopped it"
        return "the game is over"

    @property
    def person_to_act(self) -> bool:
        return not self.over and self.game.rules.current_player(self.state) == self.seat

    def legal(self) -> list[int]:
        return list(self.game.rules.legal_actions(self.state))

    def agents(self) -> list[str]:
        return ["human" if sp is None else sp for sp in self.specs]

    def _apply(self, action: int) -> dict:
        g, s = self.game, self.state
        q = g.rules.current_player(s)
        entry = {"seat": q, "text": g.seat_label(action, s, self.seat), "round": getattr(s, "round", None)}
        self.actions.append([q, action, g.action_label(action, s)])
        g.rules.apply(s, action)
        self.log.append(entry)
        return entry

    def play(self, action) -> dict:
        """The person's move (its log entry); ValueError naming the problem, the game unchanged."""
        if self.over:
            raise ValueError(self.over_message())
        if not self.person_to_act:
            raise ValueError(f"it is seat {self.game.rules.current_player(self.state)}'s turn, not yours")
        legal = self.legal()
        if action not in legal:
            raise ValueError(f"action {action} is not one of your legal moves now ({len(legal)} legal: "
                             f"{', '.join(map(str, legal[:12]))}{', ...' if len(legal) > 12 else ''})")
        return self._apply(action)

    def bot_step(self) -> dict | None:
        """The acting bot's move (its log entry); None when a bot failed (``failure`` says why)."""
        q = self.game.rules.current_player(self.state)
        self.deciding = f"{shown(self.bots[q].spec)} (seat {q})"
        try:
            action = self.bots[q].act(self.state, len(self.actions))
        except RuntimeError as exc:
            self.failure = str(exc)
            return None
        finally:
            self.deciding = None
        return self._apply(action)

    def bots_until_person(self, stop=None) -> None:
        """The bots' moves until the person is to act or the game is over; ``stop`` as in
        ``Table.bots_until_person`` (the server's, set when its request was cancelled)."""
        while not self.over and not self.person_to_act and not (stop is not None and stop.is_set()):
            self.bot_step()


def new_game(args, ap, game) -> dict:
    """The game of the command line: seats, seed, specs (None for the person)."""
    d = game.description
    players = d.min_players if args.players is None else args.players
    try:
        config = GameConfig(players, args.rules, args.max_rounds, game=game.name)
    except ValueError as exc:
        from ._args import config_error

        config_error(ap, exc)
    from .play import seats_seed_specs

    seat, seed, specs = seats_seed_specs(args, ap, players, game.name)
    return {"config": config, "seat": seat, "seed": seed, "specs": specs, "actions": [],
            "seed_known": args.seed is not None}


def _not_a_save(path: str, game_name: str | None, data) -> str:
    """The error for a ``--load`` file that is one JSON document but no record (a list, a
    number): naming the format of the game it is loaded as (``game_name``: ``--game``, or
    the game a list's records name), not Space Mission's save."""
    try:
        whose = f"{get_game(game_name).description.title}'s " if game_name is not None else ""
    except (TypeError, ValueError):  # a list's record naming no game of this package
        whose = ""
    got = "a JSON list" if isinstance(data, list) else f"the JSON value {json_shown(data)}"
    return (f"{path}: not a saved game: {whose}'save FILE' writes one record line, a JSON object (format "
            f"{json_shown(RECORD_FORMAT)} with \"unfinished\": true), not {got}")


def load_game(args, ap: argparse.ArgumentParser, game_name: str | None, loaded) -> dict:
    """A game saved with ``save FILE``: its record rebuilt action by action. ``loaded``: the
    file, read and parsed once (play's ``read_load``)."""
    error = loaded.error
    try:
        if isinstance(error, (OSError, UnicodeDecodeError)):
            raise RecordError(f"cannot read {args.load}: {error}")
        if error is not None:  # past this machine's memory, or no text
            raise RecordError(str(error))
        if loaded.parse_error is None and not isinstance(loaded.data, dict):  # one JSON document, not a record
            raise RecordError(_not_a_save(args.load, game_name or saved_game_name(loaded.data), loaded.data))
        (_, rec), = parse_records(loaded.text, args.load, whole=loaded.data)[:1]
        if not rec.get("unfinished"):
            raise RecordError(f"{args.load}: not a saved unfinished game (written by 'save FILE')")
        agents = rec.get("agents")
        if not isinstance(agents, list) or agents.count("human") != 1:
            raise RecordError(f"{args.load}: its agents must name exactly one 'human' seat")
        rebuilt = Replayer(rec, args.load)
        while not rebuilt.done:
            rebuilt.step()
        rebuilt.finish()
    except RecordError as exc:
        ap.error(f"argument --load: {exc}")
    if game_name is not None and rebuilt.game.name != game_name:
        ap.error(f"argument --game: the saved game is {rebuilt.game.name!r}, not {game_name!r}")
    seat = agents.index("human")
    specs = [None if q == seat else str(a) for q, a in enumerate(agents)]
    from ._bots import refuse_imported_bots

    try:
        refuse_imported_bots(specs, rebuilt.game.name, args.trust_load)
    except ValueError as exc:
        ap.error(f"argument --load: {args.load}: {exc}")
    return {"config": rebuilt.config, "seat": seat, "seed": rec["seed"], "actions": [list(a) for a in rec["actions"]],
            "specs": specs, "state": rebuilt.state, "loaded": args.load}


class ProtocolSession:
    """The terminal loop: the person's decisions at the prompt, the bots' moves in between."""

    def __init__(self, game, setup: dict, prompt, record=None):
        from rich.console import Console

        self.console = Console(highlight=False)
        if not self.console.is_terminal:
            self.console = Console(highlight=False, width=110)
        self.game, self.prompt, self.record = game, prompt, record
        self.config, self.seat, self.seed = setup["config"], setup["seat"], setup["seed"]
        self.specs = setup["specs"]
        self.table = ProtocolTable(game, self.config, self.seat, self.seed, self.specs, state=setup.get("state"),
                                   actions=setup["actions"], allow_seer=setup.get("allow_seer", False))
        self.words = SeatWords(game)  # seats by colour (as Space Mission's play) where the game's board can
        self.saved: tuple[str, int] | None = None  # (path, number of actions) of the last save
        self.loaded = setup.get("loaded")
        # the seed decides every hidden card: shown at the start only when the person chose it
        # or it is in the loaded file, else at the end (as the page's seed)
        self.seed_known = setup.get("seed_known", True)

    @property
    def state(self):
        return self.table.state

    @property
    def actions(self) -> list:
        return self.table.actions

    def name(self, q: int) -> str:
        """A seat as the person reads it, as Space Mission's play: its colour and who plays it
        ("red (you)", "blue (random)"), the colour the board names it by."""
        return self.words.name(q, self.seat, self.specs[q])

    def show_board(self) -> None:
        self.console.print()
        self.console.print(self.words.board(self.state, self.seat), markup=False, highlight=False, soft_wrap=True)

    def show_moves(self, moves: list[int]) -> None:
        self.console.print("Your moves:")
        for k, a in enumerate(moves, 1):
            self.console.print(f"  {k:>2}  {self.words.said(self.game.action_label(a, self.state))}", markup=False)

    def play(self, action: int) -> str:
        return self.words.said(self.table.play(action)["text"])

    def run(self) -> int:
        g, d = self.game, self.game.description
        others = ", ".join(f"{self.words.colour(q)}: {s}" for q, s in enumerate(self.specs) if s is not None)
        if self.loaded:  # as Space Mission's session says it
            self.console.print(f"Continuing the game saved in {self.loaded} ({len(self.actions)} moves played).",
                               markup=False, soft_wrap=True)
        seed = f"seed {self.seed}" if self.seed_known else "seed shown at the end"
        self.console.print(f"{d.title}, {self.config.num_players} players, {seed}. You are "
                           f"{f'{self.words.colour(self.seat)}, ' if self.words.colours else ''}seat {self.seat}; "
                           f"{others}. Type help for the commands.", markup=False)
        if note := seer_note(self.table.bots):
            self.console.print(note, markup=False)
        while not g.rules.is_over(self.state):
            q = g.rules.current_player(self.state)
            if q == self.seat:
                if not self.person_decision():
                    return 0
                continue
            entry = self.table.bot_step()
            if entry is None:
                self.console.print(f"error: {self.table.failure}", markup=False)
                return 1
            self.console.print(f"  {self.name(q)}: {self.words.said(entry['text'])}", markup=False)
        self.finish()
        return 0

    def person_decision(self) -> bool:
        """One decision of the person; False when the person leaves."""
        self.show_board()
        moves = self.table.legal()
        self.show_moves(moves)
        labels = {self.game.action_label(a, self.state).lower(): a for a in moves}
        labels.update({self.words.said(label): a for label, a in list(labels.items())})  # as shown, or as recorded
        while True:
            got = next_command(self, moves, HELP + RULES.get(self.game.name, ""))
            if got is None:
                return False
            command, _, text = got
            if command in ("quit", "exit"):
                if confirm_quit(self):
                    return False
            elif (k := move_number(text)) is not None:
                if 1 <= k <= len(moves):
                    self.console.print(f"  you: {self.play(moves[k - 1])}", markup=False)
                    return True
                self.console.print(f"There is no move {k}: choose 1-{len(moves)} (or type help).")
            elif text.strip().lower() in labels:
                self.console.print(f"  you: {self.play(labels[text.strip().lower()])}", markup=False)
                return True
            else:
                self.console.print(f"{shown(text.strip())} is not a legal move now or a command: type a move's number "
                                   f"(1-{len(moves)}), its whole label, or help.", markup=False)

    def agents(self) -> list[str]:
        return self.table.agents()

    def is_saved(self) -> bool:
        return self.saved is not None and self.saved[1] == len(self.actions)

    def save(self, path: str) -> None:
        if not path:
            self.console.print("usage: save FILE")
            return
        if not may_write(self, path):  # as Space Mission's session: another file is overwritten only when confirmed
            return
        rec = game_record(self.game, self.config, self.state, self.seed, self.agents(), self.actions, unfinished=True)
        try:
            Path(path).write_text(json.dumps(rec, separators=(",", ":")) + "\n", encoding="utf-8")
        except OSError as exc:
            self.console.print(f"cannot save to {path}: {exc}", markup=False)
            return
        self.saved = (path, len(self.actions))
        # soft_wrap: the path and the command are not broken across lines, so either can be copied
        self.console.print(f"saved to {path}; continue with: spacemission play --load {path}", markup=False,
                           soft_wrap=True)

    def finish(self) -> None:
        """Everything face up, the score breakdown, ranks and winners; the record when asked for."""
        from rich.table import Table

        from ._games import record_finished_game

        g, s = self.game, self.state
        self.console.print()
        self.console.print("The end: every card face up", markup=False)
        self.console.print(self.words.board(self.state, None), markup=False, highlight=False, soft_wrap=True)
        rec = game_record(g, self.config, s, self.seed, self.agents(), self.actions)
        table = Table(title="Final scores")
        for col in ("player", *g.score_names, "rank"):
            table.add_column(col, justify="left" if col == "player" else "right")
        for q, sc in enumerate(rec["scores"]):
            table.add_row(self.name(q), *(str(sc[k]) for k in g.score_names), str(rec["ranks"][q]))
        self.console.print(table)
        self.console.print(f"The game's seed: {self.seed}", markup=False)
        won = rec["winners"]
        self.console.print("You win!" if won == [self.seat] else
                           f"Winner{'s' if len(won) > 1 else ''}: " + ", ".join(self.name(q) for q in won)
                           + (" (shared)" if len(won) > 1 else ""), markup=False)
        if self.record:
            record_finished_game(self.console, self.record, rec)


def main(args, ap: argparse.ArgumentParser, game_name: str | None, loaded=None) -> int:
    """``play`` for a protocol game: ``args`` parsed by play's parser; ``loaded`` the
    ``--load`` file, read and parsed (play's ``read_load``; None without --load)."""
    import sys

    from ._prompt import Prompt

    setup = load_game(args, ap, game_name, loaded) if args.load else new_game(args, ap, get_game(game_name))  # type: ignore[arg-type]  # a name without --load (play's main)
    setup["allow_seer"] = args.allow_seer
    game = get_game(setup["config"].game)
    try:
        with bot_interrupts():  # a bot's KeyboardInterrupt as it is built is its failure, not Ctrl-C
            session = ProtocolSession(game, setup, Prompt(sys.stdin), record=args.record)
    except ValueError as exc:  # from --opponents, or from the bots a loaded game names
        ap.error(f"argument --load: {args.load}: {exc}" if args.load else f"argument --opponents: {exc}")
    except KeyboardInterrupt:  # the user's Ctrl-C while the bots were built
        print("\ninterrupted: the game was not started", file=sys.stderr, flush=True)
        return 130
    try:
        return session.run()
    except KeyboardInterrupt:
        session.console.print("\ninterrupted: the game is left unsaved")
        return 130
