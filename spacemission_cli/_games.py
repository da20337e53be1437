"""Recorded games (the arena's ``games.jsonl`` format, docs/arena.md) and moves in words:
shared by ``spacemission play`` (which records) and ``spacemission replay`` (which checks
and shows). A recorded game is rebuilt with the reference engine from its seed, its
configuration and its actions; every recorded label and the final result must match."""
from __future__ import annotations

import json
import os
import re
import stat
from pathlib import Path
from typing import Any

from spacemission_env import checks
from spacemission_env.checks import cut_long_words, is_int
from spacemission_env.games import CONFIG_FIELDS, GAMES, GameConfig, GameConfigError, config_allowed
from spacemission_env.json_input import json_kind, json_shown, parse_json
from spacemission_env.space_mission import actions as A
from spacemission_env.space_mission.components import PLANET_NAMES
from spacemission_env.space_mission.rules import action_label, apply, is_legal, new_game, scores, winners
from spacemission_env.space_mission.rules.state import GameState

RECORD_FORMAT, RECORD_VERSION = "spacemission-arena-game", 1
SAVE_FORMAT, SAVE_VERSION = "spacemission-play-save", 1  # written by play's 'save FILE'


def is_version(value, expected: int) -> bool:
    """A file's format version is exactly the whole number ``expected``: JSON's ``true`` and
    ``1.0`` equal 1 in Python but are not a version this package wrote."""
    return type(value) is int and value == expected


def record_config_problem(cfg: dict, required: tuple[str, ...] = ()) -> str | None:
    """What is wrong with a record's ``config`` object, in JSON's words as the web API says
    it ("num_players must be an integer in 3..5 for Mission: Red Planet, got null", not
    Python's "got NoneType: None" or "unknown rules 'x'"); None when it configures its game
    (``game``, absent: Space Mission). A field in ``required`` must not be null; the others,
    null or absent, take the game's default (GameConfig's rule)."""
    name = cfg.get("game", "spacemission")
    if not isinstance(name, str) or name not in GAMES:
        return f"game must be one of {', '.join(sorted(GAMES))}, got {json_shown(name)}"
    for field in required:
        if cfg.get(field) is None:
            return f"{field} must be {config_allowed(name, field)}, got null"
    try:
        fields: dict[str, Any] = {field: cfg.get(field) for field in CONFIG_FIELDS}  # GameConfig checks their types
        GameConfig(**fields, game=name)
    except GameConfigError as exc:
        return f"{exc.field} must be {config_allowed(name, exc.field)}, got {json_shown(cfg.get(exc.field))}"
    return None


SAVE_FIELDS = ("state", "seat", "specs", "seed", "actions")


def missing_save_field(data: dict) -> str | None:
    """What a play save lacks, as replay, play --load and serve's upload say it (not Python's
    "KeyError: 'seed'"); None when it has every field."""
    missing = [key for key in SAVE_FIELDS if key not in data]
    return f"missing field {json_shown(missing[0])} of a saved game" if missing else None


_SLOT = re.compile(r"card \d+ \(([^)]*)\)")
# parsed records hold about 4.5 bytes per byte of their JSON text (6.6 at the peak of parsing;
# measured on an arena's games.jsonl): a lower bound of what reading a file of games takes
PARSED_BYTES_PER_BYTE = 4
_READ_CHUNK = 2**20


class ReplayError(ValueError):
    """A recorded game that is malformed or does not replay; the message names the line and action."""


# --- moves in words ------------------------------------------------------------------------
def _planet_here(state: GameState) -> str:
    ship = state.players[state.current_player].ship
    return PLANET_NAMES[state.ring[ship]] if ship >= 0 else "the jump gate"


def _destination(action: int, state: GameState) -> str:
    """' to PLANET' for a fly (R-A3: the neighbour in that direction), else ''."""
    kind, args = A.decode(action)
    if kind != "fly":
        return ""
    ship = state.players[state.current_player].ship
    return f" to {PLANET_NAMES[state.ring[(ship + args[0]) % len(state.ring)]]}" if ship >= 0 else ""


def own_label(action: int, state: GameState) -> str:
    """The acting seat's own view of its move (``state`` before it): the full label, with the
    planet for actions on it and a fly's destination."""
    kind, _ = A.decode(action)
    label = action_label(action, state) + _destination(action, state)
    if kind in ("scan", "develop", "discover"):
        label += f" on {_planet_here(state)}"
    elif kind == "tile":
        label += " (reserved under a probe)" if state.pending == "scan" else " (into the collection)"
    return label


def public_label(action: int, state: GameState) -> str:
    """What the other players saw (R-I1: actions are taken openly) with nothing they may not
    know: no hand slot (slots are sorted by card id, so a slot number hints at the other
    cards) and no tile type (R-I4: reservations and collections are private)."""
    kind, _ = A.decode(action)
    if kind == "tile":
        return "reserves a tile under a probe" if state.pending == "scan" else "takes a tile into its collection"
    label = _SLOT.sub(r"\1", action_label(action, state)) + _destination(action, state)
    if kind in ("scan", "develop", "discover"):
        label += f" on {_planet_here(state)}"
    return label


# --- records -------------------------------------------------------------------------------
def final_ranks(state: GameState, forfeit_seat: int | None = None) -> list[int]:
    """1 + the seats strictly ahead in R-P8 order (points, then stations), as the arena records;
    a seat that forfeited (``forfeit_seat``) ranks last, the others by their scores so far."""
    totals = [s["total"] for s in scores(state)]
    key = [totals[q] * 64 + sum(1 for o in state.stations if o == q) for q in range(state.num_players)]
    if forfeit_seat is not None:
        key[forfeit_seat] = -1
    return [1 + sum(k > key[q] for k in key) for q in range(state.num_players)]


def game_record(state: GameState, seed: int, agents: list[str], actions: list, game: int = 0) -> dict:
    """One finished game as a JSON-lines record (docs/arena.md, "games.jsonl"); ``lineup``,
    ``deal`` and ``seating`` are null outside the arena."""
    ranks = final_ranks(state)
    return {
        "format": RECORD_FORMAT, "version": RECORD_VERSION, "game": game, "seed": seed,
        "config": {"game": "spacemission", "num_players": state.num_players, "rules": state.rules,
                   "max_rounds": state.max_rounds},
        "lineup": None, "deal": None, "seating": None, "agents": list(agents),
        "start_player": state.start_player, "actions": [list(a) for a in actions],
        "scores": scores(state), "ranks": ranks, "winners": [q for q in range(state.num_players) if ranks[q] == 1],
        "rounds": state.round, "round_limit": state.round_limit, "forfeit": None,
    }


def append_record(path, record: dict) -> int:
    """Append ``record`` as one line to ``path``; its ``game`` field becomes the line's index.
    A last line without its newline gets one first (else the record would join it)."""
    path = Path(path)
    existing, joined = 0, False
    if path.exists():
        with path.open(encoding="utf-8") as f:
            for line in f:
                existing += bool(line.strip())
                joined = not line.endswith("\n")
    record = dict(record, game=existing)
    with path.open("a", encoding="utf-8") as f:
        f.write(("\n" if joined else "") + json.dumps(record, separators=(",", ":")) + "\n")
    return existing


def record_finished_game(console, path, record: dict) -> None:
    """Append a finished game to play's ``--record`` file and say where it went. Should that
    fail (the file changed during the game), the record is printed, one JSON line, rather
    than lost."""
    try:
        k = append_record(path, record)
    except (OSError, ValueError) as exc:  # ValueError: UnicodeDecodeError among them
        console.print(f"cannot record the game in {path}: {exc}. The game's record, one JSON line "
                      f"(spacemission replay reads a file of such lines):", markup=False, soft_wrap=True)
        console.print(json.dumps(record, separators=(",", ":")), markup=False, highlight=False, soft_wrap=True)
        return
    console.print(f"recorded as game {k} in {path} (spacemission replay {path} --game {k})", markup=False)


def check_record_file(path) -> None:
    """ReplayError unless ``path`` can take one more recorded game: absent, empty, or JSON
    lines of recorded games (play's ``--record``, the arena's games.jsonl); checked before a
    game starts, so that a wrong file (a picture, results.json, a saved game) neither costs
    the finished game nor gets a line that replay cannot read."""
    path = Path(path)
    if not path.exists() or (path.is_file() and path.stat().st_size == 0):
        return
    try:
        if not read_text(path).strip():  # blank lines only: append_record takes it as empty
            return
    except (OSError, UnicodeDecodeError, ValueError):
        pass  # read_records names the problem
    records = read_records(path)
    if len(records) == 1 and records[0][1].get("unfinished"):
        raise ReplayError(f"{path} is a game saved by play's 'save FILE', not a file of recorded games")


def read_text(path) -> str:
    """The UTF-8 text of a file of recorded or saved games (newlines as ``Path.read_text``
    gives them). OSError or UnicodeDecodeError as reading raises them; ValueError
    (checks.check_memory) when the games read from it could not fit this machine's memory:
    a regular file by its size, before any of it is read; anything else (a pipe, a device)
    once that much has been read, or at its first NUL byte (/dev/zero, /dev/urandom: no
    text). Before, such a file was read until the system killed the process, or ended in
    a bare MemoryError."""
    path = Path(path)
    advice = "split it into smaller files (one game a line)"
    with path.open("rb") as f:
        info = os.fstat(f.fileno())
        if stat.S_ISREG(info.st_mode):
            checks.check_memory(f"{path} holds {info.st_size:,} bytes; the games read from it need",
                                info.st_size * PARSED_BYTES_PER_BYTE, advice)
            data = f.read()
        else:
            have = checks.physical_memory()
            parts, size = [], 0
            while chunk := f.read(_READ_CHUNK):
                nul = chunk.find(b"\0")
                if nul >= 0:  # /dev/zero, /dev/urandom, a binary stream: it would never stop
                    raise ValueError(f"cannot read {path}: byte {size + nul:,} is NUL, which no text file of games holds")
                size += len(chunk)
                if have is not None and size * PARSED_BYTES_PER_BYTE > have:
                    checks.check_memory(f"{path} gave {size:,} bytes (reading stopped there); the games read from "
                                        f"it need", size * PARSED_BYTES_PER_BYTE, advice)
                parts.append(chunk)
            data = b"".join(parts)
    return data.decode("utf-8").replace("\r\n", "\n").replace("\r", "\n")


def read_records(path) -> list[tuple[int, dict]]:
    """(line number, record) for every non-empty line, or the one game of a file written by
    play's ``save FILE`` (unfinished); ReplayError naming the line otherwise."""
    path = Path(path)
    try:
        text = read_text(path)
    except (OSError, UnicodeDecodeError) as exc:
        raise ReplayError(f"cannot read {path}: {exc}") from None
    except ValueError as exc:  # too large for this machine's memory
        raise ReplayError(str(exc)) from None
    return parse_records(text, str(path))


_UNPARSED = object()


def parse_records(text: str, where: str, whole=_UNPARSED) -> list[tuple[int, dict]]:
    """The games of a recorded file's text (see :func:`read_records`). ``whole``: the text
    parsed as one JSON document where the caller has done so (None: it is not one)."""
    if whole is _UNPARSED:
        try:
            whole = parse_json(text)
        except ValueError:  # not one JSON document: JSON lines (each checked below)
            whole = None
    if isinstance(whole, dict) and whole.get("format") == SAVE_FORMAT:
        return [(1, record_from_save(whole, where))]
    lines = [(n, line) for n, line in enumerate(text.splitlines(), 1) if line.strip()]
    if whole is not None and len(lines) > 1:  # one JSON document written over several lines
        if isinstance(whole, dict) and whole.get("format") == RECORD_FORMAT:  # a record, pretty-printed
            _check_shape(whole, where)
            return [(lines[0][0], whole)]
        # else each line was read as a game: "line 1: not valid JSON" of a file that is valid JSON
        raise ReplayError(f"{where} is one JSON {json_kind(whole)} over {len(lines)} lines, not recorded games: "
                          f"a file of them holds one recorded game a line (the arena's games.jsonl), "
                          f"or is a game saved by play's 'save FILE'")
    out = []
    for n, line in lines:
        try:
            rec = whole if len(lines) == 1 and whole is not None else parse_json(line)  # one line: parsed already
        except ValueError as exc:
            raise ReplayError(f"{where} line {n}: {exc}") from None
        _check_shape(rec, f"{where} line {n}")
        out.append((n, rec))
    if not out:
        raise ReplayError(f"{where} holds no recorded game")
    return out


def saved_game_name(data) -> str | None:
    """The game a ``play --load`` document names, other than by Space Mission's save format:
    a record's ``config.game`` (absent: spacemission), or that of the first record of a JSON
    list of them (a file of records wrapped in a list); None where it names none."""
    if isinstance(data, list):
        data = next((x for x in data if isinstance(x, dict)), None)
    if isinstance(data, dict) and data.get("format") != SAVE_FORMAT and isinstance(data.get("config"), dict):
        return data["config"].get("game", "spacemission")
    return None


def record_from_save(data: dict, where: str) -> dict:
    """A game saved unfinished by play's ``save FILE`` as a record (``unfinished``: true; the
    scores are those at the save, ranks and winners null)."""
    from spacemission_env.space_mission.rules.state_json import state_from_dict

    if not is_version(data.get("version"), SAVE_VERSION):
        raise ReplayError(f"{where}: saved game version {json_shown(data.get('version'))}; expected {SAVE_VERSION}")
    if missing := missing_save_field(data):
        raise ReplayError(f"{where}: {missing}")
    try:
        state = state_from_dict(data["state"])
        specs, seat, n = data["specs"], data["seat"], state.num_players
        if not (is_int(seat) and 0 <= seat < n):  # as play --load checks them: the seats' names come from these
            raise ReplayError(f"{where}: seat must be the person's seat, in 0..{n - 1}, got {json_shown(seat)}")
        if not (isinstance(specs, list) and len(specs) == n and specs[seat] is None
                and all(isinstance(sp, str) for q, sp in enumerate(specs) if q != seat)):
            raise ReplayError(f"{where}: specs must be {n} entries, the opponents' specs with null at the person's "
                              f"seat {seat}, got {json_shown(specs)}")
        agents = ["human" if q == seat else specs[q] for q in range(n)]
        rec = {"format": RECORD_FORMAT, "version": RECORD_VERSION, "game": 0, "seed": data["seed"],
               "config": {"game": "spacemission", "num_players": state.num_players, "rules": state.rules,
                          "max_rounds": state.max_rounds},
               "lineup": None, "deal": None, "seating": None, "agents": agents, "actions": data["actions"],
               "scores": scores(state), "ranks": None, "winners": None, "rounds": state.round,
               "round_limit": state.round_limit, "forfeit": None, "unfinished": True}
    except ReplayError:
        raise
    except (KeyError, TypeError, IndexError, ValueError) as exc:
        raise ReplayError(f"{where}: not a readable saved game ({type(exc).__name__}: {cut_long_words(str(exc))})") from None
    _check_shape(rec, where)
    return rec


def _check_shape(rec, where: str) -> None:
    if not isinstance(rec, dict):
        raise ReplayError(f"{where}: a recorded game is a JSON object")
    if rec.get("format") != RECORD_FORMAT or not is_version(rec.get("version"), RECORD_VERSION):
        raise ReplayError(f"{where}: not a recorded game (format {json_shown(rec.get('format'))} version {json_shown(rec.get('version'))}; "
                          f"expected {json_shown(RECORD_FORMAT)} version {RECORD_VERSION})")
    for key in ("seed", "config", "actions", "scores"):
        if key not in rec:
            raise ReplayError(f"{where}: missing field {json_shown(key)}")
    cfg = rec["config"]
    if isinstance(cfg, dict) and cfg.get("game", "spacemission") != "spacemission":
        from ._protocol_games import check_record  # another game of the protocol

        check_record(rec, where)
        return _check_seat_fields(rec, where)
    if not isinstance(cfg, dict) or not set(CONFIG_FIELDS) <= set(cfg):
        raise ReplayError(f"{where}: config must hold num_players, rules and max_rounds")
    problem = record_config_problem(cfg, required=CONFIG_FIELDS)
    if problem:
        raise ReplayError(f"{where}: config: {problem}")
    seed = rec["seed"]
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**64:
        raise ReplayError(f"{where}: seed must be an integer in [0, 2**64), got {json_shown(seed)}")
    acts = rec["actions"]
    if not isinstance(acts, list) or not all(
            isinstance(a, list) and len(a) == 3 and all(map(is_int, a[:2]))
            and isinstance(a[2], str) for a in acts):
        raise ReplayError(f"{where}: actions must be a list of [seat, action id, label]")
    _check_seat_fields(rec, where)


def _check_seat_fields(rec: dict, where: str) -> None:
    """ReplayError naming the field unless the optional fields that replay shows per seat
    are absent, null or of their shape: ``agents`` a name per seat, ``ranks`` a rank per
    seat, ``winners`` seats, ``forfeit`` an object, ``unfinished`` true or false; and
    ``game``, the record's number (replay --game picks by it), an integer >= 0; ``start_player``
    a seat (the replayer checks it is the seed's). Each message shows the value as JSON, cut (json_shown)."""
    n = rec["config"]["num_players"]
    number = rec.get("game")
    if number is not None and not (is_int(number) and number >= 0):
        raise ReplayError(f"{where}: game must be the record's number, an integer >= 0, got {json_shown(number)}")
    agents, ranks, winners = rec.get("agents"), rec.get("ranks"), rec.get("winners")
    if agents is not None and not (isinstance(agents, list) and len(agents) == n
                                   and all(isinstance(a, str) for a in agents)):
        raise ReplayError(f"{where}: agents must be a list of {n} agent names (one per seat), got {json_shown(agents)}")
    if ranks is not None and not (isinstance(ranks, list) and len(ranks) == n and all(map(is_int, ranks))):
        raise ReplayError(f"{where}: ranks must be a list of {n} integers (one per seat), got {json_shown(ranks)}")
    if winners is not None and not (isinstance(winners, list)
                                    and all(is_int(q) and 0 <= q < n for q in winners)):
        raise ReplayError(f"{where}: winners must be a list of seats in 0..{n - 1}, got {json_shown(winners)}")
    forfeit = rec.get("forfeit")
    if forfeit is not None and not (isinstance(forfeit, dict) and is_int(forfeit.get("seat"))
                                    and 0 <= forfeit["seat"] < n):
        raise ReplayError(f"{where}: forfeit must be null or an object, got {json_shown(forfeit)} (an object with the "
                          f"forfeiting seat, in 0..{n - 1})")
    if rec.get("unfinished") not in (None, True, False):
        raise ReplayError(f"{where}: unfinished must be true or false, got {json_shown(rec['unfinished'])}")
    start = rec.get("start_player")
    if start is not None and not (is_int(start) and 0 <= start < n):
        raise ReplayError(f"{where}: start_player must be null or a seat in 0..{n - 1}, got {json_shown(start)}")


def check_forfeit(forfeit, over: bool, to_act: int, where: str) -> None:
    """ReplayError unless a recorded ``forfeit`` (null: none) is that of the seat to act where
    the actions end, before the game is over, as the arena records one (the game stops at
    the agent's bad answer): else a finished game's ranks and winners went unchecked."""
    if forfeit is None:
        return
    if over:
        raise ReplayError(f"{where}: records a forfeit by seat {forfeit['seat']}, but the recorded actions end the game")
    if forfeit["seat"] != to_act:
        raise ReplayError(f"{where}: records a forfeit by seat {forfeit['seat']}, but seat {to_act} is to act where "
                          f"the recorded actions end")


def recorded_totals(recorded) -> list:
    """The totals of a record's ``scores`` for a message, whatever their shape."""
    if not isinstance(recorded, list):
        return recorded
    return [x.get("total") if isinstance(x, dict) else x for x in recorded]


class Replayer:
    """Rebuilds a recorded game action by action with the reference engine, checking each
    recorded seat and label against the engine (``peek`` then ``step``) and, at the end,
    the recorded scores, ranks, winners and rounds (``finish``)."""

    def __init__(self, rec: dict, where: str):
        self.rec, self.where = rec, where
        cfg = rec["config"]
        self.state = new_game(cfg["num_players"], seed=rec["seed"], rules=cfg["rules"], max_rounds=cfg["max_rounds"])
        self.index = 0
        if rec.get("start_player") is not None and rec["start_player"] != self.state.start_player:
            raise ReplayError(f"{where}: recorded start player {json_shown(rec['start_player'])} but seed {rec['seed']} deals "
                              f"start player {self.state.start_player} (other components or engine version?)")

    @property
    def done(self) -> bool:
        return self.index >= len(self.rec["actions"])

    def peek(self) -> tuple[int, int, str]:
        """(seat, action, label) of the next recorded action, checked against the state."""
        seat, action, label = self.rec["actions"][self.index]
        s = self.state
        what = f"{self.where}: action {self.index + 1} of {len(self.rec['actions'])} (round {s.round})"
        if s.is_over:
            raise ReplayError(f"{what}: the game is already over, yet more actions are recorded")
        if seat != s.current_player:
            raise ReplayError(f"{what}: recorded for seat {seat}, but seat {s.current_player} is to act")
        if not 0 <= action < A.NUM_ACTIONS:
            raise ReplayError(f"{what}: action id {action} is out of range 0..{A.NUM_ACTIONS - 1} (recorded label {json_shown(label)})")
        if not is_legal(s, action):
            raise ReplayError(f"{what}: action {action} ({action_label(action, s)}) is not legal in the rebuilt game "
                              f"(recorded label {json_shown(label)})")
        expected = action_label(action, s)
        if expected != label:
            raise ReplayError(f"{what}: recorded label {json_shown(label)}, but the rebuilt game says {json_shown(expected)}")
        return seat, action, label

    def step(self) -> tuple[int, int, str]:
        seat, action, label = self.peek()
        apply(self.state, action)
        self.index += 1
        return seat, action, label

    def finish(self) -> list[str]:
        """Check the recorded result against the rebuilt end; returns what matched."""
        s, rec = self.state, self.rec
        if rec.get("unfinished"):
            if scores(s) != rec["scores"]:
                raise ReplayError(f"{self.where}: the saved game's actions do not lead to its state")
            return ["scores at the save"]
        if rec.get("forfeit") is None and not s.is_over:
            raise ReplayError(f"{self.where}: the recorded actions end in round {s.round}, before the game is over")
        check_forfeit(rec.get("forfeit"), s.is_over, s.current_player, self.where)
        checked = []
        if scores(s) != rec["scores"]:
            raise ReplayError(f"{self.where}: recorded scores {json_shown(recorded_totals(rec['scores']))} but the rebuilt "
                              f"game scores {[x['total'] for x in scores(s)]}")
        checked.append("scores")
        expect: dict[str, Any] = {"rounds": s.round, "round_limit": s.round_limit}
        if rec.get("forfeit") is None:
            expect.update(ranks=final_ranks(s), winners=winners(s))
        else:  # as the arena ranks a forfeit: that seat last, the others by their scores so far
            ranks = final_ranks(s, rec["forfeit"]["seat"])
            expect.update(ranks=ranks, winners=[q for q, r in enumerate(ranks) if r == 1])
        for key, value in expect.items():
            if key in rec:
                if rec[key] != value:
                    raise ReplayError(f"{self.where}: recorded {key} {json_shown(rec[key])} but the rebuilt game gives {json_shown(value)}")
                checked.append(key)
        return checked
