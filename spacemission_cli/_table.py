"""One person's seat at a game against bots, without any input or output: the view model
shared by the terminal ``spacemission play`` and the page of ``spacemission serve``.

:class:`Table` holds the game, plays the person's moves and the bots', keeps the log of
moves in words, offers undo and, at the end, everything that was hidden. What it shows
the person comes from the person's own observation (:meth:`Table.view`, the rule set's
table view); the full state is read only for the person's own legal moves and their
labels (its own hand and the public ring), and for the summary once the game is over,
when a table turns every card and tile face up.

Moves are named by what they do, with card faces (``J4/S?``) rather than hand slots
(slots are re-sorted whenever the hand changes) and with the planet they reach or act on.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from spacemission_env.space_mission import actions as A
from spacemission_env.space_mission import encoding
from spacemission_env.space_mission.components import CARD_LABELS, PLANET_NAMES, RING_SIZE
from spacemission_env.space_mission.rules import action_label, apply, legal_actions, scores, winners

from . import _view as V
from ._games import final_ranks, public_label

KIND_ORDER = ("tile", "discover", "develop", "scan", "jump", "fly", "top_up")
# actions that show the person nothing new: undoing them takes back no knowledge (Board Game
# Arena's convention); top up draws cards, scan, develop and discover look through a pile
UNDOABLE = ("jump", "fly", "tile")


@dataclass(frozen=True)
class Move:
    action: int
    kind: str
    label: str  # what the person reads and may type in full
    cards: tuple[str, ...]  # the faces of the cards it plays or discards
    names: tuple[str, ...]  # normalised texts that choose it exactly


def normalise(text: str) -> str:
    return re.sub(r"\s+", " ", text.strip().lower())


def _where(state, position: int) -> str:
    return PLANET_NAMES[state.ring[position]]


def _here(state) -> str:
    ship = state.players[state.current_player].ship
    return _where(state, ship) if ship >= 0 else "the jump gate"


def move_label(action: int, state) -> str:
    """The acting seat's move in words, cards by face and planets by name, e.g. ``jump with
    J4/S? to Mars``, ``fly clockwise to Venus``, ``take red mineral`` (R-A1..R-A6)."""
    kind, args = A.decode(action)
    hand = state.players[state.current_player].hand
    face = lambda slot: CARD_LABELS[hand[slot]]  # noqa: E731
    if kind == "top_up":
        cards = [face(i) for i in A.slots_of_mask(args[0])]
        return "top up, discarding " + " ".join(cards) if cards else "top up, keeping every card"
    if kind == "jump":
        return f"jump with {face(args[0])} to {_where(state, args[1])}"
    if kind == "fly":
        ship = state.players[state.current_player].ship
        direction = "clockwise" if args[0] == 1 else "counter-clockwise"
        return f"fly {direction} to {_where(state, (ship + args[0]) % RING_SIZE)}"
    if kind == "scan":
        return f"scan {_here(state)} with {face(args[0])}"
    if kind == "develop":
        return f"develop {_here(state)} with {face(args[0])} and {face(args[1])}"
    if kind == "discover":
        return f"discover {_here(state)}"
    where = "reserve under a probe" if state.pending == "scan" else "into your collection"
    return f"take {V.tile_name(args[0])} ({where})"


def legal_moves(state) -> list[Move]:
    """The acting seat's legal moves in a fixed order (tiles, building, movement, top ups
    with the fewest discards first), each with its label and the texts that choose it."""
    hand = state.players[state.current_player].hand
    out = []
    for a in legal_actions(state):
        kind, args = A.decode(a)
        label = move_label(a, state)
        # the label, without its parenthesis, and the rules' own label (as recorded)
        names = {normalise(label), normalise(re.sub(r" \([^)]*\)$", "", label)), normalise(action_label(a, state))}
        cards: tuple[str, ...] = ()
        if kind == "top_up":
            cards = tuple(CARD_LABELS[hand[i]] for i in A.slots_of_mask(args[0]))
            names.add(normalise("top up " + (" ".join(cards) if cards else "nothing")))
        elif kind in ("jump", "scan", "develop"):
            slots = (args[0],) if kind != "develop" else args
            cards = tuple(CARD_LABELS[hand[i]] for i in slots)
        out.append(Move(a, kind, label, cards, tuple(sorted(names))))
    out.sort(key=lambda m: (KIND_ORDER.index(m.kind), len(m.cards) if m.kind == "top_up" else 0, m.action))
    return out


def top_up_move(text: str, moves: list[Move]) -> Move | None:
    """``top up J2/S1 S1`` (cards in any order, by face) or ``top up nothing``; None when
    ``text`` is not a top up; ValueError naming a card that is not in the hand."""
    if not normalise(text).startswith("top up"):
        return None
    words = " ".join(text.split())[len("top up"):].replace(",", " ").split()
    if [w.lower() for w in words[:1]] == ["discarding"]:
        words = words[1:]
    if [w.lower() for w in words] in (["nothing"], ["keeping", "every", "card"]):
        words = []
    ups = [m for m in moves if m.kind == "top_up"]
    if not ups:
        raise ValueError("you cannot top up now")
    want = sorted(w.upper() for w in words)
    for m in ups:
        if sorted(c.upper() for c in m.cards) == want:
            return m
    hand = max((m.cards for m in ups), key=len)
    unknown = [w for w in words if w.upper() not in {c.upper() for c in hand}]
    if unknown:
        raise ValueError(f"{unknown[0]!r} is not a card in your hand ({' '.join(hand)})")
    raise ValueError("name each card to discard once (a card you hold twice cannot be)")


class Table:
    """A game with the person in ``seat`` and the bots of ``opponents`` (seat -> an object
    with ``act(state, ply) -> action`` and ``spec``) in the others. ``actions`` is the record
    so far, ``[seat, action, rules label]`` per action (kept for saving and replay)."""

    def __init__(self, state, seat: int, seed: int, specs: list, opponents: dict, actions: list | None = None):
        self.state, self.seat, self.seed, self.specs = state, seat, seed, specs
        self.opponents = opponents
        self.actions = actions if actions is not None else []
        self.names = ["you" if q == seat else str(specs[q]) for q in range(state.num_players)]
        self.log: list[dict] = []  # every move in words: {"seat", "text", "round"}
        self._undo: list[tuple] = []  # (state, len(actions), len(log)) before each undoable move
        self.resigned = False
        self.failure: str | None = None  # a bot's error that ended the game
        self.deciding: str | None = None  # the bot whose decision is under way ("'SPEC' (seat Q)"): serve's shutdown names it

    # --- what the person sees ----------------------------------------------------------------
    @property
    def over(self) -> bool:
        return self.state.is_over or self.resigned or self.failure is not None

    @property
    def person_to_act(self) -> bool:
        return not self.over and self.state.current_player == self.seat

    def over_message(self) -> str:
        """Why nothing more can be done in a game that is ``over``: the person resigned, a bot's
        failure stopped it, or it ended by the rules (R-E1, R-E3)."""
        if self.resigned:
            return "the game is over: you resigned"
        if self.failure is not None:
            return "the game is over: a bot's failure stopped it"
        return "the game is over"

    def view(self) -> V.View:
        """The board as the person's seat sees it: its own observation, decoded."""
        s = self.state
        obs = encoding.observe(s, self.seat, "info")
        return V.view_from_observation(obs, "info", self.seat, s.num_players, s.rules, s.max_rounds)

    def final_view(self) -> V.View:
        """Once the game is over: everything (hands, collections, piles, lost reservations)."""
        if not self.over:
            raise ValueError("the game is not over: hidden cards and tiles stay hidden")
        return V.state_view(self.state, None)

    def moves(self) -> list[Move]:
        return legal_moves(self.state) if self.person_to_act else []

    def result(self) -> dict:
        """Final scores with their breakdown, ranks and winners (R-P8), once the game is over."""
        s = self.state
        ranks = final_ranks(s)
        return {"scores": scores(s), "ranks": ranks, "winners": winners(s) if s.is_over else [],
                "round": s.round, "round_limit": s.round_limit, "resigned": self.resigned, "failure": self.failure}

    # --- playing ---------------------------------------------------------------------------
    def play(self, action: int) -> str:
        """The person's move; ValueError (state unchanged) when it is not theirs to make or illegal."""
        if self.over:
            raise ValueError(self.over_message())
        s = self.state
        if s.current_player != self.seat:
            raise ValueError(f"it is {V.COLOUR_NAMES[s.current_player]}'s turn, not yours")
        if isinstance(action, bool) or not isinstance(action, int):
            raise TypeError(f"a move is an action id (integer), got {action!r}")
        if action not in legal_actions(s):
            raise ValueError(f"action {action} ({action_label(action) if 0 <= action < A.NUM_ACTIONS else 'out of range'})"
                             " is not one of your legal moves now")
        kind, _ = A.decode(action)
        if kind in UNDOABLE:
            self._undo.append((s.copy(), len(self.actions), len(self.log)))
        else:
            self._undo.clear()
        text = move_label(action, s)
        self._record(self.seat, action, text)
        return text

    def _record(self, seat: int, action: int, text: str) -> None:
        s = self.state
        self.actions.append([seat, action, action_label(action, s)])
        self.log.append({"seat": seat, "text": text, "round": s.round})
        apply(s, action)

    def bot_step(self) -> dict | None:
        """One bot decision when a bot is to act: the log entry, or None. A bot that fails
        ends the game; its message names the bot (``failure``)."""
        s = self.state
        if self.over or s.current_player == self.seat:
            return None
        q = s.current_player
        self._undo.clear()
        self.deciding = f"{self.opponents[q].spec!r} (seat {q})"
        try:
            action = self.opponents[q].act(s, len(self.actions))
        except RuntimeError as exc:
            self.failure = str(exc)
            return None
        finally:
            self.deciding = None
        self._record(q, action, public_label(action, s))
        return self.log[-1]

    def bots_until_person(self, stop=None) -> list[dict]:
        """Let the bots play until the person is to act or the game is over; their moves.
        ``stop`` (a threading.Event, the server's: its request was cancelled at shutdown) is
        looked at before each decision: once set, the bots stop there (a decision under way ends
        first: a bot's ``act`` cannot be interrupted)."""
        out = []
        while not (stop is not None and stop.is_set()) and (entry := self.bot_step()) is not None:
            out.append(entry)
        return out

    @property
    def can_undo(self) -> bool:
        return bool(self._undo) and self.person_to_act

    def undo(self) -> str:
        """Take back the person's last move of this turn when it revealed nothing hidden."""
        if self.over:  # before: "nothing to undo: only your own moves ...", as if the game went on
            raise ValueError(f"{self.over_message()}; nothing can be taken back")
        if not self.can_undo:
            raise ValueError("nothing to undo: only your own moves of this turn that showed you nothing new "
                             "(jump, fly, the tile you took) can be taken back")
        state, n_actions, n_log = self._undo.pop()
        text = self.log[n_log]["text"]
        self.state = state
        del self.actions[n_actions:]
        del self.log[n_log:]
        return text

    def resign(self) -> None:
        if self.over:
            raise ValueError(self.over_message())
        self.resigned = True
        self._undo.clear()
