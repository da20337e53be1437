"""``spacemission replay`` of a record of any protocol game other than Space Mission (the game
read from the record's ``config.game``): the whole game is rebuilt and checked first, then
shown move by move with the board (the game's ``render_ansi_colours``, else its
``render_ansi``), as everyone saw it or, with ``--seat S``, as seat S saw it: its own view
of the board, and the other seats' hidden moves (Red Planet's commits and keeps) shown as such. ``--step`` walks the turns
forward and back at a prompt (Enter or n: next turn, b: back one turn, q: stop).

The replay is read by people: as in play, a game whose render module can write the seats by
their colours (``render_ansi_colours``, Red Planet's) names every seat by its colour in every
line ("red (random)", the board's "red:2", "blue's view", a move's "kill a yellow astronaut");
the recorded labels, which the rebuilt game is checked against, keep their own words."""
from __future__ import annotations

import copy
import sys

from ._protocol_games import RecordError, Replayer, SeatWords

STEP_HELP = "Enter or n: next turn, b: back one turn, q: stop"


def _rebuild(rec: dict, where: str, seat: int | None):
    """(states after 0..n actions, [(seat, shown text)] per action, what matched)."""
    check = Replayer(rec, where)
    states, moves = [copy.deepcopy(check.state)], []
    while not check.done:
        q, action, _ = check.peek()
        text = check.game.seat_label(action, check.state, seat)
        check.step()
        states.append(copy.deepcopy(check.state))
        moves.append((q, text))
    return check.game, states, moves, check.finish()


def run(args, ap, rec: dict, line: int, console, err) -> int:
    from rich.table import Table

    from ._prompt import Prompt

    n = rec["config"]["num_players"]
    if args.seat is not None and not 0 <= args.seat < n:
        ap.error(f"argument --seat: must be a seat in 0..{n - 1} for this {n}-player game, got {args.seat}")
    where = f"{args.file} line {line} (game {rec.get('game')})"
    seat = args.seat
    try:
        game, states, moves, matched = _rebuild(rec, where, seat)
    except RecordError as exc:
        err.print(f"error: {exc}", markup=False, soft_wrap=True)
        return 1
    words = SeatWords(game)  # as play: the seats by colour where the board can write them
    render, colours = words.render, words.colours
    out_dir = None
    if args.to_png:
        from pathlib import Path

        out_dir = Path(args.to_png)
        try:
            out_dir.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            ap.error(f"argument --to-png: cannot create {out_dir}: {exc}")
    names = [str(a) for a in (rec.get("agents") or [f"seat {q}" for q in range(n)])]
    colour, said = words.colour, words.said
    who = lambda q: words.who(q, names[q])

    console.print(f"Game {rec.get('game')} of {args.file} (line {line}): {game.description.title}, {n} players, "
                  f"seed {rec['seed']}", markup=False, soft_wrap=True)  # the file's path on one line
    console.print("Seats: " + ", ".join(who(q) for q in range(n)), markup=False)
    if seat is not None:
        as_who = f"{colour(seat)} (seat {seat})" if colours else f"seat {seat}"  # --seat's number beside the colour
        console.print(f"Shown as {as_who} saw it: its own view of the board; the other seats' hidden choices "
                      "stay hidden.", markup=False)

    # a finished game ends face up for every seat, as play and serve end it (M-I3: hidden "until
    # all is revealed at the end"); one saved unfinished or forfeited keeps the seat's view
    finished = game.rules.is_over(states[-1])

    def viewer(i: int) -> int | None:
        return None if finished and i == len(moves) else seat

    def board(i: int, title: str) -> None:
        console.print()
        console.print(f"Board {title}", markup=False)
        console.print(words.board(states[i], viewer(i)), markup=False, highlight=False, soft_wrap=True)

    # a turn: the actions of one seat in a row; turn_end[t] is the index after its last action
    turn_end = [i + 1 for i in range(len(moves)) if i + 1 == len(moves) or moves[i + 1][0] != moves[i][0]]
    turn_start = [0] + turn_end[:-1]
    pictures = []
    if out_dir is not None:
        for k, i in enumerate([0] + turn_end):
            path = out_dir / f"turn_{k:04d}.png"
            _save_picture(render.render_rgb(states[i], viewer=viewer(i)), path)
            pictures.append(path)

    def show_turn(t: int) -> None:
        for i in range(turn_start[t], turn_end[t]):
            console.print(f"  {who(moves[i][0])}: {said(moves[i][1])}", markup=False)

    board(0, "at the start")
    boards = args.boards or "round"
    if args.step:
        prompt, t = Prompt(sys.stdin), 0
        while t < len(turn_end):
            show_turn(t)
            i = turn_end[t]
            board(i, f"after turn {t + 1} of {len(turn_end)} (round {getattr(states[i], 'round', '?')})")
            answer = prompt.ask(console, f"{STEP_HELP}> ")
            if answer is None or answer.strip().lower() in ("q", "quit"):
                console.print("stopped")
                return 0
            if answer.strip().lower() in ("b", "back"):
                t = max(0, t - 1)
                console.print(f"back to turn {t + 1}", markup=False)
                continue
            t += 1
    else:
        for t in range(len(turn_end)):
            show_turn(t)
            i = turn_end[t]
            before = getattr(states[turn_start[t]], "round", None)
            round_over = getattr(states[i], "round", None) != before
            due = {"action": True, "turn": True, "round": round_over, "end": False}[boards]
            if due and i < len(moves):
                board(i, f"after {who(moves[i - 1][0])}'s turn (round {before})")
    board(len(moves), "at the end" + (": every card face up" if finished and seat is not None else ""))
    forfeit = rec.get("forfeit")
    if forfeit:  # an arena game stopped by an agent's bad answer: say so, as the Space Mission replay does
        console.print(f"The game stopped here: {colour(forfeit['seat'])} ({forfeit.get('agent')}) forfeited: "
                      f"{forfeit.get('reason')}", markup=False)
    # a game stopped before its end (saved, or forfeited in the arena) has no final scoring: its
    # recorded scores are checked against the rebuilt state's, which for Red Planet are the
    # counters only (ice bonus, discovery and bonus cards score at the end, M-P3), public to
    # every seat (M-I1), so a seat's replay shows every seat's as the game's does
    table = Table(title="Scores" + (" at the save (unfinished)" if rec.get("unfinished") else
                                    " at the forfeit (before the final scoring: counters so far)" if forfeit else ""))
    for col in ("player", *game.score_names, "rank"):
        table.add_column(col, justify="left" if col == "player" else "right")
    ranks = rec.get("ranks") or ["-"] * n
    for q, sc in enumerate(rec["scores"]):
        table.add_row(who(q), *(str(sc[k]) for k in game.score_names), str(ranks[q]))
    console.print(table)
    if rec.get("winners"):
        console.print("Winner" + ("s" if len(rec["winners"]) > 1 else "") + ": "
                      + ", ".join(who(q) for q in rec["winners"]), markup=False)
    console.print(f"The rebuilt game matches the record ({', '.join(matched)}; every action's seat and label).",
                  soft_wrap=True)
    if pictures:
        console.print(f"wrote {len(pictures)} pictures to {out_dir}/ (turn_0000.png ... {pictures[-1].name})",
                      markup=False, soft_wrap=True)
    return 0


def _save_picture(rgb, path) -> None:
    from PIL import Image

    Image.fromarray(rgb).save(path)
