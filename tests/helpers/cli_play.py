"""``spacemission play`` run in process with typed input: its exit status and output."""
from __future__ import annotations

import io
import sys


def run_play(argv, monkeypatch, capsys, text: str) -> tuple:
    """(exit status, stdout, stderr) of ``play.main(argv)`` reading ``text`` as the person's input."""
    from spacemission_cli import play

    monkeypatch.setattr(sys, "stdin", io.StringIO(text))
    try:
        code = play.main(argv)
    except SystemExit as exc:
        code = exc.code
    out = capsys.readouterr()
    return code, out.out, out.err
