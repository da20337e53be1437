"""Reading a person's answers: rich's prompt on a terminal, plain lines from a pipe.

From a pipe (tests, scripted sessions) each answer is echoed after its prompt, so that
the output reads as a transcript; the end of the input returns None (the caller leaves
the game cleanly instead of raising)."""
from __future__ import annotations


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
        console.print(text, end="")
        line = self.stream.readline()
        if not line:
            console.print()
            return None
        line = line.rstrip("\r\n")
        console.print(line, markup=False, highlight=False)
        return line
