"""``spacemission replay``: step through a recorded game (docs/play.md): every move in words
and the board, as everyone or as one seat saw it."""
from __future__ import annotations

import argparse
import sys

from ._args import UsageParser, int_arg

EXAMPLE = """examples:
  spacemission replay results/games.jsonl --game 3              every move and the board after each turn
  spacemission replay my_games.jsonl --seat 0 --step            as seat 0 saw it, Enter between turns
  spacemission replay results/games.jsonl --to-png frames/      plus a picture of the board per turn
  spacemission replay rp/games.jsonl --seat 2 --step             a Red Planet game as seat 2 saw it, n / b / q

FILE holds recorded games as JSON lines: the games.jsonl of 'spacemission arena --out DIR' or
the file of 'spacemission play --record FILE', or a game saved unfinished with play's
'save FILE'. The game is the record's config.game (records without it are Space Mission's). Each game is rebuilt with the reference engine
from its seed, configuration and actions; every recorded label and the final result are
checked, and a game that does not replay is reported with the action where it parts."""

BOARDS = ("turn", "round", "action", "end")


def record_number(text: str) -> int:
    """--game K: the record's number. A game's name, as play and arena take it, is refused
    with what --game means here (before: 'expected an integer, got 'red_planet'')."""
    from spacemission_env.games import GAMES

    if text.strip() in GAMES:
        raise argparse.ArgumentTypeError(
            f"{text!r} is a game's name, but replay's --game K is the number of a recorded game in FILE (its "
            f"'game' field): each record says which game it is (config.game), so no name is needed")
    return int_arg(text)


def build_parser() -> argparse.ArgumentParser:
    ap = UsageParser(prog="spacemission replay", description="Step through a recorded game: every move in words and the board, as everyone or as one seat saw it.",
                     epilog=EXAMPLE, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("file", metavar="FILE", help="recorded games, JSON lines")
    ap.add_argument("--game", type=record_number, metavar="K", help="the game numbered K in the file (its 'game' field; default: the first). A number, "
                         "not a game's name as in play and arena: each record says which game it is")
    ap.add_argument("--line", type=int_arg, metavar="N",
                    help="the game on line N of the file instead (for files joined from several runs, whose game numbers repeat)")
    ap.add_argument("--seat", type=int_arg, metavar="S",
                    help="show only what seat S could see: its own observation (the rule set's table view); "
                         "a finished game ends face up, as it does in play")
    ap.add_argument("--boards", choices=BOARDS,
                    help="when to show the board: after every turn (default; Red Planet: round), round, action, "
                         "or only at the start and end")
    ap.add_argument("--step", action="store_true", help="wait for Enter after each board (needs a terminal on stdin; "
                    "Red Planet: walk the turns forward and back, n / b / q, from a terminal or piped lines)")
    ap.add_argument("--to-png", metavar="DIR", help="write the board picture of the start and of every turn to DIR")
    return ap


def _first_ten(items) -> str:
    items = list(items)
    return ", ".join(map(str, items[:10])) + (", ..." if len(items) > 10 else "")


def _select(records: list, game: int | None, line: int | None, ap: argparse.ArgumentParser, path: str) -> tuple[int, dict]:
    if game is not None and line is not None:
        ap.error("argument --line: not allowed with argument --game (each picks one game)")
    if line is not None:
        for found in records:
            if found[0] == line:
                return found
        ap.error(f"argument --line: no recorded game on line {line} of {path}; games are on lines "
                 f"{_first_ten(n for n, _ in records)}")
    if game is None:
        return records[0]
    matches = [found for found in records if found[1].get("game") == game]
    if len(matches) > 1:  # files joined from several runs: the number alone does not say which
        ap.error(f"argument --game: {len(matches)} games are numbered {game} in {path} "
                 f"(lines {_first_ten(n for n, _ in matches)}); pick one with --line N")
    if matches:
        return matches[0]
    ap.error(f"argument --game: no game {game} in {path}; it holds games {_first_ten(r.get('game') for _, r in records)}")


def _seat_totals(s, seat: int, V) -> str:
    """The scores of an unfinished game as ``seat`` can count them (its table view): its own
    total, and the public points (jump gate and stations) of the others."""
    view = V.state_view(s, seat)
    return " | ".join(f"{V.COLOUR_NAMES[sv.seat]} " + (f"{sv.score['total']}" if sv.seat == seat else f"{sv.public_points} public")
                      for sv in sorted(view.seats, key=lambda sv: sv.seat))


def main(argv: list[str] | None = None) -> int:
    ap = build_parser()
    args = ap.parse_args(argv)
    from pathlib import Path

    from rich.console import Console

    from spacemission_env.space_mission.render import save_png

    from . import _view as V
    from ._games import Replayer, ReplayError, own_label, public_label, read_records

    try:
        records = read_records(args.file)
    except ReplayError as exc:
        ap.error(f"argument FILE: {exc}")
    line, rec = _select(records, args.game, args.line, ap, args.file)
    err = Console(stderr=True, highlight=False)
    from ._protocol_games import record_game

    if record_game(rec) != "spacemission":  # another game of the protocol (config.game)
        from . import _protocol_replay

        console = Console(highlight=False)
        if not console.is_terminal:
            console = Console(highlight=False, width=110)
        return _protocol_replay.run(args, ap, rec, line, console, err)
    if args.boards is None:
        args.boards = "turn"
    cfg = rec["config"]
    n = cfg["num_players"]
    if args.seat is not None and not 0 <= args.seat < n:
        ap.error(f"argument --seat: must be a seat in 0..{n - 1} for this {n}-player game, got {args.seat}")
    where = f"{args.file} line {line} (game {rec.get('game')})"
    try:  # check the whole game before showing any of it
        check = Replayer(rec, where)
        while not check.done:
            check.step()
        matched = check.finish()
    except ReplayError as exc:
        err.print(f"error: {exc}", markup=False, soft_wrap=True)
        return 1
    out_dir = None
    if args.to_png:
        out_dir = Path(args.to_png)
        try:
            out_dir.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            ap.error(f"argument --to-png: cannot create {out_dir}: {exc}")

    console = Console(highlight=False)
    if not console.is_terminal:
        console = Console(highlight=False, width=110)
    interactive = args.step and sys.stdin.isatty()
    if args.step and not interactive:
        err.print("--step needs a terminal on stdin: showing every move without waiting")
    agents = rec.get("agents") or [f"seat {q}" for q in range(n)]
    names = [str(a) for a in agents]
    seat = args.seat
    replay = Replayer(rec, where)
    s = replay.state
    console.print(f"Game {rec.get('game')} of {args.file} (line {line}): {n} players, rules {cfg['rules']}, "
                  f"round limit {cfg['max_rounds']}, seed {rec['seed']}", markup=False,
                  soft_wrap=True)  # the file's path on one line
    console.print("Seats: " + ", ".join(V.styled(q, f"{V.COLOUR_NAMES[q]} = {names[q]}") for q in range(n))
                  + f"; {V.COLOUR_NAMES[s.start_player]} starts.")
    if seat is not None:
        console.print(f"Shown as {V.COLOUR_NAMES[seat]} (seat {seat}) saw it: its own observation, other players' "
                      "hands and tile types hidden.")
    pictures: list[Path] = []

    def show(label: str) -> bool:
        console.print()
        console.print(V.board(V.state_view(s, seat), names, title=f"Board {label}"))  # face up once over
        if interactive and not s.is_over:
            try:
                answer = input("Enter: next, q: stop> ")
            except EOFError:
                return False
            return answer.strip().lower() not in ("q", "quit")
        return True

    def picture() -> None:
        if out_dir is not None:
            path = out_dir / f"turn_{len(pictures):04d}.png"
            save_png(s, path, viewer=None if s.is_over else seat, compress_level=1)
            pictures.append(path)

    show("at the start")
    picture()
    round_shown = None
    while not replay.done:
        if s.round != round_shown:
            round_shown = s.round
            console.rule(f"round {s.round}", style="dim")
        q, action, _ = replay.peek()
        text = own_label(action, s) if seat is None or q == seat else public_label(action, s)
        before_round = s.round
        replay.step()
        console.print(f"  {V.styled(q, V.seat_name(q, names))}: {text}")
        turn_over = s.is_over or s.current_player != q or replay.done
        if turn_over:
            picture()
        round_over = s.round != before_round or s.is_over
        due = {"action": True, "turn": turn_over, "round": round_over, "end": False}[args.boards]
        title = (f"after round {before_round}" if args.boards == "round"
                 else f"after {V.COLOUR_NAMES[q]}'s {'turn' if turn_over else 'action'} (round {before_round})")
        if due and not replay.done and not show(title):
            console.print("stopped")
            return 0
    show("at the end" + (": every card and tile face up" if s.is_over and seat is not None else ""))
    forfeit = rec.get("forfeit")
    if forfeit:
        console.print(f"The game stopped here: {V.COLOUR_NAMES[forfeit['seat']]} ({forfeit.get('agent')}) forfeited: "
                      f"{forfeit.get('reason')}", markup=False)
    totals = " | ".join(f"{V.COLOUR_NAMES[q]} {sc['total']}" for q, sc in enumerate(rec["scores"]))
    won = ", ".join(V.COLOUR_NAMES[q] for q in rec.get("winners") or [])
    # a game that stopped before its end (saved, or forfeited in the arena) was never scored
    # openly: its scores count the tiles each seat holds, hidden from the others (R-I2, R-I4)
    stopped = (f"The game was saved unfinished here, in round {s.round}" if rec.get("unfinished") else
               f"It stopped in round {s.round}, before the final scoring" if forfeit else None)
    if stopped and seat is not None:
        console.print(f"{stopped}. Scores so far as {V.COLOUR_NAMES[seat]} could count them: "
                      f"{_seat_totals(s, seat, V)} (the others' tiles are hidden: their public points "
                      "are the jump gate and stations, R-P1, R-P2)")
    elif stopped:
        console.print(f"{stopped}. Scores so far: {totals}")
    if forfeit and won:
        console.print(f"Winner: {won} (the forfeiting seat ranks last, the others by their scores so far)")
    elif not stopped:
        console.print(f"Final scores: {totals}" + (f"; winner: {won}" if won else ""))
    console.print(f"The rebuilt game matches the record ({', '.join(matched)}; every action's seat and label).",
                  soft_wrap=True)
    if pictures:
        console.print(f"wrote {len(pictures)} pictures to {out_dir}/ (turn_0000.png ... {pictures[-1].name})",
                      markup=False, soft_wrap=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
