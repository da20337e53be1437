"""Reading a person's answers: rich's prompt on a terminal, plain lines from a pipe.

From a pipe (tests, scripted sessions) each answer is echoed after its prompt, so that
the output reads as a transcript; the end of the input returns None (the caller leaves
the game cleanly instead of raising)."""
from __future__ import annotations

from pathlib import Path


class Prompt:
    def __init__(self, stream):
        self.stream = stream
        try:
            self.interactive = bool(stream.isatty())
        except (AttributeError, ValueError):
            self.interactive = False

    def ask(self, console, text: str) -> str | None:
        """The next answer without its line ending, or None at the end of the input.
        ``text`` is plain (no rich markup: "[y/N]" stays as it is)."""
        from rich.markup import escape

        text = escape(text)
        if self.interactive:
            try:
                return console.input(text)
            except EOFError:
                console.print()
                return None
        console.print(text, end="", soft_wrap=True)  # a question naming a path does not break it
        line = self.stream.readline()
        if not line:
            console.print()
            return None
        line = line.rstrip("\r\n")
        console.print(line, markup=False, highlight=False)
        return line


def may_write(session, path: str) -> bool:
    """Whether ``save`` may write ``path``: yes for a new file or the one this session last
    saved to; for another existing file, only when the person confirms (else "not saved");
    never a directory."""
    if Path(path).is_dir():
        session.console.print(f"not saved: {path} is a directory (save FILE takes a file's path)", markup=False,
                              soft_wrap=True)  # a path is not broken across lines
        return False
    if not Path(path).exists() or (session.saved is not None and session.saved[0] == path):
        return True
    answer = session.prompt.ask(session.console, f"{path} exists. Overwrite it? [y/N] ")
    if answer is not None and answer.strip().lower() in ("y", "yes"):
        return True
    session.console.print("not saved", markup=False)
    return False


def move_number(text: str) -> int | None:
    """The move number ``text`` is: decimal digits, not too many to convert (``str.isdigit``
    also takes '²', which ``int`` refuses, and ``int`` refuses thousands of digits); None
    for anything else, which is then matched as a label."""
    t = text.strip()
    if not t.isdecimal() or len(t) > 18:
        return None
    return int(t)


def next_command(session, moves, help_text: str) -> tuple[str, str, str] | None:
    """Ask ``session``'s person until they type something other than the commands every
    play session answers alike (help, board, moves, save): returns ``(command, rest,
    text)`` (the first word lower-cased, the rest of the line, the whole line), or None
    when the input ends. ``session`` has ``prompt``, ``console``, ``is_saved()``,
    ``show_board()``, ``show_moves(moves)`` and ``save(path)``."""
    console = session.console
    while True:
        text = session.prompt.ask(console, "your move> ")
        if text is None:
            console.print("end of input: leaving the game" + ("" if session.is_saved() else " (not saved)"))
            return None
        word, _, rest = text.strip().partition(" ")
        command = word.lower()
        if not command:
            continue
        if command in ("help", "?"):
            console.print(help_text, markup=False)
        elif command == "board":
            session.show_board()
        elif command == "moves":
            session.show_moves(moves)
        elif command == "save":
            session.save(rest.strip())
        else:
            return command, rest, text


def confirm_quit(play) -> bool:
    """Ask before leaving a game (play's ``quit``), saying whether it is saved; True to leave.
    ``play``: a play session (both games) with ``prompt``, ``console``, ``saved``,
    ``is_saved()`` and ``state.round``."""
    if play.is_saved():
        question = f"Leave the game? It is saved in {play.saved[0]}. [y/N] "
    else:
        question = "Leave the game? It is not saved ('save FILE' keeps it). [y/N] "
    answer = play.prompt.ask(play.console, question)
    if answer is None or answer.strip().lower() in ("y", "yes"):
        play.console.print(f"left the game in round {play.state.round}")
        if play.record:
            play.console.print(f"not recorded in {play.record}: only finished games are", markup=False, soft_wrap=True)
        return True
    play.console.print("going on")
    return False
