"""Outputs the docs show as captured from real runs are what the commands print now:

* docs/play.md's transcripts ("captured from a real piped run"): the session of "A session"
  (its bash block run as written, `spacemission` being this checkout's command) and the
  replay of the game it records. Every line of a transcript but the ``[...]`` ones that mark
  cut lines must appear in the output, in that order (a cut may hide any number of lines);
  trailing spaces are ignored;
* docs/red_planet/random_play.md's tables, which "are reproduced exactly by the command"
  (all but the two speed columns).
"""
from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys

import pytest
from tests.helpers.paths import ROOT, load_tool

PLAY_MD = ROOT / "docs" / "play.md"
RP_RANDOM_PLAY_MD = ROOT / "docs" / "red_planet" / "random_play.md"
FENCE = re.compile(r"^```(\w*)[ \t]*\n(.*?)^```[ \t]*$", flags=re.S | re.M)


def blocks_after(heading: str) -> list[tuple[str, str]]:
    """(language, body) of the fenced blocks after the heading line, in order."""
    text = PLAY_MD.read_text()
    start = re.search(rf"^{re.escape(heading)}[ \t]*$", text, flags=re.M).end()
    return [(m.group(1), m.group(2)) for m in FENCE.finditer(text) if m.start() > start]


def missing_lines(doc: str, out: str) -> list[str]:
    """The doc's lines (cut markers and blank lines left out) not found in ``out`` in order."""
    lines = [ln.rstrip() for ln in out.splitlines()]
    at, missing = 0, []
    for want in (ln.rstrip() for ln in doc.splitlines()):
        if not want or re.fullmatch(r"\[\.\.\..*\]", want):
            continue
        try:
            at = lines.index(want, at) + 1
        except ValueError:
            missing.append(want)
    return missing


def test_missing_lines_finds_drift():
    assert missing_lines("a\n[... cut ...]\nc\n", "a\nb\nc  \n") == []
    assert missing_lines("a\nc\n", "c\na\n") == ["c"]  # out of order


def _shell(script: str, cwd) -> subprocess.CompletedProcess:
    """Run a documented bash block with `spacemission` as this checkout's command."""
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(str(ROOT / p) for p in ("agents", "training", ".")))
    command = f"spacemission() {{ {shlex.quote(sys.executable)} -m spacemission_cli \"$@\"; }}\n{script}"
    return subprocess.run(["bash", "-c", command], cwd=cwd, env=env, capture_output=True, text=True, timeout=300)


@pytest.fixture(scope="module")
def session(tmp_path_factory):
    """The documented session, run in a folder of its own: (its folder, its output)."""
    (lang, script), (out_lang, transcript) = blocks_after("### A session")[:2]
    assert (lang, out_lang) == ("bash", "text"), "the session's command and transcript blocks moved"
    folder = tmp_path_factory.mktemp("session")
    done = _shell(script, folder)
    assert done.returncode == 0, done.stderr[-2000:]
    return folder, done.stdout, transcript


def test_the_play_session_is_verbatim(session):
    _, out, transcript = session
    assert transcript.count("\n") > 100, "the transcript block is (nearly) empty: did the pattern break?"
    assert missing_lines(transcript, out) == []


def test_the_replay_of_the_session_is_verbatim(session):
    folder, _, _ = session
    blocks = blocks_after("## Replays")
    script = next(body for lang, body in blocks if lang == "bash" and "--to-png" in body and "[" not in body)
    transcript = next(body for lang, body in blocks if lang == "text" and body.startswith("Game 0"))
    done = _shell(script, folder)
    assert done.returncode == 0, done.stderr[-2000:]
    assert missing_lines(transcript, done.stdout) == []
    assert (folder / "frames" / "turn_0000.png").is_file()


def _cells(table_line: str) -> tuple[str, ...]:
    """A table row's cells; a row of the lengths table (8 cells) without its two speeds."""
    cells = tuple(c.strip() for c in table_line.strip().strip("|").split("|"))
    return cells[:6] if len(cells) == 8 else cells


def test_red_planet_random_play_tables_are_reproduced():
    tool = load_tool("red_planet_random_play", folder="benchmarks")
    printed = tool.markdown([tool.measure(n, 1000) for n in (3, 4, 5)])
    page = RP_RANDOM_PLAY_MD.read_text()
    rows = [ln for ln in printed.splitlines() if ln.startswith("|") and not ln.startswith("|---")]
    assert len(rows) > 15, printed
    shown = {_cells(ln) for ln in page.splitlines() if ln.startswith("|")}
    assert [row for row in rows if _cells(row) not in shown] == []
