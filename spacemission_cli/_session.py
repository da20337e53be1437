"""The game loop of ``spacemission play``: the person's decisions at the prompt, the bots'
through the agent protocol, each action in words, save, quit and the record."""
from __future__ import annotations

import json
import re
from dataclasses import dataclass

from spacemission_env import actions as A
from spacemission_env import encoding
from spacemission_env.components import CARD_LABELS
from spacemission_env.rules import action_label, apply, legal_actions, scores, winners
from spacemission_env.rules.state_json import state_to_dict

from . import _view as V
from ._games import append_record, final_ranks, game_record, own_label, public_label

HELP = """Commands (a move is chosen by its number or by its label):
  NUMBER        the move with that number in the list, e.g. 3
  LABEL         a move's label, case-insensitive; a unique start is enough, e.g. "fly cl", "disc",
                "develop"; a top up also as "top up J2/S4 S?/L3" or "top up nothing"
  board         show the board again
  moves         list the legal moves again
  save FILE     save the game (JSON); continue later with: spacemission play --load FILE
  quit          leave the game (asks first)
  help          this list"""


KIND_ORDER = ("tile", "discover", "develop", "scan", "jump", "fly")


@dataclass
class Move:
    action: int
    label: str  # rules.action_label: what the move list shows and what typing matches
    names: tuple[str, ...]  # normalised texts that choose it (the label and its short forms)


def _norm(text: str) -> str:
    return re.sub(r"\s+", " ", text.strip().lower())


class Session:
    def __init__(self, state, seat: int, seed: int, specs: list, opponents: dict, actions: list, prompt,
                 record=None, loaded=None):
        from rich.console import Console

        self.console = Console(highlight=False)
        if not self.console.is_terminal:  # a pipe or file: plain text, wide enough for the tables
            self.console = Console(highlight=False, width=110)
        self.state, self.seat, self.seed, self.specs = state, seat, seed, specs
        self.opponents, self.actions, self.prompt = opponents, actions, prompt
        self.record, self.loaded = record, loaded
        self.names = ["you" if q == seat else specs[q] for q in range(state.num_players)]
        self.round_shown = None

    # --- views ---------------------------------------------------------------------------
    def view(self):
        s = self.state
        obs = encoding.observe(s, self.seat, "info")  # the person's table view: what the rules let it see
        return V.view_from_observation(obs, "info", self.seat, s.num_players, s.rules, s.max_rounds)

    def who(self, q: int) -> str:
        return V.styled(q, V.seat_name(q, self.names))

    def show_board(self) -> None:
        self.console.print()
        self.console.print(V.board(self.view(), self.names))

    def show_compact(self) -> None:
        view = self.view()
        self.console.print(V.status_line(view, self.names))
        for line in V.compact_lines(view):
            self.console.print(line)

    def moves(self) -> list[Move]:
        s = self.state
        hand = s.players[s.current_player].hand
        out, top_ups = [], []
        for a in legal_actions(s):
            label = action_label(a, s)
            kind, args = A.decode(a)
            names = [_norm(label)]
            if kind == "top_up":
                cards = [CARD_LABELS[hand[i]] for i in A.slots_of_mask(args[0])]
                names.append(_norm("top up " + (" ".join(cards) if cards else "nothing")))
                top_ups.append(Move(a, label, tuple(names)))
            else:
                out.append(Move(a, label, tuple(names)))
        # the moves that take tiles and build first, then movement; top ups last, fewest discards first
        out.sort(key=lambda m: (KIND_ORDER.index(A.decode(m.action)[0]), m.action))
        top_ups.sort(key=lambda m: (bin(m.action).count("1"), m.action))
        return out + top_ups

    def show_moves(self, moves: list[Move]) -> None:
        from rich.padding import Padding
        from rich.table import Table

        s = self.state
        what = "tile to take" if s.phase == "tile" else f"action {3 - s.actions_left} of 2"
        self.console.print(f"Your moves ({what}):")
        grid = Table.grid(padding=(0, 3))
        for _ in range(3):
            grid.add_column()
        cells = []
        for k, m in enumerate(moves, 1):
            kind, args = A.decode(m.action)
            if kind != "top_up":
                self.console.print(f"  {k:>2}  {m.label}", markup=False)
                continue
            hand = s.players[s.current_player].hand
            cards = " ".join(CARD_LABELS[hand[i]] for i in A.slots_of_mask(args[0])) or "nothing (keep all)"
            cells.append(f"{k:>2}  {cards}")
        if cells:
            self.console.print("  top up, discarding (then draw to 5):")
            for i in range(0, len(cells), 3):
                grid.add_row(*(cells[i:i + 3] + [""] * (3 - len(cells[i:i + 3]))))
            self.console.print(Padding(grid, (0, 0, 0, 2)), markup=False)

    # --- the loop ------------------------------------------------------------------------
    def run(self) -> int:
        s = self.state
        if self.loaded:
            self.console.print(f"Continuing the game saved in {self.loaded} (round {s.round}).")
        others = ", ".join(f"{V.COLOUR_NAMES[q]}: {self.specs[q]}" for q in range(s.num_players) if q != self.seat)
        self.console.print(f"Space Mission, {s.num_players} players, rules {s.rules}, seed {self.seed}. "
                           f"You are {V.styled(self.seat, V.COLOUR_NAMES[self.seat])}, seat {self.seat}; {others}. "
                           f"{self.who(s.start_player)} starts. Type help for the commands.")
        try:
            while not s.is_over:
                if s.round != self.round_shown:
                    self.round_shown = s.round
                    self.console.rule(f"round {s.round}", style="dim")
                if s.current_player == self.seat:
                    if not self.person_decision():
                        return 0
                else:
                    self.opponent_decision()
        except RuntimeError as exc:  # a bot returned an illegal action: say so, keep the terminal clean
            self.console.print(f"error: {exc}", markup=False)
            return 1
        self.finish()
        return 0

    def opponent_decision(self) -> None:
        s = self.state
        q = s.current_player
        action = self.opponents[q].act(s, len(self.actions))
        line = public_label(action, s)  # before the action: its cards and planet; never a tile's type
        self.actions.append([q, action, action_label(action, s)])
        apply(s, action)
        self.console.print(f"  {self.who(q)}: {line}")

    def person_decision(self) -> bool:
        """One decision of the person; False when the person leaves."""
        s = self.state
        if s.phase == "main" and s.actions_left == 2:
            self.show_board()
        else:
            self.show_compact()
        moves = self.moves()
        self.show_moves(moves)
        while True:
            text = self.prompt.ask(self.console, "your move> ")
            if text is None:
                self.console.print("end of input: leaving the game (not saved)")
                return False
            word, _, rest = text.strip().partition(" ")
            command = word.lower()
            if not command:
                continue
            if command in ("help", "?"):
                self.console.print(HELP, markup=False)
            elif command == "board":
                self.show_board()
            elif command == "moves":
                self.show_moves(moves)
            elif command == "save":
                self.save(rest.strip())
            elif command in ("quit", "exit"):
                if self.confirm_quit():
                    return False
            else:
                move = self.match(text, moves)
                if move is not None:
                    line = own_label(move.action, s)
                    self.actions.append([self.seat, move.action, move.label])
                    apply(s, move.action)
                    self.console.print(f"  {self.who(self.seat)}: {line}")
                    return True

    def match(self, text: str, moves: list[Move]) -> Move | None:
        t = _norm(text)
        if t.isdigit():
            k = int(t)
            if 1 <= k <= len(moves):
                return moves[k - 1]
            self.console.print(f"There is no move {k}: choose 1-{len(moves)} (or type help).")
            return None
        exact = [m for m in moves if t in m.names]
        if exact:
            return exact[0]
        found = [k for k, m in enumerate(moves, 1) if any(n.startswith(t) for n in m.names)]
        if len(found) == 1:
            return moves[found[0] - 1]
        if found:
            shown = ", ".join(map(str, found[:12])) + (", ..." if len(found) > 12 else "")
            self.console.print(f"{text.strip()!r} fits {len(found)} moves ({shown}): type more of the label or the number.",
                               markup=False)
        else:
            self.console.print(f"{text.strip()!r} is not a legal move now or a command: type a move's number "
                               f"(1-{len(moves)}), the start of its label, or help.", markup=False)
        return None

    def save(self, path: str) -> None:
        if not path:
            self.console.print("usage: save FILE")
            return
        data = {"format": "spacemission-play-save", "version": 1, "seed": self.seed, "seat": self.seat,
                "specs": self.specs, "actions": self.actions, "state": state_to_dict(self.state)}
        try:
            with open(path, "w", encoding="utf-8") as f:
                json.dump(data, f, separators=(",", ":"))
        except OSError as exc:
            self.console.print(f"cannot save to {path}: {exc}", markup=False)
            return
        self.console.print(f"saved to {path}; continue with: spacemission play --load {path}", markup=False)

    def confirm_quit(self) -> bool:
        answer = self.prompt.ask(self.console, "Leave the game? It is not saved ('save FILE' keeps it). [y/N] ")
        if answer is None or answer.strip().lower() in ("y", "yes"):
            self.console.print(f"left the game in round {self.state.round}")
            return True
        self.console.print("going on")
        return False

    def finish(self) -> None:
        from rich.table import Table

        s = self.state
        self.show_board()
        how = ("at the round limit (R-E3)" if s.round_limit
               else f"by R-E1, {s.revealed_count} space tiles revealed")
        table = Table(title=f"Final scores: the game ended in round {s.round} {how}")
        for col in ("player", "jump gate", "stations", "minerals", "aliens", "matter", "water", "medals", "total", "rank"):
            table.add_column(col, justify="left" if col == "player" else "right")
        ranks = final_ranks(s)
        for q, sc in enumerate(scores(s)):
            table.add_row(self.who(q), *(str(sc[k]) for k in ("jump_gate", "stations", "minerals", "aliens", "matter",
                                                               "water", "medals", "total")), str(ranks[q]))
        self.console.print(table)
        won = winners(s)
        text = ", ".join(self.who(q) for q in won)
        self.console.print(("You win!" if won == [self.seat] else f"Winner{'s' if len(won) > 1 else ''}: {text}")
                           + (" (shared)" if len(won) > 1 else ""))
        if self.record:
            agents = ["human" if q == self.seat else self.specs[q] for q in range(s.num_players)]
            try:
                k = append_record(self.record, game_record(s, self.seed, agents, self.actions))
            except OSError as exc:
                self.console.print(f"cannot record the game in {self.record}: {exc}", markup=False)
                return
            self.console.print(f"recorded as game {k} in {self.record} (spacemission replay {self.record} --game {k})",
                               markup=False)
