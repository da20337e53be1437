"""The terminal front of ``spacemission play``: the person's decisions at the prompt over a
:class:`~spacemission_cli._table.Table` (the game, the bots, the moves in words and undo,
shared with the web page), plus save, quit, help and the record."""
from __future__ import annotations

import json

from spacemission_env.checks import shown
from spacemission_env.space_mission.rules.state_json import state_to_dict

from . import _view as V
from ._bots import seer_note
from ._games import SAVE_FORMAT, SAVE_VERSION, game_record, record_finished_game
from ._prompt import confirm_quit, may_write, move_number, next_command
from ._table import Move, Table, normalise, top_up_move

HELP = """Commands:
  NUMBER          the move with that number in the list, e.g. 3
  LABEL           a move's whole label (any case), e.g. "fly clockwise to Drift", "discover Cinder",
                  "take red mineral"; the start of a label asks you to confirm
  top up CARDS    discard those cards (by face, any order), then draw to 5: "top up J2/S1 S1";
                  "top up nothing" keeps every card
  undo            take back your last move of this turn if it showed you nothing new (jump, fly, a tile)
  board           show the board again      moves   list your moves again
  save FILE       save the game (JSON); continue later with: spacemission play --load FILE
  quit            leave the game (asks first)        help    this text

Coordinates: every planet has a jump (J, blue), a scan (S, green) and two landing (L, orange)
coordinates, shown as "J4 S2 L2,3". A card shows two of them, e.g. J2/S1 (jump 2 or scan 1), S3/L?
(scan 3 or any landing); "?" stands for any value of its colour.

The rules in short (R-T2, R-A1..R-A6): a turn is two actions, each one of
  top up    discard any of your cards, draw to 5
  jump      a card with a planet's J moves your ship there; a probe goes on the jump gate
  fly       move to a neighbouring planet (not from the jump gate); no card
  scan      a card with this planet's S and a chip: look through its pile, reserve a point tile
  develop   two cards for this planet's two L after you scanned it: build a station (3 points),
            the reservations here are collected, and you take a tile from the pile
  discover  on a planet with a station: take a point tile from its pile
A pile whose last point tile leaves turns its space tiles face up; when 6/8/10/12 are up
(2/3/4/5 players) the round is finished and the game ends (R-E1). Reservations on planets
without a station are lost at the end (R-E2). Points: jump gate probes by rank 9/6/3/1, stations
3, minerals and aliens (tiles x the most numerous colour), matter pairs 7, water 2/5/9/14, medals 3."""


class Session:
    def __init__(self, table: Table, prompt, record=None, loaded=None, seed_known: bool = True):
        from rich.console import Console

        self.console = Console(highlight=False)
        if not self.console.is_terminal:  # a pipe or file: plain text, wide enough for the tables
            self.console = Console(highlight=False, width=110)
        self.table, self.prompt, self.record, self.loaded = table, prompt, record, loaded
        self.round_shown = None
        self.saved: tuple[str, int] | None = None  # (path, number of actions) of the last save
        # the seed decides every hidden card: shown at the start only when the person chose it
        # (--seed) or it is in the loaded file, else at the end (as the page's seed)
        self.seed_known = seed_known

    @property
    def state(self):
        return self.table.state

    @property
    def names(self) -> list[str]:
        return self.table.names

    def who(self, q: int) -> str:
        return V.styled(q, V.seat_name(q, self.names))

    # --- views ---------------------------------------------------------------------------
    def show_board(self) -> None:
        self.console.print()
        self.console.print(V.board(self.table.view(), self.names))

    def show_compact(self) -> None:
        view = self.table.view()
        self.console.print(V.status_line(view, self.names))
        for line in V.compact_lines(view):
            self.console.print(line)

    def show_moves(self, moves: list[Move]) -> None:
        s = self.state
        what = "tile to take" if s.phase == "tile" else f"action {3 - s.actions_left} of 2"
        self.console.print(f"Your moves ({what}):")
        for k, m in enumerate(moves, 1):
            self.console.print(f"  {k:>2}  {m.label}", markup=False)
        if any(m.kind == "top_up" and m.cards for m in self.table.moves()):
            self.console.print("      or discard cards first: top up CARDS, e.g. top up "
                               + " ".join(self._hand()[:2]), markup=False)
        if self.table.can_undo:
            self.console.print("      undo: take back your last move", markup=False)

    def _hand(self) -> list[str]:
        from spacemission_env.space_mission.components import CARD_LABELS

        return [CARD_LABELS[c] for c in self.state.players[self.table.seat].hand]

    def listed_moves(self) -> list[Move]:
        """The numbered moves: every move but the top ups that discard (typed by card face)."""
        return [m for m in self.table.moves() if m.kind != "top_up" or not m.cards]

    # --- the loop ------------------------------------------------------------------------
    def run(self) -> int:
        t, s = self.table, self.state
        if self.loaded:
            # the path as it is ("[x]" in it is no markup) and not broken across lines
            self.console.print(f"Continuing the game saved in {self.loaded} (round {s.round}).", markup=False,
                               soft_wrap=True)
        others = ", ".join(f"{V.COLOUR_NAMES[q]}: {t.specs[q]}" for q in range(s.num_players) if q != t.seat)
        seed = f"seed {t.seed}" if self.seed_known else "seed shown at the end"
        self.console.print(f"Space Mission, {s.num_players} players, rules {s.rules}, {seed}. "
                           f"You are {V.styled(t.seat, V.COLOUR_NAMES[t.seat])}, seat {t.seat}; {others}. "
                           f"{self.who(s.start_player)} starts. Type help for the commands and the rules.")
        if note := seer_note(t.opponents):
            self.console.print(note, markup=False)
        while not t.over:
            if self.state.round != self.round_shown:
                self.round_shown = self.state.round
                self.console.rule(f"round {self.state.round}", style="dim")
            if t.person_to_act:
                if not self.person_decision():
                    return 0
            else:
                entry = t.bot_step()
                if entry is not None:
                    self.console.print(f"  {self.who(entry['seat'])}: {entry['text']}")
        if t.failure:  # a bot failed: say so, keep the terminal clean
            self.console.print(f"error: {t.failure}", markup=False)
            return 1
        self.finish()
        return 0

    def person_decision(self) -> bool:
        """One decision of the person; False when the person leaves."""
        s = self.state
        if s.phase == "main" and s.actions_left == 2:
            self.show_board()
        else:
            self.show_compact()
        moves = self.listed_moves()
        self.show_moves(moves)
        while True:
            got = next_command(self, moves, HELP)
            if got is None:
                return False
            command, _, text = got
            if command == "undo":
                try:
                    self.console.print(f"  took back: {self.table.undo()}", markup=False)
                    return True
                except ValueError as exc:
                    self.console.print(str(exc), markup=False)
            elif command in ("quit", "exit"):
                if confirm_quit(self):
                    return False
            else:
                move = self.match(text, moves)
                if move is not None:
                    line = self.table.play(move.action)
                    self.console.print(f"  {self.who(self.table.seat)}: {line}")
                    return True

    def match(self, text: str, moves: list[Move]) -> Move | None:
        """The move ``text`` names: a number, a whole label, ``top up CARDS``, or (confirmed)
        the unique start of a label."""
        t = normalise(text)
        k = move_number(t)
        if k is not None:
            if 1 <= k <= len(moves):
                return moves[k - 1]
            self.console.print(f"There is no move {k}: choose 1-{len(moves)} (or type help).")
            return None
        every = self.table.moves()
        try:
            up = top_up_move(text, every)
        except ValueError as exc:
            self.console.print(str(exc), markup=False)
            return None
        exact = [m for m in every if t in m.names] or ([up] if up else [])
        if exact:
            return exact[0]
        found = [m for m in every if any(n.startswith(t) for n in m.names)]
        if len(found) == 1:
            answer = self.prompt.ask(self.console, f"Play '{found[0].label}'? [y/N] ")
            if answer is not None and answer.strip().lower() in ("y", "yes"):
                return found[0]
            self.console.print("not played", markup=False)
            return None
        if found:
            listed = "; ".join(m.label for m in found[:6]) + ("; ..." if len(found) > 6 else "")
            self.console.print(f"{shown(text.strip())} fits {len(found)} moves ({listed}): type more of the label or the number.",
                               markup=False)
        else:
            self.console.print(f"{shown(text.strip())} is not a legal move now or a command: type a move's number "
                               f"(1-{len(moves)}), its label, or help.", markup=False)
        return None

    def is_saved(self) -> bool:
        return self.saved is not None and self.saved[1] == len(self.table.actions)

    def save(self, path: str) -> None:
        if not path:
            self.console.print("usage: save FILE")
            return
        if not may_write(self, path):
            return
        t = self.table
        data = {"format": SAVE_FORMAT, "version": SAVE_VERSION, "seed": t.seed, "seat": t.seat,
                "specs": t.specs, "actions": t.actions, "state": state_to_dict(self.state)}
        try:
            with open(path, "w", encoding="utf-8") as f:
                json.dump(data, f, separators=(",", ":"))
        except OSError as exc:
            self.console.print(f"cannot save to {path}: {exc}", markup=False)
            return
        self.saved = (path, len(t.actions))
        # soft_wrap: the path and the command are not broken across lines, so either can be copied
        self.console.print(f"saved to {path}; continue with: spacemission play --load {path}", markup=False,
                           soft_wrap=True)

    def finish(self) -> None:
        """At the end, everything face up (hands, collections, piles, lost reservations), the
        score table and the winners; the record when asked for."""
        from rich.table import Table as RichTable

        t, s = self.table, self.state
        self.console.print()
        self.console.print(V.board(t.final_view(), self.names, title="The end: every card and tile face up"))
        res = t.result()
        how = ("at the round limit (R-E3)" if s.round_limit else f"by R-E1, {s.revealed_count} space tiles revealed")
        table = RichTable(title=f"Final scores: the game ended in round {s.round} {how}")
        for col in ("player", "jump gate", "stations", "minerals", "aliens", "matter", "water", "medals", "total", "rank"):
            table.add_column(col, justify="left" if col == "player" else "right")
        for q, sc in enumerate(res["scores"]):
            table.add_row(self.who(q), *(str(sc[k]) for k in ("jump_gate", "stations", "minerals", "aliens", "matter",
                                                               "water", "medals", "total")), str(res["ranks"][q]))
        self.console.print(table)
        self.console.print(f"The game's seed: {t.seed}", markup=False)
        won = res["winners"]
        text = ", ".join(self.who(q) for q in won)
        self.console.print(("You win!" if won == [t.seat] else f"Winner{'s' if len(won) > 1 else ''}: {text}")
                           + (" (shared)" if len(won) > 1 else ""))
        if self.record:
            agents = ["human" if q == t.seat else t.specs[q] for q in range(s.num_players)]
            record_finished_game(self.console, self.record, game_record(s, t.seed, agents, t.actions))
